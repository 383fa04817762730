# compare-utilisation.gp: allocated, busy and SM-active share of the GPUs per scenario.
# Set above: datafile (scenario number, allocated %, busy %, SM-active %), series
# (scenario names), chart_title.
set title chart_title
set ylabel 'share of the GPUs over the run (%)'
set yrange [0:*]
set xrange [0.4:|series|+0.6]
set xtics (series[1] 1)
do for [i=2:|series|] { set xtics add (series[i] i) }
set boxwidth 0.25
set key outside top center horizontal
do for [f in formats] {
  load 'terminal.gp'
  plot datafile using ($1-0.27):2 with boxes lt 1 title 'allocated', \
       datafile using 1:3 with boxes lt 2 title 'busy', \
       datafile using ($1+0.27):4 with boxes lt 3 title 'SM-active', \
       datafile using ($1-0.27):2:(sprintf('%.0f %%', $2)) with labels offset 0,0.7 notitle, \
       datafile using 1:3:(sprintf('%.0f %%', $3)) with labels offset 0,0.7 notitle, \
       datafile using ($1+0.27):4:(sprintf('%.0f %%', $4)) with labels offset 0,0.7 notitle
}
unset output
