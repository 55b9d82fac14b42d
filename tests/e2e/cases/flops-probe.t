# proftool flops on a model file (issue #30): a model without FLOPs data says so after one
# streaming read that keeps no events (proftool-flops(1) "Memory"), with the error the in-memory
# read of standard input gives; a model with FLOPs data is read as before. A truncated or
# corrupt model is an error naming the file and the byte offset, exit 1, no output file.
run 'proftool import "$SRC/testdata/cupti/real-13.0-h200-vecadd.cdump" -o v.ptm 2>/dev/null && echo imported'
run proftool flops v.ptm
run proftool flops v.ptm --by model --device 5
run 'proftool flops - < v.ptm'
run 'proftool flops - --by model --device 5 < v.ptm'
# NVTX ranges, none of them a PyTorch operator range: read to the end, no FLOPs data
run 'proftool import "$SRC/testdata/cupti/real-13.0-h200-vecadd-nvtx.cdump" -o n.ptm 2>/dev/null && echo imported'
run 'proftool info n.ptm | grep -E "^events"'
run proftool flops n.ptm
run 'proftool flops - < n.ptm'
# --steps and --time-window need the steps: the model is loaded, and the tables say why they are empty
run proftool flops v.ptm --steps 1-2
# truncated and corrupt models without FLOPs data
run 'head -c $(( $(stat -c %s v.ptm) / 2 )) v.ptm > cut.ptm; proftool flops cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
run 'head -c 40 v.ptm > head.ptm; proftool flops head.ptm'
run 'proftool import "$SRC/testdata/cupti/real-13.0-h200-vecadd.cdump" --no-compress -o p.ptm 2>/dev/null; n=$(stat -c %s p.ptm); cp p.ptm bad.ptm; printf "\377" | dd of=bad.ptm bs=1 seek=$(( n / 2 )) conv=notrunc 2>/dev/null; proftool flops bad.ptm'
# a model with FLOPs data: the same tables as from standard input (read whole)
run 'proftool import "$SRC/testdata/ascend/sample" -o s.ptm 2>/dev/null && echo imported'
run proftool flops s.ptm --by model --format csv
run 'for v in op type scope step model; do proftool flops s.ptm --by $v --format csv | cmp - <(proftool flops - --by $v --format csv < s.ptm) || echo "$v differs"; done; echo compared'
run 'head -c $(( $(stat -c %s s.ptm) * 3 / 4 )) s.ptm > scut.ptm; proftool flops scut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"'
