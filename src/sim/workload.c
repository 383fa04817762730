/* workload.c: placeholder, filled in by its owner. */
typedef int workload_placeholder;
