# compare-wait.gp: queue wait per scenario (mean and 95th percentile, jobs that started).
# Set above: datafile (scenario number, mean, p95, in wait_label's unit), series
# (scenario names), chart_title, wait_label.
set title chart_title
set ylabel wait_label
set yrange [0:*]
set xrange [0.4:|series|+0.6]
set xtics (series[1] 1)
do for [i=2:|series|] { set xtics add (series[i] i) }
set boxwidth 0.35
set key outside top center horizontal
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using ($1-0.19):2 with boxes lt 1 title 'mean', \
       datafile using ($1+0.19):3 with boxes lt 2 title '95th percentile'
}
unset output
