# The one text style (proftool(1) OUTPUT, "Text", issue #25 points 1 and 2): every table picks its
# time unit (--time-unit auto, the default; a unit given wins; CSV keeps integer ns), long names are
# shortened in the middle keeping the op name (whole with --wide), prose wraps at $COLUMNS only on a
# terminal, and the options refuse bad values.
requires_shared
J=$SHARED/fixtures/mindinsight/JOB3
run proftool import "'$J'" -o job3.ptm '2>/dev/null'
# auto: the overview in s, the operators in us; an explicit unit for every table
run "proftool summary job3.ptm --view overview,operator --top 3 | grep -E 'Summary|Time unit|GatherV2-op55'"
run "proftool summary job3.ptm --view overview,operator --top 3 --time-unit auto | grep -c 'Time unit: us'"
run "proftool summary job3.ptm --view overview,operator --top 3 --time-unit ms | grep -E 'Time unit|GatherV2-op55'"
run "proftool summary job3.ptm --view operator --top 1 --format csv | tail -1"
# --wide: names whole and the empty CPU block back
run "proftool summary job3.ptm --view operator --top 1 --wide | tail -1"
# lines wider than N code points or ending in a space, on standard input
cat >over.py <<'PY'
import sys
n = int(sys.argv[1])
lines = sys.stdin.buffer.read().decode("utf-8").replace("\r", "").split("\n")
print(sum(1 for l in lines if len(l) > n or l.endswith(" ")), "of", len(lines) - 1, "lines over", n)
PY
# every line of the default text fits 120 columns and none ends in a space
run "proftool summary job3.ptm | python3 over.py 120"
run "proftool diff job3.ptm job3.ptm --top 3 | python3 over.py 120"
run "proftool hints job3.ptm 2>/dev/null | python3 over.py 100"
# prose: 100 columns when standard output is not a terminal, whatever COLUMNS says; on a terminal, COLUMNS
run "COLUMNS=50 proftool hints job3.ptm 2>/dev/null | python3 over.py 50"
run "COLUMNS=50 script -qec '\"\$PROFTOOL\" hints job3.ptm 2>/dev/null' /dev/null | python3 over.py 50"
# perf: one table in the style, in the unit its costs pick
run proftool perf job3.ptm
run proftool perf job3.ptm --time-unit ns
# malformed option values
run proftool summary job3.ptm --layout boxes
run proftool summary job3.ptm --time-unit minutes
run proftool perf job3.ptm --time-unit auto --format csv '|' head -2
