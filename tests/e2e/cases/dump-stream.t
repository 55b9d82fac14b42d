# proftool dump of a model file streams its events (proftool-dump(1) MEMORY): the same bytes as the
# whole model read from standard input gives, for a CUPTI dump (every side table: kernels, copies,
# links, syncs, ranges, arguments, memory records), a Kineto trace, an Ascend job with a memory file,
# an Ascend job beside a CUPTI dump, MindData files and models of format version 1.
# the inputs under a relative name: a model stores its sources' paths, so offsets into it must not depend on where the tree is
ln -s "$SRC/testdata" td
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 3 >/dev/null && proftool import job -o job.ptm 2>/dev/null; proftool import "td/cupti/real-13.0-h200-torch-loop.cdump" -o real.ptm 2>/dev/null; proftool import "td/cupti/real-13.0-h200-vecadd-nvtx.cdump" -o nvtx.ptm 2>/dev/null; proftool import "td/kineto/train-current.pt.trace.json" -o kin.ptm 2>/dev/null; proftool import "td/ascend/sample" "td/cupti/real-13.0-h200-vecadd.cdump" -o mix.ptm 2>/dev/null; proftool import "td/minddata/pipeline" -o md.ptm 2>/dev/null; cp td/compat/*.ptm .; echo imported'
run "for f in job.ptm real.ptm nvtx.ptm kin.ptm mix.ptm md.ptm v1-ascend-sample.ptm v1-cupti-launch.ptm; do proftool dump \$f > a.txt; proftool dump - < \$f > b.txt; proftool dump \$f -o c.txt; cmp -s a.txt b.txt && cmp -s a.txt c.txt && echo \"same: \$f \$(wc -l < a.txt) lines, \$(cut -d' ' -f1 a.txt | sort -u | wc -l) kinds of line\" || echo \"DIFFERS: \$f\"; done"
run "proftool dump real.ptm | cut -d' ' -f1 | uniq -c | head -20"
# the side tables are streamed too, in the writer's order (the external correlations and API cbids held
# until the synchronization infos are written); a model whose tables come in another order (ptm-edit
# last:KIND: the kernel infos, the external correlations or the links after the rest) has them held
run "\"\$SRC/tests/e2e/ptm-edit\" real.ptm k-last.ptm last:20 && \"\$SRC/tests/e2e/ptm-edit\" kin.ptm x-last.ptm last:23 && \"\$SRC/tests/e2e/ptm-edit\" nvtx.ptm l-last.ptm last:22 && echo edited"
run "for f in k-last.ptm x-last.ptm l-last.ptm; do proftool dump \$f > a.txt; proftool dump - < \$f > b.txt; cmp -s a.txt b.txt && echo \"same: \$f \$(wc -l < a.txt) lines\" || echo \"DIFFERS: \$f\"; done"
run "proftool dump kin.ptm | cut -d' ' -f1 | uniq -c"
# a truncated model and a corrupt one: the error names the file and the offset, exit 1, no output
run 'head -c $(( $(stat -c %s real.ptm) * 3 / 4 )) real.ptm > cut.ptm; proftool dump cut.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; proftool dump cut.ptm | wc -c'
run 'cp real.ptm bad.ptm; printf "\377\377\377\377" | dd of=bad.ptm bs=1 seek=$(( $(stat -c %s real.ptm) * 3 / 4 )) conv=notrunc 2>/dev/null; proftool dump bad.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; proftool dump bad.ptm | wc -c'
# a model whose only fault is in an event column the first read leaves undecoded, its CRC valid
# (tests/e2e/ptm-edit: every event named by string 120 of 14): the second read refuses it, naming
# the file and the chunk's offset, exit 1, no -o file; the whole read refuses it the same way
run '"$SRC/tests/e2e/ptm-edit" job.ptm badname.ptm 6:0:2=s:@120 && echo edited; proftool dump badname.ptm -o out.txt; echo "exit $?"; test -e out.txt && echo "out.txt written" || echo "no out.txt"; proftool dump - < badname.ptm > /dev/null; echo "exit $?"'
