/* libFuzzer target: PyTorch profiler (Kineto) traces, plain or gzipped (import-kineto.c), alone. */
#define FZ_COMPANION NULL
#define FZ_NAMES "fuzz.pt.trace.json"
#include "fuzz-common.h"
