/* engine.c: placeholder, filled in by its owner. */
typedef int engine_placeholder;
