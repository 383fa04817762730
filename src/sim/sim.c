/* sim.c: placeholder, filled in by its owner. */
typedef int sim_placeholder;
