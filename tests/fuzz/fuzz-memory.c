/* libFuzzer target: MindSpore memory_usage_0.pb (MemoryProto), beside a text-era job (companion/memory.desc). */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "memory_usage_0.pb"
#include "fuzz-common.h"
