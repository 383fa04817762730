/* svg.h: small inline SVG charts for the HTML report (no script, no external resources):
 * a line chart of series over time and a horizontal stacked bar chart. Output is
 * deterministic (fixed number formatting, no timestamps); text is escaped for XML. */
#pragma once
#include <glib.h>

/* One line of a line chart: n points (x[i], y[i]), drawn solid or dashed. */
typedef struct svg_series {
  const char *label;  /* legend text */
  const char *colour; /* CSS colour, e.g. "#1f77b4" */
  gboolean dashed;
  const double *x, *y;
  guint n;
} svg_series;

typedef struct svg_line_chart {
  const char *title;   /* aria label and <title> */
  const char *y_label; /* "share of GPUs (%)" */
  double y_max;        /* upper end of the y axis; <= 0: from the data */
  /* x axis: seconds from x0, ticked on whole minutes, hours or days (at most 8 ticks); with
   * start_unix >= 0 they are UTC dates and times ("Nov 03", "14:00"), else "day 2", "6 h" */
  double start_unix;
  int width, height;   /* pixels; 0 = 760 x 260 */
} svg_line_chart;

/* Appends an <svg> line chart of the series. */
void svg_line(GString *out, const svg_line_chart *c, const svg_series *series, guint n_series);

/* One bar of a stacked bar chart: segments in order, each with its own value. */
typedef struct svg_bar {
  const char *label;            /* left of the bar */
  const double *values;         /* n_segments values (NAN or <= 0: no segment) */
} svg_bar;

/* Appends an <svg> of horizontal stacked bars (one row per bar, a legend of the segment
 * names and colours), each bar ending with its total formatted by money (TRUE: "$1,234")
 * or as a plain number with unit. */
void svg_bars(GString *out, const char *title, const svg_bar *bars, guint n_bars,
              const char *const *segment_names, const char *const *segment_colours,
              guint n_segments, gboolean money, const char *unit);

/* XML text escaping (&, <, >, ", '), with control characters replaced by '?'. */
void svg_escape(GString *out, const char *text);
/* "$12,345" (no cents at or above $1,000), "$12.34" below; "-$5" for negatives. */
void svg_money(GString *out, double v);
/* Integer part with thousands separators: 12345.6 -> "12,346". */
void svg_thousands(GString *out, double v);
/* A palette colour for index i (stable). */
const char *svg_colour(guint i);
