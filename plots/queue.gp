# queue.gp: jobs waiting in each pool's queue over time (mean over each interval).
# Set above: datafile (time, then one column per pool), series (pool names), chart_title,
# time_label.
set title chart_title
set xlabel time_label
set ylabel 'queued jobs'
set yrange [0:*]
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using 1:(column(i+1)) with lines lt i title series[i]
}
unset output
