/*
 * Kineto's per-SM kernel arguments (cupti.md §7.4): "blocks per SM", "warps
 * per SM" and "est. achieved occupancy %", as libkineto computes them
 * (CudaDeviceProperties.cpp kernelOccupancy, CuptiActivity.h blocksPerSm and
 * warpsPerSm): in single precision, the occupancy from CUDA's occupancy
 * calculator (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor) with
 * the function attributes Kineto passes (no register or block-size limit of
 * the function, its static shared memory, the default shared memory limit
 * per block, partitioned global caching off, the default cache and carveout
 * preference), ported here for compute capabilities 3.x to 12.x.
 */
#ifndef PT_PASS_KERNEL_OCCUPANCY_H
#define PT_PASS_KERNEL_OCCUPANCY_H
#include <stdbool.h>
#include <stdint.h>

struct pt_device;
struct pt_kernel_config;

/* What the calculation reads of a device (cuda_occupancy.h's cudaOccDeviceProp). */
struct pt_occ_device {
	int cc_major, cc_minor;
	int max_threads_per_block, max_threads_per_sm, regs_per_block, regs_per_sm, warp_size, num_sms;
	int64_t smem_per_block, smem_per_sm, reserved_smem_per_block; /* bytes */
};

/*
 * The device of a model device: false when the model does not know a limit
 * the calculation reads. Neither CUPTI nor Kineto records CUDA's
 * reservedSharedMemPerBlock: it is 1 KiB from compute capability 8.0 on (what
 * the CUDA driver reserves per block since Ampere), 0 before.
 */
bool pt_occ_device_of(const struct pt_device *dv, struct pt_occ_device *out);

/*
 * Blocks of block_size threads, regs registers per thread and the given
 * shared memory per block that one SM holds at once
 * (cudaOccMaxActiveBlocksPerMultiprocessor under Kineto's attributes): 0
 * when the launch cannot run there, -1 for a compute capability the
 * calculation does not know or an invalid input.
 */
int pt_occ_active_blocks(const struct pt_occ_device *d, int64_t block_size, int64_t regs, int64_t static_smem,
			 int64_t dynamic_smem);

/* A kernel's per-SM arguments on its device. */
struct pt_kernel_sm {
	bool per_sm;         /* the device's SM count is known: blocks and warps per SM */
	float blocks_per_sm; /* grid size / SMs */
	float warps_per_sm;  /* blocks per SM x block size / 32 */
	bool has_occupancy;  /* the occupancy could be computed */
	int occupancy_pct;   /* Kineto's (int)(0.5 + 100 x min(blocks per SM, active blocks) x block size / threads per SM) */
};
void pt_kernel_sm_of(const struct pt_device *dv, const struct pt_kernel_config *kc, struct pt_kernel_sm *out);
/* The same from a device description (num_sms 0: unknown; occ NULL: no occupancy). */
void pt_kernel_sm_calc(const struct pt_occ_device *occ, int num_sms, const int32_t grid[3], const int32_t block[3],
		       uint32_t regs, int64_t static_smem, int64_t dynamic_smem, struct pt_kernel_sm *out);

#endif
