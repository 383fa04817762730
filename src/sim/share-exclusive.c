/* share-exclusive.c: placeholder, filled in by its owner. */
typedef int share_exclusive_placeholder;
