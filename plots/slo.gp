# slo.gp: the inference SLO per pool over time, from the SLO column of timeseries.csv
# (attainment in %, or requests over their SLO), for the pools that host services only.
# Set above: datafile (time, then one column per pool), series (all pool names), colnums
# (the data columns of the pools drawn, e.g. "2 4"), shown (their names), chart_title,
# time_label, ylabel_text.
set title chart_title
set xlabel time_label
set ylabel ylabel_text
set yrange [0:*]
set key bottom right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:words(colnums)] datafile using 1:(column(word(colnums, i) + 0)) with lines lt i title shown[i]
}
unset output
