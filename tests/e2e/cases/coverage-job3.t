# Coverage (proftool(1) OUTPUT "Coverage", issue #25 point 7) on JOB3, whose task log covers only
# its first 15 of 322 steps: a note on stderr, ratios over the covered steps, the coverage in the
# hints' evidence; the AI CPU records dropped at import are one warning line, and stay in info.
requires_shared
run 'proftool import "$SHARED/fixtures/mindinsight/JOB3" -o j.ptm 2>&1 | grep -E "dropped|wrote"'
run 'proftool info j.ptm | grep -E "aicpu\.(records|thread_without_node)"'
# every command that imports the raw dump in memory says it too
run 'proftool steps "$SHARED/fixtures/mindinsight/JOB3" --steps 1 --format csv 2>&1 >/dev/null | grep dropped'
# JOB_AICPU drops nothing: no such line
run 'echo "dropped lines: $(proftool import "$SHARED/fixtures/mindinsight/JOB_AICPU" -o a.ptm 2>&1 | grep -c dropped)"'
# LOW_DEVICE_UTIL over the 15 covered steps (it read 4.4% over all 322): 92.6%, under a 99% threshold
run 'proftool hints j.ptm --format csv --hint hints.low_util.pct=99 | grep -E "^rank|LOW_DEVICE_UTIL"'
run 'proftool hints j.ptm --format json | grep -cE "\"covered_steps\":15,\"total_steps\":322|covered_steps.*15"'
# steps: the avg row's device figures are over the covered steps, the others have none
cat >col.sh <<'X'
awk -F, -v col="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i } { print $1 "," $c }'
X
run 'proftool steps j.ptm --format csv | sh col.sh computation_ns | grep -E "^(step|1|15|16|322|avg),"'
run 'proftool flops j.ptm --by model --format csv'
# a selection inside the covered steps covers them all: no note
run 'proftool hints j.ptm --steps 2-10 --format csv >/dev/null'
# a selection outside them: none covered, said so, and no device figure stands in as zero
run 'proftool steps j.ptm --steps 100-101 --format csv | sh col.sh computation_ns'
# summary keeps the covered steps, as --steps 1-15 would: the same overview
run 'proftool summary j.ptm --view overview 2>&1 | grep -E "ProfileStep|  Kernel|note"; proftool summary j.ptm --view overview > a.txt 2>/dev/null; proftool summary j.ptm --view overview --steps 1-15 > b.txt; cmp a.txt b.txt && echo "same as --steps 1-15"'
