/* fuzz-import.h: runs one importer (import.h), found by its name in the table as `sharesim
 * import` finds it, on fuzz input files with the outputs asked for requested, keeping the
 * outputs in memory. An importer of one input file needs only fuzz_import_file: its target
 * is fuzz-import-NAME.c calling it (tests/fuzz/README.md). */
#pragma once
#include "fuzz.h"
#include "import.h"

/* Runs the importer called format on files (n of them) with options (name, value pairs,
 * NULL-terminated); an option that names an output file requests that output. */
static inline void fuzz_import(const char *format, const char *const *files, guint n,
                               gboolean skip_bad, const char *const *opts) {
  const import_format *fmt = import_find(format);
  if (!fmt) abort(); /* a target for an importer the table does not have */
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

/* A whole target for an importer of one input file: the input written as file_name, the
 * importer run with every output its options can write requested (and opts, which may be
 * NULL), once stopping at bad rows and once skipping them. Returns 0 for libFuzzer. */
static inline int fuzz_import_file(const char *format, const char *file_name,
                                   const uint8_t *data, size_t size, const char *const *opts) {
  const import_format *fmt = import_find(format);
  if (!fmt) abort();
  GPtrArray *all = g_ptr_array_new();
  for (guint i = 0; opts && opts[i]; i++) g_ptr_array_add(all, (gpointer)opts[i]);
  for (const import_opt *o = fmt->options; o && o->name; o++)
    if (o->out > 0) g_ptr_array_add(all, (gpointer)o->name), g_ptr_array_add(all, "out");
  g_ptr_array_add(all, NULL);
  char *path = fuzz_write(file_name, data, size);
  const char *files[] = {path};
  fuzz_import(format, files, 1, FALSE, (const char *const *)all->pdata);
  fuzz_import(format, files, 1, TRUE, (const char *const *)all->pdata);
  g_free(path);
  g_ptr_array_free(all, TRUE);
  return 0;
}
