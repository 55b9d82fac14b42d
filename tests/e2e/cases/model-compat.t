# Model format compatibility: models written by format 1 (proftool before the
# delta-coded CUPTI columns, testdata/compat/README.md) still read, and give the
# same model as a fresh import of the same input in the current format.
run proftool-gen cupti '$SRC/testdata/cupti/launch.cdtxt' -o launch.cdump
run proftool import launch.cdump -o v2.ptm
proftool dump "$SRC/testdata/compat/v1-cupti-launch.ptm" >v1.txt
proftool dump v2.ptm >v2.txt
# the synchronization joins (sync-info) and the API calls' cbids (api-cbid) came after that
# model was written: it has none, and is otherwise the same model
run "grep -c '^sync-info' v1.txt v2.txt"
run "grep -c '^api-cbid' v1.txt v2.txt"
grep -v -e '^sync-info' -e '^api-cbid' v2.txt >v2-nosync.txt
run cmp v1.txt v2-nosync.txt
run proftool export '$SRC/testdata/compat/v1-cupti-launch.ptm' --table kernels --format csv
ln -s "$SRC/testdata" testdata
run proftool import testdata/ascend/sample -o sample.ptm
proftool dump "$SRC/testdata/compat/v1-ascend-sample.ptm" >a1.txt
proftool dump sample.ptm >a2.txt
run cmp a1.txt a2.txt
run proftool info '$SRC/testdata/compat/v1-ascend-sample.ptm'
# the streamed summary reads a model written before TrackEvents twice, and prints what it
# prints for a fresh one (read once) and what the in-memory summary prints
proftool summary sample.ptm --view overview,model,operator,kernel,optype >s2.txt
proftool summary "$SRC/testdata/compat/v1-ascend-sample.ptm" --view overview,model,operator,kernel,optype >s3.txt
proftool summary "$SRC/testdata/compat/v1-ascend-sample.ptm" --view overview,model,operator,kernel,optype --in-memory >s4.txt
run 'cmp s2.txt s3.txt && cmp s3.txt s4.txt && wc -l < s3.txt'
# a model written before Device fields 52-60 (host name, GPU limits): its devices have none, so its
# kineto timeline writes the deviceProperties the older fields give and blocks and warps per SM
# (numSms), but no occupancy
run "proftool timeline '$SRC/testdata/compat/v1-cupti-launch.ptm' --profile kineto -o k1 && sed -n 2p k1/rank0.pt.trace.json && grep -m1 '\"cat\":\"kernel\"' k1/rank0.pt.trace.json | grep -o '\"args\".*'"
