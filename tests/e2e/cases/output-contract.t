# The output contract of proftool(1) OUTPUT (issue #25), checked as users meet it: every command in
# every format on the fixtures and the real CUPTI dump. tests/output-contract.py runs each one and
# checks text (at most 120 columns, no trailing spaces), CSV (one rectangular table as Python's csv
# reads it; pandas too where installed), JSON and JSON lines (they parse), `| head -1` (exit 0, no
# stderr) and a command without its data (exit 1, the one message). The transcript lists every
# violation: the golden holds none.
requires_shared
F=$SHARED/fixtures
for j in JOB1 JOB3 JOB_AICPU; do
	run "proftool import $F/mindinsight/$j -o $j.ptm 2>/dev/null"
done
run "proftool import $F/kineto/trace_compare_base_base.json.gz -o kineto.ptm 2>/dev/null"
run "proftool import $SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump -o cupti.ptm 2>/dev/null"
run "proftool import $F/nsys/*.sqlite -o nsys.ptm 2>/dev/null"
run "python3 $SRC/tests/output-contract.py \$PROFTOOL JOB1=JOB1.ptm JOB3=JOB3.ptm JOB_AICPU=JOB_AICPU.ptm kineto=kineto.ptm cupti=cupti.ptm nsys=nsys.ptm --diff JOB1.ptm JOB3.ptm"
