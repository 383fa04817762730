/* fuzz-import.h: runs one importer (import.h) on fuzz input files with every output it can
 * write requested, as `sharesim import` does, keeping the outputs in memory. */
#pragma once
#include "fuzz.h"
#include "import.h"

/* Runs fmt on files (n of them) with options (name, value pairs, NULL-terminated); an
 * option that names an output file requests that output. */
static inline void fuzz_import(const import_format *fmt, const char *const *files, guint n,
                               gboolean skip_bad, const char *const *opts) {
  import_ctx *c = import_ctx_new(files, n, skip_bad);
  for (guint i = 0; opts && opts[i]; i += 2) {
    import_option_add(c, opts[i], opts[i + 1]);
    for (const import_opt *o = fmt->options; o && o->name; o++)
      if (!strcmp(o->name, opts[i]) && o->out > 0) import_request_out(c, (import_out)o->out, NULL);
  }
  GError *err = NULL;
  if (fmt->run(c, &err)) import_flush(c, TRUE);
  g_clear_error(&err);
  import_ctx_free(c);
}
