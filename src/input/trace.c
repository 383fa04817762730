/* trace.c: placeholder, filled in by its owner. */
typedef int trace_placeholder;
