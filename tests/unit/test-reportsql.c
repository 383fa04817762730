/* test-reportsql.c: the SQLite database of --sqlite (report-sql.c): every CSV of a run
 * folder, walked from the result file table, is a table of the same rows, cell by cell,
 * with its folder, and the scenario and seed that begin every result CSV; the same folder gives the same bytes; a file sharesim
 * did not write is refused and left as it was; an aborted database leaves nothing. */
#include <criterion/criterion.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <string.h>
#include "csvread.h"
#include "report.h"
#include "report-sql.h"
#include "testutil.h"

/* Two pools, batch and training jobs, an inference service and an LLM service, run with
 * --dcgm: every CSV of the table has rows (test-reportfiles.c's scenario, and a job too large for
 * any pool, for a row of events.csv). */
static const char rs_yaml[] =
    "name: files\nseed: 3\ninterval: 60s\npools:\n"
    "  - {name: serve, gpu: H100-80GB, nodes: 1, gpus_per_node: 2, strategy: exclusive}\n"
    "  - {name: train, gpu: A100-80GB, nodes: 1, gpus_per_node: 2, strategy: time-slicing}\n"
    "routing:\n  - {kind: inference, pool: serve}\n  - {pool: train}\n";
static const char rs_csv[] =
    "id,submit_s,kind,tenant,gpus,mem_gb,duration_s,rate_rps,service_ms,model,slo_ms,"
    "slo_ttft_ms,slo_tpot_ms\n"
    "b1,0,batch,a,1,10,300,,,,,,\n"
    "b2,10,training,b,2,20,600,,,,,,\n"
    "svc,0,inference,a,1,10,400,20,10,,50,,\n"
    "chat,5,inference,b,1,0,300,2,,llama-3-8b,,500,50\n"
    "b3,20,batch,b,1,10,100,,,,,,\n"
    "big,30,batch,a,4,10,100,,,,,,\n";

static void rs_rm_rf(const char *path) {
  GDir *d = g_dir_open(path, 0, NULL);
  for (const char *name; d && (name = g_dir_read_name(d)) != NULL;) {
    g_autofree char *child = g_build_filename(path, name, NULL);
    if (g_file_test(child, G_FILE_TEST_IS_DIR)) rs_rm_rf(child);
    else g_unlink(child);
  }
  if (d) g_dir_close(d);
  g_rmdir(path);
}

/* The run folder top/run, written as `run --dcgm -o` writes it. */
static char *rs_run_folder(const char *top) {
  g_autofree char *sp = g_build_filename(top, "files.yaml", NULL);
  g_autofree char *tp = g_build_filename(top, "files.csv", NULL);
  cr_assert(g_file_set_contents(sp, rs_yaml, -1, NULL) && g_file_set_contents(tp, rs_csv, -1, NULL));
  g_autoptr(diag_list) diags = diag_list_new(0);
  g_autoptr(scenario) sc = scenario_load(sp, diags);
  g_autoptr(trace) tr = sc ? trace_load(tp, diags) : NULL;
  cr_assert_not_null(tr);
  char *dir = g_build_filename(top, "run", NULL);
  g_autoptr(GError) err = NULL;
  sim_options so = {.gpu_series = TRUE};
  g_autoptr(results) r = report_simulate(sc, tr, &so, dir, &err);
  cr_assert_not_null(r, "%s", err ? err->message : "?");
  return dir;
}

static void rs_write_db(const char *dir, const char *dest) {
  g_autoptr(GError) err = NULL;
  report_sql *s = report_sql_begin(dest, &err);
  cr_assert_not_null(s, "%s", err ? err->message : "?");
  cr_assert(report_sql_run_folder(s, dir, "run", "files", 3, &err), "%s", err ? err->message : "?");
  cr_assert(report_sql_commit(s, &err), "%s", err ? err->message : "?");
}

/* The CSV being compared with its table: the query walks the table as the rows come. */
typedef struct rs_cmp {
  const char *file;
  sqlite3_stmt *st;
  guint rows;
} rs_cmp;

/* Is column col of the query's row the value cell writes? */
static gboolean rs_same(sqlite3_stmt *st, int col, const char *cell) {
  switch (sqlite3_column_type(st, col)) {
  case SQLITE_NULL: return cell[0] == '\0';
  case SQLITE_INTEGER: {
    g_autofree char *v = g_strdup_printf("%lld", (long long)sqlite3_column_int64(st, col));
    return !strcmp(v, cell);
  }
  case SQLITE_FLOAT: return cell[0] && g_ascii_strtod(cell, NULL) == sqlite3_column_double(st, col);
  default: return !strcmp((const char *)sqlite3_column_text(st, col), cell);
  }
}

static gboolean rs_row(const csvread_row *row, void *ud) {
  rs_cmp *c = ud;
  cr_assert_null(row->error, "%s:%u", c->file, row->line);
  cr_assert_eq(sqlite3_column_count(c->st), (int)row->n + 1, "%s: columns", c->file);
  /* every result CSV begins with its run's scenario and seed, the table's too */
  cr_assert_geq(row->n, 2, "%s: no scenario and seed", c->file);
  cr_expect_str_eq(row->cells[0], row->header ? "scenario" : "files", "%s:%u", c->file, row->line);
  cr_expect_str_eq(row->cells[1], row->header ? "seed" : "3", "%s:%u", c->file, row->line);
  for (guint i = 0; row->header && i < row->n; i++)
    cr_expect_str_eq(sqlite3_column_name(c->st, (int)i + 1), row->cells[i], "%s: column %u", c->file, i);
  if (row->header) return TRUE;
  cr_assert_eq(sqlite3_step(c->st), SQLITE_ROW, "%s: the table ends before line %u", c->file, row->line);
  c->rows++;
  cr_expect_str_eq((const char *)sqlite3_column_text(c->st, 0), "run");
  cr_expect_str_eq((const char *)sqlite3_column_text(c->st, 1), "files");
  cr_expect_eq(sqlite3_column_int64(c->st, 2), 3);
  for (guint i = 0; i < row->n; i++)
    cr_expect(rs_same(c->st, (int)i + 1, row->cells[i]), "%s:%u: column %s: '%s' became '%s'",
              c->file, row->line, sqlite3_column_name(c->st, (int)i + 1), row->cells[i],
              (const char *)sqlite3_column_text(c->st, (int)i + 1));
  return TRUE;
}

/* Every CSV of the table the run wrote is its table: the header is the columns after the
 * folder (its first two, scenario and seed, the table's leading two), each row the next
 * row of the table, each cell its value. */
Test(reportsql, every_csv_of_a_run_is_its_table_cell_by_cell) {
  g_autofree char *top = g_dir_make_tmp("sharesim-sql-XXXXXX", NULL);
  g_autofree char *dir = rs_run_folder(top);
  g_autofree char *dest = g_build_filename(top, "r.db", NULL);
  rs_write_db(dir, dest);
  sqlite3 *db = NULL;
  cr_assert_eq(sqlite3_open_v2(dest, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  guint n, tables = 0;
  const report_file *t = report_files(&n);
  for (guint i = 0; i < n; i++) {
    if (t[i].format != &report_format_csv) continue;
    g_autofree char *path = g_build_filename(dir, t[i].name, NULL);
    cr_assert(g_file_test(path, G_FILE_TEST_IS_REGULAR), "%s: the run wrote no such file", t[i].name);
    g_autofree char *name = report_sql_table_name(t[i].name);
    g_autofree char *sql = g_strdup_printf("SELECT * FROM \"%s\" ORDER BY rowid", name);
    rs_cmp c = {.file = t[i].name};
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &c.st, NULL), SQLITE_OK, "%s: %s", name, sqlite3_errmsg(db));
    g_autoptr(diag_list) d = diag_list_new(0);
    cr_assert(csvread_foreach(path, 0, rs_row, &c, d));
    cr_expect_eq(sqlite3_step(c.st), SQLITE_DONE, "%s: the table has more rows than the CSV", name);
    cr_expect_gt(c.rows, 0, "%s: no rows to compare", name);
    sqlite3_finalize(c.st);
    tables++;
  }
  cr_expect_geq(tables, 12, "the CSVs of the table");
  sqlite3_stmt *st = NULL;
  sqlite3_prepare_v2(db, "SELECT folder || '|' || scenario || '|' || seed FROM runs", -1, &st, NULL);
  cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
  cr_expect_str_eq((const char *)sqlite3_column_text(st, 0), "run|files|3");
  sqlite3_finalize(st);
  sqlite3_close(db);
  rs_rm_rf(top);
}

/* The same folder twice: the same bytes. */
Test(reportsql, the_same_folder_gives_the_same_bytes) {
  g_autofree char *top = g_dir_make_tmp("sharesim-sql-XXXXXX", NULL);
  g_autofree char *dir = rs_run_folder(top);
  g_autofree char *a = g_build_filename(top, "a.db", NULL), *b = g_build_filename(top, "b.db", NULL);
  rs_write_db(dir, a);
  rs_write_db(dir, b);
  g_autofree char *da = NULL, *db = NULL;
  gsize la = 0, lb = 0;
  cr_assert(g_file_get_contents(a, &da, &la, NULL) && g_file_get_contents(b, &db, &lb, NULL));
  cr_expect(la == lb && la > 0 && !memcmp(da, db, la), "%zu bytes against %zu", la, lb);
  rs_rm_rf(top);
}

/* A file that is not sharesim's database is refused at begin and left as it was; an empty
 * file and sharesim's own database are replaced; an aborted database leaves nothing. */
Test(reportsql, refuses_a_file_it_did_not_write_and_leaves_nothing_on_abort) {
  g_autofree char *top = g_dir_make_tmp("sharesim-sql-XXXXXX", NULL);
  g_autofree char *dest = g_build_filename(top, "x.db", NULL);
  g_autoptr(GError) err = NULL;
  cr_assert(g_file_set_contents(dest, "not a database\n", -1, NULL));
  cr_expect_null(report_sql_begin(dest, &err));
  cr_expect(err && err->code == SHARESIM_ERROR_INPUT && strstr(err->message, "refusing to replace"));
  g_clear_error(&err);
  sqlite3 *db = NULL; /* another program's SQLite database */
  g_unlink(dest);
  cr_assert_eq(sqlite3_open(dest, &db), SQLITE_OK);
  cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
  cr_expect_null(report_sql_begin(dest, &err), "a SQLite file without sharesim's application_id");
  g_clear_error(&err);
  g_autofree char *text = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents(dest, &text, &len, NULL));
  cr_expect(len > 100 && !memcmp(text, "SQLite format 3", 16), "the refused file is left as it was");
  cr_assert(g_file_set_contents(dest, "", 0, NULL));
  report_sql *s = report_sql_begin(dest, &err);
  cr_assert_not_null(s, "an empty file is replaced");
  cr_assert(report_sql_commit(s, &err), "%s", err ? err->message : "?");
  s = report_sql_begin(dest, &err);
  cr_assert_not_null(s, "sharesim's own database is replaced");
  report_sql_abort(s);
  g_autoptr(GDir) d = g_dir_open(top, 0, NULL);
  guint entries = 0;
  for (const char *name; (name = g_dir_read_name(d)) != NULL;) entries++;
  cr_expect_eq(entries, 1, "an aborted database leaves no temporary");
  rs_rm_rf(top);
}

Test(reportsql, table_names) {
  const char *cases[][2] = {{"jobs.csv", "jobs"}, {"llm-latency.csv", "llm_latency"},
                            {"model-range.csv", "model_range"}, {"a b.c.csv", "a_b_c"}};
  for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
    g_autofree char *n = report_sql_table_name(cases[i][0]);
    cr_expect_str_eq(n, cases[i][1]);
  }
}

/* A CSV's own scenario column fills the leading scenario, a study's (compare-long.csv, no
 * scenario given) as a run's (every result CSV begins with scenario and seed); a leading
 * column the CSV does not have is the one given. */
Test(reportsql, a_study_csv_fills_the_scenario_column) {
  g_autofree char *top = g_dir_make_tmp("sharesim-sql-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename(top, "long.csv", NULL);
  g_autofree char *dest = g_build_filename(top, "l.db", NULL);
  cr_assert(g_file_set_contents(csv, "scenario,x\na,1\nb,2\n", -1, NULL));
  g_autoptr(GError) err = NULL;
  report_sql *s = report_sql_begin(dest, &err);
  cr_assert_not_null(s);
  cr_assert(report_sql_csv(s, "study", csv, ".", NULL, -1, &err), "%s", err ? err->message : "?");
  cr_assert(report_sql_csv(s, "run", csv, "r", "sc", 7, &err), "%s", err ? err->message : "?");
  cr_assert(report_sql_commit(s, &err), "%s", err ? err->message : "?");
  sqlite3 *db = NULL;
  cr_assert_eq(sqlite3_open_v2(dest, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  const char *q[][2] = {
      {"SELECT group_concat(folder || scenario || ifnull(seed, '-') || x, ' ') FROM study", ".a-1 .b-2"},
      {"SELECT group_concat(folder || scenario || seed || x, ' ') FROM run", "ra71 rb72"},
      {"SELECT count(*) FROM pragma_table_info('run')", "4"}};
  for (guint i = 0; i < G_N_ELEMENTS(q); i++) {
    sqlite3_stmt *st = NULL;
    cr_assert_eq(sqlite3_prepare_v2(db, q[i][0], -1, &st, NULL), SQLITE_OK, "%s", sqlite3_errmsg(db));
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_str_eq((const char *)sqlite3_column_text(st, 0), q[i][1]);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  rs_rm_rf(top);
}
