/* libFuzzer target: Nsight Systems SQLite exports (import-nsys.c), alone; the input is written to a file first. */
#define FZ_COMPANION NULL
#define FZ_NAMES "fuzz.sqlite"
#include "fuzz-common.h"
