/* gen.c: placeholder, filled in by its owner. */
typedef int gen_placeholder;
