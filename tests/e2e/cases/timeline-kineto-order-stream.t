# proftool timeline --profile kineto streams a GPU model whose range infos are out of event order, or
# whose launch links name an activity twice (proftool-timeline(1) MEMORY): the first read holds those
# rows and packs, once it ends, the range infos the whole load's search finds (a binary search over
# them in file order, which then misses some) and the links sorted by activity, an activity's ranges
# one after the other. The same rank files as --in-memory with every option, on models of several
# event, range info and link batches (tests/e2e/ptm-edit): a Kineto trace with External ids, the same
# with one gpu_user_annotation event (GPU user annotations written), every two range infos swapped,
# every link again (the second naming another call), both; a CUPTI dump with NVTX ranges linked twice;
# one late range info moved onto an early range's event (two infos of one event: streamed without
# annotations, read whole with them, since the whole load nests both infos of that range). The read
# count says which were streamed (a whole load after the first read: 3). A truncated and a corrupt
# model fail as read whole.
ln -s "$SRC/testdata" td
E=$SRC/tests/e2e/ptm-edit
proftool-gen kineto td/kineto/train-current.ktdesc -o k0.json --scale 12M >/dev/null
python3 - <<'PY'
n = 0
with open("k0.json") as f, open("k.json", "w") as o, open("kga.json", "w") as g:
    done = False
    for line in f:
        if '"cat": "cpu_op"' in line and '"args": {}' in line:
            n += 1
            line = line.replace('"args": {}', '"args": {"External id": %d}' % (1000 + 3 * n))
        o.write(line)
        if not done and '"cat": "kernel"' in line:
            g.write(line.replace('"cat": "kernel"', '"cat": "gpu_user_annotation"', 1))
            done = True
        g.write(line)
PY
run 'proftool import k.json -o k.ptm 2>/dev/null && proftool import kga.json -o kga.ptm 2>/dev/null && proftool dump kga.ptm | awk "{print \$1}" | sort | uniq -c | sort -rn | grep -w "event\|range-info\|gpu-link"'
grep -v '^end$\|^clock cupti=1000010000' td/cupti/launch.cdtxt >l.cdtxt
run 'proftool-gen cupti l.cdtxt -o n.cdump --scale 2M --id-stride 1 && proftool import n.cdump -o n.ptm 2>/dev/null && echo imported'
ev=$(proftool dump k.ptm | grep range-info | sed -n "101s/.*event=\([0-9]*\).*/\1/p")
run "python3 $E k.ptm kswap.ptm ranges-swap && python3 $E kga.ptm kgaswap.ptm ranges-swap && python3 $E kga.ptm kga2.ptm links-twice && python3 $E kga.ptm kgaboth.ptm links-twice ranges-swap && python3 $E n.ptm n2.ptm links-twice && python3 $E k.ptm kdup.ptm 24:9000:1=$ev && python3 $E kga.ptm kgadup.ptm 24:9000:1=$ev && echo edited"
run 'proftool dump kswap.ptm | grep range-info | sed -n "1,2p;12011,12012p"; proftool dump kgadup.ptm | grep -c "range-info event='$ev' "'
cp "$SRC/tests/e2e/cases/timeline-kineto-same.sh" same.sh # (the streamed and in-memory files compared)
export COUNT='"cat": *"gpu_user_annotation"' WHAT='annotations'
for m in kswap.ptm kgaswap.ptm kga2.ptm kgaboth.ptm n2.ptm kdup.ptm kgadup.ptm; do
	run "for v in '' '--extra-tracks' '--no-flows' '--steps 2-3' '--time-window 0.5s:1s' '--step-pattern Forward'; do bash same.sh $m \$v; done"
done
# streamed: the model is read more than once after its first read (a whole load after it: 3 reads)
for m in k.ptm kswap.ptm kgaswap.ptm kga2.ptm kgaboth.ptm n2.ptm kdup.ptm kgadup.ptm; do
	run "echo $m \$(script -qec 'PROFTOOL_PROGRESS_DELAY=0 PROFTOOL_PROGRESS_EVERY=1 \"\$PROFTOOL\" timeline --profile kineto -o t $m' /dev/null | tr '\r' '\n' | grep -c \"reading '$m': 100%\")"
done
# a truncated model of the new shapes: the error names the file and the offset, exit 1, no rank file
run 'head -c $(($(wc -c < kgaboth.ptm) * 3 / 4)) kgaboth.ptm > cut.ptm; proftool timeline cut.ptm --profile kineto -o cut; echo "exit $?"; ls cut/ 2>/dev/null | wc -l'
# a range info that names no event (CRC valid: only the read's checks catch it), the first of the swapped
# ones and the last of the model with both shapes: exit 1, no rank file, as read whole
run "python3 $E kswap.ptm badri.ptm 24:5:1=99999999 && python3 $E kgaboth.ptm badln.ptm 24:12000:1=99999999 && echo edited"
for m in badri.ptm badln.ptm; do
	run "proftool timeline $m --profile kineto -o bad; echo \"exit \$?\"; ls bad/ 2>/dev/null | wc -l; proftool timeline $m --profile kineto --in-memory -o bad2; echo \"exit \$?\""
done
