/* svg.c: the inline SVG charts of the HTML report (svg.h): axes with round ticks, dated or
 * day-numbered time axes ticked on whole minutes, hours or days, line series (solid or dashed) and stacked bars, plus the number
 * and text formatting they share with the page. It reads nothing and writes only strings. */
#include "svg.h"
#include <math.h>
#include <string.h>
#include <time.h>

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

const char *svg_colour(guint i) { return palette[i % G_N_ELEMENTS(palette)]; }

void svg_escape(GString *out, const char *text) {
  for (const char *p = text ? text : ""; *p; p++) {
    switch (*p) {
    case '&': g_string_append(out, "&amp;"); break;
    case '<': g_string_append(out, "&lt;"); break;
    case '>': g_string_append(out, "&gt;"); break;
    case '"': g_string_append(out, "&quot;"); break;
    case '\'': g_string_append(out, "&#39;"); break;
    default: g_string_append_c(out, (unsigned char)*p < 0x20 ? '?' : *p); break;
    }
  }
}

void svg_thousands(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "-");
    return;
  }
  if (v < 0) g_string_append_c(out, '-');
  char digits[320]; /* every digit of the largest double */
  g_snprintf(digits, sizeof digits, "%.0f", fabs(v));
  size_t n = strlen(digits);
  for (size_t i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0) g_string_append_c(out, ',');
    g_string_append_c(out, digits[i]);
  }
}

void svg_money(GString *out, double v) {
  if (!isfinite(v)) {
    g_string_append(out, "-");
    return;
  }
  if (v < 0) g_string_append_c(out, '-');
  g_string_append_c(out, '$');
  double a = fabs(v);
  if (a >= 1000 || a == floor(a)) svg_thousands(out, a);
  else g_string_append_printf(out, "%.2f", a);
}

/* A round step for about n ticks over span: 1, 2 or 5 times a power of ten. */
static double nice_step(double span, int n) {
  if (!(span > 0)) return 1;
  double raw = span / n, p = pow(10, floor(log10(raw))), f = raw / p;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* Numbers on axes: integers plainly, else up to 3 significant digits. */
static void axis_num(GString *out, double v) {
  if (fabs(v - round(v)) < 1e-9) svg_thousands(out, round(v));
  else g_string_append_printf(out, "%.3g", v);
}

typedef struct frame {
  double x0, x1, y1;            /* data ranges (y from 0) */
  double left, right, top, bottom; /* plot area in pixels */
} frame;

static double px(const frame *f, double x) {
  return f->left + (x - f->x0) / (f->x1 - f->x0) * (f->right - f->left);
}
static double py(const frame *f, double y) {
  return f->bottom - y / f->y1 * (f->bottom - f->top);
}

/* One time tick's label at absolute second a (a Unix time when dated): dates on whole days,
 * "14:00" between them (the first tick dated as well); undated: "day 2", "6 h", "30 min". */
static void time_label(GString *out, double a, double step, gboolean dated, gboolean first) {
  if (dated) {
    static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    time_t t = (time_t)a;
    struct tm tm;
    gmtime_r(&t, &tm);
    gboolean midnight = tm.tm_hour == 0 && tm.tm_min == 0;
    if (midnight || first) g_string_append_printf(out, "%s %02d", mon[tm.tm_mon], tm.tm_mday);
    if (!midnight) g_string_append_printf(out, "%s%02d:%02d", first ? " " : "", tm.tm_hour,
                                          tm.tm_min);
  } else if (step >= 86400) {
    g_string_append(out, "day ");
    axis_num(out, a / 86400);
  } else if (step >= 3600) {
    axis_num(out, a / 3600);
    g_string_append(out, " h");
  } else {
    axis_num(out, a / 60);
    g_string_append(out, " min");
  }
}

/* Time ticks on whole minutes, hours or days (of UTC when dated from start_unix >= 0),
 * at most 8 of them. */
static void time_ticks(GString *out, const frame *f, double start_unix) {
  static const double steps[] = {60,    120,   300,   600,    900,    1800,   3600,
                                 7200,  10800, 21600, 43200,  86400,  172800, 604800,
                                 2419200, 31536000};
  double span = f->x1 - f->x0, step = steps[G_N_ELEMENTS(steps) - 1];
  for (guint i = 0; i < G_N_ELEMENTS(steps); i++)
    if (span / steps[i] <= 8) {
      step = steps[i];
      break;
    }
  double origin = start_unix >= 0 ? start_unix : 0;
  gboolean first = TRUE;
  for (double a = ceil((origin + f->x0) / step - 1e-9) * step; a - origin <= f->x1 + 1e-6;
       a += step) {
    double x = px(f, a - origin);
    g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                           "stroke=\"#ccc\"/>", x, f->top, x, f->bottom);
    g_string_append_printf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
                           f->bottom + 16);
    time_label(out, a, step, start_unix >= 0, first);
    g_string_append(out, "</text>");
    first = FALSE;
  }
}

static void y_ticks(GString *out, const frame *f, const char *y_label) {
  double step = nice_step(f->y1, 5);
  for (double y = 0; y <= f->y1 + 1e-9; y += step) {
    g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                           "stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                           f->left, py(f, y), f->right, py(f, y), f->left - 6, py(f, y) + 4);
    axis_num(out, y);
    g_string_append(out, "</text>");
  }
  g_string_append_printf(out, "<text transform=\"translate(14,%.1f) rotate(-90)\" "
                         "text-anchor=\"middle\">", (f->top + f->bottom) / 2);
  svg_escape(out, y_label);
  g_string_append(out, "</text>");
}

static void open_svg(GString *out, int w, int h, const char *title) {
  g_string_append_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                         "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"", w, h, w, h);
  svg_escape(out, title);
  g_string_append(out, "\" font-family=\"sans-serif\" font-size=\"12\"><title>");
  svg_escape(out, title);
  g_string_append(out, "</title>");
}

static void legend(GString *out, double x, double y, const char *label, const char *colour,
                   gboolean dashed) {
  g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                         "stroke=\"%s\" stroke-width=\"2.5\"%s/><text x=\"%.1f\" y=\"%.1f\">",
                         x, y - 4, x + 22, y - 4, colour, dashed ? " stroke-dasharray=\"6 4\"" : "",
                         x + 27, y);
  svg_escape(out, label);
  g_string_append(out, "</text>");
}

void svg_line(GString *out, const svg_line_chart *c, const svg_series *s, guint n) {
  int w = c->width > 0 ? c->width : 760, h = c->height > 0 ? c->height : 260;
  frame f = {.x0 = INFINITY, .x1 = -INFINITY, .y1 = c->y_max, .left = 60, .right = w - 10,
             .top = 10, .bottom = h - 30 - 18 * ((n + 1) / 2)};
  double ymax = 0;
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < s[i].n; k++) {
      f.x0 = MIN(f.x0, s[i].x[k]);
      f.x1 = MAX(f.x1, s[i].x[k]);
      if (isfinite(s[i].y[k])) ymax = MAX(ymax, s[i].y[k]);
    }
  if (!isfinite(f.x0) || f.x1 <= f.x0) f.x0 = 0, f.x1 = 86400;
  if (!(f.y1 > 0)) f.y1 = ymax > 0 ? nice_step(ymax, 5) * ceil(ymax / nice_step(ymax, 5)) : 1;
  open_svg(out, w, h, c->title);
  y_ticks(out, &f, c->y_label);
  time_ticks(out, &f, c->start_unix);
  for (guint i = 0; i < n; i++) {
    if (!s[i].n) continue;
    g_string_append_printf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"%s "
                           "points=\"", s[i].colour, s[i].dashed ? " stroke-dasharray=\"6 4\"" : "");
    for (guint k = 0; k < s[i].n; k++)
      if (isfinite(s[i].y[k]))
        g_string_append_printf(out, "%s%.1f,%.1f", k ? " " : "", px(&f, s[i].x[k]),
                               py(&f, MIN(s[i].y[k], f.y1)));
    g_string_append(out, "\"/>");
  }
  for (guint i = 0; i < n; i++)
    legend(out, 60 + (i % 2) * 360.0, f.bottom + 36 + 18 * (i / 2), s[i].label, s[i].colour,
           s[i].dashed);
  g_string_append(out, "</svg>\n");
}

void svg_bars(GString *out, const char *title, const svg_bar *bars, guint n_bars,
              const char *const *names, const char *const *colours, guint n_seg,
              gboolean money, const char *unit) {
  int w = 760, row = 24, label_w = 180, total_w = 110;
  int legend_rows = (int)(n_seg + 3) / 4;
  int h = 10 + row * (int)n_bars + 10 + 18 * legend_rows;
  double max = 0;
  for (guint b = 0; b < n_bars; b++) {
    double t = 0;
    for (guint k = 0; k < n_seg; k++)
      if (isfinite(bars[b].values[k]) && bars[b].values[k] > 0) t += bars[b].values[k];
    max = MAX(max, t);
  }
  if (!(max > 0)) max = 1;
  double scale = (w - label_w - total_w - 10) / max;
  open_svg(out, w, h, title);
  for (guint b = 0; b < n_bars; b++) {
    double y = 10 + row * (double)b, x = label_w, t = 0;
    g_string_append_printf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", label_w - 8,
                           y + 17);
    svg_escape(out, bars[b].label);
    g_string_append(out, "</text>");
    for (guint k = 0; k < n_seg; k++) {
      double v = bars[b].values[k];
      if (!(isfinite(v) && v > 0)) continue;
      g_string_append_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
                             "fill=\"%s\"><title>", x, y + 3, v * scale, row - 8, colours[k]);
      svg_escape(out, names[k]);
      g_string_append(out, ": ");
      if (money) svg_money(out, v);
      else g_string_append_printf(out, "%.3g %s", v, unit ? unit : "");
      g_string_append(out, "</title></rect>");
      x += v * scale;
      t += v;
    }
    g_string_append_printf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 6, y + 17);
    if (money) svg_money(out, t);
    else g_string_append_printf(out, "%.3g %s", t, unit ? unit : "");
    g_string_append(out, "</text>");
  }
  for (guint k = 0; k < n_seg; k++) {
    double lx = 10 + (k % 4) * 185.0, ly = 10 + row * (double)n_bars + 14 + 18 * (k / 4);
    g_string_append_printf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" "
                           "fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">", lx, ly - 10, colours[k],
                           lx + 17, ly);
    svg_escape(out, names[k]);
    g_string_append(out, "</text>");
  }
  g_string_append(out, "</svg>\n");
}
