/* catalog.c: placeholder, filled in by its owner. */
typedef int catalog_placeholder;
