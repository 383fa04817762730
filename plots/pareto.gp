# pareto.gp: a plan's candidates per class, monthly cost against one figure: each class's
# simulated candidates as open points and its Pareto front (pareto.csv) as a line.
# Set above: datafile (per class two blocks: its front, then all its points; cost, figure),
# series (class names), chart_title, ylabel_text.
set title chart_title
set xlabel 'cost a month ($, 730 h)'
set ylabel ylabel_text
set offsets graph 0.03, graph 0.03, graph 0.05, 0
set yrange [0:*]
set key outside top center horizontal
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile index 2 * i - 1 using 1:2 with points lt i pt 6 ps 0.9 notitle, \
       for [i=1:|series|] datafile index 2 * i - 2 using 1:2 with linespoints lt i pt 7 ps 1.1 lw 2 title series[i]
}
unset output
