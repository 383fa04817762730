/* report-series.c: the time series rows the run hands over as each pool's intervals close
 * (sim_options.ts_sink), kept out of memory for the per-interval result files
 * (report-sinks.c): each pool's rows are kept in chunks of REPORT_SERIES_CHUNK rows in an
 * unnamed spill file (rowspill.h) in the result folder's temporary and given back at the
 * end, pool by pool, with the SLO violations the run counted meanwhile: the rows a run that
 * keeps them has in results->timeseries, in the same order. */
#include "report.h"
#include "outdir.h"
#include "rowspill.h"
#include "util.h"

/* Rows of one pool per spilled chunk (96 bytes each). */
#define REPORT_SERIES_CHUNK 512

typedef struct series_chunk {
  gint64 at;   /* offset in the spill */
  guint rows;
} series_chunk;

typedef struct series_pool {
  GArray *stage;  /* ts_row not yet in the spill (all of them when the spill failed) */
  GArray *chunks; /* series_chunk, in time order */
} series_pool;

struct report_series {
  gboolean keep;     /* FALSE: rows are dropped (no result folder) */
  rowspill *spill;   /* NULL: the rows stay in the stages */
  GArray *pools;     /* series_pool by pool index */
};

report_series *report_series_new(outdir *o) {
  report_series *rs = g_new0(report_series, 1);
  rs->keep = o != NULL;
  if (o) rs->spill = rowspill_new(outdir_tmp_path(o), 0);
  rs->pools = g_array_new(FALSE, TRUE, sizeof(series_pool));
  return rs;
}

static series_pool *series_pool_at(report_series *rs, guint32 pool) {
  if (pool >= rs->pools->len) g_array_set_size(rs->pools, pool + 1);
  series_pool *p = &g_array_index(rs->pools, series_pool, pool);
  if (!p->stage) {
    p->stage = g_array_sized_new(FALSE, FALSE, sizeof(ts_row), REPORT_SERIES_CHUNK);
    p->chunks = g_array_new(FALSE, FALSE, sizeof(series_chunk));
  }
  return p;
}

void report_series_row(void *data, const ts_row *row) {
  report_series *rs = data;
  if (!rs->keep) return;
  series_pool *p = series_pool_at(rs, row->pool);
  g_array_append_val(p->stage, *row);
  if (p->stage->len < REPORT_SERIES_CHUNK || !rs->spill) return;
  gint64 at = rowspill_put(rs->spill, p->stage->data, p->stage->len * sizeof(ts_row));
  if (at < 0) return; /* the spill failed: this pool's rows stay in its stage from now on */
  series_chunk c = {at, p->stage->len};
  g_array_append_val(p->chunks, c);
  g_array_set_size(p->stage, 0);
}

/* The rows of one pool: the spilled chunks, then the stage. */
static gboolean series_each_pool(report_series *rs, const results *r, guint32 pool, ts_row *buf,
                                 void (*fn)(void *data, const ts_row *row), void *data) {
  series_pool *p = &g_array_index(rs->pools, series_pool, pool);
  const GArray *slo = r->ts_slo && pool < r->ts_slo->len ? g_ptr_array_index(r->ts_slo, pool) : NULL;
  guint k = 0; /* the row's index in the pool's series */
  for (guint c = 0; c <= p->chunks->len; c++) {
    const ts_row *rows = (const ts_row *)(void *)p->stage->data;
    guint n = p->stage->len;
    if (c < p->chunks->len) {
      const series_chunk *ch = &g_array_index(p->chunks, series_chunk, c);
      if (!rowspill_get(rs->spill, ch->at, buf, ch->rows * sizeof(ts_row))) return FALSE;
      rows = buf;
      n = ch->rows;
    }
    for (guint i = 0; i < n; i++, k++) {
      ts_row row = rows[i];
      row.slo_violations = slo && k < slo->len ? g_array_index(slo, guint64, k) : 0;
      fn(data, &row);
    }
  }
  return TRUE;
}

gboolean report_series_each(report_series *rs, const results *r,
                            void (*fn)(void *data, const ts_row *row), void *data) {
  ts_row *buf = g_new(ts_row, REPORT_SERIES_CHUNK);
  gboolean ok = TRUE;
  for (guint32 pool = 0; ok && pool < rs->pools->len; pool++)
    if (g_array_index(rs->pools, series_pool, pool).stage)
      ok = series_each_pool(rs, r, pool, buf, fn, data);
  g_free(buf);
  return ok;
}

void report_series_free(report_series *rs) {
  if (!rs) return;
  for (guint i = 0; i < rs->pools->len; i++) {
    series_pool *p = &g_array_index(rs->pools, series_pool, i);
    if (p->stage) g_array_unref(p->stage);
    if (p->chunks) g_array_unref(p->chunks);
  }
  g_array_unref(rs->pools);
  rowspill_free(rs->spill);
  g_free(rs);
}
