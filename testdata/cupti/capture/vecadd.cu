// cupti.md §8.5 test program: vector add, cudaMemcpy both ways, cudaMemset, two streams,
// an event record plus cudaStreamWaitEvent, one NVTX range, cudaDeviceSynchronize.
// argv[1] = iterations (default 3); argv[2] = "region": cudaProfilerStart/Stop around iteration 2 only.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

template <typename T> __global__ void scaleBy(T *x, T a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] *= a;
}
__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) c[i] = a[i] + b[i];
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
static long long now_ns(void) { struct timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec * 1000000000LL + t.tv_nsec; }

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 3;
	int region = argc > 2 && !strcmp(argv[2], "region");
	const int n = 1 << 20;
	size_t bytes = n * sizeof(float);
	float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
	for (int i = 0; i < n; i++) { ha[i] = (float)i; hb[i] = 2.0f * i; }
	float *da, *db, *dc;
	CK(cudaMalloc(&da, bytes)); CK(cudaMalloc(&db, bytes)); CK(cudaMalloc(&dc, bytes));
	cudaStream_t s1, s2; cudaEvent_t ev;
	CK(cudaStreamCreate(&s1)); CK(cudaStreamCreate(&s2)); CK(cudaEventCreate(&ev));
	long long t0 = now_ns();
	for (int it = 0; it < iters; it++) {
		if (region && it == 1) { printf("region-start %lld\n", now_ns()); CK(cudaProfilerStart()); }
		nvtxRangePushA("iteration");
		CK(cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice));
		CK(cudaMemcpyAsync(db, hb, bytes, cudaMemcpyHostToDevice, s1));
		CK(cudaMemsetAsync(dc, 0, bytes, s2));
		vecAdd<<<(n + 255) / 256, 256, 0, s1>>>(da, db, dc, n);
		CK(cudaEventRecord(ev, s1));
		CK(cudaStreamWaitEvent(s2, ev, 0));
		scaleBy<float><<<(n + 255) / 256, 256, 0, s2>>>(dc, 0.5f, n);
		CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost));
		nvtxRangePop();
		if (region && it == 1) { CK(cudaProfilerStop()); printf("region-stop %lld\n", now_ns()); }
	}
	long long t1 = now_ns();
	int bad = 0;
	for (int i = 0; i < n; i++) if (hc[i] != 1.5f * i) { bad++; }
	printf("iters %d wall_ns %lld bad %d\n", iters, t1 - t0, bad);
	cudaFree(da); cudaFree(db); cudaFree(dc);
	return bad != 0;
}
