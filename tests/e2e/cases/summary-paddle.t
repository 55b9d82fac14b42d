# proftool summary on Paddle's statistic cases (summary.md §8.2-§8.4, §8.6): CUPTI dumps generated from
# tests/gen/cases/summary-case{1,2,3}.cdtxt; the figures are those the spec lists.
for c in 1 2 3; do
	run proftool-gen cupti "'$SRC/tests/gen/cases/summary-case$c.cdtxt'" -o case$c.cdump
done
# §8.2: unions, items, overview, model, operator with details, kernel, memcpy, userdefined, gpu, api
run "rm -rf v; proftool summary case1.cdump --view all --op-detail --format csv -o v/ && tail -n +1 v/*.csv"
# §8.3: the golden tables of §5 (model, distributed), the rest in text
run proftool summary case2.cdump --view model,distributed --time-unit ns --layout paddle
# the same tables in the one text style, each in the unit it picks
run proftool summary case2.cdump --view model,distributed
run proftool summary case2.cdump --view overview,operator,kernel,memcpy,userdefined --op-detail --time-unit ns
# §8.6: CSV avg rounding, one file per view with -o DIR/, one view to -o FILE, JSON document
run "rm -rf v; proftool summary case2.cdump --view kernel,model --format csv -o v/ && tail -n +1 v/*.csv"
run proftool summary case2.cdump --view kernel,model --format csv -o out/
run 'ls out; cat out/kernel.csv'
run proftool summary case2.cdump --view kernel --format csv -o out.csv
run 'ls -d out*; cmp out.csv out/kernel.csv && echo same'
run proftool summary case2.cdump --view kernel --format json
run proftool summary case2.cdump --view kernel --format jsonl --time-unit us
# --comm-pattern replaces the name lists: sync_batch_norm becomes communication, nccl kernels do not
run "rm -rf v; proftool summary case2.cdump --view overview,distributed --comm-pattern sync_batch --format csv -o v/ && tail -n +1 v/*.csv"
# §8.4: zero durations, template shortening and the width rule, every sort key
run proftool summary case3.cdump --view model,operator,kernel --op-detail --time-unit ns
run proftool summary case3.cdump --view kernel --wide --time-unit ns
run 'for k in cpu-total cpu-avg cpu-max cpu-min gpu-total gpu-avg gpu-max gpu-min calls name; do proftool summary case3.cdump --view all --sorted-by $k >/dev/null || echo "failed: $k"; done; echo done'
run "rm -rf v; proftool summary case3.cdump --view all --format csv --sorted-by gpu-min --reverse -o v/ && tail -n +1 v/*.csv"
