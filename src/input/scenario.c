/* scenario.c: placeholder, filled in by its owner. */
typedef int scenario_placeholder;
