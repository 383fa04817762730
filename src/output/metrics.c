/* metrics.c: placeholder, filled in by its owner. */
typedef int metrics_placeholder;
