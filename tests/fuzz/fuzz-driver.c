/* fuzz-driver.c: a main() for the fuzz targets when they are built without libFuzzer (the
 * normal and sanitizer builds): feeds every file named on the command line (or every file
 * of a named folder) once to LLVMFuzzerTestOneInput, so that the corpus in
 * tests/fuzz/corpus runs in `make check` and a crash once found stays fixed. */
#include "fuzz.h"
#include <stdio.h>

static gint fuzz_driver_cmp(gconstpointer a, gconstpointer b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fuzz_driver_file(const char *path) {
  gchar *data = NULL;
  gsize len = 0;
  GError *err = NULL;
  if (!g_file_get_contents(path, &data, &len, &err)) {
    fprintf(stderr, "fuzz-driver: %s\n", err->message);
    g_error_free(err);
    return 1;
  }
  LLVMFuzzerTestOneInput((const uint8_t *)data, len);
  g_free(data);
  return 0;
}

int main(int argc, char **argv) {
  int bad = 0, n = 0;
  for (int i = 1; i < argc; i++) {
    if (!g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
      bad |= fuzz_driver_file(argv[i]);
      n++;
      continue;
    }
    GDir *d = g_dir_open(argv[i], 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while (d && (name = g_dir_read_name(d))) g_ptr_array_add(names, g_strdup(name));
    if (d) g_dir_close(d);
    g_ptr_array_sort(names, fuzz_driver_cmp);
    for (guint k = 0; k < names->len; k++) {
      g_autofree char *p = g_build_filename(argv[i], g_ptr_array_index(names, k), NULL);
      bad |= fuzz_driver_file(p);
      n++;
    }
    g_ptr_array_unref(names);
  }
  printf("%d inputs run\n", n);
  return bad;
}
