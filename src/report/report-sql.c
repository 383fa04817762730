/* report-sql.c: the SQLite database of `--sqlite FILE` (report-sql.h): result CSVs read back
 * row by row into tables of the same rows, the run folders' from the result file table
 * (report-files.c), written into a temporary beside FILE and renamed over it, refusing a
 * FILE sharesim did not write. It is the only file that includes sqlite3.h. */
#include "report-sql.h"
#include "report.h"
#include "outfile.h"
#include "csvread.h"
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One table: its columns in order (the three leading ones first). */
typedef struct sql_table {
  char *name;
  GPtrArray *cols;   /* char*, owned */
  GHashTable *has;   /* column name -> itself (borrowed from cols) */
} sql_table;

struct report_sql {
  char *dest;
  outfile *tmp;      /* the temporary beside dest */
  sqlite3 *db;
  GPtrArray *tables; /* sql_table*, in the order made */
  guint64 pending;   /* rows since the last commit */
};

static const char *const sql_lead[] = {"folder", "scenario", "seed"};
#define SQL_LEAD 3u

/* Columns indexed wherever a table has them: the keys of the usual joins (a job, a
 * service, a tenant, a pool, an interval or event time). */
static const char *const sql_keys[] = {"id", "job", "job_id", "service", "tenant", "pool",
                                       "t_start_s", "t_s"};

static void sql_table_free(gpointer p) {
  sql_table *t = p;
  g_ptr_array_unref(t->cols);
  g_hash_table_unref(t->has);
  g_free(t->name);
  g_free(t);
}

/* name as an SQL identifier, double quotes doubled. */
static void sql_ident(GString *out, const char *name) {
  g_string_append_c(out, '"');
  for (const char *p = name; *p; p++) {
    if (*p == '"') g_string_append_c(out, '"');
    g_string_append_c(out, *p);
  }
  g_string_append_c(out, '"');
}

static gboolean sql_fail(report_sql *s, const char *what, GError **error) {
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot write %s: %s%s%s", s->dest,
              what ? what : "", what ? ": " : "", sqlite3_errmsg(s->db));
  return FALSE;
}

static gboolean sql_exec(report_sql *s, const char *sql, GError **error) {
  if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK) return TRUE;
  return sql_fail(s, NULL, error);
}

/* dest may be replaced: it is missing, empty, not a regular file (outfile.c refuses it), or
 * a SQLite file whose application_id is sharesim's. Read with a plain descriptor that
 * follows no link, so that the file is not counted as an input of the command. */
static gboolean sql_dest_ok(const char *dest, GError **error) {
  struct stat st;
  if (lstat(dest, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return TRUE;
  unsigned char head[100] = {0};
  int fd = open(dest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read(fd, head, sizeof head) : -1;
  if (fd >= 0) close(fd);
  guint32 app = (guint32)head[68] << 24 | (guint32)head[69] << 16 | (guint32)head[70] << 8 |
                head[71];
  if (n == (ssize_t)sizeof head && !memcmp(head, "SQLite format 3", 16) &&
      app == REPORT_SQL_APP_ID)
    return TRUE;
  g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_INPUT,
              "refusing to replace %s: it exists and is not a database sharesim wrote (no "
              "sharesim application_id in its SQLite header): choose another file or remove "
              "it yourself", dest);
  return FALSE;
}

/* The settings that make the file the same bytes for the same rows. */
static gboolean sql_setup(report_sql *s, GError **error) {
  g_autofree char *sql = g_strdup_printf(
      "PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
      "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-8192; PRAGMA encoding='UTF-8';"
      "PRAGMA application_id=%d; PRAGMA user_version=%d;"
      "CREATE TABLE runs (folder TEXT, scenario TEXT, seed INTEGER); BEGIN;",
      (int)REPORT_SQL_APP_ID, REPORT_SQL_SCHEMA);
  return sql_exec(s, sql, error);
}

static void sql_free(report_sql *s) {
  if (s->db) sqlite3_close(s->db);
  outfile_abort(s->tmp);
  if (s->tables) g_ptr_array_unref(s->tables);
  g_free(s->dest);
  g_free(s);
}

report_sql *report_sql_begin(const char *dest, GError **error) {
  g_return_val_if_fail(dest != NULL, NULL);
  if (!sql_dest_ok(dest, error)) return NULL;
  report_sql *s = g_new0(report_sql, 1);
  s->dest = g_strdup(dest);
  s->tables = g_ptr_array_new_with_free_func(sql_table_free);
  if (!(s->tmp = outfile_begin(dest, error))) {
    sql_free(s);
    return NULL;
  }
  int rc = sqlite3_open_v2(outfile_tmp_path(s->tmp), &s->db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX,
                           NULL);
  if (rc != SQLITE_OK || !sql_setup(s, error)) {
    if (rc != SQLITE_OK) sql_fail(s, NULL, error);
    sql_free(s);
    return NULL;
  }
  return s;
}

void report_sql_abort(report_sql *s) {
  if (s) sql_free(s);
}

char *report_sql_table_name(const char *file) {
  const char *dot = strrchr(file, '.');
  char *name = g_strndup(file, dot && dot != file ? (gsize)(dot - file) : strlen(file));
  for (char *p = name; *p; p++)
    if (!g_ascii_isalnum(*p) && *p != '_') *p = '_';
  return name;
}

static sql_table *sql_table_find(report_sql *s, const char *name) {
  for (guint i = 0; i < s->tables->len; i++) {
    sql_table *t = g_ptr_array_index(s->tables, i);
    if (!strcmp(t->name, name)) return t;
  }
  return NULL;
}

/* The table, made with the leading columns when it is new. */
static sql_table *sql_table_get(report_sql *s, const char *name, GError **error) {
  sql_table *t = sql_table_find(s, name);
  if (t) return t;
  g_autoptr(GString) sql = g_string_new("CREATE TABLE ");
  sql_ident(sql, name);
  g_string_append(sql, " (folder TEXT, scenario TEXT, seed INTEGER)");
  if (!sql_exec(s, sql->str, error)) return NULL;
  t = g_new0(sql_table, 1);
  t->name = g_strdup(name);
  t->cols = g_ptr_array_new_with_free_func(g_free);
  t->has = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i < SQL_LEAD; i++) {
    g_ptr_array_add(t->cols, g_strdup(sql_lead[i]));
    g_hash_table_add(t->has, g_ptr_array_index(t->cols, i));
  }
  g_ptr_array_add(s->tables, t);
  return t;
}

/* Adds column name to t when it lacks it (a later file of the table with more columns). */
static gboolean sql_table_column(report_sql *s, sql_table *t, const char *name, GError **error) {
  if (g_hash_table_contains(t->has, name)) return TRUE;
  g_autoptr(GString) sql = g_string_new("ALTER TABLE ");
  sql_ident(sql, t->name);
  g_string_append(sql, " ADD COLUMN ");
  sql_ident(sql, name);
  if (!sql_exec(s, sql->str, error)) return FALSE;
  char *c = g_strdup(name);
  g_ptr_array_add(t->cols, c);
  g_hash_table_add(t->has, c);
  return TRUE;
}

/* Binds a cell as the value it writes: NULL, INTEGER, REAL or TEXT (report-sql.h). */
static void sql_bind_cell(sqlite3_stmt *st, int at, const char *c) {
  gsize len = strlen(c);
  if (!len) {
    sqlite3_bind_null(st, at);
    return;
  }
  const char *d = c[0] == '-' ? c + 1 : c;
  gsize dl = strlen(d);
  gboolean integer = dl > 0 && dl <= 18 && (d[0] != '0' || (dl == 1 && d == c));
  for (gsize i = 0; integer && i < dl; i++) integer = g_ascii_isdigit(d[i]);
  if (integer) {
    sqlite3_bind_int64(st, at, g_ascii_strtoll(c, NULL, 10));
    return;
  }
  gboolean number = strspn(c, "0123456789+-.eE") == len && strpbrk(c, "0123456789") != NULL;
  char *end = NULL;
  double v = number ? g_ascii_strtod(c, &end) : NAN;
  if (number && end == c + len && isfinite(v)) sqlite3_bind_double(st, at, v);
  else sqlite3_bind_text(st, at, c, (int)len, SQLITE_STATIC); /* the cell outlives the step */
}

/* The reading of one CSV file into its table. */
typedef struct sql_load {
  report_sql *s;
  const char *table, *path, *folder, *scenario;
  gint64 seed;
  sqlite3_stmt *insert; /* made from the header */
  guint ncols;
  gboolean lead_csv[SQL_LEAD]; /* the CSV has this leading column itself (a study table's
                                * scenario or seed): its cells fill it */
  GError *error;
} sql_load;

/* May the CSV's column name fill leading column k? Its first scenario or seed column: a
 * result CSV's (the run's own, as the caller gives them) or a study table's. */
static gboolean sql_lead_from_csv(const sql_load *l, const char *name, guint *k) {
  for (*k = 1; *k < SQL_LEAD; (*k)++)
    if (!strcmp(name, sql_lead[*k])) return !l->lead_csv[*k];
  return FALSE;
}

/* The header: the columns the table lacks, then the insert: the leading columns the CSV
 * does not fill, then the CSV's. A name the row already has (or one of the leading three
 * it may not fill) gets "_2", "_3", ...; an empty one "column_N". */
static gboolean sql_load_header(sql_load *l, const csvread_row *row) {
  sql_table *t = sql_table_get(l->s, l->table, &l->error);
  if (!t) return FALSE;
  g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < SQL_LEAD; i++) g_hash_table_add(seen, g_strdup(sql_lead[i]));
  g_autoptr(GString) cols = g_string_new(NULL);
  for (guint i = 0; i < row->n; i++) {
    guint k;
    char *name = row->cells[i][0] ? g_strdup(row->cells[i]) : g_strdup_printf("column_%u", i + 1);
    gboolean lead = sql_lead_from_csv(l, name, &k);
    if (lead) l->lead_csv[k] = TRUE;
    for (guint n = 2; !lead && g_hash_table_contains(seen, name); n++) {
      g_free(name);
      name = g_strdup_printf("%s_%u", row->cells[i][0] ? row->cells[i] : "column", n);
    }
    g_hash_table_add(seen, name);
    if (!sql_table_column(l->s, t, name, &l->error)) return FALSE;
    g_string_append(cols, ", ");
    sql_ident(cols, name);
  }
  g_autoptr(GString) sql = g_string_new("INSERT INTO ");
  sql_ident(sql, l->table);
  g_string_append(sql, " (");
  guint params = row->n;
  for (guint k = 0; k < SQL_LEAD; k++)
    if (!l->lead_csv[k]) g_string_append_printf(sql, "%s%s", params++ > row->n ? ", " : "", sql_lead[k]);
  g_string_append_printf(sql, "%s) VALUES (", cols->str);
  for (guint i = 0; i < params; i++) g_string_append(sql, i ? ", ?" : "?");
  g_string_append_c(sql, ')');
  l->ncols = row->n;
  if (sqlite3_prepare_v2(l->s->db, sql->str, -1, &l->insert, NULL) == SQLITE_OK) return TRUE;
  return sql_fail(l->s, l->table, &l->error);
}

static gboolean sql_load_row(const csvread_row *row, void *ud) {
  sql_load *l = ud;
  if (row->error || (!row->header && row->n != l->ncols)) {
    g_set_error(&l->error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "%s:%u: %s", l->path,
                row->line, row->error ? row->error : "not as many cells as the header");
    return FALSE;
  }
  if (row->header) return sql_load_header(l, row);
  sqlite3_stmt *st = l->insert;
  sqlite3_reset(st);
  int at = 1;
  sqlite3_bind_text(st, at++, l->folder, -1, SQLITE_STATIC);
  if (!l->lead_csv[1] && l->scenario) sqlite3_bind_text(st, at++, l->scenario, -1, SQLITE_STATIC);
  else if (!l->lead_csv[1]) sqlite3_bind_null(st, at++);
  if (!l->lead_csv[2] && l->seed >= 0) sqlite3_bind_int64(st, at++, l->seed);
  else if (!l->lead_csv[2]) sqlite3_bind_null(st, at++);
  for (guint i = 0; i < row->n; i++) sql_bind_cell(st, at++, row->cells[i]);
  if (sqlite3_step(st) != SQLITE_DONE) return sql_fail(l->s, l->table, &l->error);
  if (++l->s->pending < REPORT_SQL_BATCH) return TRUE;
  l->s->pending = 0;
  return sql_exec(l->s, "COMMIT; BEGIN;", &l->error);
}

gboolean report_sql_csv(report_sql *s, const char *table, const char *path, const char *folder,
                        const char *scenario, gint64 seed, GError **error) {
  sql_load l = {.s = s, .table = table, .path = path, .folder = folder, .scenario = scenario,
                .seed = seed};
  g_autoptr(diag_list) diags = diag_list_new(0);
  gboolean read = csvread_foreach(path, 0, sql_load_row, &l, diags);
  sqlite3_finalize(l.insert);
  if (l.error) {
    g_propagate_error(error, l.error);
    return FALSE;
  }
  if (!read || diags->count) {
    g_set_error(error, SHARESIM_ERROR, SHARESIM_ERROR_RUNTIME, "cannot read %s back: %s", path,
                diags->count ? (const char *)g_ptr_array_index(diags->messages, 0) : "?");
    return FALSE;
  }
  return TRUE;
}

static gboolean sql_run_row(report_sql *s, const char *folder, const char *scenario,
                            gint64 seed, GError **error) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, "INSERT INTO runs VALUES (?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
    return sql_fail(s, "runs", error);
  sqlite3_bind_text(st, 1, folder, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, scenario, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, seed);
  gboolean ok = sqlite3_step(st) == SQLITE_DONE;
  if (!ok) sql_fail(s, "runs", error);
  sqlite3_finalize(st);
  return ok;
}

gboolean report_sql_run_folder(report_sql *s, const char *dir, const char *folder,
                               const char *scenario, gint64 seed, GError **error) {
  if (!sql_run_row(s, folder, scenario, seed, error)) return FALSE;
  guint n;
  const report_file *t = report_files(&n);
  for (guint i = 0; i < n; i++) {
    if (t[i].format != &report_format_csv) continue;
    g_autofree char *path = g_build_filename(dir, t[i].name, NULL);
    if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) continue; /* not written by this run */
    g_autofree char *table = report_sql_table_name(t[i].name);
    if (!report_sql_csv(s, table, path, folder, scenario, seed, error)) return FALSE;
  }
  return TRUE;
}

/* An index on every key column (sql_keys) of every table. */
static gboolean sql_indexes(report_sql *s, GError **error) {
  for (guint i = 0; i < s->tables->len; i++) {
    sql_table *t = g_ptr_array_index(s->tables, i);
    for (guint k = 0; k < G_N_ELEMENTS(sql_keys); k++) {
      if (!g_hash_table_contains(t->has, sql_keys[k])) continue;
      g_autofree char *index = g_strdup_printf("%s_%s", t->name, sql_keys[k]);
      g_autoptr(GString) sql = g_string_new("CREATE INDEX ");
      sql_ident(sql, index);
      g_string_append(sql, " ON ");
      sql_ident(sql, t->name);
      g_string_append_printf(sql, " (\"%s\")", sql_keys[k]);
      if (!sql_exec(s, sql->str, error)) return FALSE;
    }
  }
  return TRUE;
}

gboolean report_sql_commit(report_sql *s, GError **error) {
  g_return_val_if_fail(s != NULL, FALSE);
  gboolean ok = sql_indexes(s, error) && sql_exec(s, "COMMIT", error);
  if (ok && sqlite3_close(s->db) != SQLITE_OK) ok = sql_fail(s, NULL, error);
  else if (ok) s->db = NULL;
  ok = ok && sql_dest_ok(s->dest, error);
  if (ok) {
    ok = outfile_commit(g_steal_pointer(&s->tmp), error);
  }
  sql_free(s);
  return ok;
}
