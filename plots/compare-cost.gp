# compare-cost.gp: the cost of each scenario split into busy GPU time, allocated but idle
# GPU time and GPU time not allocated (the idle spend); the label is the saving against
# the baseline (the first scenario), or the extra cost when it costs more.
# Set above: datafile (scenario number, busy $, allocated-not-busy $, not allocated $,
# saving $), series (scenario names), chart_title.
set title chart_title
set ylabel 'cost ($)'
set yrange [0:*]
set xrange [0.4:|series|+0.6]
set xtics (series[1] 1)
do for [i=2:|series|] { set xtics add (series[i] i) }
set boxwidth 0.6
set key outside top center horizontal
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using 1:($2+$3+$4) with boxes lt 7 title 'not allocated (idle spend)', \
       datafile using 1:($2+$3) with boxes lt 2 title 'allocated, not busy', \
       datafile using 1:2 with boxes lt 1 title 'busy', \
       datafile using 1:($2+$3+$4):($1 == 1 ? 'baseline' : $5 >= 0 ? sprintf('saves $%.0f', $5) : sprintf('costs $%.0f more', -$5)) with labels offset 0,0.8 notitle
}
unset output
