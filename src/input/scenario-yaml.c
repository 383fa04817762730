/* scenario-yaml.c: the YAML tree every YAML input is read into (the scenario, NVIDIA's
 * device-plugin, mig-parted and ConfigMap files, --set values): a libyaml event reader that
 * builds a small tree with line/column per node and refuses what the readers do not take,
 * and the typed look-ups and messages on it. The only file that includes yaml.h; it knows
 * no scenario key (scenario.c and nvconfig.c do). */
#include "scenario-yaml.h"
#include "util.h"
#include "paths.h"
#include "safeopen.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <yaml.h>

scenario_yaml *scenario_yaml_new(scenario_yaml_type type, guint line, guint col) {
  scenario_yaml *n = g_new0(scenario_yaml, 1);
  n->type = type;
  n->line = line;
  n->col = col;
  if (type != SCENARIO_YAML_SCALAR)
    n->items = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_yaml_free);
  return n;
}

void scenario_yaml_free(scenario_yaml *n) {
  if (!n) return;
  if (n->items) g_ptr_array_unref(n->items); /* depth is bounded by SCENARIO_YAML_MAX_DEPTH */
  g_free(n->text);
  g_free(n->origin);
  g_free(n);
}

char *scenario_yaml_escape(const char *text) {
  char *e = g_strescape(text ? text : "", NULL);
  if (strlen(e) > 80) {
    e[77] = e[78] = e[79] = '.';
    e[80] = 0;
  }
  return e;
}

typedef struct ybuild {
  const char *file;
  const char *origin; /* reported instead of positions (override values) */
  diag_list *d;
  GPtrArray *stack;   /* open collections, borrowed (owned by the tree) */
  scenario_yaml *root;
  gboolean failed;
  const scenario_yaml *embed; /* parsing the text of this scalar: positions map into file */
  gboolean multi;     /* several documents: root is a SEQ of them (scenario_yaml_load_all_in) */
} ybuild;

/* Positions of an embedded document in the outer file (see scenario_yaml_parse_embedded). */
static void yb_map(const ybuild *b, guint *line, guint *col) {
  if (!b->embed) return;
  if (b->embed->block_indent) {
    *line += b->embed->line;
    *col += b->embed->block_indent;
  } else {
    *line = b->embed->line;
    *col = b->embed->col;
  }
}

/* The indentation of a block scalar's first content line: start is the offset of its |
 * or > indicator. */
static guint yb_block_indent(const guchar *buf, gsize len, gsize start) {
  gsize i = start;
  while (i < len && buf[i] != '\n') i++;
  while (i < len && (buf[i] == '\n' || buf[i] == '\r')) {
    i++;
    gsize ind = 0;
    while (i + ind < len && buf[i + ind] == ' ') ind++;
    if (i + ind < len && buf[i + ind] != '\n' && buf[i + ind] != '\r') return (guint)ind;
    i += ind;
  }
  return 1;
}

static void yb_error(ybuild *b, guint line, guint col, const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static void yb_error(ybuild *b, guint line, guint col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  b->failed = TRUE;
  if (b->origin) diag_add(b->d, b->file, 0, 0, "%s: %s", b->origin, msg);
  else diag_add(b->d, b->file, line, col, "%s", msg);
}

static void yb_syntax_error(ybuild *b, const yaml_parser_t *p, const guchar *buf, gsize len) {
  guint line, col;
  if (p->error == YAML_READER_ERROR) {
    /* Reader errors (bad encoding, control characters) carry a byte offset only. */
    util_text_position((const char *)buf, len, (gsize)p->problem_offset, &line, &col);
  } else {
    line = (guint)p->problem_mark.line + 1;
    col = (guint)p->problem_mark.column + 1;
  }
  yb_map(b, &line, &col);
  GString *msg = g_string_new("YAML syntax error: ");
  g_string_append(msg, p->problem ? p->problem : "cannot parse");
  if (p->error == YAML_READER_ERROR && p->problem_value != -1)
    g_string_append_printf(msg, " (byte 0x%02X)", (unsigned)p->problem_value & 0xFFu);
  if (p->context)
    g_string_append_printf(msg, " (%s at line %u)", p->context,
                           (guint)p->context_mark.line + 1);
  yb_error(b, line, col, "%s", msg->str);
  g_string_free(msg, TRUE);
}

static void yb_check_props(ybuild *b, const yaml_char_t *anchor, const yaml_char_t *tag,
                           guint line, guint col) {
  if (anchor) {
    g_autofree char *e = scenario_yaml_escape((const char *)anchor);
    yb_error(b, line, col, "YAML anchors (&%s) are not supported; write the value out", e);
  }
  if (tag) {
    g_autofree char *e = scenario_yaml_escape((const char *)tag);
    yb_error(b, line, col, "YAML tags (%s) are not supported", e);
  }
}

static void yb_add(ybuild *b, scenario_yaml *n) {
  if (b->stack->len == 0) {
    if (b->multi) g_ptr_array_add(b->root->items, n);
    else if (!b->root) b->root = n;
    else scenario_yaml_free(n); /* cannot happen: one document only */
    return;
  }
  scenario_yaml *parent = g_ptr_array_index(b->stack, b->stack->len - 1);
  if (parent->type == SCENARIO_YAML_MAP && parent->items->len % 2 == 0 &&
      n->type != SCENARIO_YAML_SCALAR)
    yb_error(b, n->line, n->col, "mapping keys must be plain text, found %s",
             n->type == SCENARIO_YAML_SEQ ? "a list" : "a mapping");
  g_ptr_array_add(parent->items, n);
}

static void yb_check_duplicates(ybuild *b, const scenario_yaml *map) {
  if (map->items->len < 4) return;
  GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(map->items, i);
    if (k->type != SCENARIO_YAML_SCALAR) continue;
    const scenario_yaml *first = g_hash_table_lookup(seen, k->text);
    if (first) {
      g_autofree char *e = scenario_yaml_escape(k->text);
      yb_error(b, k->line, k->col, "duplicate key '%s' (first at line %u)", e, first->line);
    } else {
      g_hash_table_insert(seen, k->text, (gpointer)k);
    }
  }
  g_hash_table_destroy(seen);
}

/* Parses buf into a tree. Returns NULL with *failed set when a problem was reported, or
 * NULL with *failed clear when the input holds no document (empty, comments only). */
static scenario_yaml *yaml_parse(const char *file, const char *origin, const guchar *buf,
                                 gsize len, diag_list *d, gboolean *failed,
                                 const scenario_yaml *embed, gboolean multi) {
  yaml_parser_t p;
  if (!yaml_parser_initialize(&p)) g_error("libyaml: out of memory");
  yaml_parser_set_input_string(&p, buf, len);
  ybuild b = {.file = file, .origin = origin, .d = d, .stack = g_ptr_array_new(),
              .embed = embed, .multi = multi};
  if (multi) b.root = scenario_yaml_new(SCENARIO_YAML_SEQ, 1, 1);
  gboolean done = FALSE;
  int docs = 0;
  while (!done) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&p, &ev)) {
      yb_syntax_error(&b, &p, buf, len);
      break;
    }
    guint line = (guint)ev.start_mark.line + 1, col = (guint)ev.start_mark.column + 1;
    yb_map(&b, &line, &col);
    scenario_yaml *n;
    switch (ev.type) {
    case YAML_STREAM_END_EVENT:
      done = TRUE;
      break;
    case YAML_DOCUMENT_START_EVENT:
      if (++docs > 1 && !multi) {
        yb_error(&b, line, col, "only one YAML document is allowed (found a second one)");
        done = TRUE;
      }
      break;
    case YAML_ALIAS_EVENT: {
      g_autofree char *e = scenario_yaml_escape((const char *)ev.data.alias.anchor);
      yb_error(&b, line, col, "YAML aliases (*%s) are not supported; write the value out", e);
      n = scenario_yaml_new(SCENARIO_YAML_SCALAR, line, col);
      n->text = g_strdup("");
      yb_add(&b, n);
      break;
    }
    case YAML_SCALAR_EVENT: {
      yb_check_props(&b, ev.data.scalar.anchor, ev.data.scalar.tag, line, col);
      n = scenario_yaml_new(SCENARIO_YAML_SCALAR, line, col);
      const char *v = (const char *)ev.data.scalar.value;
      gsize vl = ev.data.scalar.length;
      if (memchr(v, 0, vl)) {
        yb_error(&b, line, col, "a NUL character inside a value is not allowed");
        n->text = g_strdup("");
      } else {
        n->text = g_strndup(v, vl);
      }
      if (ev.data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
          ev.data.scalar.style == YAML_FOLDED_SCALAR_STYLE)
        /* in an embedded block (a config inside a Helm value's block), offset by the
         * outer block's indentation, so a third level maps into the file too */
        n->block_indent = !embed                ? yb_block_indent(buf, len, ev.start_mark.index)
                          : embed->block_indent ? yb_block_indent(buf, len, ev.start_mark.index) +
                                                      embed->block_indent
                                                : 0;
      yb_add(&b, n);
      break;
    }
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT: {
      gboolean seq = ev.type == YAML_SEQUENCE_START_EVENT;
      if (seq)
        yb_check_props(&b, ev.data.sequence_start.anchor, ev.data.sequence_start.tag, line, col);
      else
        yb_check_props(&b, ev.data.mapping_start.anchor, ev.data.mapping_start.tag, line, col);
      if (b.stack->len >= SCENARIO_YAML_MAX_DEPTH) {
        yb_error(&b, line, col, "nesting deeper than %d levels is not allowed", SCENARIO_YAML_MAX_DEPTH);
        done = TRUE;
        break;
      }
      n = scenario_yaml_new(seq ? SCENARIO_YAML_SEQ : SCENARIO_YAML_MAP, line, col);
      yb_add(&b, n);
      g_ptr_array_add(b.stack, n);
      break;
    }
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      if (b.stack->len) {
        n = g_ptr_array_index(b.stack, b.stack->len - 1);
        g_ptr_array_set_size(b.stack, b.stack->len - 1);
        if (n->type == SCENARIO_YAML_MAP) yb_check_duplicates(&b, n);
      }
      break;
    default:
      break;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&p);
  g_ptr_array_unref(b.stack);
  *failed = b.failed;
  if (b.failed || (multi && !b.root->items->len)) {
    scenario_yaml_free(b.root);
    return NULL;
  }
  return b.root;
}

scenario_yaml *scenario_yaml_parse_text(const char *file, const char *origin, const char *text,
                                        diag_list *diags, gboolean *failed) {
  return yaml_parse(file, origin, (const guchar *)text, strlen(text), diags, failed, NULL, FALSE);
}

/* Reads a whole regular file of at most SCENARIO_YAML_MAX_FILE_BYTES, opened once through
 * paths_open_in (confined to within unless NULL; FIFOs and devices refused unread). */
static gboolean read_small_file(const char *within, const char *path, char **data, gsize *len,
                                diag_list *d) {
  g_autoptr(GError) err = NULL;
  int fd = paths_open_in(within, path, &err);
  if (fd < 0) {
    diag_add(d, path, 0, 0, "cannot read: %s", err->message);
    return FALSE;
  }
  GStatBuf st;
  if (fstat(fd, &st) == 0 && st.st_size > SCENARIO_YAML_MAX_FILE_BYTES) {
    close(fd);
    diag_add(d, path, 0, 0, "file too large (%" G_GINT64_FORMAT " bytes; at most %d)",
             (gint64)st.st_size, SCENARIO_YAML_MAX_FILE_BYTES);
    return FALSE;
  }
  if (!safeopen_fd_contents(fd, SCENARIO_YAML_MAX_FILE_BYTES, data, len, &err)) {
    gboolean big = g_str_has_prefix(err->message, "larger than");
    if (big) diag_add(d, path, 0, 0, "file too large (at most %d bytes)", SCENARIO_YAML_MAX_FILE_BYTES);
    else diag_add(d, path, 0, 0, "cannot read: %s", err->message);
    return FALSE;
  }
  return TRUE;
}

/* One file's YAML: its single document, or with all every document in a sequence. */
static scenario_yaml *yaml_load_file(const char *within, const char *path, diag_list *diags,
                                     gboolean all) {
  g_return_val_if_fail(path && diags, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  if (!read_small_file(within, path, &data, &len, diags)) return NULL;
  gboolean failed = FALSE;
  scenario_yaml *root = yaml_parse(path, NULL, (const guchar *)data, len, diags, &failed, NULL,
                                   all);
  if (!root && !failed)
    diag_add(diags, path, 0, 0, "the file is empty: expected %s",
             all ? "YAML documents" : "a YAML mapping");
  return root;
}

scenario_yaml *scenario_yaml_load_in(const char *within, const char *path, diag_list *diags) {
  return yaml_load_file(within, path, diags, FALSE);
}

scenario_yaml *scenario_yaml_load_all_in(const char *within, const char *path, diag_list *diags) {
  return yaml_load_file(within, path, diags, TRUE);
}

scenario_yaml *scenario_yaml_load(const char *path, diag_list *diags) {
  return scenario_yaml_load_in(NULL, path, diags);
}

scenario_yaml *scenario_yaml_parse_embedded(const char *file, const scenario_yaml *scalar,
                                            diag_list *diags) {
  g_return_val_if_fail(file && scalar && scalar->type == SCENARIO_YAML_SCALAR && diags, NULL);
  gboolean failed = FALSE;
  scenario_yaml *root = yaml_parse(file, NULL, (const guchar *)scalar->text, strlen(scalar->text),
                                   diags, &failed, scalar, FALSE);
  if (!root && !failed)
    diag_add(diags, file, scalar->line, scalar->col, "the value is empty: expected a YAML mapping");
  return root;
}

scenario_yaml *scenario_yaml_get_key(const scenario_yaml *map, const char *key) {
  if (!map || map->type != SCENARIO_YAML_MAP) return NULL;
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    scenario_yaml *k = g_ptr_array_index(map->items, i);
    if (k->type == SCENARIO_YAML_SCALAR && !strcmp(k->text, key)) return k;
  }
  return NULL;
}

scenario_yaml *scenario_yaml_get(const scenario_yaml *map, const char *key) {
  if (!map || map->type != SCENARIO_YAML_MAP) return NULL;
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    scenario_yaml *k = g_ptr_array_index(map->items, i);
    if (k->type == SCENARIO_YAML_SCALAR && !strcmp(k->text, key))
      return g_ptr_array_index(map->items, i + 1);
  }
  return NULL;
}

const char *scenario_yaml_describe(const scenario_yaml *n) {
  if (!n) return "nothing";
  switch (n->type) {
  case SCENARIO_YAML_SEQ: return "a list";
  case SCENARIO_YAML_MAP: return "a mapping";
  default: return n->text;
  }
}

static void yreportv(diag_list *d, const char *file, const scenario_yaml *n, const char *fmt,
                     va_list ap) G_GNUC_PRINTF(4, 0);
static void yreportv(diag_list *d, const char *file, const scenario_yaml *n, const char *fmt,
                     va_list ap) {
  g_autofree char *msg = g_strdup_vprintf(fmt, ap);
  if (n && n->origin) diag_add(d, file, 0, 0, "%s: %s", n->origin, msg);
  else if (n) diag_add(d, file, n->line, n->col, "%s", msg);
  else diag_add(d, file, 0, 0, "%s", msg);
}

void scenario_yaml_report(diag_list *d, const char *file, const scenario_yaml *n,
                          const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  yreportv(d, file, n, fmt, ap);
  va_end(ap);
}

void scenario_yaml_expected(diag_list *d, const char *file, const scenario_yaml *n,
                            const char *what, const char *expected) {
  guint line = n->origin ? 0 : n->line, col = n->origin ? 0 : n->col;
  if (n->origin) what = n->origin;
  if (n->type == SCENARIO_YAML_SCALAR)
    diag_expected(d, file, line, col, what, expected, n->text);
  else
    diag_add(d, file, line, col, "%s: expected %s, found %s", what, expected,
             scenario_yaml_describe(n));
}

void scenario_yaml_k8s_objects(diag_list *d, const char *file, const scenario_yaml *docs,
                               GPtrArray *out) {
  for (guint i = 0; i < docs->items->len; i++) {
    const scenario_yaml *o = g_ptr_array_index(docs->items, i);
    if (o->type != SCENARIO_YAML_MAP) {
      scenario_yaml_expected(d, file, o, "document", "a Kubernetes object (a mapping "
                             "with apiVersion and kind)");
      continue;
    }
    const scenario_yaml *kind = scenario_yaml_get(o, "kind");
    const scenario_yaml *items = scenario_yaml_get(o, "items");
    if (kind && kind->type == SCENARIO_YAML_SCALAR && !strcmp(kind->text, "List") && items &&
        items->type == SCENARIO_YAML_SEQ) {
      for (guint k = 0; k < items->items->len; k++) {
        const scenario_yaml *it = g_ptr_array_index(items->items, k);
        if (it->type == SCENARIO_YAML_MAP) g_ptr_array_add(out, (gpointer)it);
        else scenario_yaml_expected(d, file, it, "items", "Kubernetes objects");
      }
      continue;
    }
    g_ptr_array_add(out, (gpointer)o);
  }
}

/* Edit distance (Levenshtein), for "did you mean"; strings longer than 64 give 99. */
static guint edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 64 || lb > 64) return 99;
  guint row[65], prev[65];
  for (size_t j = 0; j <= lb; j++) prev[j] = (guint)j;
  for (size_t i = 1; i <= la; i++) {
    row[0] = (guint)i;
    for (size_t j = 1; j <= lb; j++) {
      guint cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;
      guint v = prev[j - 1] + cost;
      v = MIN(v, prev[j] + 1);
      v = MIN(v, row[j - 1] + 1);
      row[j] = v;
    }
    memcpy(prev, row, sizeof(guint) * (lb + 1));
  }
  return prev[lb];
}

/* The valid name closest to text, if close enough to be a likely typo. */
static const char *closest_name(const char *const *valid, const char *text) {
  const char *best = NULL;
  guint best_d = 99;
  for (const char *const *v = valid; *v; v++) {
    guint dist = edit_distance(*v, text);
    if (dist < best_d) {
      best_d = dist;
      best = *v;
    }
  }
  size_t len = strlen(text);
  guint limit = len <= 4 ? 1 : len <= 10 ? 2 : 3;
  return best_d <= limit ? best : NULL;
}

static gboolean name_in(const char *const *valid, const char *text) {
  for (const char *const *v = valid; *v; v++)
    if (!strcmp(*v, text)) return TRUE;
  return FALSE;
}

void scenario_yaml_unknown_key(diag_list *d, const char *file, const scenario_yaml *k,
                               const char *what, const char *const *valid, const char *noun) {
  g_autofree char *list = g_strjoinv(", ", (char **)valid);
  g_autofree char *e = scenario_yaml_escape(k->text);
  const char *sugg = closest_name(valid, k->text);
  g_autofree char *hint = sugg ? g_strdup_printf(" (did you mean '%s'?)", sugg) : g_strdup("");
  scenario_yaml_report(d, file, k, "%s%sunknown %s '%s'%s; valid %ss: %s", what ? what : "",
                       what ? ": " : "", noun, e, hint, noun, list);
}

gboolean scenario_yaml_check_keys(diag_list *d, const char *file, const scenario_yaml *map,
                                  const char *what, const char *const *valid) {
  if (!map || map->type != SCENARIO_YAML_MAP) return TRUE;
  gboolean ok = TRUE;
  for (guint i = 0; i + 1 < map->items->len; i += 2) {
    const scenario_yaml *k = g_ptr_array_index(map->items, i);
    if (k->type != SCENARIO_YAML_SCALAR || name_in(valid, k->text)) continue;
    ok = FALSE;
    scenario_yaml_unknown_key(d, file, k, what, valid, "key");
  }
  return ok;
}

gboolean scenario_yaml_int(diag_list *d, const char *file, const scenario_yaml *n,
                           const char *what, int64_t min, int64_t max, int64_t *out) {
  int64_t v;
  if (n->type == SCENARIO_YAML_SCALAR && util_parse_int64(n->text, &v) && v >= min && v <= max) {
    *out = v;
    return TRUE;
  }
  g_autofree char *exp =
      max == INT64_MAX ? g_strdup_printf("an integer >= %" PRId64, min)
                       : g_strdup_printf("an integer from %" PRId64 " to %" PRId64, min, max);
  scenario_yaml_expected(d, file, n, what, exp);
  return FALSE;
}

gboolean scenario_yaml_bool(diag_list *d, const char *file, const scenario_yaml *n,
                            const char *what, gboolean *out) {
  /* YAML 1.2 core spellings, plus the YAML 1.1 yes/no/on/off that NVIDIA's Go readers
   * accept. */
  static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "YES",
                                    "on",   "On",   "ON",   NULL};
  static const char *const no[] = {"false", "False", "FALSE", "no", "No", "NO",
                                   "off",   "Off",   "OFF",   NULL};
  if (n->type == SCENARIO_YAML_SCALAR) {
    if (name_in(yes, n->text)) {
      *out = TRUE;
      return TRUE;
    }
    if (name_in(no, n->text)) {
      *out = FALSE;
      return TRUE;
    }
  }
  scenario_yaml_expected(d, file, n, what, "true or false");
  return FALSE;
}

const char *scenario_yaml_scalar(diag_list *d, const char *file, const scenario_yaml *n,
                                 const char *what, const char *expected) {
  if (n->type == SCENARIO_YAML_SCALAR) return n->text;
  scenario_yaml_expected(d, file, n, what, expected);
  return NULL;
}
