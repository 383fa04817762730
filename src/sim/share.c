/* share.c: placeholder, filled in by its owner. */
typedef int share_placeholder;
