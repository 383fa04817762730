# slo.gp: the inference SLO per pool over time, from the SLO column of timeseries.csv
# (attainment in %, or violations, as the result folder reports it).
# Set above: datafile (time, then one column per pool), series (pool names), chart_title,
# time_label, ylabel_text.
set title chart_title
set xlabel time_label
set ylabel ylabel_text
set key bottom right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using 1:(column(i+1)) with lines lt i title series[i]
}
unset output
