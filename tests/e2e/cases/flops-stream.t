# proftool flops on a model file (issue #30, proftool-flops(1) MEMORY): an Ascend model streams
# (two reads, its events never held) and gives the tables the in-memory read of standard input
# gives, for every view and selection; a model without FLOPs data says so after one streaming
# read, with the error the in-memory read gives. A truncated or corrupt model is an error naming
# the file (and the byte offset where there is one), exit 1, no output file.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool import "td/cupti/real-13.0-h200-vecadd.cdump" -o v.ptm 2>/dev/null && echo imported'
run proftool flops v.ptm
run proftool flops v.ptm --by model --device 5
run 'proftool flops - < v.ptm'
run 'proftool flops - --by model --device 5 < v.ptm'
# NVTX ranges, none of them a PyTorch operator range: read to the end, no FLOPs data
run 'proftool import "td/cupti/real-13.0-h200-vecadd-nvtx.cdump" -o n.ptm 2>/dev/null && echo imported'
run 'proftool info n.ptm | grep -E "^events"'
run proftool flops n.ptm
run 'proftool flops - < n.ptm'
# --steps and --time-window need the steps: the model is loaded, and the tables say why they are empty
run proftool flops v.ptm --steps 1-2
# truncated and corrupt models without FLOPs data
run 'head -c $(( $(stat -c %s v.ptm) / 2 )) v.ptm > cut.ptm; proftool flops cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'head -c 40 v.ptm > head.ptm; proftool flops head.ptm'
run 'proftool import "td/cupti/real-13.0-h200-vecadd.cdump" --no-compress -o p.ptm 2>/dev/null; n=$(stat -c %s p.ptm); cp p.ptm bad.ptm; printf "\377" | dd of=bad.ptm bs=1 seek=$(( n / 2 )) conv=notrunc 2>/dev/null; proftool flops bad.ptm'
# a model with FLOPs data: the same tables as from standard input (read whole)
run 'proftool import "td/ascend/sample" -o s.ptm 2>/dev/null && echo imported'
run proftool flops s.ptm --by model --format csv
run 'for v in op type scope step model; do proftool flops s.ptm --by $v --format csv | cmp - <(proftool flops - --by $v --format csv < s.ptm) || echo "$v differs"; done; echo compared'
# streamed and in memory, stdout and stderr, with selections (also ones that select nothing)
run 'n=0; for o in "--by model" "--by step --steps 3-5" "--by op --steps 2" "--by model --steps 4-" "--by type --time-window 2ms:" "--by step --time-window :3ms" "--device 0 --by scope" "--device 7" "--by model --steps 400-500" "--format folded --scope-depth 2" "--by step --format json" "--by model --step-pattern x"; do proftool flops s.ptm $o >a.out 2>a.err; ra=$?; proftool flops - $o < s.ptm >b.out 2>b.err; rb=$?; sed -i "s/standard input/s.ptm/" b.err; cmp -s a.out b.out && cmp -s a.err b.err && [ $ra = $rb ] || echo "differs: $o"; n=$((n+1)); done; echo "$n compared"'
run proftool flops s.ptm --by model --steps 4- --format csv
run proftool flops s.ptm --device 7
# a GPU model (Kineto operator ranges) is loaded whole, as from standard input
run 'proftool import "td/kineto/train-current.pt.trace.json" -o k.ptm 2>/dev/null && echo imported'
run 'for v in op step model; do proftool flops k.ptm --by $v | cmp - <(proftool flops - --by $v < k.ptm) || echo "$v differs"; done; echo compared'
run 'head -c $(( $(stat -c %s s.ptm) * 3 / 4 )) s.ptm > scut.ptm; proftool flops scut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'proftool import "td/ascend/sample" --no-compress -o sp.ptm 2>/dev/null; n=$(stat -c %s sp.ptm); cp sp.ptm sbad.ptm; printf "\377" | dd of=sbad.ptm bs=1 seek=$(( n / 2 )) conv=notrunc 2>/dev/null; proftool flops sbad.ptm --by step -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
