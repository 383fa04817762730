/* report-text.c: placeholder, filled in by its owner. */
typedef int report_text_placeholder;
