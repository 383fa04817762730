/* gen-mixed.c: placeholder, filled in by its owner. */
typedef int gen_mixed_placeholder;
