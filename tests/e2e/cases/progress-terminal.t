# Progress lines (proftool(1) OUTPUT, Progress): with standard error on a
# terminal (a pseudo-terminal made by script(1)) and PROFTOOL_PROGRESS_DELAY=0,
# reading the model draws "proftool: reading 'NAME': P% (A of B MB)" at once,
# every line is redrawn in place ("\r" ... ESC[K) and the last thing on the
# terminal is the erase; the trace written is the same as without a terminal.
# With standard error not a terminal nothing is printed, whatever the delay.
if ! script -qec true /dev/null >/dev/null 2>&1; then
	echo "skipped: script(1) cannot open a pseudo-terminal here"
	exit 77
fi
printf '%s\n' 'device 0' 'era text backend vm' 'opgen 20 prefix Default/net/ types MatMul,Add stream 3 task 100 dur 3us-9us' \
	'steps 50 stream 3' >p.desc
proftool-gen p.desc -o job >/dev/null
proftool import --hwts-freq 100 job -o p.ptm 2>/dev/null
# what the terminal shows, one redraw a line, ESC as <ESC>
term() { script -qec "PROFTOOL_PROGRESS_DELAY=0 $*" /dev/null | tr '\r' '\n' | sed 's/\x1b/<ESC>/g'; }
export -f term
run 'term "$PROFTOOL timeline p.ptm -o tty.json" | sed -n "2{s/: *[0-9]*% .*//;p}"'
# every line drawn ends in ESC[K (erase to the end of the line); the last one only erases
run 'term "$PROFTOOL timeline p.ptm -o tty.json" | grep -v "^$" | grep -v "^<ESC>\[K$" | grep -vc "^proftool: .*<ESC>\[K$"'
run 'term "$PROFTOOL timeline p.ptm -o tty.json" | tail -1; echo'
run "PROFTOOL_PROGRESS_DELAY=0 proftool timeline p.ptm -o plain.json && cmp tty.json plain.json && echo same trace"
# standard output on the same terminal: the table starts on an erased line, none of its lines
# holds progress text
run 'term "$PROFTOOL summary p.ptm --view kernel" | grep -c "proftool: reading"'
run 'term "$PROFTOOL summary p.ptm --view kernel" | sed "s/^<ESC>\[K//" | grep -v "^proftool: " | grep -c "proftool"'
run 'term "$PROFTOOL summary p.ptm --view kernel" | sed "s/^<ESC>\[K//" | grep -v "^proftool: " | grep -cx "kernel"'
# not a terminal: nothing on standard error
run "PROFTOOL_PROGRESS_DELAY=0 proftool timeline p.ptm -o quiet.json; PROFTOOL_PROGRESS_DELAY=0 proftool summary p.ptm >/dev/null"
run "PROFTOOL_PROGRESS_DELAY=0 proftool steps p.ptm 2>&1 >/dev/null | wc -c"
# a Kineto trace is read with a line in bytes of the file, an Nsight Systems export in rows
run 'term "$PROFTOOL summary $SRC/testdata/kineto/real-torch2.11-h200-loop.pt.trace.json.gz --view kernel" | grep -c "^proftool: reading .real-torch2.11-h200-loop.pt.trace.json.gz.: 100%"'
proftool-gen nsys "$SRC/testdata/nsys/train.nsysdesc" -o train.sqlite >/dev/null
run 'term "$PROFTOOL summary train.sqlite --view kernel" | grep -c "^proftool: reading SQLite rows: "'
# every command that reads a model or a job draws a progress line on a terminal (issue #25 point 9),
# and with standard error not a terminal no progress byte at all (no "\r", no ESC; a command's own
# messages stay). "drawn" when at least one line was drawn, "silent" when no byte of one was sent.
lines() { script -qec "PROFTOOL_PROGRESS_DELAY=0 $*" /dev/null | tr '\r' '\n' | sed 's/\x1b/<ESC>/g'; }
export -f lines
for c in "dataset p.ptm" "export --table kernels p.ptm --format csv -o k.csv" "perf p.ptm" "flops p.ptm" \
	"memory p.ptm" "diff p.ptm p.ptm" "timeline p.ptm -o t.json" "steps p.ptm" "hints p.ptm" "summary job" \
	"info p.ptm"; do
	run "lines '\"\$PROFTOOL\" $c >/dev/null' | grep -q '^proftool: [a-z][^:]*: .*<ESC>\[K$' && echo drawn"
	run "PROFTOOL_PROGRESS_DELAY=0 proftool $c 2>&1 >/dev/null | tr '\r\033' '@@' | grep -q @ || echo silent"
done
# the work after the read has lines of its own (each drawn at once, as the line before was erased
# when the read ended): the in-memory summary sums its events; a raw job's summary replays the
# events its import spilled (a job of over 262,144 events)
run "lines '\"\$PROFTOOL\" summary p.ptm --in-memory >/dev/null' | grep -q '^proftool: summing the events: ' && echo drawn"
run "lines '\"\$PROFTOOL\" summary job --in-memory >/dev/null' | grep -q '^proftool: summing the events: ' && echo drawn"
proftool-gen "$SRC/tests/gen/bench-1g.desc" --hwts-bytes 32M -o big >/dev/null
# a raw job: the summary replays its import's events (no model file made for it)
run "lines '\"\$PROFTOOL\" summary big >/dev/null' | grep -q '^proftool: reading the imported events: ' && echo drawn"
run "PROFTOOL_PROGRESS_DELAY=0 proftool summary big 2>&1 >/dev/null | tr '\\r\\033' '@@' | grep -q @ || echo silent"
# the stages after the read that held one line for seconds on the 1.1 GiB job (bench/RESULTS.md,
# 2026-11-27 18:30) have lines of their own; with PROFTOOL_PROGRESS_EVERY=1 every report is drawn,
# so a stage shows however short it is here. Not a terminal: still nothing, with the variable set.
every() { script -qec "PROFTOOL_PROGRESS_EVERY=1 PROFTOOL_PROGRESS_DELAY=0 $*" /dev/null | tr '\r' '\n' | sed 's/\x1b/<ESC>/g'; }
export -f every
stages() { grep '<ESC>\[K$' | grep -o '^proftool: [a-z][^:]*:' | sort -u | paste -sd ' '; }
export -f stages
run "every '\"\$PROFTOOL\" steps p.ptm >/dev/null' | stages"
run "every '\"\$PROFTOOL\" flops p.ptm >/dev/null' | stages"
run "every '\"\$PROFTOOL\" timeline p.ptm -o e.json' | stages"
run "every '\"\$PROFTOOL\" steps big >/dev/null' | stages"
run "every '\"\$PROFTOOL\" flops big >/dev/null' | stages"
# a raw job is read through a temporary model file (its import's lines, then the model's read);
# where no file can be made in $TMPDIR it is imported in memory and loaded whole, each stage after
# the read a line of its own
run "every 'TMPDIR=/nonexistent \"\$PROFTOOL\" steps big >/dev/null' | stages"
run "every 'TMPDIR=/nonexistent \"\$PROFTOOL\" flops big >/dev/null' | stages"
for c in "steps big" "flops big" "timeline p.ptm -o e2.json"; do
	run "PROFTOOL_PROGRESS_EVERY=1 PROFTOOL_PROGRESS_DELAY=0 proftool $c 2>&1 >/dev/null | tr '\r\033' '@@' | grep -q @ || echo silent"
done
