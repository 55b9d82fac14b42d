/*
 * pass/kernel-occupancy.c against CUDA's own occupancy calculator
 * (cuda_occupancy.h of the CUDA toolkit, a header of inline C functions),
 * called as libkineto calls it (CudaDeviceProperties.cpp kernelOccupancy):
 * the active blocks of every combination of block size, registers and shared
 * memory below on the devices below, and Kineto's occupancy percentage.
 * Built only where the toolkit is installed (tests/CMakeLists.txt).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <cuda_occupancy.h>

#include "pass/kernel-occupancy.h"

struct dev {
	const char *name;
	int major, minor, threads_per_sm, sms;
	size_t smem_per_sm, reserved;
};

/* the data sheets' figures, the reserved 1 KiB of every device from 8.0 on */
static const struct dev devs[] = {
	{ "K80 (3.7)", 3, 7, 2048, 13, 114688, 0 },     { "M60 (5.2)", 5, 2, 2048, 16, 98304, 0 },
	{ "P100 (6.0)", 6, 0, 2048, 56, 65536, 0 },     { "P40 (6.1)", 6, 1, 2048, 30, 98304, 0 },
	{ "V100 (7.0)", 7, 0, 2048, 80, 98304, 0 },     { "T4 (7.5)", 7, 5, 1024, 40, 65536, 0 },
	{ "A100 (8.0)", 8, 0, 2048, 108, 167936, 1024 }, { "A10 (8.6)", 8, 6, 1536, 72, 102400, 1024 },
	{ "Orin (8.7)", 8, 7, 1536, 16, 167936, 1024 },  { "L4 (8.9)", 8, 9, 1536, 58, 102400, 1024 },
	{ "H100 (9.0)", 9, 0, 2048, 132, 233472, 1024 }, { "B200 (10.0)", 10, 0, 2048, 148, 233472, 1024 },
	{ "Thor (10.1)", 10, 1, 1536, 20, 233472, 1024 }, { "B300 (10.3)", 10, 3, 2048, 148, 233472, 1024 },
	{ "RTX 5090 (12.0)", 12, 0, 1536, 170, 102400, 1024 }, { "GB10 (12.1)", 12, 1, 1536, 48, 102400, 1024 },
};

int main(void)
{
	static const int bsizes[] = { 1, 31, 32, 33, 64, 96, 100, 128, 192, 256, 320, 384, 512, 640, 768, 1000, 1024, 1025 };
	static const int regs[] = { 0, 1, 8, 16, 24, 32, 37, 40, 48, 56, 64, 72, 80, 96, 128, 160, 168, 200, 232, 255, 256, 257 };
	static const int smem[] = { 0, 1, 100, 1000, 2048, 4096, 8192, 12000, 16384, 24576, 32768, 40000, 47104, 48128,
				    49152, 50000, 65536, 100000 };
	static const int grids[] = { 1, 7, 100, 1000, 12345, 100000 };
	long checked = 0, bad = 0;
	for (size_t di = 0; di < sizeof(devs) / sizeof(devs[0]); di++) {
		const struct dev *v = &devs[di];
		cudaOccDeviceProp p;
		memset(&p, 0, sizeof(p));
		p.computeMajor = v->major;
		p.computeMinor = v->minor;
		p.maxThreadsPerBlock = 1024;
		p.maxThreadsPerMultiprocessor = v->threads_per_sm;
		p.regsPerBlock = 65536;
		p.regsPerMultiprocessor = 65536;
		p.warpSize = 32;
		p.sharedMemPerBlock = 49152;
		p.sharedMemPerMultiprocessor = v->smem_per_sm;
		p.numSms = v->sms;
		p.sharedMemPerBlockOptin = v->smem_per_sm - v->reserved;
		p.reservedSharedMemPerBlock = v->reserved;
		struct pt_occ_device o = { v->major, v->minor, 1024, v->threads_per_sm, 65536, 65536, 32, v->sms, 49152,
					   (int64_t)v->smem_per_sm, (int64_t)v->reserved };
		for (size_t b = 0; b < sizeof(bsizes) / sizeof(bsizes[0]); b++)
			for (size_t r = 0; r < sizeof(regs) / sizeof(regs[0]); r++)
				for (size_t s = 0; s < sizeof(smem) / sizeof(smem[0]); s++) {
					/* Kineto's attributes */
					cudaOccFuncAttributes a;
					memset(&a, 0, sizeof(a));
					a.maxThreadsPerBlock = INT_MAX;
					a.numRegs = regs[r];
					a.sharedSizeBytes = (size_t)smem[s];
					a.partitionedGCConfig = PARTITIONED_GC_OFF;
					a.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
					a.maxDynamicSharedSizeBytes = 0;
					cudaOccDeviceState st;
					memset(&st, 0, sizeof(st));
					st.cacheConfig = CACHE_PREFER_NONE;
					st.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
					cudaOccResult res;
					memset(&res, 0, sizeof(res));
					cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &st, bsizes[b], 0);
					int want = e == CUDA_OCC_SUCCESS ? res.activeBlocksPerMultiprocessor : -1;
					int got = pt_occ_active_blocks(&o, bsizes[b], regs[r], smem[s], 0);
					checked++;
					if (got != want && bad++ < 20)
						printf("%s: block %d, %d registers, %d B shared: %d blocks, cuda_occupancy.h %d\n",
						       v->name, bsizes[b], regs[r], smem[s], got, want);
					/* Kineto's percentage for some grids */
					for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]) && want >= 0; g++) {
						float bpsm = (float)grids[g] / (float)v->sms;
						if ((float)want < bpsm)
							bpsm = (float)want;
						float occ = bpsm * (float)bsizes[b] / (float)v->threads_per_sm;
						int pct = (int)(0.5 + occ * 100.0);
						int32_t gr[3] = { grids[g], 1, 1 }, bl[3] = { bsizes[b], 1, 1 };
						struct pt_kernel_sm k;
						pt_kernel_sm_calc(&o, v->sms, gr, bl, (uint32_t)regs[r], smem[s], 0, &k);
						checked++;
						if ((!k.has_occupancy || k.occupancy_pct != pct) && bad++ < 20)
							printf("%s: grid %d block %d, %d registers, %d B: %d %%, Kineto %d %%\n", v->name,
							       grids[g], bsizes[b], regs[r], smem[s], k.occupancy_pct, pct);
					}
				}
	}
	printf("%ld checked, %ld differ\n", checked, bad);
	return bad ? 1 : 0;
}
