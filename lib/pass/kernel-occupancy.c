/*
 * Kineto's per-SM kernel arguments and CUDA's occupancy calculation under
 * Kineto's attributes (kernel-occupancy.h). The calculation takes the
 * smallest of four limits on the blocks an SM holds at once: its registers
 * (allocated per warp in units of 256, warps placed per sub-partition), its
 * warp slots, its block slots, and its shared memory (allocated per block in
 * units of the architecture's granularity, the SM's shared memory taken from
 * the carveout sizes the architecture offers). The architecture figures are
 * those of the CUDA 13.0 toolkit's cuda_occupancy.h.
 */
#include "pass/kernel-occupancy.h"

#include <limits.h>
#include <stddef.h>

#include "model/model.h"

/* What the calculation needs to know of an architecture; ok false: one it does not know. */
struct arch {
	bool ok;
	int smem_unit;       /* shared memory allocation granularity, bytes */
	int max_regs;        /* registers per thread at most */
	int subparts;        /* register sub-partitions of an SM */
	int max_blocks;      /* resident blocks per SM at most */
	const int *carve;    /* Volta and later: the shared memory sizes an SM can be given, KiB, ascending */
	int ncarve;
};

static const int carve_volta[] = { 0, 8, 16, 32, 64, 96 };
static const int carve_turing[] = { 32, 64 };
static const int carve_ga100[] = { 0, 8, 16, 32, 64, 100, 132, 164 }; /* 8.0, 8.7 */
static const int carve_small[] = { 0, 8, 16, 32, 64, 100 };          /* 8.6, 8.9, 12.x */
static const int carve_hopper[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };
#define CARVE(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

static struct arch arch_of(int major, int minor)
{
	struct arch a = { true, 128, 256, 4, 32, NULL, 0 };
	switch (major) {
	case 3:
		a.smem_unit = 256;
		a.max_regs = 255;
		a.max_blocks = 16;
		break;
	case 5:
	case 6:
		a.smem_unit = 256;
		a.max_regs = 255;
		if (major == 6 && minor == 0)
			a.subparts = 2;
		break;
	case 7:
		a.smem_unit = 256;
		if (minor == 5) {
			a.max_blocks = 16;
			a.carve = carve_turing;
			a.ncarve = 2;
		} else {
			a.carve = carve_volta;
			a.ncarve = 6;
		}
		break;
	case 8:
		a.max_blocks = minor == 0 ? 32 : minor == 9 ? 24 : 16;
		if (minor == 0 || minor == 7) {
			a.carve = carve_ga100;
			a.ncarve = 8;
		} else {
			a.carve = carve_small;
			a.ncarve = 6;
		}
		break;
	case 9:
		a.carve = carve_hopper;
		a.ncarve = 10;
		break;
	case 10:
	case 11:
		a.max_blocks = (major == 10 && minor == 1) || (major == 11 && minor == 0) ? 24 : 32;
		a.ok = minor == 0 || minor == 1 || minor == 3; /* the carveout sizes of other minors are unknown */
		a.carve = carve_hopper;
		a.ncarve = 10;
		break;
	case 12:
		a.max_blocks = 24;
		a.ok = minor == 0 || minor == 1;
		a.carve = carve_small;
		a.ncarve = 6;
		break;
	default:
		a.ok = false;
	}
	return a;
}

static int64_t div_up(int64_t x, int64_t y)
{
	return (x + y - 1) / y;
}

/* The smallest carveout of a that holds bytes; -1 when none does. */
static int64_t carveout(const struct arch *a, int64_t bytes)
{
	for (int i = 0; i < a->ncarve; i++)
		if (bytes <= (int64_t)a->carve[i] * 1024)
			return (int64_t)a->carve[i] * 1024;
	return -1;
}

/* The register limit with sub-partitions subparts. */
static int64_t regs_limit(const struct pt_occ_device *d, const struct arch *a, int subparts, int64_t block_size,
			  int64_t regs)
{
	if (regs > a->max_regs || block_size > d->max_threads_per_block)
		return 0; /* (the warp limit is 0 then too) */
	int64_t warps = div_up(block_size, d->warp_size);
	int64_t per_warp = div_up(regs * d->warp_size, 256) * 256;
	/* the hardware checks a block's registers as if its warps filled every sub-partition alike */
	if (per_warp * warps > d->regs_per_block || per_warp * (div_up(warps, subparts) * subparts) > d->regs_per_block)
		return 0;
	if (!per_warp)
		return INT_MAX;
	return (d->regs_per_sm / subparts / per_warp) * subparts / warps;
}

int pt_occ_active_blocks(const struct pt_occ_device *d, int64_t block_size, int64_t regs, int64_t static_smem,
			 int64_t dynamic_smem)
{
	if (block_size <= 0 || regs < 0 || regs > INT_MAX || static_smem < 0 || dynamic_smem < 0 ||
	    static_smem > INT_MAX || dynamic_smem > INT_MAX || d->reserved_smem_per_block > INT_MAX ||
	    d->smem_per_block > INT64_MAX / 4 || d->smem_per_sm > INT64_MAX / 4 ||
	    d->max_threads_per_block <= 0 || d->max_threads_per_sm <= 0 || d->regs_per_block <= 0 ||
	    d->regs_per_sm <= 0 || d->warp_size <= 0 || d->smem_per_block <= 0 || d->smem_per_sm <= 0 ||
	    d->num_sms <= 0 || d->reserved_smem_per_block < 0)
		return -1;
	struct arch a = arch_of(d->cc_major, d->cc_minor);
	if (!a.ok)
		return -1;
	/* registers; a GP100 (6.0) launch counts only where it would also run on a GP10x (6.1) */
	int64_t lim = regs_limit(d, &a, a.subparts, block_size, regs);
	if (d->cc_major == 6 && d->cc_minor == 0 && lim && !regs_limit(d, &a, 4, block_size, regs))
		lim = 0;
	/* warps */
	int64_t w = block_size > d->max_threads_per_block ? 0
							  : (d->max_threads_per_sm / d->warp_size) / div_up(block_size, d->warp_size);
	if (w < lim)
		lim = w;
	/* blocks */
	if (a.max_blocks < lim)
		lim = a.max_blocks;
	/* shared memory: the SM's as the default carveout gives it, or the least carveout that holds a block */
	int64_t pref = d->smem_per_sm;
	if (a.carve && (pref = carveout(&a, d->smem_per_sm)) < 0)
		return -1;
	int64_t use = static_smem + d->reserved_smem_per_block + dynamic_smem;
	if (use > INT_MAX)
		return 0;
	int64_t alloc = div_up(use, a.smem_unit) * a.smem_unit;
	int64_t per_block = d->smem_per_block + (d->cc_major >= 8 ? d->reserved_smem_per_block : 0);
	int64_t s;
	if (alloc > per_block) {
		s = 0;
	} else {
		int64_t sm = pref;
		if (pref < alloc && a.carve && (sm = carveout(&a, alloc)) < 0)
			return -1;
		s = alloc > 0 ? sm / alloc : INT_MAX;
	}
	if (s < lim)
		lim = s;
	return (int)lim;
}

bool pt_occ_device_of(const struct pt_device *dv, struct pt_occ_device *out)
{
	const struct pt_gpu_limits *l = &dv->lim;
	if (!dv->cc_major || !dv->sm_count || dv->sm_count > INT_MAX || !l->max_threads_per_block ||
	    l->max_threads_per_block > INT_MAX || !l->max_threads_per_sm || l->max_threads_per_sm > INT_MAX ||
	    !l->regs_per_block || l->regs_per_block > INT_MAX || !l->regs_per_sm || l->regs_per_sm > INT_MAX ||
	    !l->warp_size || l->warp_size > INT_MAX || !l->smem_per_block || l->smem_per_block > INT64_MAX / 4 ||
	    !l->smem_per_sm || l->smem_per_sm > INT64_MAX / 4 || dv->cc_major > INT_MAX || dv->cc_minor > INT_MAX)
		return false;
	*out = (struct pt_occ_device){ (int)dv->cc_major,
				       (int)dv->cc_minor,
				       (int)l->max_threads_per_block,
				       (int)l->max_threads_per_sm,
				       (int)l->regs_per_block,
				       (int)l->regs_per_sm,
				       (int)l->warp_size,
				       (int)dv->sm_count,
				       (int64_t)l->smem_per_block,
				       (int64_t)l->smem_per_sm,
				       dv->cc_major >= 8 ? 1024 : 0 };
	return true;
}

void pt_kernel_sm_calc(const struct pt_occ_device *occ, int num_sms, const int32_t grid[3], const int32_t block[3],
		       uint32_t regs, int64_t static_smem, int64_t dynamic_smem, struct pt_kernel_sm *out)
{
	*out = (struct pt_kernel_sm){ 0 };
	if (num_sms <= 0)
		return;
	/* single precision, as Kineto computes them (the products exact in doubles where they fit 53 bits) */
	double blocks = (double)grid[0] * grid[1] * grid[2], bsize = (double)block[0] * block[1] * block[2];
	float bpsm = (float)blocks / (float)num_sms;
	out->per_sm = true;
	out->blocks_per_sm = bpsm;
	out->warps_per_sm = bpsm * (float)bsize / 32.0f;
	if (!occ || !(bsize > 0 && bsize < 9e15))
		return;
	int act = pt_occ_active_blocks(occ, (int64_t)bsize, regs, static_smem, dynamic_smem);
	if (act < 0)
		return;
	if ((float)act < bpsm)
		bpsm = (float)act;
	float occupancy = bpsm * (float)bsize / (float)occ->max_threads_per_sm;
	double pct = 0.5 + (double)occupancy * 100.0;
	if (!(pct > INT_MIN && pct < INT_MAX))
		return;
	out->has_occupancy = true;
	out->occupancy_pct = (int)pct;
}

void pt_kernel_sm_of(const struct pt_device *dv, const struct pt_kernel_config *kc, struct pt_kernel_sm *out)
{
	struct pt_occ_device occ;
	bool has = pt_occ_device_of(dv, &occ);
	pt_kernel_sm_calc(has ? &occ : NULL, dv->sm_count <= INT_MAX ? (int)dv->sm_count : 0, kc->grid, kc->block,
			  kc->registers, kc->static_smem, kc->dynamic_smem, out);
}
