/* report-csv.c: placeholder, filled in by its owner. */
typedef int report_csv_placeholder;
