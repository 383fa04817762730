/* report-json.c: placeholder, filled in by its owner. */
typedef int report_json_placeholder;
