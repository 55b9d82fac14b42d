/* libFuzzer target: MindSpore GPU profiler files (import-msgpu.c); byte 0 picks the file, the rest of the directory is testdata/msgpu/lenet. */
#define FZ_COMPANION "testdata/msgpu/lenet"
#define FZ_NAMES                                                                                            \
	"activity_execute_timestamp_0.txt", "gpu_op_execute_timestamp_0.txt", "step_trace_profiling_0.txt", \
		"gpu_activity_data_0.csv", "gpu_op_detail_info_0.csv", "gpu_op_type_info_0.csv", "start_time_0.txt"
#include "fuzz-common.h"
