/*
 * proftool hints: the rule table, the knobs (hints.md §5) and --explain.
 * The rules are in rules-*.c, run by driver.c.
 */
#define _GNU_SOURCE
#include "pass/hints/hints-int.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

/* ---- rules ----------------------------------------------------------------- */

/*
 * The rule table: id, the doc of --explain, the knob keys, when the rule
 * runs (its stages, hints-int.h) and its function. Indexed by enum
 * pt_hint_rule, whose order is the output order (hints.md §3).
 */
const struct hint_rule pt_hint_rules[PT_HR__N] = {
	[PT_HR_INPUT_BOUND] = { "INPUT_BOUND", "XProf input classes; TensorBoard plugin data-loader rule",
		"per covered device, input_pct = run-level share of dataloader_t (step time in Dataloader ranges "
		"that no device or runtime work hides); needs >= 1 step and >= 1 Dataloader member",
		"input_pct >= high_pct -> crit; else input_pct >= moderate_pct -> warn",
		"Training waits for input: {input_pct}% of step time is data loading that no device or runtime "
		"work hides (threshold {threshold}%). Use more loader workers or prefetching, ...",
		"input_pct, dataloader_ns, step_ns, steps, worst_step, worst_step_pct, mean_loader_ns", NULL,
		"hints.input_bound.moderate_pct hints.input_bound.high_pct",
	  HS(HS_DEVICE), pt_hr_input_bound },
	[PT_HR_UNEXPLAINED_TIME] = { "UNEXPLAINED_TIME", "XProf \"all other\" classes",
		"per covered device, other_pct = run-level share of other_t (step time with no computation, "
		"communication, memory operation or recorded host range)",
		"other_pct >= high_pct -> warn; other_pct >= moderate_pct -> info",
		"{other_pct}% of step time is not covered by any recorded host range or device activity "
		"(threshold {threshold}%): ...",
		"other_pct, other_ns, step_ns, steps", NULL,
		"hints.unexplained.moderate_pct hints.unexplained.high_pct",
	  HS(HS_DEVICE), pt_hr_unexplained_time },
	[PT_HR_STEP_GAP] = { "STEP_GAP", "MindInsight step-trace proposer (0.5 ms)",
		"Ascend: mean iteration_interval over steps 2..n; other sources: mean over steps 2..n of "
		"max(0, first member device start - last member device end of the step before); needs >= 2 steps",
		"mean_gap > gap_ms -> warn (metric mean_gap, unit ns)",
		"Devices wait {mean} on average between the end of one step and the start of the next "
		"(threshold {threshold}): ...",
		"mean_gap_ns, max_gap_ns, max_gap_step, gaps, steps", NULL, "hints.step_gap.ms",
	  HS(HS_RANK_PRE), pt_hr_step_gap },
	[PT_HR_MD_QUEUE] = { "MD_QUEUE", "MindInsight queue analyser and MindData proposer",
		"host device-queue samples; optional device get_next samples",
		"1. empty_host > empty_pct% of n_host -> warn, stage data_processing; 2. get_next present and "
		"empty_dev > 0 -> warn, stage host_to_device; 3. get_next present, none empty -> info, none; "
		"4. no get_next samples -> info, none_found",
		"The host batch queue was empty in {empty_host}/{n_host} samples ({rate}%, threshold {threshold}%): ...",
		"n_host, empty_host, full_host, n_dev, empty_dev, rate", NULL,
		"hints.md_queue.empty_pct hints.md_queue.rules",
	  HS(HS_MINDDATA), pt_hr_md_queue },
	[PT_HR_MD_PIPELINE] = { "MD_PIPELINE", "MindInsight pipeline analyser and proposer (current: e523931b; 2020: f674ae3e)",
		"pipeline tree, output-queue usage u(op) in [0, 1] of every non-root op",
		"current: child gap (u(child) - u(op) > delta) and low leaf (u < low), unless every non-root op "
		"has u >= high (the root alone); 2020: u < low with every child >= high, all low -> the leaves, "
		"all high -> the root alone. A result other than the root alone -> warn",
		"The dataset pipeline is limited by {ops}. ... (one line per flagged op)",
		"rules, high, low, delta, ops (name, reason, usage, max_child_usage, workers)",
		"G1 (suppressed unless STEP_GAP or INPUT_BOUND fired), G2 (suppressed when MD_QUEUE blames host_to_device)",
		"hints.md_pipeline.rules hints.md_pipeline.high hints.md_pipeline.low hints.md_pipeline.delta",
	  HS(HS_MINDDATA), pt_hr_md_pipeline },
	[PT_HR_MD_CPU_BUSY] = { "MD_CPU_BUSY", "MindData proposer (80)", "host CPU idle samples; busy = 100 - mean idle %",
		"busy > busy_pct -> warn", "Host CPUs are {busy}% busy on average (threshold {threshold}%): ...",
		"busy, mean_idle, samples", NULL, "hints.md_cpu.busy_pct",
	  HS(HS_MINDDATA), pt_hr_md_cpu_busy },
	[PT_HR_MD_OP_CPU] = { "MD_OP_CPU", "MindSpore CPU-aware MindData analyzer",
		"per non-exempt pipeline op: CPU per worker, workers",
		"CPU per worker > cpu_high_pct -> info; else < cpu_low_pct with more than one worker -> info",
		"{op} uses {cpu}% CPU per worker: it is CPU-bound; ...",
		"cpu_per_worker, workers, input_usage_pct, output_usage_pct, input_empty_pct",
		"G1 (suppressed unless STEP_GAP or INPUT_BOUND fired)",
		"hints.md_op.cpu_high_pct hints.md_op.cpu_low_pct",
	  HS(HS_MINDDATA), pt_hr_md_op_cpu },
	[PT_HR_MD_OP_QUEUE] = { "MD_OP_QUEUE", "MindSpore CPU-aware MindData analyzer",
		"per non-exempt op other than Batch: output and input queue usage, input-queue empty share",
		"leaf output usage < leaf_usage_pct -> info; DeviceQueue input empty > devq_empty_pct -> warn; "
		"input - output usage > queue_gap_pts -> info",
		"{op} fills only {u}% of its output queue: ...",
		"cpu_per_worker, workers, input_usage_pct, output_usage_pct, input_empty_pct",
		"G1 (suppressed unless STEP_GAP or INPUT_BOUND fired)",
		"hints.md_op.leaf_usage_pct hints.md_op.devq_empty_pct hints.md_op.queue_gap_pts",
	  HS(HS_MINDDATA), pt_hr_md_op_queue },
	[PT_HR_MD_BOTTLENECK_OP] = { "MD_BOTTLENECK_OP", "MindSpore CPU-aware MindData analyzer",
		"per op (not exempt, not DeviceQueue): CPU per worker, queue usage",
		"CPU per worker > cpu_high_pct, or < cpu_low_pct with a child and (input usage < in_usage_floor_pct "
		"or output - input usage > queue_gap_pts) -> warn; the lowest id is primary",
		"{op} is the likely pipeline bottleneck: {reason}",
		"cpu_per_worker, workers, input_usage_pct, output_usage_pct, input_empty_pct, primary",
		"G1 (suppressed unless STEP_GAP or INPUT_BOUND fired), G2 (suppressed when MD_QUEUE blames host_to_device)",
		"hints.md_op.cpu_high_pct hints.md_op.cpu_low_pct hints.md_op.queue_gap_pts hints.md_op.in_usage_floor_pct",
	  HS(HS_MINDDATA), pt_hr_md_bottleneck_op },
	[PT_HR_LOW_DEVICE_UTIL] = { "LOW_DEVICE_UTIL", "TensorBoard plugin (GPU utilisation < 0.5)",
		"per device, |union(member kernel activities) within W| / |W| x 100",
		"util < pct -> warn, one hint listing every such device",
		"Device {list} ran kernels only {util}% of the step window (threshold {threshold}%). ...",
		"devices (device_id, busy_ns, window_ns, util_pct)", NULL, "hints.low_util.pct",
	  HS(HS_DEVICE) | HS(HS_RANK_DEVICES), pt_hr_low_device_util },
	[PT_HR_LAUNCH_BOUND] = { "LAUNCH_BOUND", "XProf kernel-launch classes (3 % / 15 %)",
		"per covered device, launch_pct = run-level share of runtime_t",
		"launch_pct >= high_pct -> crit; >= moderate_pct -> warn",
		"{launch_pct}% of step time is spent in runtime/launch calls while the device is idle ...",
		"launch_pct, runtime_ns, step_ns, steps, apis (name, exposed_ns), short_kernels_pct (the SHORT_KERNELS "
		"share of the launch pairs, when there are any)", NULL,
		"hints.launch_bound.moderate_pct hints.launch_bound.high_pct",
	  HS(HS_DEVICE), pt_hr_launch_bound },
	[PT_HR_LAUNCH_DELAY] = { "LAUNCH_DELAY", "HTA launch-delay outliers (launch_delay_cutoff 100 us on queue_delay)",
		"launch pairs (runtime call in hints.launch.apis, device activity) with queue_delay > queue_delay_us",
		">= 1 outlier -> info; warn when the outlier share >= queue_delay_warn_pct and LOW_DEVICE_UTIL "
		"fired for the device (G3)",
		"{n} of {N} launches ({share}%) started on the device more than {cutoff} after the launch call returned ...",
		"outliers, launches, share_pct, queue_delay_p50_ns, queue_delay_p99_ns, queue_delay_max_ns, "
		"launch_delay_p50_ns, launch_delay_p99_ns, kernels (name, outliers)",
		"G3 (warn only together with LOW_DEVICE_UTIL)",
		"hints.launch.apis hints.launch.queue_delay_us hints.launch.queue_delay_warn_pct",
	  HS(HS_LAUNCH), pt_hr_launch_delay },
	[PT_HR_RUNTIME_OUTLIER] = { "RUNTIME_OUTLIER", "HTA runtime outliers (runtime_cutoff 50 us)",
		"launch pairs with cpu_dur > runtime_us (each call once)",
		">= 1 -> info; share of launch calls >= runtime_warn_pct -> warn",
		"{n} launch calls ({share}%) took longer than {cutoff} on the host (max {max}, mostly {api}). ...",
		"outliers, launches, share_pct, cpu_dur_p50_ns, cpu_dur_p99_ns, cpu_dur_max_ns, apis (name, outliers)",
		NULL, "hints.launch.apis hints.launch.runtime_us hints.launch.runtime_warn_pct",
	  HS(HS_LAUNCH), pt_hr_runtime_outlier },
	[PT_HR_SHORT_KERNELS] = { "SHORT_KERNELS", "HTA: GPU kernels shorter than their CPU launch",
		"launch pairs with cpu_dur <= runtime_us and gpu_dur < cpu_dur",
		"share of launch pairs >= pct -> warn",
		"{share}% of launched kernels ({n}) run for less time than the host call that launched them ...",
		"short, launches, share_pct, mean_cpu_dur_ns, mean_device_dur_ns, kernels (name, short)", NULL,
		"hints.launch.apis hints.launch.runtime_us hints.short_kernels.pct",
	  HS(HS_LAUNCH), pt_hr_short_kernels },
	[PT_HR_DEVICE_IDLE] = { "DEVICE_IDLE", "HTA idle-time breakdown, lifted to the device",
		"per covered device, idle = W - (C u M u memcpy u memset); each gap is host_wait (the launching "
		"call of the next activity starts after the gap began), kernel_wait (shorter than "
		"kernel_wait_gap_ns) or other",
		"applies when idle_pct >= min_pct; the largest class >= class_pct of idle -> warn, else info",
		"Device {d} is idle {idle_pct}% of the step window; {share}% of that idle time ...",
		"idle_pct, idle_ns, window_ns, host_wait_ns, kernel_wait_ns, other_ns, host_wait_gaps, "
		"kernel_wait_gaps, other_gaps, longest_gap_ns", NULL,
		"hints.idle.min_pct hints.idle.class_pct hints.idle.kernel_wait_gap_ns",
	  HS(HS_DEVICE), pt_hr_device_idle },
	[PT_HR_COMM_EXPOSED] = { "COMM_EXPOSED", "TensorBoard plugin; MindInsight parallel rate; XProf collective classes",
		"per covered device, comm_pct = run-level share of comm_not_overlapped; collective_pct = |M in W| / |W|",
		"comm_pct > exposed_pct -> warn",
		"{comm_pct}% of step time is communication that no computation hides (threshold {threshold}%); ...",
		"comm_pct, comm_not_overlapped_ns, step_ns, steps, collective_pct", NULL, "hints.comm.exposed_pct",
	  HS(HS_DEVICE), pt_hr_comm_exposed },
	[PT_HR_PP_RECEIVE] = { "PP_RECEIVE", "MindInsight parallel proposer (pipeline parallelism)",
		"receive time not hidden by computation over the step time of all ranks", "rate > receive_pct -> warn",
		"Stage-to-stage receives leave the device idle {rate}% of the time ...", "per stage sums, ranks", NULL,
		"hints.pp.receive_pct",
	  HS(HS_CLUSTER), pt_hr_pp_receive },
	[PT_HR_PP_STAGE_COMM] = { "PP_STAGE_COMM", "MindInsight parallel proposer (pipeline parallelism)",
		"receive ops present and hints.pp.stages = S (the number of pipeline stages; not in the dumps): the "
		"ranks of the rank table in ascending order, the i-th (from 0) in stage i / (ranks / S) + 1, ranks a "
		"multiple of S; per stage, sum of comm_not_overlapped_excl_receive over the sum of step time of its ranks",
		"the worst stage > stage_comm_pct -> warn (scope stage:<s>, rank = the stage's first rank)",
		"Communication inside stage {s} is exposed {rate}% of the time (threshold {threshold}%): revisit the "
		"sharding inside the stage.",
		"stage_comm_pct, n_stages, stages (stage, comm_ns, step_ns, comm_pct, ranks)", NULL,
		"hints.pp.stages hints.pp.stage_comm_pct",
	  HS(HS_CLUSTER), pt_hr_pp_stage_comm },
	[PT_HR_PP_STAGE_FLOPS] = { "PP_STAGE_FLOPS", "MindInsight parallel proposer (pipeline parallelism)",
		"receive ops present and hints.pp.stages = S, stages as PP_STAGE_COMM; a rank's FLOPs = those of "
		"LOW_FLOPS_UTIL's executions with known FLOPs, per kept step; stage FLOPs = mean over its ranks; FLOPs "
		"known on every rank",
		"the stage with the largest stage / mean(stages) - 1 > stage_flops_pct -> warn",
		"Stage {s} computes {val} MFLOPs per device, {pct}% above the stage average: rebalance layers across "
		"stages.",
		"excess_pct, mean_mflops, n_stages, stages (stage, mflops, ranks)",
		NULL, "hints.pp.stages hints.pp.stage_flops_pct",
	  HS(HS_CLUSTER), pt_hr_pp_stage_flops },
	[PT_HR_RANK_SPREAD] = { "RANK_SPREAD", "msprof-analyze cluster step table",
		"rank table: per rank (device) the mean over kept steps of computation, communication, overlapped, "
		"comm_not_overlapped, free, preparing; >= 2 ranks",
		"per column with mean > 0: (max - min) / mean x 100 > spread_pct -> warn, one hint per column",
		"{column} differs by {spread}% across ranks (max {max} on rank {rmax}, min {min} on rank {rmin}, ...",
		"ranks (rank, device_id, mean_ns), min_ns, max_ns, mean_ns, spread_pct", NULL, "hints.rank_spread.pct",
	  HS(HS_CLUSTER), pt_hr_rank_spread },
	[PT_HR_RANK_STEP_GAP] = { "RANK_STEP_GAP", "MindInsight parallel proposer (0.2)",
		"mean step interval per rank v (STEP_GAP metric), >= 2 ranks",
		"v / mean(v) - 1 > pct -> warn for the largest",
		"Rank {r} waits {v} between steps, {pct}% more than the rank average: check its data pipeline.",
		"ranks (rank, mean_gap_ns), mean_ns", NULL, "hints.rank_step_gap.pct",
	  HS(HS_CLUSTER), pt_hr_rank_step_gap },
	[PT_HR_RANK_FLOPS] = { "RANK_FLOPS", "MindInsight parallel proposer (0.2)", "FLOPS per rank",
		"(mean(f) - f) / mean(f) > pct -> warn for the largest shortfall",
		"Rank {r} reaches {f} GFLOPS, {pct}% below the rank average: check that device.",
		"per-rank values and their mean", NULL, "hints.rank_flops.pct",
	  HS(HS_CLUSTER), pt_hr_rank_flops },
	[PT_HR_SLOW_LINK] = { "SLOW_LINK", "MindInsight parallel proposer (0.2)",
		"HCCL trace data (hccl_info_<d>, ascend.md 2.10) of every device; links (src, dst, transport type) by "
		"ascend.md 3.10: ranks 0xffffffff replaced by the other rank, LOCAL swapped; RDMA: triples (RDMASend, "
		"RDMASend, Notify Wait) per tid, LOCAL events joining the link's RDMA entry; other types (SDMA, HCCS, "
		"...): Reduce Inline and Memcpy events; bandwidth b = size (KB) / time (ms), the executions counted "
		"when they start in W under --steps or --time-window; links with src != dst",
		"per transport type: (mean(b) - b) / mean(b) > pct -> warn for the worst link of the type (scope "
		"link:<src>-<dst>/<type>, rank = src); a zero mean skips the type",
		"Link {src}->{dst} ({type}) moves {b} KB/ms, {pct}% below the {type} average.",
		"shortfall_pct, kb_per_ms, mean_kb_per_ms, type, links (src, dst, kb_per_ms, size_bytes, time_ns)", NULL,
		"hints.slow_link.pct",
	  HS(HS_CLUSTER), pt_hr_slow_link },
	[PT_HR_TOP_OPS] = { "TOP_OPS", "proftool; top-operation tables of MindInsight, XProf and nvprof",
		"per covered device, member executions in W: op items (Ascend: framework ops by full name; CUDA: "
		"kernels by name) and type items (Ascend: op types; CUDA: the innermost Operator range, else the "
		"kernel name); T = their device time, > 0",
		"share of the first type item >= type_pct -> info",
		"Op type {type} takes {top_type_pct}% of device {d}'s op time ...; then one line per item",
		"total_ns, n, top_type_pct, top_n_pct, types (name, calls, time_ns, share), ops (name, calls, time_ns, share)",
		NULL, "hints.top_ops.n hints.top_ops.type_pct",
	  HS(HS_DEVICE), pt_hr_top_ops },
	[PT_HR_MEM_OPS_CRITICAL] = { "MEM_OPS_CRITICAL", "proftool; memcpy/memset categories of the TensorBoard plugin",
		"per covered device, mem_pct = run-level share of memcpy_t + memset_t; needs >= 1 member Memcpy or Memset",
		"mem_pct >= high_pct -> warn; >= moderate_pct -> info",
		"Device {d} spends {mem_pct}% of step time ({time} per step) only copying or filling memory ...",
		"mem_pct, memcpy_ns, memset_ns, step_ns, steps, per-kind exposed_ns, exposed_ops, "
		"top (name, kind, bytes, start_ns, exposed_ns, call)", NULL,
		"hints.mem_ops.moderate_pct hints.mem_ops.high_pct",
	  HS(HS_DEVICE), pt_hr_mem_ops_critical },
	[PT_HR_LOW_FLOPS_UTIL] = { "LOW_FLOPS_UTIL", "proftool; FLOPs and peak of ascend.md 3.9",
		"per covered device with a known peak: K = member computation executions with known FLOPs (Ascend: "
		"tasks of framework ops, AI Core counters else the analytical table; CUDA: kernels whose innermost host "
		"range is a PyTorch Operator range that counts in proftool flops, FLOPs from its NVTX sizes, once per "
		"range), F = their FLOPs, B = |union(K) in W|; util_pct = 100 x F / B / peak (info.json, the GPU peak "
		"table, or hints.flops_util.peak_tflops); coverage_pct = 100 x B / |C in W|",
		"coverage_pct >= min_coverage_pct and util_pct < low_pct -> warn",
		"While device {d} runs ops with known FLOPs it reaches {achieved} TFLOPS, {util_pct}% of its peak ...",
		"util_pct, flops, busy_ns, achieved, peak_flops, peak_source, coverage_pct, types", NULL,
		"hints.flops_util.low_pct hints.flops_util.min_coverage_pct hints.flops_util.peak_tflops",
	  HS(HS_DEVICE), pt_hr_low_flops_util },
	[PT_HR_MEMORY_NEAR_CAPACITY] = { "MEMORY_NEAR_CAPACITY", "TensorBoard plugin (90 % of totalGlobalMem)",
		"per device, peak allocated memory and capacity: CUDA, the device group of the MEMORY2 replay against "
		"totalGlobalMem; Ascend, the largest graph peak of memory_usage_<d>.pb (ascend.md 3.13) against its "
		"total_mem",
		"peak / capacity > peak_pct -> warn",
		"Device {d} peaked at {peak} GiB, {pct}% of its {cap} GiB ...",
		"peak_pct, peak_bytes, capacity_bytes, peak_ns (CUDA: the record; Ascend: the first execution of the "
		"peak node, absent without one); Ascend also graph_id, peak_node_index, peak_node",
		NULL, "hints.memory.peak_pct",
	  HS(HS_RANK) | HS(HS_CLUSTER), pt_hr_memory_near_capacity },
	[PT_HR_TENSOR_CORES_UNUSED] = { "TENSOR_CORES_UNUSED", "TensorBoard plugin (CUDA only)",
		"Tensor Core kernels by name pattern; eligible operators by name",
		"computeMajor >= min_cc, tc_used_pct = 0, eligible_pct > 0 -> info",
		"Operators that could use Tensor Cores launch {eligible_pct}% of operator kernel time, ...",
		"eligible_pct, tc_used_pct, cc", NULL,
		"hints.tensor_cores.min_cc hints.tensor_cores.kernel_patterns hints.tensor_cores.op_names",
	  HS(HS_RANK), pt_hr_tensor_cores_unused },
	[PT_HR_USE_DDP] = { "USE_DDP", "TensorBoard plugin",
		"host ranges named DataParallel.forward; devices with activity",
		"such a range and > 1 device with activity -> info",
		"The model runs single-process DataParallel on {n} devices; ...", "devices", NULL, "",
	  HS(HS_RANK), pt_hr_use_ddp },
	[PT_HR_DDP_WITHOUT_NCCL] = { "DDP_WITHOUT_NCCL", "TensorBoard plugin",
		"host ranges DistributedDataParallel.forward and nccl:*; compute capability",
		"DDP range, no nccl:broadcast/reduce/all_reduce/all_gather/reduce_scatter range, a device with "
		"compute capability >= 3.5 -> info",
		"DistributedDataParallel runs without NCCL collectives on NCCL-capable GPUs; ...", "calls, cc", NULL, "",
	  HS(HS_RANK), pt_hr_ddp_without_nccl },
	[PT_HR_UNATTRIBUTED_DEVICE] = { "UNATTRIBUTED_DEVICE", "proftool",
		"member device activities without a launching host event", "unattributed_ns / device time > pct -> info",
		"{pct}% of device time ({time}) has no launching host event, ...",
		"unattributed_pct, unattributed_ns, unattributed_count, device_ns", NULL, "hints.unattributed.pct",
	  HS(HS_DEVICE), pt_hr_unattributed_device },
	[PT_HR_TRUNCATED_LAST_STEP] = { "TRUNCATED_LAST_STEP", "TensorBoard plugin (kineto PR #108)",
		"member device activities per kept step", "n_last < ratio x n_prev -> info",
		"The last step has {n_last} device activities against {n_prev} in the step before: ...",
		"n_last, n_prev, last_step", NULL, "hints.truncated.ratio",
	  HS(HS_RANK), pt_hr_truncated_last_step },
};

const char *pt_hint_rule_name(enum pt_hint_rule r)
{
	return r < PT_HR__N ? pt_hint_rules[r].id : "?";
}

int pt_hint_rule_find(const char *id)
{
	for (int i = 0; i < PT_HR__N; i++)
		if (!strcmp(pt_hint_rules[i].id, id))
			return i;
	return -1;
}

/* ---- knobs ----------------------------------------------------------------- */

enum ktype { K_PCT, K_COUNT, K_NONNEG, K_LIST, K_NS, K_MD, K_ONOFF, K_DISABLE };

struct kdef {
	const char *key;
	enum ktype type;
	size_t off;
	const char *dflt;
};

#define KO(f) offsetof(struct pt_hint_knobs, f)
static const struct kdef kdefs[] = {
	{ "hints.disable", K_DISABLE, 0, "(empty)" },
	{ "hints.input_bound.moderate_pct", K_PCT, KO(input_moderate_pct), "5" },
	{ "hints.input_bound.high_pct", K_PCT, KO(input_high_pct), "20" },
	{ "hints.unexplained.moderate_pct", K_PCT, KO(unexplained_moderate_pct), "3" },
	{ "hints.unexplained.high_pct", K_PCT, KO(unexplained_high_pct), "15" },
	{ "hints.step_gap.ms", K_NONNEG, KO(step_gap_ms), "0.5" },
	{ "hints.md_queue.empty_pct", K_MD, 0, "30" },
	{ "hints.md_queue.rules", K_MD, 0, "current" },
	{ "hints.md_pipeline.rules", K_MD, 0, "current" },
	{ "hints.md_pipeline.high", K_MD, 0, "0.8" },
	{ "hints.md_pipeline.low", K_MD, 0, "0.6 (0.2 under 2020)" },
	{ "hints.md_pipeline.delta", K_MD, 0, "0.1" },
	{ "hints.md_cpu.busy_pct", K_MD, 0, "80" },
	{ "hints.md_op.cpu_high_pct", K_MD, 0, "75" },
	{ "hints.md_op.cpu_low_pct", K_MD, 0, "20" },
	{ "hints.md_op.leaf_usage_pct", K_MD, 0, "50" },
	{ "hints.md_op.devq_empty_pct", K_MD, 0, "60" },
	{ "hints.md_op.queue_gap_pts", K_MD, 0, "50" },
	{ "hints.md_op.in_usage_floor_pct", K_MD, 0, "10" },
	{ "hints.low_util.pct", K_PCT, KO(low_util_pct), "50" },
	{ "hints.launch_bound.moderate_pct", K_PCT, KO(launch_bound_moderate_pct), "3" },
	{ "hints.launch_bound.high_pct", K_PCT, KO(launch_bound_high_pct), "15" },
	{ "hints.launch.apis", K_LIST, KO(launch_apis),
	  "cudaLaunchKernel,cudaLaunchKernelExC,cudaMemcpyAsync,cudaMemsetAsync" },
	{ "hints.launch.queue_delay_us", K_NONNEG, KO(queue_delay_us), "100" },
	{ "hints.launch.runtime_us", K_NONNEG, KO(runtime_us), "50" },
	{ "hints.launch.queue_delay_warn_pct", K_PCT, KO(queue_delay_warn_pct), "5" },
	{ "hints.launch.runtime_warn_pct", K_PCT, KO(runtime_warn_pct), "5" },
	{ "hints.short_kernels.pct", K_PCT, KO(short_kernels_pct), "50" },
	{ "hints.idle.min_pct", K_PCT, KO(idle_min_pct), "10" },
	{ "hints.idle.class_pct", K_PCT, KO(idle_class_pct), "50" },
	{ "hints.idle.kernel_wait_gap_ns", K_NS, KO(idle_kernel_wait_gap_ns), "30000" },
	{ "hints.comm.exposed_pct", K_PCT, KO(comm_exposed_pct), "10" },
	{ "hints.pp.receive_pct", K_PCT, KO(pp_receive_pct), "10" },
	{ "hints.pp.stage_comm_pct", K_PCT, KO(pp_stage_comm_pct), "10" },
	{ "hints.pp.stage_flops_pct", K_PCT, KO(pp_stage_flops_pct), "20" },
	{ "hints.pp.stages", K_COUNT, KO(pp_stages), "(unset)" },
	{ "hints.rank_spread.pct", K_PCT, KO(rank_spread_pct), "5" },
	{ "hints.rank_step_gap.pct", K_PCT, KO(rank_step_gap_pct), "20" },
	{ "hints.rank_flops.pct", K_PCT, KO(rank_flops_pct), "20" },
	{ "hints.slow_link.pct", K_PCT, KO(slow_link_pct), "20" },
	{ "hints.top_ops.n", K_COUNT, KO(top_ops_n), "5" },
	{ "hints.top_ops.type_pct", K_PCT, KO(top_ops_type_pct), "20" },
	{ "hints.mem_ops.moderate_pct", K_PCT, KO(mem_ops_moderate_pct), "5" },
	{ "hints.mem_ops.high_pct", K_PCT, KO(mem_ops_high_pct), "15" },
	{ "hints.flops_util.low_pct", K_PCT, KO(flops_low_pct), "10" },
	{ "hints.flops_util.min_coverage_pct", K_PCT, KO(flops_min_coverage_pct), "50" },
	{ "hints.flops_util.peak_tflops", K_NONNEG, KO(flops_peak_tflops), "0" },
	{ "hints.memory.peak_pct", K_PCT, KO(memory_peak_pct), "90" },
	{ "hints.tensor_cores.min_cc", K_COUNT, KO(tc_min_cc), "7" },
	{ "hints.tensor_cores.kernel_patterns", K_LIST, KO(tc_kernel_patterns), "the plugin's list" },
	{ "hints.tensor_cores.op_names", K_LIST, KO(tc_op_names), "the plugin's list" },
	{ "hints.unattributed.pct", K_PCT, KO(unattributed_pct), "5" },
	{ "hints.truncated.ratio", K_NONNEG, KO(truncated_ratio), "0.8" },
	{ "hints.gate.minddata", K_ONOFF, KO(gate_minddata), "on" },
	{ NULL, 0, 0, NULL },
};

static const struct kdef *kdef_find(const char *key)
{
	for (size_t i = 0; kdefs[i].key; i++)
		if (!strcmp(kdefs[i].key, key))
			return &kdefs[i];
	return NULL;
}

static void set_default(struct pt_hint_knobs *k, const struct kdef *d)
{
	char *p = (char *)k + d->off;
	switch (d->type) {
	case K_PCT:
	case K_NONNEG:
		*(double *)p = strtod(d->dflt, NULL);
		break;
	case K_COUNT:
	case K_NS:
		*(int64_t *)p = strtoll(d->dflt, NULL, 10);
		break;
	case K_LIST:
		free(*(char **)p);
		*(char **)p = pt_xstrdup(strncmp(d->dflt, "the ", 4) ? d->dflt : "");
		break;
	case K_ONOFF:
		*(bool *)p = true;
		break;
	default:
		break;
	}
}

void pt_hint_knobs_init(struct pt_hint_knobs *k)
{
	memset(k, 0, sizeof(*k));
	pt_dataset_knobs_init(&k->md);
	for (size_t i = 0; kdefs[i].key; i++)
		set_default(k, &kdefs[i]);
}

void pt_hint_knobs_free(struct pt_hint_knobs *k)
{
	free(k->launch_apis);
	free(k->tc_kernel_patterns);
	free(k->tc_op_names);
	free(k->given);
	memset(k, 0, sizeof(*k));
}

static bool parse_double(const char *s, double *v)
{
	if (!*s || strpbrk(s, "nNxXiI"))
		return false;
	char *end;
	*v = strtod(s, &end);
	return !*end && isfinite(*v);
}

static void note_given(struct pt_hint_knobs *k, const char *key, const char *value)
{
	char *n = pt_xasprintf("%s%s=%s\n", k->given ? k->given : "", key, value);
	free(k->given);
	k->given = n;
}

int pt_hint_knob_set(struct pt_hint_knobs *k, const char *key, const char *value, char **why)
{
	const struct kdef *d = kdef_find(key);
	if (!d) {
		*why = pt_xasprintf("unknown hint key '%s'", key);
		return -1;
	}
	char *p = (char *)k + d->off;
	double v;
	switch (d->type) {
	case K_MD: {
		int r = pt_dataset_knob_set(&k->md, key, value, why);
		if (r < 0)
			return -1;
		break;
	}
	case K_PCT:
		if (!parse_double(value, &v) || v < 0 || v > 100)
			goto bad;
		*(double *)p = v;
		break;
	case K_NONNEG:
		if (!parse_double(value, &v) || v < 0)
			goto bad;
		*(double *)p = v;
		break;
	case K_COUNT:
	case K_NS: {
		char *end;
		if (!*value || *value == '-' || *value == '+')
			goto bad;
		long long n = strtoll(value, &end, 10);
		if (*end || (d->type == K_COUNT && n < 1))
			goto bad;
		*(int64_t *)p = n;
		break;
	}
	case K_LIST:
		free(*(char **)p);
		*(char **)p = pt_xstrdup(value);
		break;
	case K_ONOFF:
		if (!strcmp(value, "on"))
			*(bool *)p = true;
		else if (!strcmp(value, "off"))
			*(bool *)p = false;
		else
			goto bad;
		break;
	case K_DISABLE: {
		bool dis[PT_HR__N] = { false };
		char *s = pt_xstrdup(value), *save = NULL;
		for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			int r = pt_hint_rule_find(t);
			if (r < 0) {
				*why = pt_xasprintf("bad value for hint key '%s': unknown rule '%s'", key, t);
				free(s);
				return -1;
			}
			dis[r] = true;
		}
		free(s);
		memcpy(k->disabled, dis, sizeof(dis));
		break;
	}
	}
	note_given(k, key, value);
	return 0;
bad:
	*why = pt_xasprintf("bad value '%s' for hint key '%s' (%s)", value, key,
			    d->type == K_PCT ? "a percentage 0-100" : d->type == K_COUNT ? "a count >= 1" :
			    d->type == K_ONOFF ? "on or off" : "a number >= 0");
	return -1;
}

int pt_hint_knobs_check(const struct pt_hint_knobs *k, char **why)
{
	return pt_dataset_knobs_check(&k->md, why);
}

/* Value in force of a key given with --hint, or NULL. */
static const char *given_value(const struct pt_hint_knobs *k, const char *key, char *buf, size_t n)
{
	const char *found = NULL;
	size_t kl = strlen(key);
	for (const char *p = k->given; p && *p;) {
		const char *nl = strchr(p, '\n');
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			size_t l = (size_t)(nl - p) - kl - 1;
			if (l >= n)
				l = n - 1;
			memcpy(buf, p + kl + 1, l);
			buf[l] = 0;
			found = buf;
		}
		p = nl + 1;
	}
	return found;
}

char *pt_hint_explain(const char *id, const struct pt_hint_knobs *k)
{
	int r = pt_hint_rule_find(id);
	if (r < 0)
		return NULL;
	const struct hint_rule *d = &pt_hint_rules[r];
	char *s = pt_xasprintf("%s\n  source:    %s\n  input:     %s\n  condition: %s\n  message:   %s\n"
			       "  evidence:  %s\n  gates:     %s\n  keys:\n",
			       d->id, d->source, d->input, d->condition, d->message, d->evidence,
			       d->gates ? d->gates : "none");
	char *keys = pt_xstrdup(d->keys), *save = NULL;
	bool any = false;
	for (char *t = strtok_r(keys, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		const struct kdef *kd = kdef_find(t);
		char buf[256];
		const char *g = given_value(k, t, buf, sizeof(buf));
		char *n = g ? pt_xasprintf("%s    %s  default %s, in force %s\n", s, t, kd ? kd->dflt : "?", g)
			    : pt_xasprintf("%s    %s  default %s\n", s, t, kd ? kd->dflt : "?");
		free(s);
		s = n;
		any = true;
	}
	free(keys);
	if (!any) {
		char *n = pt_xasprintf("%s    (none)\n", s);
		free(s);
		s = n;
	}
	char buf[256];
	const char *g = given_value(k, "hints.disable", buf, sizeof(buf));
	if (g && k->disabled[r]) {
		char *n = pt_xasprintf("%s  disabled by hints.disable=%s\n", s, g);
		free(s);
		s = n;
	}
	return s;
}

/* ---- records ---------------------------------------------------------------- */

struct pt_hint *pt_hints_add(struct pt_hints *h, enum pt_hint_rule r, int64_t rank, const char *scope)
{
	return pt_hint_new(h, (int)r, pt_hint_rule_name(r), pt_hint_rules[r].keys, rank, scope);
}
