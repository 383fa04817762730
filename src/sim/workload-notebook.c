/* workload-notebook.c: placeholder, filled in by its owner. */
typedef int workload_notebook_placeholder;
