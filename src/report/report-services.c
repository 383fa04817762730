/* report-services.c: services.csv, latency.csv, llm.csv and llm-latency.csv written row by
 * row while the run goes (sim_options.services_sink hands the rows over in trace order),
 * into the temporary of the result folder, so that a service's row and its latency
 * histograms leave memory once its job's row is out. llm.csv and llm-latency.csv are
 * begun at the first LLM service (a run without one has neither, as before). The bytes
 * are those of report_csv_services_to, _latency_to, _llm and _llm_latency for the same rows. */
#include "report.h"
#include "outdir.h"
#include "util.h"

struct report_services {
  outdir *o;                /* NULL: rows are dropped (no result folder) */
  report_out *svc, *lat;    /* services.csv, latency.csv */
  report_out *llm, *llm_lat; /* NULL until the first LLM service */
  GError *error;            /* the first failure to begin a file */
};

report_services *report_services_new(outdir *o, GError **error) {
  report_services *rs = g_new0(report_services, 1);
  rs->o = o;
  if (!o) return rs;
  if (!(rs->svc = report_out_open(o, "services.csv", error)) ||
      !(rs->lat = report_out_open(o, "latency.csv", error))) {
    report_services_free(rs);
    return NULL;
  }
  report_csv_services_header(rs->svc->buf);
  report_csv_latency_header(rs->lat->buf);
  return rs;
}

/* Begins llm.csv and llm-latency.csv; FALSE (the error kept) when one cannot be made. */
static gboolean report_services_begin_llm(report_services *rs) {
  if (rs->llm) return TRUE;
  if (rs->error) return FALSE;
  if (!(rs->llm = report_out_open(rs->o, "llm.csv", &rs->error))) return FALSE;
  if (!(rs->llm_lat = report_out_open(rs->o, "llm-latency.csv", &rs->error))) {
    g_clear_pointer(&rs->llm, report_out_free);
    return FALSE;
  }
  report_csv_llm_header(rs->llm->buf);
  report_csv_llm_latency_header(rs->llm_lat->buf);
  return TRUE;
}

void report_services_row(void *data, const service_result *s) {
  report_services *rs = data;
  if (!rs->o) return;
  report_csv_service_row(s, rs->svc->buf);
  report_out_row(rs->svc);
  report_csv_latency_rows(s, rs->lat);
  if (!s->llm || !report_services_begin_llm(rs)) return;
  report_csv_llm_row(s, rs->llm->buf);
  report_out_row(rs->llm);
  report_csv_llm_latency_rows(s, rs->llm_lat);
}

gboolean report_services_finish(report_services *rs, GError **error) {
  g_return_val_if_fail(rs != NULL, FALSE);
  gboolean ok = rs->error == NULL;
  if (!ok) g_propagate_error(error, g_steal_pointer(&rs->error));
  report_out *files[] = {rs->svc, rs->lat, rs->llm, rs->llm_lat};
  rs->svc = rs->lat = rs->llm = rs->llm_lat = NULL;
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    if (!files[i]) continue;
    if (ok) ok = report_out_close(files[i], error);
    else report_out_free(files[i]);
  }
  report_services_free(rs);
  return ok;
}

void report_services_free(report_services *rs) {
  if (!rs) return;
  report_out_free(rs->svc);
  report_out_free(rs->lat);
  report_out_free(rs->llm);
  report_out_free(rs->llm_lat);
  g_clear_error(&rs->error);
  g_free(rs);
}
