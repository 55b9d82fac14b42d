# proftool-gen perturb-job on a generated job (no fixtures needed): its DELTA's
# base figures equal the job generator's own EXPECT, proftool diff finds exactly
# its deltas, and bad inputs are clear errors (exit 1) that write nothing.
run proftool-gen '$SRC/tests/gen/cases/diff-pair.desc' -o job --print-expect
run proftool-gen perturb-job job -o p --scale Conv2D-op8 1.5 --scale Cast-op7 0.333333 --scale AllReduce 3
run "grep -v '	0\$' p/DELTA"
# the base side, as perturb-job replayed it, against what the job generator says it wrote
run "awk -F'\t' 'FNR == NR { if (\$1 ~ /^op /) { split(\$1, a, \" \"); w[a[2]] = a[4] \" \" a[6]; n++ } next } /^#/ { next } { m++; if (w[\$1] != \$3 \" \" \$5) { print \"differs: \" \$1; bad++ } } END { printf \"%d ops in EXPECT, %d in DELTA, %d differ\\n\", n, m, bad }' job/EXPECT p/DELTA"
run "proftool diff job p --format csv 2>/dev/null | awk -F, 'FNR == NR { if (\$0 !~ /^#/) { split(\$0, f, \"\t\"); w[f[1]] = f[3] \" \" f[4] \" \" f[8] }; next } FNR > 1 { n++; if (w[\$4] != \$6 \" \" \$7 \" \" \$12 || \$4 != \$5) bad++ } END { printf \"%d ops, %d differ from DELTA\\n\", n, bad }' p/DELTA -"
run proftool-gen perturb-job -h
# malformed input: no job, not a directory, a job without an HWTS log, two HWTS logs,
# no task_desc, a bad task_desc line; bad options; nothing may be written
run proftool-gen perturb-job nosuch -o out1 --scale Conv2D 2
run proftool-gen perturb-job job/EXPECT -o out1 --scale Conv2D 2
mkdir nohwts && cp job/Framework.* nohwts/
run proftool-gen perturb-job nohwts -o out1 --scale Conv2D 2
mkdir twohwts && cp job/* twohwts/ && cp twohwts/hwts.log.data.45.dev.profiler_default_tag.0.slice_0 twohwts/hwts.log.data.45.dev.profiler_default_tag.0.slice_1
run proftool-gen perturb-job twohwts -o out1 --scale Conv2D 2
mkdir notd && cp job/hwts.* notd/
run proftool-gen perturb-job notd -o out1 --scale Conv2D 2
mkdir badtd && cp job/* badtd/ && printf 'Default/Broken-op1 1 x5 5\n' >>badtd/Framework.host.vm.task_desc_info.0.slice_0
run proftool-gen perturb-job badtd -o out1 --scale Conv2D 2
run proftool-gen perturb-job job -o out1 --scale nosuchop 2
run proftool-gen perturb-job job -o out1 --scale Mul 2 --scale Mul-op2 3
run proftool-gen perturb-job job -o out1 --scale Conv2D 0
run proftool-gen perturb-job job -o out1 --scale Conv2D 1.0000001
run proftool-gen perturb-job job -o out1 --scale Conv2D
run proftool-gen perturb-job job -o job/inside --scale Conv2D 2
run proftool-gen perturb-job job -o job/a/b --scale Conv2D 2
run proftool-gen perturb-job job -o out1
run "ls -d out1 job/inside job/a 2>&1 | sort"
