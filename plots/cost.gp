# cost.gp: what each pool cost over the run, split into busy GPU time, allocated but idle
# GPU time, and GPU time not allocated at all (the idle spend).
# Set above: datafile (pool number, busy $, allocated-not-busy $, not allocated $), series
# (pool names), chart_title.
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
       datafile using 1:2 with boxes lt 1 title 'busy'
}
unset output
