/* workload-training.c: placeholder, filled in by its owner. */
typedef int workload_training_placeholder;
