/* report-sql.h: result tables as one SQLite database (`--sqlite FILE`, docs/outputs.md).
 *
 * Every CSV a result folder holds becomes a table of the same rows: a run folder's CSVs are
 * the CSV rows of the result file table (report_files(): a new CSV file gets its SQL table
 * by its row), named after the file ("llm-latency.csv" -> llm_latency); a study's own CSVs
 * (compare.csv, size.csv, ...) are added one by one. Each table begins with three columns,
 * folder (the run's folder under the result folder, "." for a lone run), scenario and seed,
 * then the file's other columns in its order: a result CSV's own first two columns are its
 * scenario and seed (docs/outputs.md), which fill the leading two, so that a run's table
 * is folder and then the CSV's columns; a study table without them has NULL there. A cell is stored
 * as INTEGER when it is a plain integer ("12", "-3", no leading zero), REAL when it is
 * another decimal number ("0.5", "1e+06"), NULL when empty, TEXT otherwise: the CSV cell is
 * always that value written back. The table `runs` has one row per run folder.
 *
 * Written whole or not at all: the rows go to a temporary ".NAME.tmp-PID-HOST-XXXXXX"
 * beside FILE (outfile.h), renamed over FILE on commit. An existing FILE is replaced only
 * when it is empty or a database sharesim wrote (its header's application_id is
 * REPORT_SQL_APP_ID); anything else (another SQLite file, any other file, a link, a device,
 * a folder, an input of the command) is refused with SHARESIM_ERROR_INPUT, at begin and
 * again just before the rename. Deterministic: fixed page size, no journal, rows in file
 * order, tables in the order they are added, indexes built at commit: the same folders
 * give a byte-identical file with the same SQLite library. Memory: one row at a time, a
 * commit every REPORT_SQL_BATCH rows, SQLite's page cache (8 MB). */
#pragma once
#include <glib.h>

#define REPORT_SQL_APP_ID 0x53685369 /* "ShSi": PRAGMA application_id of sharesim's files */
#define REPORT_SQL_SCHEMA 1          /* PRAGMA user_version: this layout */
#define REPORT_SQL_BATCH 65536

typedef struct report_sql report_sql;
/* Begins FILE (its temporary made now). NULL with error when FILE is refused. */
report_sql *report_sql_begin(const char *dest, GError **error);
/* The run folder dir (FOLDER relative to the result folder): a row of `runs` and every CSV
 * of the result file table that dir holds. */
gboolean report_sql_run_folder(report_sql *s, const char *dir, const char *folder,
                               const char *scenario, gint64 seed, GError **error);
/* One CSV file (path) as rows of table (made, or given the columns it lacks); scenario
 * NULL and seed < 0 are stored as NULL. */
gboolean report_sql_csv(report_sql *s, const char *table, const char *path, const char *folder,
                        const char *scenario, gint64 seed, GError **error);
/* The table name of a CSV file name: its stem, every byte but a letter, digit or
 * underscore as '_' ("llm-latency.csv" -> "llm_latency"). Owned. */
char *report_sql_table_name(const char *file);
/* Builds the indexes, closes the database and renames it into place. Frees s. */
gboolean report_sql_commit(report_sql *s, GError **error);
/* Removes the temporary. Frees s; NULL is allowed. */
void report_sql_abort(report_sql *s);
