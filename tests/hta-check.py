#!/usr/bin/env python3
"""hta-check.py DIR [--backend json|ijson] [--include-last-step] [--kernels] [--launches] [--ids] [--sm]

What HolisticTraceAnalysis (facebookresearch/HolisticTraceAnalysis) sees in the
kineto traces proftool writes into DIR, computed with HTA's parsing and
filtering rules as its code states them (HTA itself cannot be installed here).
Plain Python; each step names the HTA function it follows.

Prints, per rank: the file, the number of GPU kernels HTA keeps and their total
time, the iterations it finds; with --kernels the breakdown per kernel name
(count, total), with --launches the runtime launch events that HTA's launch
statistics pair with a kernel, with --sm the kernels' launch and per-SM
arguments as HTA's columns hold them (grid, block, registers_per_thread,
shared_memory, blocks_per_sm, warps_per_sm, est_occupancy; a missing one
reads as its default) and how many kernels carry each set. Times: ns. With the default `json` backend HTA
rounds float-us events to whole us (ts up, end down) and so does this script;
with `ijson` HTA keeps the floats, and the totals here are
round(sum of dur x 1000) ns.
"""
import gzip
import hashlib
import json
import math
import os
import re
import sys


def die(msg):
    print("hta-check: " + msg, file=sys.stderr)
    sys.exit(1)


args = sys.argv[1:]
if not args:
    die("usage: hta-check.py DIR [--backend json|ijson] [--include-last-step] [--kernels] [--launches] [--ids] [--sm]")
trace_dir = args[0]
backend = "json"
if "--backend" in args:
    backend = args[args.index("--backend") + 1]
include_last = "--include-last-step" in args


def load(path):
    # hta/common/trace_parser.py parse_trace_dict: .gz through gzip, .json as text
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as fh:
            return json.loads(fh.read())
    with open(path, "r") as fh:
        return json.loads(fh.read())


def text_lines(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as fh:
        for line in fh:
            yield line


# hta/common/trace_file.py create_rank_to_trace_dict: files ending .gz or .json,
# rank from distributedInfo.rank (a ValueError without it); a later file of the
# same rank replaces an earlier one.
files = sorted(f for f in os.listdir(trace_dir) if f.endswith(".gz") or f.endswith(".json"))
if not files:
    die("no trace file in " + trace_dir)
rank_file = {}
for f in files:
    p = os.path.join(trace_dir, f)
    data = load(p)
    di = data.get("distributedInfo")
    if not isinstance(di, dict) or "rank" not in di:
        die("%s: no distributedInfo.rank: HTA raises ValueError" % f)
    r = di["rank"]
    if not isinstance(r, int) or r < 0:
        die("%s: rank %r is not a non-negative integer" % (f, r))
    # older HTA releases scanned the text line by line for "rank":\s+(\d+), first match
    first = None
    for line in text_lines(p):
        m = re.search(r'"rank":\s+(\d+)', line)
        if m:
            first = int(m.group(1))
            break
    if first != r:
        die("%s: the first \"rank\": <n> text says %r, distributedInfo says %d" % (f, first, r))
    if r in rank_file:
        die("%s and %s both claim rank %d: HTA keeps only one" % (rank_file[r], f, r))
    rank_file[r] = f


def parse(path):
    """trace_parser._parse_trace_dataframe_json / _ijson and _compress_df."""
    data = load(path)
    evs = [e for e in data.get("traceEvents", []) if e.get("cat") != "python_function"]
    rows = []
    # the ts column is float64 as soon as one ts is a float or missing (M events)
    float_ts = any(not isinstance(e.get("ts"), int) for e in evs)
    for idx, e in enumerate(evs):
        if "dur" not in e or "cat" not in e:  # _compress_df: dropna(subset=["dur", "cat"])
            continue
        if e["cat"] == "Trace":
            continue
        ts, dur = e.get("ts"), e["dur"]
        if ts is None:
            continue
        if backend == "json" and float_ts:
            # _parse_trace_dataframe_json: end = ts + dur; ts = ceil(ts); end = floor(end); dur = end - ts (us)
            end = ts + dur
            ts_i, end_i = math.ceil(ts), math.floor(end)
            ts_ns, dur_ns = ts_i * 1000, (end_i - ts_i) * 1000
        else:
            ts_ns, dur_ns = round(ts * 1000), round(dur * 1000)
        a = e.get("args") or {}
        # parser_config ARGS_CUDA_MINIMUM: stream and correlation, default -1
        # ARGS_INDEX and ARGS_COMPLETE: "External id" -> external_id, "cbid" -> cbid (Int, default -1)
        rows.append({"index": idx, "name": e.get("name", ""), "cat": e["cat"], "ts": ts_ns, "dur": dur_ns,
                     "end": ts_ns + dur_ns, "stream": a.get("stream", -1), "correlation": a.get("correlation", -1),
                     "external_id": int(a.get("External id", -1)), "cbid": int(a.get("cbid", -1))})
        if "--sm" in args:
            # event_args_1.0.0.yaml: threads::grid/block (Object, "[]"), threads::registers and
            # kernel::shared_memory (Int, -1), sm::blocks (Object, "[]"), sm::warps (Float, 0.0),
            # sm::occupancy (Int, -1)
            rows[-1]["sm"] = (json.dumps(a.get("grid", [])), json.dumps(a.get("block", [])),
                              a.get("registers per thread", -1), a.get("shared memory", -1),
                              json.dumps(a.get("blocks per SM", [])), float(a.get("warps per SM", 0.0)),
                              a.get("est. achieved occupancy %", -1))
    return data, rows


def profiler_step_names(rows):
    # TraceSymbolTable.get_profiler_step_ids: symbols starting with "ProfilerStep"
    return sorted({r["name"] for r in rows if r["name"].startswith("ProfilerStep")})


def filter_ranks(traces):
    """trace.py Trace._filter_irrelevant_gpu_kernels (not MTIA)."""
    steps = set()
    for rows in traces.values():
        steps.update(profiler_step_names(rows))
    if len(steps) < 2:  # no ProfilerStep, or only one: every event is kept
        return traces
    out = {}
    for rank, rows in traces.items():
        cpu = [r for r in rows if r["stream"] == -1]  # CPUOperatorFilter
        if not cpu:
            out[rank] = rows
            continue
        gpu = [r for r in rows if r["stream"] > 0]  # GPUKernelFilter
        step_rows = [r for r in cpu if r["name"] in steps]
        last_start = max(r["ts"] for r in step_rows) if step_rows else min(r["ts"] for r in cpu)
        last_end = max(r["end"] for r in step_rows) if step_rows else max(r["end"] for r in cpu)
        cpu = [r for r in cpu if (r["ts"] <= last_end if include_last else r["ts"] < last_start)]
        # gpu_kernels.merge(cpu_kernels["correlation"], on="correlation", how="inner"): one row per match
        count = {}
        for r in cpu:
            count[r["correlation"]] = count.get(r["correlation"], 0) + 1
        kept = []
        for r in gpu:
            kept.extend([r] * count.get(r["correlation"], 0))
        out[rank] = kept + cpu
    return out


def iterations(rows):
    """trace.py add_iteration: CPU rows by the ProfilerStep window they start in, GPU rows by their launch."""
    step_rows = [(r["ts"], r["dur"], int(re.match(r"ProfilerStep\s*#\s*(\d+)", r["name"]).group(1)))
                 for r in rows if r["name"].startswith("ProfilerStep")]

    def step_at(ts):
        it = -1
        for s, d, n in step_rows:
            if s <= ts < s + d:
                it = n
        return it

    it = {}
    for r in rows:
        if r["stream"] < 0:
            it[r["index"]] = step_at(r["ts"])
    # transform_correlation_to_index: CPU (stream == -1) <-> GPU (stream > 0) rows of one correlation
    cpu_by_corr = {}
    for r in rows:
        if r["stream"] == -1 and r["correlation"] != -1:
            cpu_by_corr[r["correlation"]] = r["index"]
    for r in rows:
        if r["stream"] > 0:
            c = cpu_by_corr.get(r["correlation"])
            it[r["index"]] = it.get(c, -1) if c is not None else -1
    return sorted({v for v in it.values() if v >= 0}), it


traces = {}
bases = {}
for r, f in sorted(rank_file.items()):
    data, rows = parse(os.path.join(trace_dir, f))
    traces[r] = rows
    bases[r] = data.get("baseTimeNanoseconds", 0)
parsed = traces
traces = filter_ranks(traces)
for r in sorted(traces):
    rows = traces[r]
    its, _ = iterations(parsed[r])
    # BreakdownAnalysis.get_gpu_kernel_breakdown: GPU kernels are the rows with stream != -1
    kern = [x for x in rows if x["stream"] != -1]
    total = sum(x["dur"] for x in kern)
    print("rank %d: %s: kernels %d total_ns %d iterations %d" % (r, rank_file[r], len(kern), total, len(its)))
    if "--kernels" in args:
        # hta/utils/utils.py get_kernel_type: "ncclKernel" in the name COMMUNICATION, "Memcpy" or
        # "Memset" in it MEMORY, else COMPUTATION; the breakdown leaves MEMORY out unless
        # include_memory_kernels
        def ktype(n):
            return "COMMUNICATION" if "ncclKernel" in n else "MEMORY" if "Memcpy" in n or "Memset" in n else "COMPUTATION"

        per = {}
        for x in kern:
            if ktype(x["name"]) == "MEMORY":
                continue
            c, t = per.get(x["name"], (0, 0))
            per[x["name"]] = (c + 1, t + x["dur"])
        for name in sorted(per):
            print("  kernel,%s,%s,%d,%d" % (ktype(name), name, per[name][0], per[name][1]))
    if "--sm" in args:
        per = {}
        for x in kern:
            if x["cat"] == "kernel":
                per[x["sm"]] = per.get(x["sm"], 0) + 1
        for k in sorted(per, key=str):
            print("  sm,%s,%s,%d,%d,%s,%.6f,%d,%d" % (k + (per[k],)))
    if "--launches" in args:
        # TraceSymbolTable.get_runtime_launch_events_query: these names with index_correlation > 0
        launch = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync"}
        gpu_corr = {x["correlation"] for x in rows if x["stream"] > 0}
        per = {}
        for x in rows:
            if x["cat"] in ("cuda_runtime", "cuda_driver") and x["name"] in launch and x["correlation"] in gpu_corr:
                per[x["name"]] = per.get(x["name"], 0) + 1
        for name in sorted(per):
            print("  launch,%s,%d" % (name, per[name]))
    if "--ids" in args:
        # the parsed rows before the step filter; gpu_user_annotation rows are dropped by
        # trace.py (ParserConfig.drop_gpu_user_annotation, on by default)
        prow = [x for x in parsed[r] if x["cat"] != "gpu_user_annotation"]
        for col in ("external_id", "cbid"):
            per = {}
            for x in prow:
                if x[col] != -1:
                    # absolute times (trace.py: baseTimeNanoseconds + ts): the two files' bases differ
                    per.setdefault(x["cat"], []).append("%s|%d|%d" % (x["name"], bases[r] + x["ts"], x[col]))
            for cat in sorted(per):
                v = sorted(per[cat])
                print("  %s,%s,%d,%s" % (col, cat, len(v), hashlib.sha1("\n".join(v).encode()).hexdigest()[:16]))
        cb = {}
        for x in prow:
            if x["cbid"] != -1:
                cb.setdefault((x["name"], x["cbid"]), 0)
                cb[(x["name"], x["cbid"])] += 1
        for (name, cbid) in sorted(cb):
            print("  cbid,%s,%d,%d" % (name, cbid, cb[(name, cbid)]))
