# proftool summary's memcpy and gpu views, --time-window and --view all over a model file of GPU
# data from several processes (three CUPTI ranks, each with its CPU device and GPU; one rank each)
# stream (proftool-summary(1) MEMORY): each activity's launching call is found by the launch reads,
# by the file's launch links or, in a model without links, by correlation id and rank (every rank
# numbers its own ids: here the three use the same ones). Every view in every format prints what
# --in-memory prints, streamed within a 40 MB address-space limit that the whole load does not fit
# (it needs about 67 MB with links, 92 MB without; an ASan build reserves far more address space
# than that, so there the limit is left out).
run 'for r in 0 1 2; do sed -E "s/^process rank=-?[0-9]+/process rank=$r/; s/^header cupti=130001 pid=664/header cupti=130001 pid=$((700 + r))/" "$SRC/bench/torch-loop.cdtxt" > r$r.cdtxt && proftool-gen cupti r$r.cdtxt -o r$r.cdump --scale $((24 - 8 * r))M >/dev/null; done; proftool import r0.cdump r1.cdump r2.cdump -o three.ptm 2>/dev/null && proftool info three.ptm --table devices --format csv | cut -d, -f1-3,13-14'
# the same model without its launch links (a writer that wrote none): joined by correlation id
run 'python3 "$SRC/tests/e2e/ptm-edit" three.ptm nolinks.ptm drop:22 && proftool info nolinks.ptm | grep -E "^(events|devices)"'
cp "$SRC/tests/e2e/cases/summary-stream-same.sh" same.sh # (the streamed summary within the limit and --in-memory compared)
for m in three.ptm nolinks.ptm; do
	run "for f in table csv json; do for v in '--view memcpy' '--view gpu' '--time-window 1s:3s' '--view all' '--view memcpy,gpu --time-window 0:10s --device 0' '--view gpu,memcpy --top 3 --sorted-by calls --time-unit us'; do bash same.sh $m \$f \$v; done; done"
done
# the streamed figures themselves: each rank's copies and fills within a window
run proftool summary three.ptm --view memcpy --time-window 0:300ms --time-unit us
# a truncated and a corrupt model: the error names the file and the offset, exit 1, as the whole load's
run 'head -c $(( $(stat -c %s three.ptm) * 2 / 3 )) three.ptm > cut.ptm; for v in "--view memcpy" "--view all" "--time-window 1s:3s"; do proftool summary cut.ptm $v; echo "exit $?"; proftool summary cut.ptm --in-memory $v; echo "exit $?"; done'
run 'python3 -c "d = bytearray(open(\"three.ptm\", \"rb\").read()); d[len(d) * 3 // 4] ^= 0xff; open(\"bad.ptm\", \"wb\").write(d)"; for v in "--view gpu" "--time-window 0:1s"; do proftool summary bad.ptm $v; echo "exit $?"; proftool summary bad.ptm --in-memory $v; echo "exit $?"; done'
# a launch link whose call is another process's (the second process's first links moved onto the
# same calls of the first, ptm-edit links-back): the model reader rejects it, streamed as read whole
run 'n=$(proftool info three.ptm --table devices --format csv | awk -F, "NR == 2 || NR == 3 { s += \$14 } END { print s }"); python3 "$SRC/tests/e2e/ptm-edit" three.ptm cross.ptm links-back:$n && for v in "--view memcpy" "--time-window 1s:3s"; do proftool summary cross.ptm $v; echo "exit $?"; proftool summary cross.ptm --in-memory $v; echo "exit $?"; done'
