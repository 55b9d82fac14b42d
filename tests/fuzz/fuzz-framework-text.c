/* libFuzzer target: text-era framework files; byte 0 picks task_desc_info, graph_desc_info or point. */
#define FZ_COMPANION "testdata/ascend/sample"
#define FZ_NAMES "Framework.host.vm.task_desc_info.0.slice_0", "Framework.host.vm.graph_desc_info.0.slice_0", "Framework.host.vm.point.0.slice_0"
#include "fuzz-common.h"
