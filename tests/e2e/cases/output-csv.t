# The CSV and -o contract (proftool(1) OUTPUT): a CSV stream is one table, read by Python's csv
# (and pandas, when installed: tests/csv-check.py checks both, same output either way); the other
# tables are named on stderr and picked with --table/--view; several go to files with -o DIR/;
# -o - is standard output; -o onto a device, FIFO or descriptor name writes into it.
A="$SRC/testdata/ascend/sample" G="$SRC/testdata/cupti/real-13.0-h200-torch-loop.cdump"
cp "$SRC/tests/csv-check.py" .
run proftool import "'$A'" -o a.ptm
# every command's CSV on standard output is one table
for c in info steps dataset flops hints perf summary; do
	run "proftool $c a.ptm --format csv | python3 csv-check.py"
done
run "proftool export a.ptm --table ops | python3 csv-check.py"
run "proftool memory '$G' --format csv | python3 csv-check.py"
run "proftool diff a.ptm a.ptm --format csv | python3 csv-check.py"
# every table of every command, one at a time (--table, --view)
run "for t in model devices stats; do proftool info a.ptm --format csv --table \$t | python3 csv-check.py; done"
run "for t in ops queues stages hints; do proftool dataset a.ptm --format csv --table \$t | python3 csv-check.py; done"
run "for t in gpu_memory_peaks gpu_memory_outstanding gpu_memory_pools gpu_memory_pool_events; do proftool memory '$G' --format csv --table \$t | python3 csv-check.py; done"
run "for t in diff_step_time diff diff_verdict; do proftool diff a.ptm a.ptm --format csv --table \$t | python3 csv-check.py; done"
run "for v in device overview model distributed operator kernel memcpy userdefined optype aicpu gpu api; do proftool summary a.ptm --format csv --view \$v | python3 csv-check.py || echo \"view \$v\"; done"
# several tables: -o DIR/ (created) writes DIR/<table>.csv; an existing directory needs no slash
run "proftool summary a.ptm --format csv --view all -o views/ && ls views && python3 csv-check.py views/*.csv"
run "mkdir info && proftool info a.ptm --format csv -o info && ls info && python3 csv-check.py info/*.csv"
run "proftool dataset a.ptm --format csv --table ops,stages -o ds/ && ls ds"
run "proftool hints a.ptm --format csv --show-suppressed -o h/ && ls h && python3 csv-check.py h/*.csv"
# several chosen with CSV to a stream: an error naming -o DIR/, no output, exit 1
run proftool summary a.ptm --format csv --view kernel,api
run proftool summary a.ptm --format csv --view all -o all.csv
run proftool info a.ptm --format csv --table devices,stats
run proftool hints a.ptm --format csv --show-suppressed
run 'ls all.csv* 2>&1'
# malformed choices and targets: unknown or empty table names, DIR/ for text or JSON, a file as DIR
run proftool info a.ptm --format csv --table device
run proftool info a.ptm --format csv --table model,
run proftool info a.ptm -o txt/
run proftool steps a.ptm --format json -o js/
run "ls -d txt js 2>&1"
run "echo x >plain && proftool info a.ptm --format csv -o plain/"
# JSON keeps every table in one stream
run "proftool info a.ptm --format json --table stats,devices | python3 -c 'import json,sys; print([v[\"name\"] for v in json.load(sys.stdin)[\"views\"]])'"
# -o - is standard output, for every command
run "proftool info a.ptm --format csv -o - | head -2"
run "proftool summary a.ptm --format csv --view kernel -o - | python3 csv-check.py"
run "proftool timeline a.ptm -o - | head -c 15; echo"
run "proftool import '$A' -o - | proftool info - --format csv --table devices -o -"
run "ls"
# -o /dev/stdout writes into standard output, also when that is a regular file (appended with >>)
run "proftool info a.ptm --format csv --table devices -o /dev/stdout >dev.csv && cat dev.csv"
run "echo first >app.csv && proftool steps a.ptm --format csv -o /dev/stdout >>app.csv && head -2 app.csv | cut -c1-30"
run "proftool summary a.ptm --format csv --view kernel -o /dev/stdout | python3 csv-check.py"
# -o /dev/full: a write error, exit 1, and no file created in /dev
run proftool summary a.ptm --format csv --view kernel -o /dev/full
run proftool summary a.ptm --format csv --view all -o /dev/full
run "ls /dev | grep -c 'full\\.' ; true"
# -o onto a FIFO and onto a symbolic link to one: written into, nothing created beside it
run "mkfifo ff && ln -s ff lnk && { cat ff >fifo.csv & r=\$!; } && proftool summary a.ptm --format csv --view kernel -o ff; wait \$r; python3 csv-check.py fifo.csv"
run "{ cat ff >fifo2.csv & r=\$!; } && proftool info a.ptm --format csv --table stats -o lnk; wait \$r; python3 csv-check.py fifo2.csv && ls"
# an existing regular file is replaced atomically, as before
run "echo old >out.csv && proftool steps a.ptm --format csv -o out.csv && python3 csv-check.py out.csv && ls out.csv*"
