# Nsight Systems exports written by proftool-gen nsys (testdata/nsys/train.nsysdesc): the kernel
# and API views equal the nsys stats reference (tests/nsys-stats.py) computed from the file;
# copies, sets, syncs, NVTX ranges (push/pop, start/end, marks, domains), steps, names.
D='$SRC/testdata/nsys/train.nsysdesc'
run "proftool-gen nsys $D -o train.sqlite"
run "proftool summary train.sqlite --view kernel --format csv >k.csv && python3 $SRC/tests/nsys-stats.py train.sqlite kern k.csv"
run "proftool summary train.sqlite --view api --format csv >a.csv && python3 $SRC/tests/nsys-stats.py train.sqlite api a.csv"
run proftool summary train.sqlite --view kernel
run proftool summary train.sqlite --view memcpy --format csv
run proftool steps train.sqlite --format csv
run proftool info train.sqlite --format csv
run "proftool dump train.sqlite | grep -E '^(track|range-info|sync-info|copy-info|device)'"
run "proftool dump train.sqlite | grep -c '^gpu-link'"
# --input-format nsys, a directory of exports (one model), and beside a Kineto trace
run "proftool import --input-format nsys train.sqlite -o t.ptm && proftool summary t.ptm --view kernel --format csv | cmp - k.csv && echo same"
run "mkdir dir && cp train.sqlite dir/a.sqlite && cp train.sqlite dir/b.sqlite && echo x >dir/notes.txt && proftool info --table devices dir --format csv | sed -n '/^device_id,kind/,/^\$/p' | cut -d, -f1-3"
run "proftool import --input-format kineto train.sqlite -o x.ptm"
# an older layout: no globalPid, no shortName, no eventClass, no TARGET_INFO tables
cat >old.nsysdesc <<'DESC'
process 7 name app
kernel k1 pid 7 tid 7 at 1000 dur 100 repeat 3 every 1000
kernel k2 pid 7 tid 7 at 1500 dur 50
memcpy HtoD pid 7 tid 7 at 5000 dur 300
nvtx push step pid 7 tid 7 at 900 dur 5000
omit CUPTI_ACTIVITY_KIND_KERNEL.globalPid
omit CUPTI_ACTIVITY_KIND_KERNEL.shortName
omit CUPTI_ACTIVITY_KIND_MEMCPY.globalPid
omit CUPTI_ACTIVITY_KIND_MEMCPY.srcKind
omit CUPTI_ACTIVITY_KIND_RUNTIME.eventClass
sql "DROP TABLE TARGET_INFO_GPU"
DESC
run "proftool-gen nsys old.nsysdesc -o old.sqlite && proftool summary old.sqlite --view kernel --format csv >ok.csv && cat ok.csv && python3 $SRC/tests/nsys-stats.py old.sqlite kern ok.csv"
run "proftool summary old.sqlite --view memcpy --format csv | cut -d, -f1-4"
run "for t in devices stats; do proftool info --table \$t old.sqlite --format csv; done | sed -n '/^device_id,kind/,\$p'"
# two processes in one export: a CPU and a GPU device each, each process's work joined to its own
# calls and ranges (the correlation ids are per process)
cat >mp.nsysdesc <<'DESC'
session-start 1000000000
process 11 name rank0
process 22 name rank1
kernel kA pid 11 tid 11 at 10000 dur 100 repeat 3 every 1000
kernel kB pid 22 tid 22 at 10500 dur 200 repeat 3 every 1000
nvtx push stepA pid 11 tid 11 at 9000 dur 5000
nvtx push stepB pid 22 tid 22 at 9000 dur 5000
DESC
run "proftool-gen nsys mp.nsysdesc -o mp.sqlite && proftool dump mp.sqlite | grep -E '^(device|event|gpu-link)' | cut -c1-90"
run proftool summary mp.sqlite --view kernel --format csv
# newer exports name their enum values in ENUM_* tables: kinds are mapped by those names (here
# the memory kinds 0 and 2 swapped, and copy kind 1 named a DtoH), not by nsys 2022's numbers
cat >enum.nsysdesc <<'DESC'
memcpy HtoD pid 7 tid 7 at 1000 dur 100 bytes 100
sql "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT)"
sql "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device'), (2, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable')"
sql "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT)"
sql "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host')"
DESC
run "proftool-gen nsys enum.nsysdesc -o enum.sqlite && proftool dump enum.sqlite | grep -E '^(copy-info|event)'"
