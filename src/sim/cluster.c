/* cluster.c: placeholder, filled in by its owner. */
typedef int cluster_placeholder;
