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
  # each line its own colour, point type and dash, drawn slightly thinner in turn, so that
  # lines on top of each other stay visible
  plot for [i=1:|series|] files[i] using 1:2 with linespoints lt i pt 1 + i % 13 ps 1.2 dt 1 + (i - 1) % 5 lw 2.6 - 0.3 * ((i - 1) % 4) title series[i]
}
unset output
