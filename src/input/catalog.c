/* catalog.c: the GPU catalogue (memory, SMs, compute capability, prices, MIG and vGPU
 * profiles) as static tables, and the MIG layout algebra over them: parsing layout text,
 * placing a multiset of GPU instances on the memory-slice axis, explaining refusals with a
 * valid alternative, enumerating maximal layouts. It knows nothing of jobs, pools or time
 * and never prints; values, sources and what is unverified are in docs/catalog.md. */
#include "catalog.h"
#include "util.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MIB(x) ((int64_t)(x) * INT64_C(1048576))

/* Allowed-start masks on the memory-slice axis (bit i set: may start at slice i). */
#define ST_0 0x01u      /* {0} */
#define ST_0_4 0x11u    /* {0,4} */
#define ST_0_2_4 0x15u  /* {0,2,4} */
#define ST_EVEN 0x55u   /* {0,2,4,6} */
#define ST_0_6 0x7fu    /* {0..6}: a 1-slice GI never starts at slice 7 [S1] */
#define ST_A30_1 0x0fu  /* {0..3} on the 4-slot A30 [S44] */
#define ST_A30_2 0x05u  /* {0,2} */

/* ---- MIG profile tables ------------------------------------------------------------
 * Row: name, g (compute slices), memory slices (width), allowed starts, max count,
 * media extensions, usable GiB, SMs. Canonical order: largest first (g, then width,
 * descending), a "+me" twin right after its plain profile. Usable GiB are the values
 * nvidia-smi mig -lgip prints, stored as the exact 1/16 GiB they round from. */

/* A30 24GB [S1][S44]; 2g.12gb+me (R525+) has no capture: same as 2g.12gb (derived). */
static const mig_profile a30_mig[] = {
    {"4g.24gb", 4, 4, ST_0, 1, FALSE, 23.5, 56},
    {"2g.12gb", 2, 2, ST_A30_2, 2, FALSE, 11.6875, 28},
    {"2g.12gb+me", 2, 2, ST_A30_2, 1, TRUE, 11.6875, 28},
    {"1g.6gb", 1, 1, ST_A30_1, 4, FALSE, 5.8125, 14},
    {"1g.6gb+me", 1, 1, ST_A30_1, 1, TRUE, 5.8125, 14},
};

/* A100-40GB: slices/starts/counts [S1]; GiB and SMs from -lgip captures [S40][C3]
 * (newer drivers print 9.75/19.62 for the 2- and 4-slice profiles). */
static const mig_profile a100_40_mig[] = {
    {"7g.40gb", 7, 8, ST_0, 1, FALSE, 39.25, 98},
    {"4g.20gb", 4, 4, ST_0, 1, FALSE, 19.5, 56},
    {"3g.20gb", 3, 4, ST_0_4, 2, FALSE, 19.5, 42},
    {"2g.10gb", 2, 2, ST_0_2_4, 3, FALSE, 9.625, 28},
    {"1g.10gb", 1, 2, ST_EVEN, 4, FALSE, 9.625, 14},
    {"1g.5gb", 1, 1, ST_0_6, 7, FALSE, 4.75, 14},
    {"1g.5gb+me", 1, 1, ST_0_6, 1, TRUE, 4.75, 14},
};

/* A100-80GB: same placement table [S1][S3]; GiB and SMs from a captured -lgip [S41]. */
static const mig_profile a100_80_mig[] = {
    {"7g.80gb", 7, 8, ST_0, 1, FALSE, 79.0, 98},
    {"4g.40gb", 4, 4, ST_0, 1, FALSE, 39.25, 56},
    {"3g.40gb", 3, 4, ST_0_4, 2, FALSE, 39.25, 42},
    {"2g.20gb", 2, 2, ST_0_2_4, 3, FALSE, 19.5, 28},
    {"1g.20gb", 1, 2, ST_EVEN, 4, FALSE, 19.5, 14},
    {"1g.10gb", 1, 1, ST_0_6, 7, FALSE, 9.5, 14},
    {"1g.10gb+me", 1, 1, ST_0_6, 1, TRUE, 9.5, 14},
};

/* H100 80GB SXM5: placement [S42], GiB and SMs [S43]; 1g.20gb = 26 SMs from one capture
 * (unverified; the H100 NVL capture [C2] shows 26 for the same class too). */
static const mig_profile h100_80_mig[] = {
    {"7g.80gb", 7, 8, ST_0, 1, FALSE, 79.25, 132},
    {"4g.40gb", 4, 4, ST_0, 1, FALSE, 39.5, 64},
    {"3g.40gb", 3, 4, ST_0_4, 2, FALSE, 39.5, 60},
    {"2g.20gb", 2, 2, ST_0_2_4, 3, FALSE, 19.625, 32},
    {"1g.20gb", 1, 2, ST_EVEN, 4, FALSE, 19.625, 26},
    {"1g.10gb", 1, 1, ST_0_6, 7, FALSE, 9.75, 16},
    {"1g.10gb+me", 1, 1, ST_0_6, 1, TRUE, 9.75, 16},
};

/* H100 NVL 94GB: names and counts [S3][S17], placement [S19], -lgip/-lgipp capture [C2]. */
static const mig_profile h100_nvl_mig[] = {
    {"7g.94gb", 7, 8, ST_0, 1, FALSE, 93.125, 132},
    {"4g.47gb", 4, 4, ST_0, 1, FALSE, 46.375, 64},
    {"3g.47gb", 3, 4, ST_0_4, 2, FALSE, 46.375, 60},
    {"2g.24gb", 2, 2, ST_0_2_4, 3, FALSE, 21.625, 32},
    {"1g.24gb", 1, 2, ST_EVEN, 4, FALSE, 21.625, 26},
    {"1g.12gb", 1, 1, ST_0_6, 7, FALSE, 10.75, 16},
    {"1g.12gb+me", 1, 1, ST_0_6, 1, TRUE, 10.75, 16},
};

/* H200 141GB: names/slices/counts [S1]; placement assumed as 1.2 (unverified); 16.00,
 * 32.50, 140.00 GiB and 16/32/132 SMs from a test fixture [S46] (unverified); 3g.71gb
 * 60 SMs reported by users [C5]; 4-slice GiB = 140.00 x 0.498 (the H100 ratio, derived,
 * matches the ~69.8 GiB users see [C5]); 1g.35gb = 2g.35gb memory, 26 SMs as the Hopper
 * 1g 2-slice class [C2] (derived); 4g.71gb 64 SMs as H100 (derived). */
static const mig_profile h200_mig[] = {
    {"7g.141gb", 7, 8, ST_0, 1, FALSE, 140.0, 132},
    {"4g.71gb", 4, 4, ST_0, 1, FALSE, 69.75, 64},
    {"3g.71gb", 3, 4, ST_0_4, 2, FALSE, 69.75, 60},
    {"2g.35gb", 2, 2, ST_0_2_4, 3, FALSE, 32.5, 32},
    {"1g.35gb", 1, 2, ST_EVEN, 4, FALSE, 32.5, 26},
    {"1g.18gb", 1, 1, ST_0_6, 7, FALSE, 16.0, 16},
    {"1g.18gb+me", 1, 1, ST_0_6, 1, TRUE, 16.0, 16},
};

/* B200 180GB: names/slices/counts [S1][S3]; placement assumed as 1.2 (unverified).
 * SMs: 18 per compute slice (NVML mock [S12] and a device table [C4]), so g x 18
 * (unverified). Usable GiB derived: the H200 ratios to 7g applied to 178.50 GiB
 * (0.997 of the 183359 MiB total), floored to 1/8 GiB; users see ~89 GB on 3g.90gb [C6]. */
static const mig_profile b200_mig[] = {
    {"7g.180gb", 7, 8, ST_0, 1, FALSE, 178.5, 126},
    {"4g.90gb", 4, 4, ST_0, 1, FALSE, 88.875, 72},
    {"3g.90gb", 3, 4, ST_0_4, 2, FALSE, 88.875, 54},
    {"2g.45gb", 2, 2, ST_0_2_4, 3, FALSE, 41.375, 36},
    {"1g.45gb", 1, 2, ST_EVEN, 4, FALSE, 41.375, 18},
    {"1g.23gb", 1, 1, ST_0_6, 7, FALSE, 20.375, 18},
    {"1g.23gb+me", 1, 1, ST_0_6, 1, TRUE, 20.375, 18},
};

/* GB200 186GB (the Blackwell GPU of a Grace-Blackwell superchip): names, slices and max
 * counts as the MIG guide and mig-parted's default config give them [S1][S3]; placement
 * assumed as 1.2 (unverified). GiB and SMs derived as B200's: 7g = 0.997 x the whole
 * 189471 MiB [C1], the smaller classes at the H200 ratios to 7g, floored to 1/8 GiB; SMs
 * g x 18 (unverified). */
static const mig_profile gb200_mig[] = {
    {"7g.186gb", 7, 8, ST_0, 1, FALSE, 184.375, 126},
    {"4g.93gb", 4, 4, ST_0, 1, FALSE, 91.75, 72},
    {"3g.93gb", 3, 4, ST_0_4, 2, FALSE, 91.75, 54},
    {"2g.47gb", 2, 2, ST_0_2_4, 3, FALSE, 42.75, 36},
    {"1g.47gb", 1, 2, ST_EVEN, 4, FALSE, 42.75, 18},
    {"1g.23gb", 1, 1, ST_0_6, 7, FALSE, 21.0, 18},
    {"1g.23gb+me", 1, 1, ST_0_6, 1, TRUE, 21.0, 18},
};

/* B300 288GB (Blackwell Ultra): names and max counts from mig-parted's default config [S3]
 * (the MIG guide's B300 table was not readable here); placement assumed as 1.2
 * (unverified); GiB and SMs derived as GB200's from the whole 275040 MiB [C1]. */
static const mig_profile b300_mig[] = {
    {"7g.269gb", 7, 8, ST_0, 1, FALSE, 267.75, 126},
    {"4g.135gb", 4, 4, ST_0, 1, FALSE, 133.375, 72},
    {"3g.135gb", 3, 4, ST_0_4, 2, FALSE, 133.375, 54},
    {"2g.67gb", 2, 2, ST_0_2_4, 3, FALSE, 62.125, 36},
    {"1g.67gb", 1, 2, ST_EVEN, 4, FALSE, 62.125, 18},
    {"1g.34gb", 1, 1, ST_0_6, 7, FALSE, 30.5, 18},
    {"1g.34gb+me", 1, 1, ST_0_6, 1, TRUE, 30.5, 18},
};

/* RTX PRO 6000 Blackwell 96GB: 4 instances at most [S1], profiles and max counts from
 * mig-parted's default config [S3] (its graphics and media variants, "+gfx", "+me.all",
 * "-me", are not modelled); placement assumed as the A30's 4-slot table (unverified);
 * GiB derived (4g = 0.997 x the whole 97887 MiB [C1], 2g and 1g at the A30's ratios to
 * 4g), SMs 188 / 4 per compute slice (derived). */
static const mig_profile rtx_pro_6000_mig[] = {
    {"4g.96gb", 4, 4, ST_0, 1, FALSE, 95.25, 188},
    {"2g.48gb", 2, 2, ST_A30_2, 2, FALSE, 47.375, 94},
    {"1g.24gb", 1, 1, ST_A30_1, 4, FALSE, 23.5, 47},
};

/* ---- time-sliced vGPU C-series profiles [S17] ----------------------
 * Frame buffer in MiB as NVIDIA prints "MB"; max per GPU in equal-size mode. VC: a
 * compute (C-series) profile, VD: a desktop (Q- or B-series) one. */
#define VC(n, mib, max) {n, MIB(mib), max, FALSE}
#define VD(n, mib, max) {n, MIB(mib), max, TRUE}
static const vgpu_profile a100_40_vgpu[] = {
    VC("A100-40C", 40960, 1), VC("A100-20C", 20480, 2), VC("A100-10C", 10240, 4),
    VC("A100-8C", 8192, 5),   VC("A100-5C", 5120, 8),   VC("A100-4C", 4096, 10),
};
/* A100 80GB PCIe ("A100D-"; HGX boards use "A100DX-" with the same sizes). */
static const vgpu_profile a100_80_vgpu[] = {
    VC("A100D-80C", 81920, 1), VC("A100D-40C", 40960, 2), VC("A100D-20C", 20480, 4),
    VC("A100D-16C", 16384, 5), VC("A100D-10C", 10240, 8), VC("A100D-8C", 8192, 10),
    VC("A100D-4C", 4096, 20),
};
/* H100 SXM5 80GB ("H100XM-"; H100 PCIe uses "H100-" with the same sizes). */
static const vgpu_profile h100_80_vgpu[] = {
    VC("H100XM-80C", 81920, 1), VC("H100XM-40C", 40960, 2), VC("H100XM-20C", 20480, 4),
    VC("H100XM-16C", 16384, 5), VC("H100XM-10C", 10240, 8), VC("H100XM-8C", 8192, 10),
    VC("H100XM-5C", 5120, 16),  VC("H100XM-4C", 4096, 20),
};
/* H100 NVL: 94C and 47C sizes printed [S17]; the others = N x 1024 MiB (derived). */
static const vgpu_profile h100_nvl_vgpu[] = {
    VC("H100L-94C", 96246, 1), VC("H100L-47C", 48128, 2), VC("H100L-23C", 23552, 4),
    VC("H100L-15C", 15360, 6), VC("H100L-11C", 11264, 8), VC("H100L-6C", 6144, 15),
    VC("H100L-4C", 4096, 23),
};
/* H200 NVL [S18]: the table prints 144 GB for 141C (more than the 143771 MiB the GPU
 * reports; kept as printed); others N x 1024 MiB (derived). */
static const vgpu_profile h200_vgpu[] = {
    VC("H200-141C", 147456, 1), VC("H200-70C", 71680, 2), VC("H200-35C", 35840, 4),
    VC("H200-28C", 28672, 5),   VC("H200-17C", 17408, 8), VC("H200-14C", 14336, 10),
};

/* T4, A10, L4, L40S: C-series (compute) from NVIDIA AI Enterprise's vGPU type tables [S290];
 * T4 Q- and B-series (desktop) from the vGPU user guide's Tesla T4 table [S291]. NVIDIA's
 * Q-series tables of A10, L4 and L40S were not readable here: their Q profiles (names as
 * the driver lists them [C8]) are derived by the rule NVIDIA's tables follow for boards
 * of the same memory, max = memory / frame buffer, at most 32 per GPU (Quadro RTX 6000
 * 24GB and RTX 8000 48GB [S291]); unverified. B-series of those three: not modelled. */
static const vgpu_profile t4_vgpu[] = {
    VC("T4-16C", 16384, 1), VC("T4-8C", 8192, 2),   VC("T4-4C", 4096, 4),
    VD("T4-16Q", 16384, 1), VD("T4-8Q", 8192, 2),   VD("T4-4Q", 4096, 4),
    VD("T4-2Q", 2048, 8),   VD("T4-1Q", 1024, 16),  VD("T4-2B", 2048, 8),
    VD("T4-1B", 1024, 16),
};
static const vgpu_profile l4_vgpu[] = {
    VC("L4-24C", 24576, 1), VC("L4-12C", 12288, 2), VC("L4-8C", 8192, 3),
    VC("L4-6C", 6144, 4),   VC("L4-4C", 4096, 6),   VD("L4-24Q", 24576, 1),
    VD("L4-12Q", 12288, 2), VD("L4-8Q", 8192, 3),   VD("L4-6Q", 6144, 4),
    VD("L4-4Q", 4096, 6),   VD("L4-3Q", 3072, 8),   VD("L4-2Q", 2048, 12),
    VD("L4-1Q", 1024, 24),
};
static const vgpu_profile a10_vgpu[] = {
    VC("A10-24C", 24576, 1), VC("A10-12C", 12288, 2), VC("A10-8C", 8192, 3),
    VC("A10-6C", 6144, 4),   VC("A10-4C", 4096, 6),   VD("A10-24Q", 24576, 1),
    VD("A10-12Q", 12288, 2), VD("A10-8Q", 8192, 3),   VD("A10-6Q", 6144, 4),
    VD("A10-4Q", 4096, 6),   VD("A10-3Q", 3072, 8),   VD("A10-2Q", 2048, 12),
    VD("A10-1Q", 1024, 24),
};
static const vgpu_profile l40s_vgpu[] = {
    VC("L40S-48C", 49152, 1), VC("L40S-24C", 24576, 2), VC("L40S-16C", 16384, 3),
    VC("L40S-12C", 12288, 4), VC("L40S-8C", 8192, 6),   VC("L40S-6C", 6144, 8),
    VC("L40S-4C", 4096, 12),  VD("L40S-48Q", 49152, 1), VD("L40S-24Q", 24576, 2),
    VD("L40S-16Q", 16384, 3), VD("L40S-12Q", 12288, 4), VD("L40S-8Q", 8192, 6),
    VD("L40S-6Q", 6144, 8),   VD("L40S-4Q", 4096, 12),  VD("L40S-3Q", 3072, 16),
    VD("L40S-2Q", 2048, 24),  VD("L40S-1Q", 1024, 32),
};

#define PROFILES(t) .profiles = (t), .n_profiles = G_N_ELEMENTS(t)
#define VGPU(t) .vgpu_profiles = (t), .n_vgpu_profiles = G_N_ELEMENTS(t)
#define MIG8 .mig_slots = 8, .mig_compute_slices = 7, .mig_max_instances = 7

/* ---- the models --------------------------------------------------------------------
 * mem_bytes: the whole-GPU memory nvidia-smi reports (MiB) [C1]. Prices: on-demand
 * $/GPU-hour, [S34] or derived from [C7] as docs/catalog.md says.
 * mem_bw_gbps / fp16_tflops: NVIDIA datasheets [D1]-[D10] (docs/catalog.md, "Bandwidth and
 * FLOPs"), dense tensor-core FP16/BF16 (the sparsity figures halved where only they print).
 * product_name / tdp_w / clocks (the DCGM export's modelName, power and clock gauges):
 * docs/catalog.md "Power and clocks"; TDP from the datasheets [D1]-[D10] or captures, clocks unverified. */
static const gpu_model models[] = {
    {.name = "T4", .description = "NVIDIA T4 16GB (Turing, PCIe)", .mem_bytes = MIB(15360),
     .sms = 40, .compute_capability = 7.5, .price_per_gpu_hour = 0.53,
     VGPU(t4_vgpu), .sources = "[S290][S291][C1][C4][C7]",
     .notes = "price unverified (AWS g4dn.xlarge $0.526/h incl. host)",
     .mem_bw_gbps = 320, .fp16_tflops = 65,
     .product_name = "Tesla T4", .tdp_w = 70, .sm_clock_mhz = 1590, .mem_clock_mhz = 5001},
    {.name = "L4", .description = "NVIDIA L4 24GB (Ada, PCIe)", .mem_bytes = MIB(23034),
     .sms = 58, .compute_capability = 8.9, .price_per_gpu_hour = 0.80,
     VGPU(l4_vgpu), .sources = "[S290][S291][C1][C4][C7][C8]",
     .notes = "price derived (AWS g6.xlarge $0.8048/h, 1 GPU); vGPU Q-series derived",
     .mem_bw_gbps = 300, .fp16_tflops = 121,
     .product_name = "NVIDIA L4", .tdp_w = 72, .sm_clock_mhz = 2040, .mem_clock_mhz = 6251},
    {.name = "A10", .description = "NVIDIA A10 24GB (Ampere, PCIe)", .mem_bytes = MIB(23028),
     .sms = 72, .compute_capability = 8.6, .price_per_gpu_hour = 1.01,
     VGPU(a10_vgpu), .sources = "[S290][S291][C1][C4][C7][C8]",
     .notes = "price derived (AWS g5.xlarge $1.006/h, A10G); vGPU Q-series derived",
     .mem_bw_gbps = 600, .fp16_tflops = 125,
     .product_name = "NVIDIA A10", .tdp_w = 150, .sm_clock_mhz = 1695, .mem_clock_mhz = 6251},
    {.name = "L40S", .description = "NVIDIA L40S 48GB (Ada, PCIe)", .mem_bytes = MIB(46068),
     .sms = 142, .compute_capability = 8.9, .price_per_gpu_hour = 1.95, VGPU(l40s_vgpu),
     .sources = "[S290][S291][C1][C8][C9][D9]",
     .notes = "price unverified (a per-second cloud price, $0.000542/s); vGPU Q-series "
              "derived; clocks unverified",
     .mem_bw_gbps = 864, .fp16_tflops = 362,
     .product_name = "NVIDIA L40S", .tdp_w = 350, .sm_clock_mhz = 2520, .mem_clock_mhz = 9001},
    {.name = "A30", .description = "NVIDIA A30 24GB (Ampere, PCIe, 4-slot MIG)",
     .mem_bytes = MIB(24576), .sms = 56, .sms_mig = 56, .compute_capability = 8.0,
     .price_per_gpu_hour = 1.42, .mig_slots = 4, .mig_compute_slices = 4,
     .mig_max_instances = 4, PROFILES(a30_mig), .sources = "[S1][S44][C1]",
     .notes = "price derived (A100-40GB 2.74 x 56/108 SMs); 2g.12gb+me values derived",
     .mem_bw_gbps = 933, .fp16_tflops = 165,
     .product_name = "NVIDIA A30", .tdp_w = 165, .sm_clock_mhz = 1440, .mem_clock_mhz = 1215},
    {.name = "A100-40GB", .description = "NVIDIA A100 40GB (SXM4/PCIe)",
     .mem_bytes = MIB(40960), .sms = 108, .sms_mig = 98, .compute_capability = 8.0,
     .price_per_gpu_hour = 2.74, MIG8, PROFILES(a100_40_mig), VGPU(a100_40_vgpu),
     .sources = "[S1][S3][S17][S23][S34][S40][C1][C3][C4]", .notes = NULL,
     .mem_bw_gbps = 1555, .fp16_tflops = 312,
     .product_name = "NVIDIA A100-SXM4-40GB", .tdp_w = 400, .sm_clock_mhz = 1410, .mem_clock_mhz = 1215},
    {.name = "A100-80GB", .description = "NVIDIA A100 80GB (SXM4/PCIe)",
     .mem_bytes = MIB(81920), .sms = 108, .sms_mig = 98, .compute_capability = 8.0,
     .price_per_gpu_hour = 3.43, MIG8, PROFILES(a100_80_mig), VGPU(a100_80_vgpu),
     .sources = "[S1][S3][S17][S23][S34][S41][C1][C4]", .notes = NULL,
     .mem_bw_gbps = 2039, .fp16_tflops = 312,
     .product_name = "NVIDIA A100-SXM4-80GB", .tdp_w = 400, .sm_clock_mhz = 1410, .mem_clock_mhz = 1593},
    {.name = "H100-80GB", .description = "NVIDIA H100 80GB (SXM5)", .mem_bytes = MIB(81559),
     .sms = 132, .sms_mig = 132, .compute_capability = 9.0, .price_per_gpu_hour = 6.88, MIG8,
     PROFILES(h100_80_mig), VGPU(h100_80_vgpu),
     .sources = "[S1][S3][S17][S34][S42][S43][C1][C4]",
     .notes = "1g.20gb SMs from one capture (unverified)",
     .mem_bw_gbps = 3350, .fp16_tflops = 989,
     .product_name = "NVIDIA H100 80GB HBM3", .tdp_w = 700, .sm_clock_mhz = 1980, .mem_clock_mhz = 2619},
    {.name = "H100-NVL-94GB", .description = "NVIDIA H100 NVL 94GB (PCIe)",
     .mem_bytes = MIB(95830), .sms = 132, .sms_mig = 132, .compute_capability = 9.0,
     .price_per_gpu_hour = 6.98, MIG8, PROFILES(h100_nvl_mig), VGPU(h100_nvl_vgpu),
     .sources = "[S3][S17][S19][S34][C1][C2]",
     .notes = "vGPU 23C..4C frame buffers derived",
     .mem_bw_gbps = 3900, .fp16_tflops = 835,
     .product_name = "NVIDIA H100 NVL", .tdp_w = 400, .sm_clock_mhz = 1785, .mem_clock_mhz = 2619},
    {.name = "H200-141GB", .description = "NVIDIA H200 141GB (SXM5/NVL)",
     .mem_bytes = MIB(143771), .sms = 132, .sms_mig = 132, .compute_capability = 9.0,
     .price_per_gpu_hour = 7.91, MIG8, PROFILES(h200_mig), VGPU(h200_vgpu),
     .sources = "[S1][S3][S18][S46][C1][C4][C5][C7]",
     .notes = "placement assumed; MIG GiB/SMs unverified or derived; price derived "
              "(AWS p5en.48xlarge $63.296/h / 8)",
     .mem_bw_gbps = 4800, .fp16_tflops = 989,
     .product_name = "NVIDIA H200", .tdp_w = 700, .sm_clock_mhz = 1980, .mem_clock_mhz = 3201},
    {.name = "B200", .description = "NVIDIA B200 180GB (SXM6)", .mem_bytes = MIB(183359),
     .sms = 148, .sms_mig = 126, .compute_capability = 10.0, .price_per_gpu_hour = 14.24,
     MIG8, PROFILES(b200_mig), .sources = "[S1][S3][S12][C1][C4][C6][C7]",
     .notes = "placement assumed; MIG GiB and SMs derived (unverified); price derived "
              "(AWS p6-b200.48xlarge $113.9328/h / 8)",
     .mem_bw_gbps = 8000, .fp16_tflops = 2250,
     .product_name = "NVIDIA B200", .tdp_w = 1000, .sm_clock_mhz = 1965, .mem_clock_mhz = 3996},
    {.name = "GB200", .description = "NVIDIA GB200 186GB (the Blackwell GPU of a GB200 superchip)",
     .mem_bytes = MIB(189471), .sms = 152, .sms_mig = 126, .compute_capability = 10.0,
     .price_per_gpu_hour = 14.24, MIG8, PROFILES(gb200_mig), .sources = "[S1][S3][C1][C4][C9]",
     .notes = "placement assumed; MIG GiB and SMs derived (unverified); price derived "
              "(B200's); bandwidth, FLOPs and clocks unverified",
     .mem_bw_gbps = 8000, .fp16_tflops = 2500,
     .product_name = "NVIDIA GB200", .tdp_w = 1200, .sm_clock_mhz = 2062, .mem_clock_mhz = 3996},
    {.name = "B300", .description = "NVIDIA B300 288GB (Blackwell Ultra, SXM6)",
     .mem_bytes = MIB(275040), .sms = 148, .sms_mig = 126, .compute_capability = 10.3,
     .price_per_gpu_hour = 7.89, MIG8, PROFILES(b300_mig), .sources = "[S1][S3][C1][C9]",
     .notes = "MIG table from mig-parted, placement assumed; MIG GiB and SMs derived "
              "(unverified); price unverified (a cloud marketplace's $7.89/h); bandwidth, "
              "FLOPs and clocks unverified",
     .mem_bw_gbps = 7750, .fp16_tflops = 2250,
     .product_name = "NVIDIA B300 SXM6 AC", .tdp_w = 1100, .sm_clock_mhz = 2032,
     .mem_clock_mhz = 3996},
    {.name = "RTX-PRO-6000",
     .description = "NVIDIA RTX PRO 6000 Blackwell Server Edition 96GB (PCIe, 4-slot MIG)",
     .mem_bytes = MIB(97887), .sms = 188, .sms_mig = 188, .compute_capability = 12.0,
     .price_per_gpu_hour = 2.09, .mig_slots = 4, .mig_compute_slices = 4,
     .mig_max_instances = 4, PROFILES(rtx_pro_6000_mig), .sources = "[S1][S3][C1][C9]",
     .notes = "placement assumed (A30's); MIG GiB and SMs derived; price unverified (a "
              "cloud marketplace's $2.09/h); bandwidth, FLOPs and clocks unverified",
     .mem_bw_gbps = 1792, .fp16_tflops = 500,
     .product_name = "NVIDIA RTX PRO 6000 Blackwell Server Edition", .tdp_w = 600,
     .sm_clock_mhz = 2430, .mem_clock_mhz = 14001},
};

const gpu_model *catalog_models(guint *n_out) {
  if (n_out) *n_out = G_N_ELEMENTS(models);
  return models;
}

const gpu_model *catalog_find(const char *name) {
  if (!name) return NULL;
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    if (!g_ascii_strcasecmp(models[i].name, name)) return &models[i];
  return NULL;
}

char *catalog_model_names(void) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", models[i].name);
  return g_string_free(s, FALSE);
}

/* Does a catalogue name (FAMILY or FAMILY-[NVL-]NNGB) fit the product's family, memory (0:
 * not given) and NVL form? */
static gboolean catalog_product_fits(const char *model, const char *family, guint gb,
                                     gboolean nvl) {
  gsize n = strlen(family);
  if (g_ascii_strncasecmp(model, family, n) != 0 || (model[n] && model[n] != '-')) return FALSE;
  if (nvl != (strstr(model, "-NVL-") != NULL)) return FALSE;
  if (!gb || !model[n]) return TRUE;
  const char *last = strrchr(model, '-');
  return last && (guint)atoi(last + 1) == gb;
}

/* The driver's product names (DCGM's modelName, nvidia-smi's name: "NVIDIA A100-SXM4-80GB",
 * "NVIDIA H100 80GB HBM3", "Tesla T4"): the vendor words and form factors dropped, the
 * family and the memory in GB matched against the catalogue; appended to s. */
static void catalog_product_suggestions(const char *name, GString *s) {
  g_auto(GStrv) words = g_strsplit_set(name, " -_", -1);
  const char *family = NULL;
  guint gb = 0;
  gboolean nvl = FALSE;
  for (guint i = 0; words[i]; i++) {
    const char *w = words[i];
    gsize len = strlen(w);
    if (!g_ascii_strcasecmp(w, "NVL")) nvl = TRUE;
    else if (len > 2 && !g_ascii_strcasecmp(w + len - 2, "GB") && g_ascii_isdigit(w[0]))
      gb = (guint)atoi(w);
    else if (!family && len >= 2 && g_ascii_isalpha(w[0]) &&
             (g_ascii_isdigit(w[1]) || (len > 2 && g_ascii_isalpha(w[1]) && g_ascii_isdigit(w[2]))) &&
             g_ascii_strcasecmp(w, "SXM4") && g_ascii_strcasecmp(w, "SXM5") &&
             g_ascii_strcasecmp(w, "HBM3") && g_ascii_strcasecmp(w, "HBM3E"))
      family = w;
  }
  for (guint i = 0; family && i < G_N_ELEMENTS(models); i++)
    if (catalog_product_fits(models[i].name, family, gb, nvl))
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", models[i].name);
  /* No family word ("NVIDIA RTX PRO 6000 Blackwell Server Edition"): a model whose name,
   * its dashes read as spaces, stands in the product name as whole words. */
  g_autofree char *hay = g_ascii_strdown(name, -1);
  for (guint i = 0; !s->len && i < G_N_ELEMENTS(models); i++) {
    g_autofree char *words_of = g_strdelimit(g_ascii_strdown(models[i].name, -1), "-", ' ');
    gsize n = strlen(words_of);
    for (const char *at = strstr(hay, words_of); at; at = strstr(at + 1, words_of))
      if ((at == hay || at[-1] == ' ') && (at[n] == '\0' || at[n] == ' ')) {
        g_string_append(s, models[i].name);
        break;
      }
  }
}

char *catalog_model_suggestions(const char *name) {
  if (!name || strlen(name) < 2 || strlen(name) > 64) return NULL;
  g_autofree char *needle = g_ascii_strdown(name, -1);
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(models); i++) {
    g_autofree char *hay = g_ascii_strdown(models[i].name, -1);
    if (strstr(hay, needle)) g_string_append_printf(s, "%s%s", s->len ? ", " : "", models[i].name);
  }
  if (!s->len) catalog_product_suggestions(name, s);
  if (!s->len) {
    g_string_free(s, TRUE);
    return NULL;
  }
  return g_string_free(s, FALSE);
}

char *catalog_profile_names(const gpu_model *m) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; m && i < m->n_profiles; i++)
    g_string_append_printf(s, "%s%s", i ? ", " : "", m->profiles[i].name);
  return g_string_free(s, FALSE);
}

int catalog_profile_index(const gpu_model *m, const char *name) {
  if (!m || !name) return -1;
  for (guint i = 0; i < m->n_profiles; i++)
    if (!g_ascii_strcasecmp(m->profiles[i].name, name)) return (int)i;
  return -1;
}

const vgpu_profile *catalog_vgpu_find(const gpu_model *m, const char *name) {
  if (!m || !name) return NULL;
  for (guint i = 0; i < m->n_vgpu_profiles; i++)
    if (!g_ascii_strcasecmp(m->vgpu_profiles[i].name, name)) return &m->vgpu_profiles[i];
  return NULL;
}

guint catalog_mps_client_limit(const gpu_model *m) {
  /* k8s-device-plugin: 48 clients for compute capability >= 7.5, else 16 [S9]. The
   * comparison is done on tenths so 7.5 stored as a double is not a rounding hazard. */
  if (!m) return 16;
  return (int)(m->compute_capability * 10.0 + 0.5) >= 75 ? 48 : 16;
}

int64_t catalog_profile_mem_bytes(const mig_profile *p) {
  return p ? (int64_t)(p->usable_gib * (double)UTIL_GIB + 0.5) : 0;
}

/* ---- the layout algebra ------------------------------------------------------------
 * A multiset is a count per profile index (counts[i]). Validity: every count within its
 * max count, at most one "+me" instance, at most mig_max_instances instances and
 * mig_compute_slices compute slices, and an assignment of allowed starts whose
 * [start, start+width) intervals do not overlap [S1]. The search is
 * exhaustive: instances in canonical order (largest first), starts ascending, equal
 * profiles at increasing starts; at most 8 instances on at most 8 slots. */

#define MAXP CATALOG_MAX_PROFILES

typedef struct {
  guint counts[MAXP];
} multiset;

static guint ms_total(const gpu_model *m, const multiset *c) {
  guint t = 0;
  for (guint i = 0; i < m->n_profiles; i++) t += c->counts[i];
  return t;
}

static guint ms_media(const gpu_model *m, const multiset *c) {
  guint t = 0;
  for (guint i = 0; i < m->n_profiles; i++)
    if (m->profiles[i].media) t += c->counts[i];
  return t;
}

static guint ms_compute(const gpu_model *m, const multiset *c) {
  guint t = 0;
  for (guint i = 0; i < m->n_profiles; i++) t += c->counts[i] * m->profiles[i].compute_slices;
  return t;
}

static guint ms_width(const gpu_model *m, const multiset *c) {
  guint t = 0;
  for (guint i = 0; i < m->n_profiles; i++) t += c->counts[i] * m->profiles[i].mem_slices;
  return t;
}

static gboolean place_rec(const gpu_model *m, mig_layout *l, guint k, guint32 used) {
  if (k == l->n) return TRUE;
  const mig_profile *p = &m->profiles[l->inst[k].profile];
  guint first = 0;
  if (k > 0 && l->inst[k - 1].profile == l->inst[k].profile) first = l->inst[k - 1].start + 1u;
  for (guint s = first; s < m->mig_slots && s < 8; s++) {
    if (!(p->starts_mask & (1u << s))) continue;
    if (s + p->mem_slices > m->mig_slots) continue;
    guint32 bits = ((1u << p->mem_slices) - 1u) << s;
    if (used & bits) continue;
    l->inst[k].start = (uint8_t)s;
    if (place_rec(m, l, k + 1, used | bits)) return TRUE;
  }
  return FALSE;
}

/* The rules other than the interval rule. */
static gboolean ms_within_limits(const gpu_model *m, const multiset *c) {
  for (guint i = 0; i < m->n_profiles; i++)
    if (c->counts[i] > m->profiles[i].max_count) return FALSE;
  return ms_media(m, c) <= 1 && ms_total(m, c) <= m->mig_max_instances &&
         ms_total(m, c) <= CATALOG_MAX_INSTANCES && ms_compute(m, c) <= m->mig_compute_slices &&
         ms_width(m, c) <= m->mig_slots;
}

/* TRUE if the multiset is valid; fills out (canonical order) when out != NULL. */
static gboolean ms_place(const gpu_model *m, const multiset *c, mig_layout *out) {
  if (!ms_within_limits(m, c)) return FALSE;
  mig_layout l;
  memset(&l, 0, sizeof l);
  for (guint i = 0; i < m->n_profiles; i++)
    for (guint j = 0; j < c->counts[i]; j++) l.inst[l.n++].profile = (uint8_t)i;
  if (!place_rec(m, &l, 0, 0)) return FALSE;
  if (out) *out = l;
  return TRUE;
}

/* The interval rule alone (no count, media or compute limits): used to tell a compute
 * shortfall from a placement conflict when explaining. */
static gboolean axis_place(const gpu_model *m, const multiset *c) {
  if (ms_total(m, c) > CATALOG_MAX_INSTANCES || ms_width(m, c) > m->mig_slots) return FALSE;
  mig_layout l;
  memset(&l, 0, sizeof l);
  for (guint i = 0; i < m->n_profiles; i++)
    for (guint j = 0; j < c->counts[i]; j++) l.inst[l.n++].profile = (uint8_t)i;
  return place_rec(m, &l, 0, 0);
}

/* "3g.40gb x2 + 1g.10gb": canonical text of a multiset. */
static void ms_append_text(GString *s, const gpu_model *m, const multiset *c) {
  gboolean first = TRUE;
  for (guint i = 0; i < m->n_profiles; i++) {
    if (!c->counts[i]) continue;
    g_string_append_printf(s, "%s%s", first ? "" : " + ", m->profiles[i].name);
    if (c->counts[i] > 1) g_string_append_printf(s, " x%u", c->counts[i]);
    first = FALSE;
  }
}

static char *ms_text(const gpu_model *m, const multiset *c) {
  GString *s = g_string_new(NULL);
  ms_append_text(s, m, c);
  return g_string_free(s, FALSE);
}

/* Compact list of set bits: "0-6", "0,2,4,6", "0-3,6-7". */
static void append_bits(GString *s, guint32 bits, guint width) {
  gboolean first = TRUE;
  for (guint i = 0; i < width;) {
    if (!(bits & (1u << i))) {
      i++;
      continue;
    }
    guint j = i;
    while (j + 1 < width && (bits & (1u << (j + 1)))) j++;
    if (!first) g_string_append_c(s, ',');
    if (j >= i + 2)
      g_string_append_printf(s, "%u-%u", i, j);
    else if (j == i + 1)
      g_string_append_printf(s, "%u,%u", i, j);
    else
      g_string_append_printf(s, "%u", i);
    first = FALSE;
    i = j + 1;
  }
}

char *catalog_profile_starts_string(const mig_profile *p) {
  GString *s = g_string_new(NULL);
  if (p) append_bits(s, p->starts_mask, 8);
  return g_string_free(s, FALSE);
}

/* Better-kept order for alternatives: more instances, then more compute slices, then more
 * memory slices, then larger profiles (lexicographic counts in canonical order). */
static gboolean ms_better(const gpu_model *m, const multiset *a, const multiset *b) {
  guint ta = ms_total(m, a), tb = ms_total(m, b);
  if (ta != tb) return ta > tb;
  guint ca = ms_compute(m, a), cb = ms_compute(m, b);
  if (ca != cb) return ca > cb;
  guint wa = ms_width(m, a), wb = ms_width(m, b);
  if (wa != wb) return wa > wb;
  for (guint i = 0; i < m->n_profiles; i++)
    if (a->counts[i] != b->counts[i]) return a->counts[i] > b->counts[i];
  return FALSE;
}

static void best_sub_rec(const gpu_model *m, const multiset *limit, guint i, multiset *cur,
                         multiset *best, gboolean *found) {
  if (i == m->n_profiles) {
    if (ms_total(m, cur) == 0 || !ms_place(m, cur, NULL)) return;
    if (!*found || ms_better(m, cur, best)) {
      *best = *cur;
      *found = TRUE;
    }
    return;
  }
  for (guint k = 0; k <= limit->counts[i]; k++) {
    cur->counts[i] = k;
    best_sub_rec(m, limit, i + 1, cur, best, found);
  }
  cur->counts[i] = 0;
}

/* The valid sub-multiset that drops the fewest instances (ties: ms_better). */
static gboolean best_sub(const gpu_model *m, const multiset *req, multiset *best) {
  multiset limit, cur;
  memset(&limit, 0, sizeof limit);
  memset(&cur, 0, sizeof cur);
  for (guint i = 0; i < m->n_profiles; i++)
    limit.counts[i] = MIN(req->counts[i], (guint)m->profiles[i].max_count);
  gboolean found = FALSE;
  best_sub_rec(m, &limit, 0, &cur, best, &found);
  return found;
}

/* For each dropped instance (largest first), add the largest plain profile no bigger than
 * it (compute and memory slices) that still fits: "4g.40gb x2" -> "4g.40gb + 3g.40gb". */
static void substitute_dropped(const gpu_model *m, const multiset *req, multiset *alt) {
  for (guint d = 0; d < m->n_profiles; d++) {
    guint dropped = req->counts[d] > alt->counts[d] ? req->counts[d] - alt->counts[d] : 0;
    const mig_profile *pd = &m->profiles[d];
    for (guint k = 0; k < dropped && k < CATALOG_MAX_INSTANCES; k++) {
      for (guint i = 0; i < m->n_profiles; i++) {
        const mig_profile *p = &m->profiles[i];
        if (p->media || p->compute_slices > pd->compute_slices || p->mem_slices > pd->mem_slices)
          continue;
        alt->counts[i]++;
        if (ms_place(m, alt, NULL)) break;
        alt->counts[i]--;
      }
    }
  }
}

static void append_profile_starts(GString *s, const mig_profile *p) {
  g_autofree char *st = catalog_profile_starts_string(p);
  if (p->mem_slices == 1)
    g_string_append_printf(s, "%s (it can start at %s)", p->name, st);
  else
    g_string_append_printf(s, "%s (%u slices starting at %s)", p->name, p->mem_slices, st);
}

/* Why a multiset within the limits has no placement: the kept part K (a best valid
 * sub-multiset) fills the axis so that no dropped profile fits, whatever K's placement
 * (K is a largest valid sub-multiset, so K plus any dropped instance is invalid). */
static void explain_no_placement(GString *s, const gpu_model *m, const multiset *req,
                                 const multiset *kept) {
  mig_layout l;
  ms_place(m, kept, &l);
  guint32 used = 0;
  for (guint k = 0; k < l.n; k++) {
    const mig_profile *p = &m->profiles[l.inst[k].profile];
    used |= ((1u << p->mem_slices) - 1u) << l.inst[k].start;
  }
  guint32 free_bits = ((1u << m->mig_slots) - 1u) & ~used;
  guint n_dropped = 0;
  for (guint i = 0; i < m->n_profiles; i++)
    if (req->counts[i] > kept->counts[i]) n_dropped++;
  g_string_append(s, "no placement; ");
  ms_append_text(s, m, kept);
  g_string_append(s, " uses memory slices ");
  append_bits(s, used, m->mig_slots);
  if (!free_bits) {
    g_string_append(s, ", leaving none for ");
  } else {
    g_string_append(s, free_bits & (free_bits - 1u) ? ", leaving only slices "
                                                    : ", leaving only slice ");
    append_bits(s, free_bits, m->mig_slots);
    g_string_append(s, n_dropped > 1 ? " free; none of these fits there: " : " free; ");
  }
  guint shown = 0;
  for (guint i = 0; i < m->n_profiles; i++) {
    if (req->counts[i] <= kept->counts[i]) continue;
    if (shown++) g_string_append(s, !free_bits ? " or " : ", ");
    if (free_bits && n_dropped == 1) {
      g_autofree char *st = catalog_profile_starts_string(&m->profiles[i]);
      g_string_append_printf(s, "%s does not fit there (", m->profiles[i].name);
      if (m->profiles[i].mem_slices > 1)
        g_string_append_printf(s, "%u slices, ", m->profiles[i].mem_slices);
      g_string_append_printf(s, "it can start at %s)", st);
    } else {
      append_profile_starts(s, &m->profiles[i]);
    }
  }
}

static void append_alternative(GString *s, const gpu_model *m, const multiset *req,
                               const multiset *kept) {
  multiset alt = *kept;
  substitute_dropped(m, req, &alt);
  g_string_append(s, "; a valid layout with these profiles: ");
  ms_append_text(s, m, &alt);
}

/* Full check of a requested multiset; on failure *message explains (owned). */
static gboolean ms_validate(const gpu_model *m, const multiset *req, const char *shown,
                            mig_layout *out, char **message) {
  if (ms_place(m, req, out)) return TRUE;
  if (!message) return FALSE;
  GString *s = g_string_new(NULL);
  g_autofree char *canon = ms_text(m, req);
  g_string_append_printf(s, "layout '%s' is not valid on %s: ", shown ? shown : canon, m->name);
  guint problems = 0;
  for (guint i = 0; i < m->n_profiles; i++) {
    const mig_profile *p = &m->profiles[i];
    if (req->counts[i] <= p->max_count) continue;
    if (problems++) g_string_append(s, "; ");
    if (p->max_count == 1)
      g_string_append_printf(s, "%s may appear at most once (max count 1)", p->name);
    else
      g_string_append_printf(s, "%s may appear at most %u times (max count %u)", p->name,
                             p->max_count, p->max_count);
  }
  gboolean media_over_count = FALSE;
  for (guint i = 0; i < m->n_profiles; i++)
    if (m->profiles[i].media && req->counts[i] > m->profiles[i].max_count)
      media_over_count = TRUE;
  if (ms_media(m, req) > 1 && !media_over_count) {
    multiset media;
    memset(&media, 0, sizeof media);
    for (guint i = 0; i < m->n_profiles; i++)
      if (m->profiles[i].media) media.counts[i] = req->counts[i];
    g_autofree char *mt = ms_text(m, &media);
    if (problems++) g_string_append(s, "; ");
    g_string_append_printf(s, "only one '+me' (media extensions) instance fits on a GPU, "
                              "the layout has %u (%s)", ms_media(m, req), mt);
  }
  guint total = ms_total(m, req);
  if (total > m->mig_max_instances) {
    if (problems++) g_string_append(s, "; ");
    g_string_append_printf(s, "at most %u GPU instances fit on %s, the layout has %u",
                           m->mig_max_instances, m->name, total);
  }
  multiset kept;
  gboolean have_kept = best_sub(m, req, &kept);
  if (!problems) {
    if (axis_place(m, req)) {
      g_string_append_printf(s, "it needs %u compute slices, %s has %u", ms_compute(m, req),
                             m->name, m->mig_compute_slices);
    } else if (have_kept) {
      explain_no_placement(s, m, req, &kept);
    } else {
      g_string_append(s, "no placement");
    }
  }
  if (have_kept) append_alternative(s, m, req, &kept);
  *message = g_string_free(s, FALSE);
  return FALSE;
}

static char *mig_model_names(void) {
  GString *s = g_string_new(NULL);
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    if (models[i].mig_slots)
      g_string_append_printf(s, "%s%s", s->len ? ", " : "", models[i].name);
  return g_string_free(s, FALSE);
}

gboolean catalog_layout_validate(const gpu_model *m, const uint8_t *profiles, guint n,
                                 mig_layout *out, char **message) {
  if (message) *message = NULL;
  if (out) memset(out, 0, sizeof *out);
  if (!m || !m->mig_slots || m->n_profiles == 0 || m->n_profiles > MAXP) {
    if (message) {
      g_autofree char *names = mig_model_names();
      *message = g_strdup_printf("%s does not support MIG; MIG-capable models: %s",
                                 m ? m->name : "(no model)", names);
    }
    return FALSE;
  }
  if (n == 0 || !profiles) {
    if (message) *message = g_strdup_printf("empty MIG layout for %s", m->name);
    return FALSE;
  }
  multiset req;
  memset(&req, 0, sizeof req);
  for (guint i = 0; i < n; i++) {
    if (profiles[i] >= m->n_profiles) {
      if (message) {
        g_autofree char *names = catalog_profile_names(m);
        *message = g_strdup_printf("MIG profile index %u is out of range for %s (profiles: %s)",
                                   profiles[i], m->name, names);
      }
      return FALSE;
    }
    if (req.counts[profiles[i]] < 1000) req.counts[profiles[i]]++;
  }
  return ms_validate(m, &req, NULL, out, message);
}

gboolean catalog_layout_place(const gpu_model *m, const uint8_t *profiles, guint n,
                              mig_layout *out) {
  return catalog_layout_validate(m, profiles, n, out, NULL);
}

/* ---- parsing "3g.40gb x2 + 1g.10gb" ------------------------------------------------ */

#define MAX_COUNT_TEXT 999 /* larger counts are refused before any search */

/* The layout text as shown in messages: at most 60 bytes, non-printable bytes as '?'. */
static char *shown_text(const char *text) {
  GString *s = g_string_new(NULL);
  size_t n = strlen(text);
  for (size_t i = 0; i < n && i < 60; i++) {
    unsigned char ch = (unsigned char)text[i];
    g_string_append_c(s, (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?');
  }
  if (n > 60) g_string_append(s, "...");
  return g_string_free(s, FALSE);
}

static gboolean is_name_char(char ch) {
  /* Profile names are [0-9a-z.] plus "+me"; 'x' never occurs in them, so "3g.40gbx2"
   * splits into the name and the count. */
  return (g_ascii_isalnum(ch) || ch == '.') && ch != 'x' && ch != 'X';
}

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
  return p;
}

/* Another model whose table has this profile name ("3g.20gb" is an A100-40GB profile). */
static const gpu_model *model_with_profile(const gpu_model *not_this, const char *name) {
  for (guint i = 0; i < G_N_ELEMENTS(models); i++)
    if (&models[i] != not_this && catalog_profile_index(&models[i], name) >= 0)
      return &models[i];
  return NULL;
}

static gboolean parse_fail(char **message, const char *shown, const gpu_model *m,
                           const char *fmt, ...) G_GNUC_PRINTF(4, 5);
static gboolean parse_fail(char **message, const char *shown, const gpu_model *m,
                           const char *fmt, ...) {
  if (!message) return FALSE;
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *what = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  *message = g_strdup_printf("layout '%s' is not valid on %s: %s", shown, m->name, what);
  return FALSE;
}

gboolean catalog_layout_parse(const gpu_model *m, const char *text, mig_layout *out,
                              char **message) {
  if (message) *message = NULL;
  if (out) memset(out, 0, sizeof *out);
  if (!m || !m->mig_slots || m->n_profiles == 0 || m->n_profiles > MAXP)
    return catalog_layout_validate(m, NULL, 0, NULL, message);
  if (!text) text = "";
  g_autofree char *shown = shown_text(text);
  const char *expect = "profiles joined by '+', each with an optional count, "
                       "e.g. '3g.40gb x2' or '4g.40gb + 2g.20gb + 1g.10gb'";
  multiset req;
  memset(&req, 0, sizeof req);
  const char *p = skip_ws(text);
  if (!*p) return parse_fail(message, shown, m, "empty layout; expected %s", expect);
  for (;;) {
    const char *start = p;
    while (is_name_char(*p)) p++;
    /* "+me" belongs to the name when it follows it directly. */
    if (p > start && p[0] == '+' && g_ascii_tolower(p[1]) == 'm' &&
        g_ascii_tolower(p[2]) == 'e' && !is_name_char(p[3]))
      p += 3;
    size_t len = (size_t)(p - start);
    if (len == 0) {
      g_autofree char *found = shown_text(*start ? start : "");
      if (*start == '*' || *start == 'x' || *start == 'X')
        return parse_fail(message, shown, m, "expected a MIG profile name before the count, "
                          "found '%s'; write counts as in '3g.40gb x2'", found);
      return parse_fail(message, shown, m, "expected a MIG profile name, found '%s'; expected %s",
                        *start ? found : "end of text", expect);
    }
    g_autofree char *name = g_strndup(start, len);
    gboolean all_digits = TRUE;
    for (size_t i = 0; i < len; i++)
      if (!g_ascii_isdigit(name[i])) all_digits = FALSE;
    const char *after = skip_ws(p);
    if (all_digits && (*after == 'x' || *after == 'X'))
      return parse_fail(message, shown, m, "put the count after the profile, as in "
                        "'3g.40gb x%s'", len <= 3 ? name : "2");
    int idx = catalog_profile_index(m, name);
    if (idx < 0) {
      g_autofree char *names = catalog_profile_names(m);
      g_autofree char *nm = shown_text(name);
      const gpu_model *other = len <= 32 ? model_with_profile(m, name) : NULL;
      if (other)
        return parse_fail(message, shown, m, "unknown MIG profile '%s' (a profile of %s); "
                          "profiles of %s: %s", nm, other->name, m->name, names);
      return parse_fail(message, shown, m, "unknown MIG profile '%s'; profiles of %s: %s", nm,
                        m->name, names);
    }
    p = skip_ws(p);
    guint64 count = 1;
    if (*p == 'x' || *p == 'X') {
      p = skip_ws(p + 1);
      if (!g_ascii_isdigit(*p)) {
        g_autofree char *found = shown_text(p);
        return parse_fail(message, shown, m, "expected a count after 'x' (as in '%s x2'), "
                          "found '%s'", m->profiles[idx].name, *p ? found : "end of text");
      }
      count = 0;
      while (g_ascii_isdigit(*p)) {
        if (count <= MAX_COUNT_TEXT) count = count * 10u + (guint64)(*p - '0');
        p++;
      }
      if (count == 0)
        return parse_fail(message, shown, m, "count of %s must be at least 1",
                          m->profiles[idx].name);
      p = skip_ws(p);
    } else if (*p == '*') {
      return parse_fail(message, shown, m, "write counts as 'xN', as in '%s x2'",
                        m->profiles[idx].name);
    }
    req.counts[idx] += (guint)MIN(count, (guint64)MAX_COUNT_TEXT + 1u);
    if (req.counts[idx] > MAX_COUNT_TEXT || ms_total(m, &req) > MAX_COUNT_TEXT) {
      if (!message) return FALSE;
      multiset kept;
      GString *s = g_string_new(NULL);
      g_string_append_printf(s, "too many instances of %s: at most %u GPU instances fit on %s",
                             m->profiles[idx].name, m->mig_max_instances, m->name);
      if (best_sub(m, &req, &kept)) append_alternative(s, m, &req, &kept);
      g_autofree char *what = g_string_free(s, FALSE);
      return parse_fail(message, shown, m, "%s", what);
    }
    if (*p == '\0') break;
    if (*p == '+') {
      p = skip_ws(p + 1);
      if (!*p)
        return parse_fail(message, shown, m, "expected a MIG profile after the last '+'");
      continue;
    }
    g_autofree char *found = shown_text(p);
    return parse_fail(message, shown, m, "expected '+' or the end after '%s', found '%s'",
                      m->profiles[idx].name, found);
  }
  return ms_validate(m, &req, shown, out, message);
}

/* ---- layout helpers ----------------------------------------------------------------- */

static void layout_to_multiset(const gpu_model *m, const mig_layout *l, multiset *c) {
  memset(c, 0, sizeof *c);
  for (guint k = 0; l && k < l->n && k < CATALOG_MAX_INSTANCES; k++)
    if (l->inst[k].profile < m->n_profiles && l->inst[k].profile < MAXP)
      c->counts[l->inst[k].profile]++;
}

char *catalog_layout_to_string(const gpu_model *m, const mig_layout *l) {
  if (!m || !l) return g_strdup("");
  multiset c;
  layout_to_multiset(m, l, &c);
  return ms_text(m, &c);
}

static int inst_cmp(const void *a, const void *b) {
  const mig_instance *x = a, *y = b;
  if (x->profile != y->profile) return x->profile < y->profile ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

char *catalog_layout_placement_string(const gpu_model *m, const mig_layout *l) {
  GString *s = g_string_new(NULL);
  if (!m || !l) return g_string_free(s, FALSE);
  mig_instance sorted[CATALOG_MAX_INSTANCES];
  guint n = MIN(l->n, (guint)CATALOG_MAX_INSTANCES);
  memcpy(sorted, l->inst, n * sizeof sorted[0]);
  qsort(sorted, n, sizeof sorted[0], inst_cmp);
  for (guint k = 0; k < n; k++) {
    if (sorted[k].profile >= m->n_profiles) continue;
    g_string_append_printf(s, "%s%s@%u", s->len ? " " : "", m->profiles[sorted[k].profile].name,
                           sorted[k].start);
  }
  return g_string_free(s, FALSE);
}

int64_t catalog_layout_largest_mem(const gpu_model *m, const mig_layout *l) {
  int64_t best = 0;
  for (guint k = 0; m && l && k < l->n && k < CATALOG_MAX_INSTANCES; k++) {
    if (l->inst[k].profile >= m->n_profiles) continue;
    int64_t b = catalog_profile_mem_bytes(&m->profiles[l->inst[k].profile]);
    if (b > best) best = b;
  }
  return best;
}

int64_t catalog_layout_total_sms(const gpu_model *m, const mig_layout *l) {
  int64_t t = 0;
  for (guint k = 0; m && l && k < l->n && k < CATALOG_MAX_INSTANCES; k++)
    if (l->inst[k].profile < m->n_profiles) t += m->profiles[l->inst[k].profile].sms;
  return t;
}

/* ---- enumeration -------------------------------------------------------------------- */

typedef void (*ms_visit)(const gpu_model *m, const multiset *c, const mig_layout *l,
                         gpointer data);

/* Visits every valid non-empty multiset (media profiles only when include_media), in
 * descending lexicographic order of the counts (largest profiles first). */
static void enum_rec(const gpu_model *m, guint i, multiset *cur, gboolean include_media,
                     ms_visit visit, gpointer data) {
  if (i == m->n_profiles) {
    mig_layout l;
    if (ms_total(m, cur) > 0 && ms_place(m, cur, &l)) visit(m, cur, &l, data);
    return;
  }
  const mig_profile *p = &m->profiles[i];
  guint hi = (p->media && !include_media) ? 0 : p->max_count;
  for (guint k = hi + 1; k-- > 0;) {
    cur->counts[i] = k;
    if (k && !ms_within_limits(m, cur)) continue;
    enum_rec(m, i + 1, cur, include_media, visit, data);
  }
  cur->counts[i] = 0;
}

static void count_visit(const gpu_model *m, const multiset *c, const mig_layout *l,
                        gpointer data) {
  (void)m;
  (void)c;
  (void)l;
  (*(guint *)data)++;
}

guint catalog_count_valid_layouts(const gpu_model *m, gboolean include_media) {
  guint n = 0;
  if (!m || !m->mig_slots || m->n_profiles > MAXP) return 0;
  multiset cur;
  memset(&cur, 0, sizeof cur);
  enum_rec(m, 0, &cur, include_media, count_visit, &n);
  return n;
}

static void maximal_visit(const gpu_model *m, const multiset *c, const mig_layout *l,
                          gpointer data) {
  for (guint i = 0; i < m->n_profiles; i++) {
    if (m->profiles[i].media) continue;
    multiset more = *c;
    more.counts[i]++;
    if (ms_place(m, &more, NULL)) return; /* something still fits: not maximal */
  }
  g_array_append_val((GArray *)data, *l);
}

GArray *catalog_maximal_layouts(const gpu_model *m) {
  GArray *a = g_array_new(FALSE, TRUE, sizeof(mig_layout));
  if (!m || !m->mig_slots || m->n_profiles > MAXP) return a;
  multiset cur;
  memset(&cur, 0, sizeof cur);
  enum_rec(m, 0, &cur, FALSE, maximal_visit, a);
  return a;
}

static void all_visit(const gpu_model *m, const multiset *c, const mig_layout *l,
                      gpointer data) {
  (void)m;
  (void)c;
  g_array_append_val((GArray *)data, *l);
}

GArray *catalog_valid_layouts(const gpu_model *m) {
  GArray *a = g_array_new(FALSE, TRUE, sizeof(mig_layout));
  if (!m || !m->mig_slots || m->n_profiles > MAXP) return a;
  multiset cur;
  memset(&cur, 0, sizeof cur);
  enum_rec(m, 0, &cur, FALSE, all_visit, a);
  return a;
}
