/* diag.c: the list of input problems a reader collects before giving up, so that a
 * user sees every problem in a file at once (up to a cap). Prints nothing itself. */
#include "diag.h"
#include "util.h"
#include <stdarg.h>
#include <string.h>

diag_list *diag_list_new(guint cap) {
  diag_list *d = g_new0(diag_list, 1);
  d->messages = g_ptr_array_new_with_free_func(g_free);
  d->cap = cap ? cap : DIAG_DEFAULT_CAP;
  return d;
}

void diag_list_free(diag_list *d) {
  if (!d) return;
  g_ptr_array_unref(d->messages);
  g_free(d);
}

void diag_add(diag_list *d, const char *file, guint line, guint col, const char *fmt, ...) {
  d->count++;
  if (d->messages->len >= d->cap) return;
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  char *full;
  if (file && line && col) full = g_strdup_printf("%s:%u:%u: %s", file, line, col, msg);
  else if (file && line) full = g_strdup_printf("%s:%u: %s", file, line, msg);
  else if (file) full = g_strdup_printf("%s: %s", file, msg);
  else full = g_strdup(msg);
  g_ptr_array_add(d->messages, full);
}

void diag_expected(diag_list *d, const char *file, guint line, guint col, const char *what,
                   const char *expected, const char *found) {
  /* Found text is shown escaped so control characters cannot garble a terminal. */
  g_autofree char *esc = g_strescape(found ? found : "", NULL);
  if (strlen(esc) > 80) {
    esc[77] = esc[78] = esc[79] = '.';
    esc[80] = 0;
  }
  diag_add(d, file, line, col, "%s: expected %s, found '%s'", what, expected, esc);
}

gboolean diag_has_errors(const diag_list *d) { return d->count > 0; }

char *diag_join(const diag_list *d) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < d->messages->len; i++) {
    if (i) g_string_append_c(s, '\n');
    g_string_append(s, g_ptr_array_index(d->messages, i));
  }
  if (d->count > d->messages->len)
    g_string_append_printf(s, "\n... and %u more problems", d->count - d->messages->len);
  return g_string_free(s, FALSE);
}

gboolean diag_to_error(const diag_list *d, GError **error) {
  if (!diag_has_errors(d)) return TRUE;
  g_autofree char *msg = diag_join(d);
  g_set_error_literal(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT, msg);
  return FALSE;
}
