# showback.gp: each tenant's share of the cost, by the GPU time allocated to its jobs
# (the largest tenants; the rest summed as 'other tenants'), and in grey the idle capacity
# no tenant was charged for, so that the bars add up to the set-up's cost.
# Set above: datafile (bar number, cost $, 1 tenant / 2 idle), series (bar names), chart_title.
set title chart_title
set ylabel 'showback ($)'
set yrange [0:*]
set xrange [0.4:|series|+0.6]
set xtics (series[1] 1) rotate by -30
do for [i=2:|series|] { set xtics add (series[i] i) }
set boxwidth 0.6
set bmargin 6
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using 1:($3 == 1 ? $2 : 1/0) with boxes lt 1 notitle, \
       datafile using 1:($3 == 2 ? $2 : 1/0) with boxes fs solid 0.5 lc rgb '#b0b0b0' notitle, \
       datafile using 1:2:(sprintf('$%.0f', $2)) with labels offset 0,0.8 notitle
}
unset output
