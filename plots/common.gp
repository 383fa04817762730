# common.gp: the style every chart of this folder shares (written by sharesim plot from
# plots/common.gp). Edit it to restyle all the charts, then rerun 'gnuplot NAME.gp' here.
set encoding utf8
set datafile missing 'NaN'
set grid ytics lc rgb '#dddddd' lw 1 dt 1
set border 3 lc rgb '#555555'
set tics nomirror
set key noautotitle
set style fill solid 0.85 border -1
set boxwidth 0.8
# eight colours (matplotlib's tab10), thick lines
set linetype 1 lc rgb '#1f77b4' lw 2 pt 7
set linetype 2 lc rgb '#ff7f0e' lw 2 pt 7
set linetype 3 lc rgb '#2ca02c' lw 2 pt 7
set linetype 4 lc rgb '#d62728' lw 2 pt 7
set linetype 5 lc rgb '#9467bd' lw 2 pt 7
set linetype 6 lc rgb '#8c564b' lw 2 pt 7
set linetype 7 lc rgb '#7f7f7f' lw 2 pt 7
set linetype 8 lc rgb '#17becf' lw 2 pt 7
set linetype cycle 8
# a run placed at a date (scenario start:, or a trace's submit_utc): time is in Unix
# seconds, drawn as UTC dates
if (exists('time_dated')) { set xdata time; set timefmt '%s'; set format x "%b %d\n%H:%M" }
