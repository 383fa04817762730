# latency.gp: request latency distribution per inference service, drawn through the
# percentiles services.csv reports (p50, p95, p99, ...).
# Set above: datafile (percentile %, then one latency column per service in ms), series
# (service names), chart_title.
set title chart_title
set xlabel 'request latency (ms)'
set ylabel 'requests served at most this fast (%)'
set yrange [0:100]
set xrange [0:*]
set key bottom right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using (column(i+1)):1 with linespoints lt i title series[i]
}
unset output
