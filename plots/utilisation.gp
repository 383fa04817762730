# utilisation.gp: the share of the GPUs allocated to jobs, busy (some kernel running,
# like DCGM's GPU_UTIL) and SM-active (share of SMs busy, like PROF_SM_ACTIVE) over time.
# Set above: datafile (time, allocated %, busy %, SM-active %), chart_title, time_label.
set title chart_title
set xlabel time_label
set ylabel 'share of the GPUs (%)'
set yrange [0:*]
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using 1:2 with lines lt 1 title 'allocated', \
       datafile using 1:3 with lines lt 2 title 'busy', \
       datafile using 1:4 with lines lt 3 title 'SM-active'
}
unset output
