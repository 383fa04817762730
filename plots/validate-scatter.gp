# validate-scatter.gp: each pair set of `sharesim validate` (validate-scatter.csv) as
# predicted against measured points, beside the line predicted = measured.
# Set above: datafile (set number, measured, predicted), series (set names), chart_title.
set title chart_title
set xlabel 'measured'
set ylabel 'predicted by sharesim'
set size ratio -1
set key outside top center horizontal
stats datafile using 2:3 nooutput
lo = STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y
hi = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
pad = (hi - lo) * 0.05 + 1e-9
set xrange [lo - pad:hi + pad]
set yrange [lo - pad:hi + pad]
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using ($1 == i ? $2 : NaN):3 with points pt 7 ps 0.6 title series[i], \
       x with lines lt -1 dt 2 title 'predicted = measured'
}
unset output
