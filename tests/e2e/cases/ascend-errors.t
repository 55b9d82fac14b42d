# Fatal import problems: exit 1, one error line naming the file and offset,
# and no model file left behind.
cat > bad-magic.desc <<'DESC'
device 1
era binary
op Default/A-op1 type A stream 3 task 1 block 1 dur 5us
steps 2 end-tag 65535 fp-at 5us stream 3 task 9
inject task_desc bad-magic at 0
DESC
proftool-gen bad-magic.desc -o bad-magic >/dev/null
run proftool import bad-magic -o out.ptm
run 'ls out.ptm* 2>&1 | sed "s/.*: //"'
mkdir -p mixed && cp -r "$SRC/testdata/ascend/sample/." mixed/ && cp mixed/Framework.host.vm.point.0.slice_0 mixed/Framework.host.point.0.slice_0
run proftool import mixed -o out.ptm
mkdir -p noslice && cp "$SRC/testdata/ascend/sample/hwts.log.data.45.dev.profiler_default_tag.0.slice_0" noslice/ && cp noslice/hwts.log.data.45.dev.profiler_default_tag.0.slice_0 noslice/hwts.log.data.45.dev.profiler_default_tag.0
run proftool import noslice -o out.ptm
run proftool import '$SRC/testdata/ascend/sample' --device 7 -o out.ptm
mkdir -p badjson && cp "$SRC/testdata/ascend/sample/hwts.log.data.45.dev.profiler_default_tag.0.slice_0" badjson/ && printf '{"DeviceInfo": [{"hwts_frequency": "100",}]}' > badjson/info.json.0
run proftool import badjson -o out.ptm
mkdir -p empty
run proftool import empty -o out.ptm
run proftool import '$SRC/testdata/ascend/sample' -o /nonexistent-dir/out.ptm
run proftool import '$SRC/testdata/ascend/sample' -o /dev/full
run proftool import '$SRC/testdata/ascend/sample' --hwts-freq 0.0001
run 'ls out.ptm* 2>&1 | sed "s/.*: //"'
