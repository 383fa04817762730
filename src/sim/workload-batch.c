/* workload-batch.c: placeholder, filled in by its owner. */
typedef int workload_batch_placeholder;
