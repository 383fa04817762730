/* podspec.h: the GPU requests of a Kubernetes Pod (or of a workload's pod template) as
 * HAMi and the KAI scheduler read them, so that a scenario pool can take them from the file
 * users apply (docs/scenario-format.md, "Pod files: `pod_spec`"): HAMi's resource limits
 * nvidia.com/gpu, nvidia.com/gpucores, nvidia.com/gpumem and nvidia.com/gpumem-percentage
 * [S251], KAI's annotations gpu-fraction and gpu-memory [S253]. Multi-document YAML and
 * `kind: List`. What sharesim cannot map is refused with file:line:column. The YAML tree
 * comes from scenario-yaml.c. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "diag.h"

typedef enum {
  POD_HAMI = 1, /* HAMi's resources (nvidia.com/gpucores, gpumem, gpumem-percentage) */
  POD_KAI,      /* KAI's annotations (gpu-fraction, gpu-memory) */
} pod_kind;

/* The GPU requests of a pool's pod_spec (read here; hami and kai take them
 * where the pool sets no key of its own). */
typedef struct pod_gpu {
  char *path;           /* the file, as given (without a #NAME) */
  char *object;         /* "Pod default/gpu-pod" */
  pod_kind kind;
  guint32 gpus;         /* nvidia.com/gpu of the GPU container (HAMi), 0 when unset */
  double cores;         /* HAMi nvidia.com/gpucores / 100, 0 when unset */
  double mem_mib;       /* HAMi nvidia.com/gpumem (MiB), 0 when unset */
  double mem_percent;   /* HAMi nvidia.com/gpumem-percentage, 0 when unset */
  double fraction;      /* KAI gpu-fraction, 0 when unset */
  double kai_mem_mib;   /* KAI gpu-memory (MiB), 0 when unset */
  guint line, col;      /* position of the object's metadata.name (else its kind) */
} pod_gpu;

/* Loads the pod of path ("FILE" or "FILE#NAME", NAME an object's metadata.name; without one
 * the file must hold exactly one Pod or workload), confined to the folder within (paths.h;
 * NULL: anywhere). NULL with every problem in diags. Owned. */
pod_gpu *podspec_load_in(const char *within, const char *path, diag_list *diags);
void pod_gpu_free(pod_gpu *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(pod_gpu, pod_gpu_free)
/* "HAMi", "KAI" */
const char *pod_kind_name(pod_kind k);
