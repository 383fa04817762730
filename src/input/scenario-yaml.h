/* scenario-yaml.h: the YAML tree the scenario (scenario.c), NVIDIA's files (nvconfig.c)
 * and --set values are read into: a small read-only tree built from libyaml events, with
 * 1-based line/column of every node. Anchors, aliases, tags, several documents (except
 * through scenario_yaml_load_all_in), non-scalar
 * keys, duplicate keys, NUL characters and nesting deeper than SCENARIO_YAML_MAX_DEPTH are
 * refused while building. scenario-yaml.c is the only file that includes yaml.h. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "diag.h"

/* Largest YAML file read (bytes) and deepest nesting. */
#define SCENARIO_YAML_MAX_FILE_BYTES (8 * 1024 * 1024)
#define SCENARIO_YAML_MAX_DEPTH 64

typedef enum { SCENARIO_YAML_SCALAR = 0, SCENARIO_YAML_SEQ, SCENARIO_YAML_MAP } scenario_yaml_type;

typedef struct scenario_yaml {
  scenario_yaml_type type;
  guint line, col;            /* 1-based position in the file */
  char *text;                 /* SCALAR: the value (no NUL inside); NULL otherwise */
  char *origin;               /* NULL, or "--set KEY" for nodes that came from an override */
  guint block_indent;         /* SCALAR written as a block (| or >): the column offset of its
                               * content lines (their indentation); 0 for other scalars */
  GPtrArray *items;           /* SEQ: the items; MAP: key, value, key, value ... (keys are
                               * scalars); NULL for SCALAR. Owns its nodes. */
} scenario_yaml;

/* One scenario key, declared once by the file that owns it (a strategy's share-NAME.c,
 * priority.c for its sections, scenario.c for the groups NVIDIA's files also set).
 * The reader's lists of valid keys, `check`'s description, the docs' tables and the
 * invariant suite's random pools all come from these declarations. */
typedef struct scenario_key {
  const char *name;     /* as a pool of the scenario spells it */
  const char *def;      /* the default as a scenario would write it ("1", "1024us"), or how
                         * it is derived ("100/replicas"); NULL when the key is required */
  const char *doc;      /* what it sets, one line */
  /* Values the invariant suite may write (tests/invariants): '|'-separated YAML scalars
   * ("2|3|4"), or "LO..HI" for a number drawn uniformly between; NULL: never drawn. Values
   * of a model-specific key are valid on the row's sample_gpu. */
  const char *sample;
} scenario_key;

/* Reads and parses a YAML file into a tree; NULL with the problems in diags (empty file,
 * syntax error, refused constructs). The root may be of any type. Owned. */
scenario_yaml *scenario_yaml_load(const char *path, diag_list *diags);
/* The same for a file a scenario references: confined to within (paths_read; NULL: anywhere). */
scenario_yaml *scenario_yaml_load_in(const char *within, const char *path, diag_list *diags);
/* The same for a file of several YAML documents (`---`; Kubernetes objects as users hold
 * them): a SEQ whose items are the documents, in file order. Owned. */
scenario_yaml *scenario_yaml_load_all_in(const char *within, const char *path, diag_list *diags);
void scenario_yaml_free(scenario_yaml *n);
/* Parses the text of a scalar node of file as a YAML document of its own (a ConfigMap's
 * data value). Positions of the new tree and of its problems are those in file: for a block
 * scalar (| or >) line and column of the embedded text, for a quoted or plain one the
 * scalar's own position. NULL with the problems in diags (or an empty text). Owned. */
scenario_yaml *scenario_yaml_parse_embedded(const char *file, const scenario_yaml *scalar,
                                            diag_list *diags);
/* Value of key in a MAP node, NULL if absent or if map is not a MAP. Borrowed. */
scenario_yaml *scenario_yaml_get(const scenario_yaml *map, const char *key);
/* Key node of key in a MAP node (for positions), NULL if absent. Borrowed. */
scenario_yaml *scenario_yaml_get_key(const scenario_yaml *map, const char *key);
/* "a list", "a mapping" or the scalar text: what was found, for messages. */
const char *scenario_yaml_describe(const scenario_yaml *n);
/* Adds "file:line:col: fmt..." at node n, or "file: --set KEY: fmt..." when n came from an
 * override. */
void scenario_yaml_report(diag_list *d, const char *file, const scenario_yaml *n,
                          const char *fmt, ...) G_GNUC_PRINTF(4, 5);
/* Adds "<pos>: what: expected X, found 'Y'" at node n (or "found a list"). With an
 * override origin the "what" is replaced by "--set KEY". */
void scenario_yaml_expected(diag_list *d, const char *file, const scenario_yaml *n,
                            const char *what, const char *expected);
/* The Kubernetes objects of a multi-document file (docs: the SEQ of its documents), the
 * items of a `kind: List` in its place, appended to out (const scenario_yaml*, borrowed); a
 * document or item that is not a mapping is reported (scenario_yaml_expected) and skipped. */
void scenario_yaml_k8s_objects(diag_list *d, const char *file, const scenario_yaml *docs,
                               GPtrArray *out);
/* Reports every key of map that is not in valid (NULL-terminated): "what: unknown key
 * 'k' (did you mean 'x'?); valid keys: a, b, c". Returns FALSE if any was unknown. */
gboolean scenario_yaml_check_keys(diag_list *d, const char *file, const scenario_yaml *map,
                                  const char *what, const char *const *valid);
/* Typed scalars; on a wrong type or value they report with scenario_yaml_expected and
 * return FALSE. Integers: decimal, within [min, max]; the expected text names the range. */
gboolean scenario_yaml_int(diag_list *d, const char *file, const scenario_yaml *n,
                           const char *what, int64_t min, int64_t max, int64_t *out);
gboolean scenario_yaml_bool(diag_list *d, const char *file, const scenario_yaml *n,
                            const char *what, gboolean *out);
/* The scalar's text, or NULL after reporting "expected <expected>" for a list/mapping. */
const char *scenario_yaml_scalar(diag_list *d, const char *file, const scenario_yaml *n,
                                 const char *what, const char *expected);

/* ---- for the readers' own trees (--set values) ---- */
/* A node of type at line/col (0 when it came from no file); a MAP or SEQ gets its items
 * array. Owned. */
scenario_yaml *scenario_yaml_new(scenario_yaml_type type, guint line, guint col);
/* Parses text as a YAML document whose problems are reported as "file: origin: ..." when
 * origin is not NULL, with positions in text otherwise. NULL with *failed set after a
 * reported problem, NULL with *failed clear when text holds no document. Owned. */
scenario_yaml *scenario_yaml_parse_text(const char *file, const char *origin, const char *text,
                                        diag_list *diags, gboolean *failed);
/* Escaped copy of input text shortened to 80 characters, for messages. Owned. */
char *scenario_yaml_escape(const char *text);
/* Reports key node k as unknown: "what: unknown NOUN 'k' (did you mean 'x'?); valid NOUNs:
 * a, b, c" (the closest valid name when it is a likely typo). */
void scenario_yaml_unknown_key(diag_list *d, const char *file, const scenario_yaml *k,
                               const char *what, const char *const *valid, const char *noun);
