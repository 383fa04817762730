/* diag.h: collects input problems (file:line:column, what was expected, what was found)
 * so a reader can report every problem in a file, up to a cap, instead of the first only.
 * Readers add to a diag list; cmd-*.c print it. */
#pragma once
#include <glib.h>

#define DIAG_DEFAULT_CAP 50

typedef struct diag_list {
  GPtrArray *messages; /* owned char*: "file:line:col: message" */
  guint cap;           /* messages kept; further ones are only counted */
  guint count;         /* all problems seen, kept or not */
} diag_list;

diag_list *diag_list_new(guint cap);
void diag_list_free(diag_list *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(diag_list, diag_list_free)

/* Adds "file:line:col: <formatted>"; line/col 0 are left out. */
void diag_add(diag_list *d, const char *file, guint line, guint col, const char *fmt, ...)
    G_GNUC_PRINTF(5, 6);
/* Convenience for the common shape: "expected X, found 'Y'". */
void diag_expected(diag_list *d, const char *file, guint line, guint col, const char *what,
                   const char *expected, const char *found);
gboolean diag_has_errors(const diag_list *d);
/* Joins the messages, one per line, with a final "... and N more" when capped. */
char *diag_join(const diag_list *d);
/* Moves the problems into a GError (SHARESIM_ERROR_INPUT) if there are any; returns TRUE if
 * there were none. */
gboolean diag_to_error(const diag_list *d, GError **error);
