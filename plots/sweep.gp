# sweep.gp: one figure across the swept value (the first --set key), one line per value
# of the other keys.
# Set above: files (one per line: swept value, figure), series (line names), chart_title,
# xlabel_text, ylabel_text.
set title chart_title
set xlabel xlabel_text
set ylabel ylabel_text
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] files[i] using 1:2 with linespoints lt i title series[i]
}
unset output
