/* pqueue.c: placeholder, filled in by its owner. */
typedef int pqueue_placeholder;
