/* nvconfig.c: placeholder, filled in by its owner. */
typedef int nvconfig_placeholder;
