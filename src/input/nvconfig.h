/* nvconfig.h: readers of the two NVIDIA configuration files a platform team already has,
 * so a scenario pool can take its sharing from them (docs/scenario-format.md, "NVIDIA files"; [S5][S8]):
 *  - the k8s-device-plugin / GPU Operator sharing config (sharing.timeSlicing or
 *    sharing.mps: replicas, renameByDefault, failRequestsGreaterThanOne);
 *  - the nvidia-mig-parted config (named MIG layouts, "mig-configs").
 * Both are YAML; the YAML tree comes from scenario.c (the only file including yaml.h).
 * Problems go into a diag list with file:line:column. Loaded objects are owned by the
 * caller and freed with their *_free; strings inside them belong to the object. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "diag.h"
#include "catalog.h"

/* ---- device-plugin sharing config ------------------------------------------------- */

typedef enum {
  NVCONFIG_SHARING_NONE = 0,   /* no "sharing" section: every GPU is advertised once */
  NVCONFIG_SHARING_TIME_SLICING,
  NVCONFIG_SHARING_MPS,
} nvconfig_sharing_kind;

typedef struct nvconfig_resource {
  char *name;          /* "nvidia.com/gpu" or "nvidia.com/mig-1g.10gb" */
  char *mig_profile;   /* "1g.10gb" for a MIG resource, NULL for nvidia.com/gpu */
  guint32 replicas;    /* >= 2, as the device plugin requires */
  guint line, col;     /* position of the replicas value (for range messages) */
} nvconfig_resource;

typedef struct nvconfig_sharing {
  char *path;                       /* the file, as given (without a #KEY) */
  char *source;                     /* where the config came from: "FILE" or "FILE#KEY" */
  nvconfig_sharing_kind kind;
  gboolean rename_by_default;       /* default false */
  gboolean fail_requests_greater_than_one; /* default false */
  GArray *resources;                /* nvconfig_resource, file order; empty for NONE */
  guint line, col;                  /* position of the timeSlicing/mps key (0 for NONE) */
} nvconfig_sharing;

/* Loads and validates a device-plugin config. path is the config file itself, a ConfigMap
 * holding it (`kubectl get cm NAME -o yaml`), a `kind: List` of ConfigMaps, or GPU Operator
 * Helm values (devicePlugin.config.data); "FILE#KEY" names the data key to read (else the Helm
 * default key, else the only key; several keys without a choice are refused, naming them).
 * NULL with every problem in diags. */
nvconfig_sharing *nvconfig_sharing_load(const char *path, diag_list *diags);
/* The same for a file a scenario references: opened once, confined to the folder within
 * (paths_open_in; the scenario's ref_dir), NULL for anywhere. */
nvconfig_sharing *nvconfig_sharing_load_in(const char *within, const char *path,
                                           diag_list *diags);
void nvconfig_sharing_free(nvconfig_sharing *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(nvconfig_sharing, nvconfig_sharing_free)
const char *nvconfig_sharing_kind_name(nvconfig_sharing_kind k); /* "timeSlicing" */

/* ---- mig-parted config ------------------------------------------------------------ */

typedef struct nvconfig_mig_entry {
  guint line, col;            /* position of the entry's mapping */
  gboolean all_devices;       /* devices: all */
  GArray *devices;            /* guint GPU indices when !all_devices */
  GArray *device_pos;         /* guint line, col of each index (pairs), for messages */
  GPtrArray *device_filter;   /* char* PCI IDs as written ("0x20B210DE"); may be empty */
  gboolean mig_enabled;
  GPtrArray *profiles;        /* char* profile names of mig-devices, file order */
  GArray *counts;             /* guint32 count per profile */
} nvconfig_mig_entry;

typedef struct nvconfig_mig_config {
  char *name;                 /* "all-balanced" */
  guint line, col;            /* position of the name */
  GPtrArray *entries;         /* nvconfig_mig_entry*, file order */
} nvconfig_mig_config;

typedef struct nvconfig_mig {
  char *path;                 /* the file, as given (without a #KEY) */
  char *source;               /* where the config came from: "FILE" or "FILE#KEY" */
  GPtrArray *configs;         /* nvconfig_mig_config*, file order */
} nvconfig_mig;

/* What a config's entries give one GPU of a node (nvconfig_mig_per_gpu). */
typedef struct nvconfig_gpu_setup {
  gboolean mig;               /* MIG enabled, with layout */
  mig_layout layout;
  guint line;                 /* the entry that names the GPU; 0: none does */
} nvconfig_gpu_setup;

/* Loads and validates a mig-parted config (version v1, mig-configs): the file, its ConfigMap
 * (or a List), or Helm values (migManager.config.data), "FILE#KEY" as for
 * nvconfig_sharing_load. NULL with every
 * problem in diags. Profiles are not checked against a GPU model here (one file may
 * serve several models); nvconfig_mig_layout does that. */
nvconfig_mig *nvconfig_mig_load(const char *path, diag_list *diags);
/* The same confined to within (as nvconfig_sharing_load_in). */
nvconfig_mig *nvconfig_mig_load_in(const char *within, const char *path, diag_list *diags);
void nvconfig_mig_free(nvconfig_mig *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(nvconfig_mig, nvconfig_mig_free)
/* The named config, NULL if absent. */
const nvconfig_mig_config *nvconfig_mig_find(const nvconfig_mig *c, const char *name);
/* "all-disabled, all-balanced, ..." in file order, for error messages. Owned. */
char *nvconfig_mig_names(const nvconfig_mig *c);

/* The one layout a named config gives every GPU of model m. An entry applies to m when
 * its device-filter names a PCI ID of m (a small table of known IDs), or when it has no
 * filter and all its profiles exist on m; an entry whose filter names other devices only
 * (other models, or IDs the table does not know, e.g. a display GPU) is ignored for m. FALSE with *message
 * (owned) when no entry applies, when the applicable entries disable MIG, create no
 * instance, give different GPUs different layouts, or break the placement rule. */
gboolean nvconfig_mig_layout(const nvconfig_mig_config *cfg, const gpu_model *m,
                             mig_layout *out, char **message);
/* Per-device entries (`devices: [0, 1]`): the set-up each GPU 0..gpus-1 of a node of model m
 * gets from the entries of cfg that apply to m (setups, gpus rows; a GPU no entry names has
 * line 0 and MIG disabled). -1 with each problem in d at the mig-parted file's line:column:
 * a device index beyond the node, a GPU named by two entries. 0 when every named GPU gets
 * MIG with one layout (nvconfig_mig_layout's, which the unnamed GPUs take too); 1 when they
 * differ. *text (owned, NULL without device lists): "GPUs 0-1: 3g.40gb x2; GPUs 2-3: ...". */
int nvconfig_mig_per_gpu(const nvconfig_mig *mc, const nvconfig_mig_config *cfg,
                         const gpu_model *m, guint gpus, GArray *setups, char **text,
                         diag_list *d);
/* The entries of cfg that are ignored for m because their device-filter names other devices
 * ("line 12 (device-filter 0x1FB010DE (not a MIG GPU sharesim knows))"), NULL when none.
 * Owned. For `check` to say what it left out. */
char *nvconfig_mig_ignored(const nvconfig_mig_config *cfg, const gpu_model *m);
/* The catalogue model name of a PCI device ID ("0x20B210DE" -> "A100-80GB"), NULL when
 * the ID is not in the table. Case-insensitive. */
const char *nvconfig_pci_model(const char *pci_id);
