/* libFuzzer target: MindData files; byte 0 picks pipeline_profiling (JSON), device_queue_profiling (text) or minddata_cpu_utilization (JSON). */
#define FZ_COMPANION "testdata/minddata/pipeline"
#define FZ_NAMES "pipeline_profiling_0.json", "device_queue_profiling_0.txt", "minddata_cpu_utilization_0.json"
#include "fuzz-common.h"
