/* workload-inference.c: placeholder, filled in by its owner. */
typedef int workload_inference_placeholder;
