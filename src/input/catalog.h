/* catalog.h: the GPU models sharesim knows (memory, SMs, prices, MIG profiles with their
 * placement rules, vGPU profiles) and the MIG layout algebra: parsing "3g.40gb x2",
 * checking a layout against the placement rule, enumerating valid maximal layouts.
 * The tables are data (catalog.c); facts and sources are in docs/catalog.md and docs/sources.md. */
#pragma once
#include <glib.h>
#include <stdint.h>

#define CATALOG_MAX_MIG_SLOTS 8    /* memory-slice axis width (A30: 4) */
#define CATALOG_MAX_INSTANCES 8    /* at most 7 GIs per GPU; 8 for headroom */
#define CATALOG_MAX_PROFILES 16    /* MIG profiles per model the layout algebra handles */

typedef struct mig_profile {
  const char *name;        /* "3g.40gb", "1g.10gb+me" */
  uint8_t compute_slices;  /* g */
  uint8_t mem_slices;      /* width on the memory-slice axis */
  uint8_t starts_mask;     /* bit i set: may start at memory slice i */
  uint8_t max_count;       /* per GPU */
  gboolean media;          /* "+me": at most one per GPU */
  double usable_gib;       /* memory the instance gives a process */
  uint16_t sms;            /* SMs in the instance */
} mig_profile;

typedef struct vgpu_profile {
  const char *name;        /* "A100D-20C" */
  int64_t framebuffer_bytes;
  uint8_t max_per_gpu;
  gboolean desktop;        /* Q- or B-series (virtual workstation / PC); FALSE: C-series */
} vgpu_profile;

typedef struct gpu_model {
  const char *name;           /* catalogue name, e.g. "A100-80GB" */
  const char *description;    /* "NVIDIA A100 SXM4/PCIe 80 GB" */
  int64_t mem_bytes;          /* memory a process can use on the whole GPU */
  uint16_t sms;               /* SMs of the whole GPU outside MIG mode */
  uint16_t sms_mig;           /* SMs usable in MIG mode (0 when not MIG-capable) */
  double compute_capability;  /* 8.0 for A100: decides the MPS client limit */
  double price_per_gpu_hour;  /* default on-demand $/GPU-h [S34] */
  uint8_t mig_slots;          /* memory-slice axis width; 0 = no MIG */
  const mig_profile *profiles;
  guint n_profiles;
  const vgpu_profile *vgpu_profiles;
  guint n_vgpu_profiles;
  const char *sources;        /* source tags, e.g. "[S1][S41]" */
  /* Added by the catalogue owner (appended; existing fields unchanged): */
  uint8_t mig_compute_slices; /* compute slices in MIG mode (7; A30: 4); 0 = no MIG */
  uint8_t mig_max_instances;  /* most GPU instances at once (7; A30: 4); 0 = no MIG */
  const char *notes;          /* which values are derived or unverified (docs/catalog.md) */
  /* Added for LLM serving (roofline step time, docs/models.md "LLM serving"): */
  double mem_bw_gbps;         /* peak memory bandwidth, GB/s (datasheet, docs/catalog.md) */
  double fp16_tflops;         /* peak dense FP16/BF16 tensor TFLOP/s (no sparsity) */
  /* Added for the DCGM export (run --dcgm, docs/models.md "The DCGM export's other gauges"): */
  const char *product_name;   /* the driver's name, as DCGM's modelName prints it */
  double tdp_w;               /* max board power, W (datasheet) */
  double sm_clock_mhz;        /* max SM clock, MHz (unverified) */
  double mem_clock_mhz;       /* memory clock, MHz (unverified) */
} gpu_model;

/* One MIG instance of a layout: profile index into model->profiles, start slice. */
typedef struct mig_instance {
  uint8_t profile;
  uint8_t start;
} mig_instance;

/* A layout: a multiset of profiles, with a feasible placement once validated. */
typedef struct mig_layout {
  guint n;
  mig_instance inst[CATALOG_MAX_INSTANCES];
} mig_layout;

/* All models, in catalogue order. */
const gpu_model *catalog_models(guint *n_out);
/* Exact name, case-insensitive; no aliases ("A100" is ambiguous). NULL if unknown. */
const gpu_model *catalog_find(const char *name);
/* "T4, L4, ..." for error messages. Owned string. */
char *catalog_model_names(void);
/* Index of profile by name in model (-1 if unknown). */
int catalog_profile_index(const gpu_model *m, const char *name);
const vgpu_profile *catalog_vgpu_find(const gpu_model *m, const char *name);
/* MPS client limit: 48 if compute capability >= 7.5 else 16 (device-plugin threshold). */
guint catalog_mps_client_limit(const gpu_model *m);

/* Parses "3g.40gb x2", "4g.40gb + 2g.20gb + 1g.10gb", "1g.10gb x7" into a layout and
 * finds a placement for it. On failure returns FALSE with a message that names the
 * conflicting profiles and, where one exists, a valid alternative. Profiles are placed
 * largest first, trying every start (exhaustive: at most 7 instances). */
gboolean catalog_layout_parse(const gpu_model *m, const char *text, mig_layout *out,
                              char **message);
/* Validates a multiset given as profile indices; fills placement. */
gboolean catalog_layout_place(const gpu_model *m, const uint8_t *profiles, guint n,
                              mig_layout *out);
/* Canonical text of a layout: profiles sorted by size descending, "3g.40gb x2 + 1g.10gb". */
char *catalog_layout_to_string(const gpu_model *m, const mig_layout *l);
/* Every valid maximal layout (nothing more fits), without "+me" profiles, in a stable
 * order (largest profiles first). Returns a GArray of mig_layout. */
GArray *catalog_maximal_layouts(const gpu_model *m);
/* Memory (bytes) of the largest instance in the layout, and total SMs. */
int64_t catalog_layout_largest_mem(const gpu_model *m, const mig_layout *l);
int64_t catalog_profile_mem_bytes(const mig_profile *p);

/* ---- added by the catalogue owner ---------------------------------------------------
 * Profile tables are in canonical order (compute slices, then memory slices, descending;
 * a "+me" profile right after its plain twin), so profile index order = size order. A
 * layout filled by catalog_layout_parse/_place/_validate or catalog_maximal_layouts lists
 * its instances in that order (equal profiles by ascending start). The placement is one
 * valid assignment of starts; messages are owned strings (g_free). */

/* Like catalog_layout_place, but on failure sets *message (owned, may be NULL) to the
 * same explanation catalog_layout_parse gives: the rule broken, the profiles involved,
 * and a valid alternative. For the scenario reader's YAML-list form. An index out of
 * range is refused with a message. The layout text in messages is canonical. */
gboolean catalog_layout_validate(const gpu_model *m, const uint8_t *profiles, guint n,
                                 mig_layout *out, char **message);
/* Sum of the SMs of the layout's instances. */
int64_t catalog_layout_total_sms(const gpu_model *m, const mig_layout *l);
/* Placement as text, canonical order: "3g.40gb@0 3g.40gb@4". Owned string. */
char *catalog_layout_placement_string(const gpu_model *m, const mig_layout *l);
/* Allowed starts of a profile as compact text: "0-6", "0,2,4,6", "0". Owned string. */
char *catalog_profile_starts_string(const mig_profile *p);
/* Number of distinct non-empty valid multisets of GPU instances; "+me" profiles are
 * counted only when include_media (8-slot GPUs: 77 without +me, derived from [S1]). */
guint catalog_count_valid_layouts(const gpu_model *m, gboolean include_media);
/* Every valid non-empty layout (multiset of GPU instances), without "+me" profiles, in
 * the same stable order as catalog_maximal_layouts (descending counts, largest profiles
 * first); its length is catalog_count_valid_layouts(m, FALSE). Empty for non-MIG models.
 * Returns a GArray of mig_layout (g_array_unref). */
GArray *catalog_valid_layouts(const gpu_model *m);
/* Models whose name contains name, case-insensitively ("A100" -> "A100-40GB, A100-80GB"),
 * else the models a driver's product name stands for (DCGM's modelName, nvidia-smi's name:
 * "NVIDIA A100-SXM4-80GB" -> "A100-80GB", "Tesla T4" -> "T4"), for "did you mean" hints;
 * NULL when none or name is shorter than 2. Owned string. */
char *catalog_model_suggestions(const char *name);
/* Allowed MIG-profile names of a model, "7g.80gb, 4g.40gb, ..." (owned; "" if no MIG). */
char *catalog_profile_names(const gpu_model *m);
