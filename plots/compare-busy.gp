# compare-busy.gp: busy (solid) and allocated (dashed) share of all GPUs over time, one
# colour per scenario: the picture of what sharing changes.
# Set above: files (one per scenario: time, busy %, allocated %), series (scenario
# names), chart_title, time_label.
set title chart_title
set xlabel time_label
set ylabel 'share of all GPUs (%)'
set yrange [0:*]
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] files[i] using 1:2 with lines lt i title series[i].' busy', \
       for [i=1:|series|] files[i] using 1:3 with lines lt i lw 1 dt 2 title series[i].' allocated'
}
unset output
