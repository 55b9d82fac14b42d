/* libFuzzer target: one HCCL trace file (ascend.md §2.10) in hccl_info_0/, beside the sample job. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "hccl_info_0/allReduce_1/trace_0.json"
#include "fuzz-common.h"
