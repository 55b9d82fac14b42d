# proftool summary: host nesting and attachment on CUPTI data (summary.md §8.1, Paddle test_event_node.cc).
# A: op1 launches kernel1 and the copy; cudalaunch2 starts in op2 and ends after it: attached to op2 (P6);
#    op3 (thread 11) launches kernel3 and the fill.
# B: no host ranges: every call unattached, every activity unattributed, W is the span [15000, 95000).
# C: op2 nests in op1; op1 launches kernel1 itself; op3 launches kernel3.
for c in a b c; do
	run proftool-gen cupti "'$SRC/tests/gen/cases/summary-nest-$c.cdtxt'" -o $c.cdump
	run "rm -rf v; proftool summary $c.cdump --view overview,operator,kernel --op-detail --format csv -o v/ && tail -n +1 v/*.csv"
done
run proftool summary b.cdump --view overview,model --time-unit ns
# --thread-sep: one group per thread (tid 10, then 11), ratios per group
run proftool summary a.cdump --view operator --thread-sep --time-unit us
run proftool summary a.cdump --view operator --thread-sep --format csv --top 1
