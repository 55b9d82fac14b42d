# --profile kineto (chrome-trace.md §11, cupti.md §7): one file per rank in
# PyTorch's dialect, read back with HTA's own rules by tests/hta-check.py
# (HolisticTraceAnalysis cannot be installed here; the script follows its
# trace_file.py, trace_parser.py, trace.py and parser_config.py).
requires_shared
cc -O1 -I"$SRC/tests" -o "$T/chrome-check" "$SRC/tests/chrome-check.c" -ljansson -lz -lm || { echo "skipped: cannot build chrome-check"; exit 77; }
HTA="python3 \$SRC/tests/hta-check.py"
# JOB3: every NPU task is a GPU kernel to HTA (31,385, the same total as export --table tasks),
# the 322 step-trace steps are its iterations
run proftool import '$SHARED/fixtures/mindinsight/JOB3' -o job3.ptm
run 'proftool timeline job3.ptm --profile kineto -o k3 && ls k3 && ./chrome-check k3/rank1.pt.trace.json'
run 'sed -n 1,6p k3/rank1.pt.trace.json | cut -c 1-120; tail -n 3 k3/rank1.pt.trace.json'
run "grep -m3 '\"cat\":\"kernel\"' k3/rank1.pt.trace.json; grep -m2 ProfilerStep k3/rank1.pt.trace.json"
run "proftool export job3.ptm --table tasks | sed 1d | awk -F, '{n++; t+=\$7} END {printf \"tasks %d total_ns %.0f\\n\", n, t}'"
run "$HTA k3 --backend ijson"
# HTA's default json backend rounds every float-us event to whole us (ts up, end down)
run "$HTA k3"
# a CUPTI dump: HTA's kernel breakdown per name equals summary --view kernel; its launch
# statistics find the runtime calls by name
run "proftool-gen cupti \$SRC/testdata/cupti/launch.cdtxt -o launch.cdump >/dev/null && proftool timeline launch.cdump --profile kineto -o kl && ./chrome-check kl/rank0.pt.trace.json"
run "cat kl/rank0.pt.trace.json"
run "$HTA kl --backend ijson --kernels --launches"
run "proftool summary launch.cdump --view kernel --format csv | python3 -c 'import csv, sys; [print(\"%s,%s,%s\" % (r[\"name\"], r[\"calls\"], r[\"device_total_ns\"])) for r in csv.DictReader(sys.stdin)]'"
run "proftool timeline launch.cdump --profile kineto --gzip -o kz && ls kz && $HTA kz --backend ijson --kernels"
# several ranks: the viewer profile keeps one file with a process per rank and no
# distributedInfo; the kineto profile writes one file per rank, each with its rank
mkdir job
for r in 0 1; do
	sed -e "s/pid=4242/pid=$((100 + r))/; s/processId=4242/processId=$((100 + r))/g; s/objectId=4242,4242/objectId=$((100 + r)),$((100 + r))/; s/thread=4242/thread=$((100 + r))/; s/threads 4242=app 4243=worker/threads $((100 + r))=app 4243=worker/; s/rank=0/rank=$r/" \
		"$SRC/testdata/cupti/launch.cdtxt" >r$r.cdtxt
	proftool-gen cupti r$r.cdtxt -o job/cupti-host-$((100 + r)).cdump >/dev/null
done
run proftool import job -o job.ptm
run "proftool timeline job.ptm -o v.json && ./chrome-check v.json && grep -c distributedInfo v.json; jq -r '.traceEvents[] | select(.name==\"process_name\") | .args.name' v.json"
run "proftool timeline job.ptm --profile kineto -o km && ls km && ./chrome-check km/*.json && grep -h distributedInfo km/*.json && $HTA km --backend ijson"
# usage and errors
run proftool timeline job3.ptm --profile kineto
run proftool timeline job3.ptm --profile kineto -o -
run proftool timeline job3.ptm --profile kineto --split-mb 1 -o kk
run proftool timeline job3.ptm --profile other -o kk
run 'touch plain; proftool timeline job3.ptm --profile kineto -o plain; ls plain'
