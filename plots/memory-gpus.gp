# memory-gpus.gp: memory in use on each GPU over time as a heat map (from dcgm.csv of
# run --dcgm): x time, y GPU as pool/node/gpu, colour the share of the GPU's memory
# (or GB when a GPU model is unknown). Each cell is the highest sample of its time span.
# Set above: datafile (time, GPU row, value; one block per GPU), gpus (labels, row
# order), chart_title, time_label, cb_label, share (1: values in %), half_width (half a
# cell in time units), n_buckets.
set title chart_title
set xlabel time_label
set ylabel 'GPU (pool/node/gpu)'
set cblabel cb_label
set yrange [|gpus|+0.5:0.5]
set offsets 0, 0, 0, 0
unset grid
set tics out
set palette defined (0 '#f7fbff', 0.4 '#6baed6', 0.75 '#fd8d3c', 1 '#a50f15')
if (share) { set cbrange [0:100] } else { set cbrange [0:*] }
# one label per row, thinned so that they stay readable at this height
step = int(ceil(|gpus| * 14.0 / height))
step = step < 1 ? 1 : step
set ytics () font ',8'
do for [i=1:|gpus|:step] { set ytics add (gpus[i] i) }
do for [f in formats] {
  load 'terminal.gp'
  if (|gpus| > 1 && n_buckets > 1) {
    plot datafile using 1:2:3 with image
  } else {
    plot datafile using 1:2:(half_width):(0.5):3 with boxxyerror fc palette fs solid 1.0 noborder
  }
}
unset output
