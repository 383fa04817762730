# wait.gp: the distribution of queue waits per pool (jobs that started): the share of
# jobs that waited at most x.
# Set above: files (one per pool: wait, cumulative share %), series (pool names),
# chart_title, wait_label.
set title chart_title
set xlabel wait_label
set ylabel 'jobs that waited at most this long (%)'
set yrange [0:100]
set xrange [0:*]
set key bottom right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] files[i] using 1:2 with steps lt i title series[i]
}
unset output
