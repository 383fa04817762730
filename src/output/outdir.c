/* outdir.c: placeholder, filled in by its owner. */
typedef int outdir_placeholder;
