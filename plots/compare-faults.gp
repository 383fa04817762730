# compare-faults.gp: out-of-memory kills, their innocent victims and crashes per scenario.
# Set above: datafile (scenario number, OOM kills, innocent victims, crashes), series
# (scenario names), chart_title.
set title chart_title
set ylabel 'events over the run'
set yrange [0:*]
set xrange [0.4:|series|+0.6]
set xtics (series[1] 1)
do for [i=2:|series|] { set xtics add (series[i] i) }
set boxwidth 0.25
set key outside top center horizontal
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using ($1-0.27):2 with boxes lt 4 title 'OOM kills', \
       datafile using 1:3 with boxes lt 2 title 'innocent victims', \
       datafile using ($1+0.27):4 with boxes lt 5 title 'crashes'
}
unset output
