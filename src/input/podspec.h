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
#include "scenario.h" /* pod_gpu */


/* Loads the pod of path ("FILE" or "FILE#NAME", NAME an object's metadata.name; without one
 * the file must hold exactly one Pod or workload), confined to the folder within (paths.h;
 * NULL: anywhere). NULL with every problem in diags. Owned. */
pod_gpu *podspec_load_in(const char *within, const char *path, diag_list *diags);
void pod_gpu_free(pod_gpu *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(pod_gpu, pod_gpu_free)
/* "HAMi", "KAI" */
const char *pod_kind_name(pod_kind k);
