# showback.gp: each tenant's share of the cost, by the GPU time allocated to its jobs
# (the largest tenants; the rest summed as 'other tenants').
# Set above: datafile (tenant number, cost $), series (tenant names), chart_title.
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
  plot datafile using 1:2 with boxes lt 1 notitle, \
       datafile using 1:2:(sprintf('$%.0f', $2)) with labels offset 0,0.8 notitle
}
unset output
