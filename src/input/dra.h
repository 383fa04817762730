/* dra.h: Kubernetes Dynamic Resource Allocation objects as users hold them, read so that a
 * scenario pool can take its sharing from a claim (docs/scenario-format.md, "DRA claims"):
 * a ResourceClaim or ResourceClaimTemplate (resource.k8s.io v1, v1beta2, v1beta1) asking for
 * devices of NVIDIA's DRA driver (DeviceClasses gpu.nvidia.com and mig.nvidia.com, or a
 * DeviceClass of the same file selecting them), its opaque GpuConfig / MigDeviceConfig
 * (sharing TimeSlicing or MPS), and the Pods and workloads of the file that reference it
 * (how many containers share a claimed device). Multi-document YAML and `kind: List`.
 * What sharesim cannot map is refused with file:line:column. The YAML tree comes from
 * scenario-yaml.c. */
#pragma once
#include <glib.h>
#include <stdint.h>
#include "diag.h"

/* What a claim maps to. */
typedef enum {
  DRA_EXCLUSIVE = 0,  /* whole GPUs, one pod each (no sharing configured, one sharer) */
  DRA_TIME_SLICING,   /* GpuConfig sharing TimeSlicing, or several sharers without config */
  DRA_MPS,            /* GpuConfig sharing MPS */
  DRA_MIG,            /* MIG devices by profile (mig.nvidia.com) */
} dra_kind;

typedef struct dra_claim {
  char *path;          /* the file, as given (without a #NAME) */
  char *object;        /* "ResourceClaimTemplate gpu-test5/multiple-gpus" */
  char *requests;      /* the requests read, "ts-gpu" or "gpu0, gpu1" */
  dra_kind kind;
  guint32 devices;     /* devices one claim holds: the requests' counts summed */
  guint32 sharers;     /* containers sharing one claimed device, counted in the file's Pods
                        * and workloads (the most of any request); 0: none references it */
  char *sharers_from;  /* where they were counted: "Pod gpu-test5/pod0"; NULL when 0 */
  char *interval;      /* TimeSlicing interval as written ("Long"), NULL when unset */
  int thread_pct;      /* MPS defaultActiveThreadPercentage, -1 when unset */
  int64_t pinned_bytes; /* MPS pinned device memory limit, 0 when unset */
  GPtrArray *profiles; /* DRA_MIG: char* profile of each device, request order */
  GArray *profile_pos; /* DRA_MIG: guint line, col of each device's profile selector */
  guint line, col;     /* position of the claim's metadata.name (else its kind) */
} dra_claim;

/* Loads the claim of path ("FILE" or "FILE#NAME", NAME a claim's or template's
 * metadata.name or NAMESPACE/NAME; without one the file must hold exactly one), confined to
 * the folder within (paths.h; NULL: anywhere). request names the one request to read (NULL:
 * all, which must then be alike). NULL with every problem in diags. Owned. */
dra_claim *dra_load_in(const char *within, const char *path, const char *request,
                       diag_list *diags);
void dra_claim_free(dra_claim *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(dra_claim, dra_claim_free)
/* "exclusive", "TimeSlicing", "MPS", "MIG" */
const char *dra_kind_name(dra_kind k);
