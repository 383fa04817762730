# compare-faults.gp: out-of-memory kills, their innocent victims and crashes per scenario.
# Set above: datafile (scenario number, OOM kills, innocent victims, crashes), series
# (scenario names), chart_title.
set title chart_title
set ylabel 'events over the run'
set yrange [0:*]
# counts: whole-number ticks (no "half a kill" on small axes)
stats datafile using 2 nooutput
m = STATS_max
stats datafile using 3 nooutput
m = STATS_max > m ? STATS_max : m
stats datafile using 4 nooutput
m = STATS_max > m ? STATS_max : m
if (m < 8) { set ytics 1; set yrange [0:(m < 1 ? 1 : m + 1)] }
set format y '%.0f'
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
