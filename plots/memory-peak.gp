# memory-peak.gp: the peak memory in use on each GPU (pool order), against the memory
# of one GPU: bars that reach the dashed line are where out-of-memory kills come from.
# Set above: datafile (GPU number, peak GB, pool number, GPU memory GB), series (pool
# names), chart_title.
set title chart_title
set xlabel 'GPU (pool, node, index order)'
set ylabel 'peak memory in use (GB)'
set yrange [0:*]
set boxwidth 0.9 relative
set key top right
do for [f in formats] {
  load 'terminal.gp'
  plot for [i=1:|series|] datafile using 1:(column(3) == i ? column(2) : NaN) with boxes lt i title series[i], \
       datafile using 1:4 with lines lt 7 dt 2 title 'memory of one GPU'
}
unset output
