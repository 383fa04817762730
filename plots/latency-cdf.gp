# latency-cdf.gp: the distribution of request latency per inference service, from
# latency.csv (the latency histogram's bucket edges): the share of served requests that
# took less than x. Dots mark the SLO targets (latency, share) of services that have one.
# Set above: datafile (one block per service: latency ms, cumulative share %; then, when
# n_slo > 0, one block of SLO targets: latency ms, share %, service number), series
# (service names), n_slo, chart_title.
set title chart_title
set xlabel 'request latency (ms, log scale)'
set ylabel 'requests served at most this fast (%)'
set logscale x
set yrange [0:100]
set key bottom right
do for [f in formats] {
  load 'terminal.gp'
  if (n_slo > 0) {
    plot for [i=1:|series|] datafile index (i-1) using 1:2 with lines lt i title series[i], \
         datafile index |series| using 1:2:3 with points pt 7 ps 1.5 lc variable title 'SLO target'
  } else {
    plot for [i=1:|series|] datafile index (i-1) using 1:2 with lines lt i title series[i]
  }
}
unset output
