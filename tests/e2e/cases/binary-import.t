# The binary-era (MindSpore >= 1.6) sample with dynamic-shape task-id wraps.
run proftool import '$SRC/testdata/ascend/binary' -o b.ptm
run proftool info b.ptm --format csv
run proftool export b.ptm --table ops
run proftool export b.ptm --table steps
run proftool export b.ptm --table aicpu
