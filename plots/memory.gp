# memory.gp: GPU memory in use per pool over time against the pool's capacity (GPUs x
# memory per GPU; missing when the GPU model is unknown).
# Set above: datafile (time, then per pool: used GB, capacity GB), series (pool names),
# chart_title, time_label.
set title chart_title
set xlabel time_label
set ylabel 'GPU memory (GB)'
set yrange [0:*]
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using 1:(column(2*i)) with lines lt i title series[i].' in use', \
       for [i=1:|series|] datafile using 1:(column(2*i+1)) with lines lt i dt 2 title series[i].' capacity'
}
unset output
