# proftool export --table tasks or ops streamed: the first read decodes only the columns it
# measures (tracks, kinds, starts; ops for the ops table), so names (and durations) are checked by
# the read that makes the rows. A model whose only fault is there, its CRC valid (tests/e2e/ptm-edit:
# every event named by string 120 of 14): the whole read refuses it, and so does the streamed export,
# naming the file and the chunk's offset, exit 1, no output file, no row; the same model whole is
# exported as ever.
E=$SRC/tests/e2e/ptm-edit
run 'proftool-gen "$SRC/tests/gen/cases/memory-job.desc" -o job --steps 40 >/dev/null && proftool import job -o job.ptm 2>/dev/null; "$E" job.ptm badname.ptm 6:0:2=s:@120 && echo edited'
run 'proftool info badname.ptm >/dev/null'
run 'for t in tasks ops; do for f in badname.ptm; do proftool export --table $t $f -o out.csv; echo "exit $?"; test -e out.csv && echo "out.csv written" || echo "no out.csv"; proftool export --table $t $f 2>/dev/null | wc -l; done; done'
run 'for t in tasks ops; do proftool export --table $t job.ptm > a.csv; proftool export --table $t - < job.ptm > b.csv; cmp a.csv b.csv && echo "same: $t $(wc -l < a.csv) lines"; done'
