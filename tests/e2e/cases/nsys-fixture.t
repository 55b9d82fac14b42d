# A real Nsight Systems export (issue #28): the kernel view equals what `nsys stats --report
# cuda_gpu_kern_sum` gives for the file, and the API view what `cuda_api_sum` gives (count,
# total, average, min, max per name; the views have no median), both computed by
# tests/nsys-stats.py from the SQLite file itself, following those reports' SQL.
if [ ! -d "$SHARED/fixtures/nsys" ]; then
	echo "skipped: $SHARED/fixtures/nsys is absent"
	exit 77
fi
F='$SHARED/fixtures/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite'
run "python3 $SRC/tests/nsys-stats.py $F kern"
run "proftool summary $F --view kernel --format csv >k.csv && python3 $SRC/tests/nsys-stats.py $F kern k.csv"
run "python3 $SRC/tests/nsys-stats.py $F api"
run "proftool summary $F --view api --format csv >a.csv && python3 $SRC/tests/nsys-stats.py $F api a.csv"
# what was imported, and from where; the file is never written (no journal beside it either)
run "for t in devices stats; do proftool info --table \$t $F --format csv; done | sed -n '/^device_id,kind/,\$p'"
run proftool summary $F --view memcpy --format csv
# a model written and read back gives the same tables
run "proftool import $F -o saxpy.ptm && proftool summary saxpy.ptm --view kernel --format csv | cmp - k.csv && echo same"
run "proftool summary saxpy.ptm --view api --format csv | cmp - a.csv && echo same"
# GPU work joined to its launching call, NVTX ranges as host ranges
run "proftool export saxpy.ptm --table kernels --format csv | head -3"
run "proftool timeline saxpy.ptm -o t.json && python3 -c 'import json; d=json.load(open(\"t.json\")); print(len(d[\"traceEvents\"]) > 90)'"
run "ls $SHARED/fixtures/nsys"
