/*
 * Kineto's per-SM kernel arguments (pass/kernel-occupancy.c) against the
 * values Kineto itself wrote: every distinct launch configuration of the
 * real traces testdata/kineto/real-torch2.11-h200-loop.pt.trace.json.gz
 * (torch 2.11, CUDA 13, H200) and the HolisticTraceAnalysis test traces of
 * ../shared/fixtures/kineto (A100; V100, whose trace lists no device
 * properties: a V100's), and the occupancy calculation's limits one by one on
 * other architectures. tests/occupancy-cuda checks the calculation against
 * cuda_occupancy.h itself where the CUDA toolkit is installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "pass/kernel-occupancy.h"

enum { D_H200, D_A100, D_V100 };

/* Their deviceProperties (the V100's of NVIDIA's data sheet: 80 SMs, 96 KiB of shared memory per SM) */
static const struct pt_occ_device devs[] = {
	[D_H200] = { 9, 0, 1024, 2048, 65536, 65536, 32, 132, 49152, 233472, 1024 },
	[D_A100] = { 8, 0, 1024, 2048, 65536, 65536, 32, 108, 49152, 167936, 1024 },
	[D_V100] = { 7, 0, 1024, 2048, 65536, 65536, 32, 80, 49152, 98304, 0 },
};

static const struct {
	int dev;
	int32_t grid[3], block[3];
	uint32_t regs;
	int64_t smem;
	const char *blocks, *warps; /* as Kineto wrote them: 6 decimals (torch 2.11), else a float's shortest text */
	int occ;
} rows[] = {
	{ D_H200, { 1, 1, 1 }, { 128, 1, 1 }, 16, 0, "0.007576", "0.030303", 0 },
	{ D_H200, { 1, 1, 1 }, { 32, 1, 1 }, 32, 0, "0.007576", "0.007576", 0 },
	{ D_H200, { 2, 1, 1 }, { 16, 8, 1 }, 24, 0, "0.015152", "0.060606", 0 },
	{ D_H200, { 1, 1, 3 }, { 128, 1, 1 }, 76, 20480, "0.022727", "0.090909", 0 },
	{ D_H200, { 2, 2, 1 }, { 32, 16, 1 }, 32, 0, "0.030303", "0.484848", 1 },
	{ D_H200, { 1, 2, 1 }, { 64, 1, 1 }, 90, 6144, "0.015152", "0.030303", 0 },
	{ D_H200, { 1, 1, 1 }, { 4, 32, 1 }, 40, 16, "0.007576", "0.030303", 0 },
	{ D_H200, { 2, 1, 1 }, { 128, 1, 1 }, 32, 0, "0.015152", "0.060606", 0 },
	{ D_H200, { 8, 1, 2 }, { 128, 1, 1 }, 76, 20480, "0.121212", "0.484848", 1 },
	{ D_H200, { 16, 2, 1 }, { 32, 16, 1 }, 32, 0, "0.242424", "3.878788", 6 },
	{ D_H200, { 2, 16, 1 }, { 64, 1, 1 }, 90, 6144, "0.242424", "0.484848", 1 },
	{ D_H200, { 1, 1, 1 }, { 16, 8, 1 }, 54, 16, "0.007576", "0.030303", 0 },
	{ D_H200, { 256, 1, 1 }, { 128, 1, 1 }, 16, 0, "1.939394", "7.757576", 12 },
	{ D_H200, { 1024, 1, 1 }, { 32, 8, 1 }, 32, 0, "7.757576", "62.060608", 97 },
	{ D_H200, { 256, 1, 1 }, { 128, 1, 1 }, 32, 0, "1.939394", "7.757576", 12 },
	{ D_H200, { 1, 256, 1 }, { 64, 1, 1 }, 128, 6528, "1.939394", "3.878788", 6 },
	{ D_H200, { 8, 1, 32 }, { 256, 1, 1 }, 32, 4224, "1.939394", "15.515152", 24 },
	{ D_H200, { 3, 2, 90 }, { 128, 1, 1 }, 128, 2048, "4.090909", "16.363636", 25 },
	{ D_H200, { 1, 1, 32 }, { 256, 1, 1 }, 32, 4224, "0.242424", "1.939394", 3 },
	{ D_H200, { 32, 1, 1 }, { 32, 16, 1 }, 32, 2064, "0.242424", "3.878788", 6 },
	{ D_H200, { 512, 1, 1 }, { 128, 1, 1 }, 16, 0, "3.878788", "15.515152", 24 },
	{ D_H200, { 4, 32, 16 }, { 256, 1, 1 }, 32, 0, "15.515152", "124.121216", 100 },
	{ D_H200, { 512, 1, 1 }, { 128, 1, 1 }, 32, 0, "3.878788", "15.515152", 24 },
	{ D_H200, { 1, 1, 64 }, { 8, 8, 1 }, 80, 2304, "0.484848", "0.969697", 2 },
	{ D_H200, { 16, 1, 1 }, { 32, 16, 1 }, 32, 2064, "0.121212", "1.939394", 3 },
	{ D_H200, { 1024, 1, 1 }, { 8, 8, 1 }, 64, 2304, "7.757576", "15.515152", 24 },
	{ D_H200, { 2048, 1, 1 }, { 128, 1, 1 }, 18, 0, "15.515152", "62.060608", 97 },
	{ D_H200, { 512, 1, 1 }, { 128, 1, 1 }, 28, 0, "3.878788", "15.515152", 24 },
	{ D_H200, { 512, 1, 1 }, { 256, 1, 1 }, 23, 0, "3.878788", "31.030304", 48 },
	{ D_H200, { 1, 256, 1 }, { 64, 1, 1 }, 92, 6528, "1.939394", "3.878788", 6 },
	{ D_H200, { 1024, 1, 1 }, { 128, 1, 1 }, 18, 0, "7.757576", "31.030304", 48 },
	{ D_H200, { 256, 1, 1 }, { 128, 1, 1 }, 28, 0, "1.939394", "7.757576", 12 },
	{ D_H200, { 1, 1, 1 }, { 256, 1, 1 }, 18, 0, "0.007576", "0.060606", 0 },
	{ D_H200, { 2, 1, 5 }, { 16, 16, 1 }, 32, 4356, "0.075758", "0.606061", 1 },
	{ D_H200, { 8, 1, 1 }, { 8, 32, 1 }, 26, 0, "0.060606", "0.484848", 1 },
	{ D_H200, { 2, 1, 1 }, { 128, 1, 1 }, 28, 0, "0.015152", "0.060606", 0 },
	{ D_H200, { 1, 1, 4 }, { 16, 16, 1 }, 32, 4356, "0.030303", "0.242424", 0 },
	{ D_H200, { 2, 1, 1 }, { 8, 32, 1 }, 26, 0, "0.015152", "0.121212", 0 },
	{ D_H200, { 2, 1, 1 }, { 16, 8, 1 }, 21, 0, "0.015152", "0.060606", 0 },
	{ D_H200, { 1, 1, 1 }, { 32, 1, 1 }, 32, 256, "0.007576", "0.007576", 0 },
	{ D_H200, { 8, 1, 1 }, { 512, 1, 1 }, 32, 0, "0.060606", "0.969697", 2 },
	{ D_A100, { 864, 1, 1 }, { 256, 1, 1 }, 47, 0, "8", "64", 63 },
	{ D_A100, { 12, 1, 1 }, { 256, 1, 1 }, 16, 0, "0.11111111", "0.8888889", 1 },
	{ D_A100, { 3025, 1, 1 }, { 128, 1, 1 }, 160, 16384, "28.00926", "112.03704", 19 },
	{ D_A100, { 96800, 1, 1 }, { 128, 1, 1 }, 40, 0, "896.2963", "3585.1853", 75 },
	{ D_A100, { 48400, 1, 1 }, { 128, 1, 1 }, 18, 0, "448.14816", "1792.5927", 100 },
	{ D_A100, { 23328, 1, 1 }, { 256, 1, 1 }, 26, 0, "216", "1728", 100 },
	{ D_A100, { 768, 1, 1 }, { 512, 1, 1 }, 64, 35904, "7.111111", "113.77778", 50 },
	{ D_A100, { 512, 1, 1 }, { 512, 1, 1 }, 64, 35904, "4.740741", "75.85185", 50 },
	{ D_A100, { 3, 2, 544 }, { 256, 1, 1 }, 122, 24576, "30.222221", "241.77777", 25 },
	{ D_A100, { 1536, 1, 1 }, { 512, 1, 1 }, 64, 35904, "14.222222", "227.55556", 50 },
	{ D_A100, { 69984, 1, 1 }, { 128, 1, 1 }, 40, 0, "648", "2592", 75 },
	{ D_A100, { 34992, 1, 1 }, { 128, 1, 1 }, 18, 0, "324", "1296", 100 },
	{ D_A100, { 16224, 1, 1 }, { 256, 1, 1 }, 26, 0, "150.22223", "1201.7778", 100 },
	{ D_A100, { 6, 6, 128 }, { 256, 1, 1 }, 32, 4224, "42.666668", "341.33334", 100 },
	{ D_A100, { 1, 6, 384 }, { 256, 1, 1 }, 32, 4224, "21.333334", "170.66667", 100 },
	{ D_A100, { 3, 169, 1 }, { 128, 1, 1 }, 252, 67584, "4.6944447", "18.777779", 0 },
	{ D_A100, { 32448, 1, 1 }, { 128, 1, 1 }, 40, 0, "300.44446", "1201.7778", 75 },
	{ D_A100, { 16224, 1, 1 }, { 128, 1, 1 }, 18, 0, "150.22223", "600.8889", 100 },
	{ D_A100, { 6, 12, 128 }, { 256, 1, 1 }, 32, 4224, "85.333336", "682.6667", 100 },
	{ D_A100, { 1, 12, 256 }, { 256, 1, 1 }, 32, 4224, "28.444445", "227.55556", 100 },
	{ D_A100, { 2, 169, 1 }, { 128, 1, 1 }, 252, 67584, "3.1296296", "12.518518", 0 },
	{ D_A100, { 21632, 1, 1 }, { 128, 1, 1 }, 40, 0, "200.2963", "801.1852", 75 },
	{ D_A100, { 10816, 1, 1 }, { 128, 1, 1 }, 18, 0, "100.14815", "400.5926", 100 },
	{ D_A100, { 6, 8, 128 }, { 256, 1, 1 }, 32, 4224, "56.88889", "455.1111", 100 },
	{ D_A100, { 1, 8, 256 }, { 256, 1, 1 }, 32, 4224, "18.962963", "151.7037", 100 },
	{ D_A100, { 4608, 1, 1 }, { 256, 1, 1 }, 26, 0, "42.666668", "341.33334", 100 },
	{ D_A100, { 32768, 1, 1 }, { 32, 8, 1 }, 38, 0, "303.4074", "2427.2593", 75 },
	{ D_A100, { 864, 1, 1 }, { 256, 1, 1 }, 48, 0, "8", "64", 63 },
	{ D_A100, { 128, 4, 1 }, { 128, 1, 1 }, 86, 32768, "4.740741", "18.962963", 25 },
	{ D_A100, { 128, 4, 1 }, { 32, 16, 1 }, 23, 0, "4.740741", "75.85185", 100 },
	{ D_A100, { 1024, 1, 1 }, { 128, 1, 1 }, 18, 0, "9.481482", "37.925926", 59 },
	{ D_A100, { 32, 4, 6 }, { 128, 1, 1 }, 86, 32768, "7.111111", "28.444445", 25 },
	{ D_A100, { 32, 8, 1 }, { 32, 16, 1 }, 23, 0, "2.3703704", "37.925926", 59 },
	{ D_A100, { 128, 1, 1 }, { 128, 1, 1 }, 16, 0, "1.185185", "4.740741", 7 },
	{ D_A100, { 1, 1, 1 }, { 512, 1, 1 }, 32, 2064, "0.009259", "0.148148", 0 },
	{ D_A100, { 1, 1, 1 }, { 128, 1, 1 }, 17, 0, "0.009259", "0.037037", 0 },
	{ D_A100, { 1, 1, 1 }, { 1, 1, 1 }, 16, 0, "0.009259", "0.000289", 0 },
	{ D_A100, { 256, 1, 1 }, { 256, 1, 1 }, 47, 0, "2.3703704", "18.962963", 30 },
	{ D_A100, { 128, 1, 1 }, { 128, 1, 1 }, 20, 0, "1.1851852", "4.740741", 7 },
	{ D_V100, { 110, 1, 1 }, { 128, 1, 1 }, 20, 0, "1.375", "5.5", 9 },
	{ D_V100, { 1, 1, 1 }, { 128, 1, 1 }, 20, 0, "0.0125", "0.05", 0 },
	{ D_V100, { 88497, 1, 1 }, { 128, 1, 1 }, 16, 0, "1106.2125", "4424.85", 100 },
};

/* Kineto's text of a float: 6 decimals are compared as text, other forms as the float they denote. */
static void check_value(const char *want, float got, size_t row)
{
	const char *dot = strchr(want, '.');
	if (dot && strlen(dot + 1) == 6) {
		char b[64];
		snprintf(b, sizeof(b), "%.6f", (double)got);
		if (strcmp(b, want))
			fail_msg("row %zu: %s, want %s", row, b, want);
	} else if ((float)strtod(want, NULL) != got) {
		fail_msg("row %zu: %.9g, want %s", row, (double)got, want);
	}
}

static void test_kineto_values(void **state)
{
	(void)state;
	size_t n = sizeof(rows) / sizeof(rows[0]);
	assert_true(n >= 80);
	for (size_t i = 0; i < n; i++) {
		const struct pt_occ_device *d = &devs[rows[i].dev];
		struct pt_kernel_sm s;
		pt_kernel_sm_calc(d, d->num_sms, rows[i].grid, rows[i].block, rows[i].regs, rows[i].smem, 0, &s);
		assert_true(s.per_sm);
		assert_true(s.has_occupancy);
		check_value(rows[i].blocks, s.blocks_per_sm, i);
		check_value(rows[i].warps, s.warps_per_sm, i);
		if (s.occupancy_pct != rows[i].occ)
			fail_msg("row %zu: occupancy %d %%, want %d %%", i, s.occupancy_pct, rows[i].occ);
		/* static and dynamic shared memory count alike */
		struct pt_kernel_sm s2;
		pt_kernel_sm_calc(d, d->num_sms, rows[i].grid, rows[i].block, rows[i].regs, rows[i].smem / 2,
				  rows[i].smem - rows[i].smem / 2, &s2);
		assert_int_equal(s2.occupancy_pct, s.occupancy_pct);
	}
}

/* Each limit alone, by hand from the rules (H100/H200: 64 warps, 32 blocks, 64 K registers, 228 KiB). */
static void test_limits(void **state)
{
	(void)state;
	const struct pt_occ_device *h = &devs[D_H200];
	/* warps: 1024 threads = 32 warps, 2 per SM */
	assert_int_equal(pt_occ_active_blocks(h, 1024, 16, 0, 0), 2);
	/* blocks: 32 threads, 32 blocks (not 64) */
	assert_int_equal(pt_occ_active_blocks(h, 32, 16, 0, 0), 32);
	/* registers: 255 -> 8192 a warp (rounded to 256 x 32), 16384 a sub-partition: 2 warps each, 8 an SM */
	assert_int_equal(pt_occ_active_blocks(h, 64, 255, 0, 0), 4);
	assert_int_equal(pt_occ_active_blocks(h, 64, 257, 0, 0), 0); /* more than 256 a thread */
	/* a block of 1024 threads of 128 registers needs 128 K registers: none */
	assert_int_equal(pt_occ_active_blocks(h, 1024, 128, 0, 0), 0);
	/* shared memory: 47 KiB + the 1 KiB reserved = 48 KiB a block, 228 KiB an SM: 4 */
	assert_int_equal(pt_occ_active_blocks(h, 32, 16, 47 * 1024, 0), 4);
	/* over the 48 KiB (+ 1 KiB) a block may have without opting in: none */
	assert_int_equal(pt_occ_active_blocks(h, 32, 16, 48 * 1024 + 1, 0), 0);
	/* more threads than a block may have */
	assert_int_equal(pt_occ_active_blocks(h, 1025, 16, 0, 0), 0);
	/* no registers, no shared memory: warps and blocks alone */
	struct pt_occ_device z = *h;
	z.reserved_smem_per_block = 0;
	assert_int_equal(pt_occ_active_blocks(&z, 128, 0, 0, 0), 16);
	/* architectures: blocks per SM 16 (Turing 7.5, Ampere 8.6), 24 (Ada 8.9, 12.0), 32 (Volta, 8.0, 10.0) */
	static const struct {
		int major, minor, max_blocks;
	} ab[] = { { 3, 5, 16 }, { 5, 2, 32 }, { 6, 1, 32 }, { 7, 0, 32 }, { 7, 5, 16 }, { 8, 0, 32 }, { 8, 6, 16 },
		   { 8, 7, 16 }, { 8, 9, 24 }, { 9, 0, 32 }, { 10, 0, 32 }, { 10, 1, 24 }, { 10, 3, 32 }, { 11, 0, 24 },
		   { 12, 0, 24 }, { 12, 1, 24 } };
	for (size_t i = 0; i < sizeof(ab) / sizeof(ab[0]); i++) {
		struct pt_occ_device d = *h;
		d.cc_major = ab[i].major;
		d.cc_minor = ab[i].minor;
		d.smem_per_sm = ab[i].major == 7 && ab[i].minor == 5 ? 65536 : ab[i].major >= 7 ? 98304 : 49152;
		d.max_threads_per_sm = 2048;
		if (pt_occ_active_blocks(&d, 32, 16, 0, 0) != ab[i].max_blocks)
			fail_msg("cc %d.%d: %d blocks, want %d", ab[i].major, ab[i].minor,
				 pt_occ_active_blocks(&d, 32, 16, 0, 0), ab[i].max_blocks);
	}
	/* the carveout: an 8.6 SM of 100 KiB holds two blocks of 40 KiB (+1), a Turing SM of 64 KiB one */
	struct pt_occ_device ga = *h;
	ga.cc_major = 8;
	ga.cc_minor = 6;
	ga.smem_per_sm = 102400;
	assert_int_equal(pt_occ_active_blocks(&ga, 32, 16, 40 * 1024, 0), 2);
	struct pt_occ_device tu = ga;
	tu.cc_major = 7;
	tu.cc_minor = 5;
	tu.smem_per_sm = 65536;
	tu.reserved_smem_per_block = 0;
	tu.max_threads_per_sm = 1024;
	assert_int_equal(pt_occ_active_blocks(&tu, 32, 16, 40 * 1024, 0), 1);
	/* GP100 (6.0, 2 sub-partitions) counts as a GP10x: 128 registers x 64 threads fit 8 blocks */
	struct pt_occ_device gp = *h;
	gp.cc_major = 6;
	gp.cc_minor = 0;
	gp.smem_per_sm = 65536;
	gp.reserved_smem_per_block = 0;
	assert_int_equal(pt_occ_active_blocks(&gp, 64, 128, 0, 0), 8);
}

static void test_unknown(void **state)
{
	(void)state;
	struct pt_occ_device d = devs[D_H200];
	d.cc_major = 13; /* not known to the calculation */
	assert_int_equal(pt_occ_active_blocks(&d, 128, 16, 0, 0), -1);
	d.cc_major = 10;
	d.cc_minor = 2;
	assert_int_equal(pt_occ_active_blocks(&d, 128, 16, 0, 0), -1);
	d = devs[D_H200];
	d.smem_per_sm = 300 * 1024; /* more than any Hopper carveout */
	assert_int_equal(pt_occ_active_blocks(&d, 128, 16, 0, 0), -1);
	d = devs[D_H200];
	assert_int_equal(pt_occ_active_blocks(&d, 0, 16, 0, 0), -1);
	d.warp_size = 0;
	assert_int_equal(pt_occ_active_blocks(&d, 128, 16, 0, 0), -1);
	/* no occupancy without a device; no per-SM values without its SMs */
	struct pt_kernel_sm s;
	int32_t g[3] = { 10, 1, 1 }, b[3] = { 128, 1, 1 };
	pt_kernel_sm_calc(NULL, 132, g, b, 16, 0, 0, &s);
	assert_true(s.per_sm && !s.has_occupancy);
	pt_kernel_sm_calc(NULL, 0, g, b, 16, 0, 0, &s);
	assert_false(s.per_sm);
}

/* A model device: its limits from the DEVICE record or deviceProperties; any of them unknown, no occupancy. */
static void test_model_device(void **state)
{
	(void)state;
	struct pt_device dv;
	memset(&dv, 0, sizeof(dv));
	dv.cc_major = 9;
	dv.sm_count = 132;
	dv.lim = (struct pt_gpu_limits){ 1024, 2048, 32, 65536, 65536, 49152, 233472, 232448 };
	struct pt_occ_device o;
	assert_true(pt_occ_device_of(&dv, &o));
	assert_int_equal(o.reserved_smem_per_block, 1024);
	assert_int_equal(o.num_sms, 132);
	struct pt_kernel_config kc = { { 1024, 1, 1 }, { 32, 8, 1 }, 32, 0, 0, 0 };
	struct pt_kernel_sm s;
	pt_kernel_sm_of(&dv, &kc, &s);
	assert_true(s.has_occupancy);
	assert_int_equal(s.occupancy_pct, 97); /* as in the H200 trace */
	dv.lim.regs_per_sm = 0;
	assert_false(pt_occ_device_of(&dv, &o));
	pt_kernel_sm_of(&dv, &kc, &s);
	assert_true(s.per_sm && !s.has_occupancy);
	dv.cc_major = 7;
	dv.lim.regs_per_sm = 65536;
	assert_true(pt_occ_device_of(&dv, &o));
	assert_int_equal(o.reserved_smem_per_block, 0);
	/* values a hostile input can give: out of the calculation's range, no occupancy */
	dv.lim.max_threads_per_block = UINT32_MAX;
	assert_false(pt_occ_device_of(&dv, &o));
	dv.lim.max_threads_per_block = 1024;
	dv.lim.smem_per_sm = UINT64_MAX;
	assert_false(pt_occ_device_of(&dv, &o));
	dv.lim.smem_per_sm = 233472;
	dv.sm_count = UINT32_MAX;
	assert_false(pt_occ_device_of(&dv, &o));
	pt_kernel_sm_of(&dv, &kc, &s);
	assert_false(s.per_sm);
	/* a grid or block whose product leaves int32, negative shared memory (an H200 again) */
	dv.cc_major = 9;
	dv.sm_count = 132;
	struct pt_kernel_config big = { { INT32_MAX, INT32_MAX, INT32_MAX }, { INT32_MAX, INT32_MAX, -64 }, 32, 0, 0, 0 };
	pt_kernel_sm_of(&dv, &big, &s);
	assert_true(s.per_sm && !s.has_occupancy);
	big.block[0] = big.block[1] = 1024; /* a block too large to run: 0 % */
	big.block[2] = 64;
	pt_kernel_sm_of(&dv, &big, &s);
	assert_true(s.per_sm && s.has_occupancy);
	assert_int_equal(s.occupancy_pct, 0);
	struct pt_kernel_config neg = { { 10, 1, 1 }, { 128, 1, 1 }, 32, -5, 0, 0 };
	pt_kernel_sm_of(&dv, &neg, &s);
	assert_true(s.per_sm && !s.has_occupancy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kineto_values),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_model_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
