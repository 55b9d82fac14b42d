# summary of a raw job imports it as import does, its encoded events written plain, a window at a time,
# to an unnamed temporary file in $TMPDIR (else /tmp) and replayed from there (proftool-summary(1),
# MEMORY). The job has 196,608 task executions (24 MiB of HWTS records): thirteen windows spill.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --hwts-bytes 24M >/dev/null && echo generated'
run 'mkdir tmp && TMPDIR=$T/tmp proftool summary job --view overview,kernel --top 5 > f.txt 2>/dev/null; echo $?; ls -A tmp | wc -l'
run 'proftool summary job --in-memory --view overview,kernel --top 5 > m.txt 2>/dev/null && cmp f.txt m.txt && echo same as in memory'
# no file can be made in $TMPDIR (not there, or not a directory): the events stay in memory, same output
run 'TMPDIR=$T/none proftool summary job --view overview,kernel --top 5 2>/dev/null | cmp - f.txt && echo same without a file'
run 'echo x > plain && TMPDIR=$T/plain proftool summary job --view overview,kernel --top 5 2>/dev/null | cmp - f.txt && echo same without a file'
# the file cannot take the events (a file size limit of 64 KiB): an error naming the directory, exit 1,
# nothing on standard output
run '(trap "" XFSZ; ulimit -f 64; TMPDIR=$T/tmp proftool summary job --view overview > e.txt); echo "exit $?"; wc -c < e.txt'
