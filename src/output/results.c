/* results.c: placeholder, filled in by its owner. */
typedef int results_placeholder;
