# proftool summary on the generated Ascend sample (testdata/ascend/sample): every view and format.
run proftool import '$SRC/testdata/ascend/sample' -o s.ptm
run proftool summary s.ptm
run proftool summary s.ptm --view all --time-unit us
run "rm -rf v; proftool summary s.ptm --view kernel,optype --format csv -o v/ && tail -n +1 v/*.csv"
run proftool summary s.ptm --view operator --op-detail --top 3 --format csv
run proftool summary s.ptm --view overview,distributed,aicpu --format json
run proftool summary s.ptm --view kernel --format jsonl --top 2 --name '^task'
run proftool summary s.ptm --view kernel --sorted-by name --reverse --top 4 --time-unit ns
run "rm -rf v; proftool summary s.ptm --view model,kernel --steps 2-3 --format csv -o v/ && tail -n +1 v/*.csv"
run proftool summary s.ptm --view overview --time-window 0:2ms --format csv
run proftool summary s.ptm --view all --format csv -o out/
run 'ls out && cat out/aicpu.csv'
run proftool summary '$SRC/testdata/ascend/sample' --view optype --top 3
# a .ptm of Ascend data is streamed (proftool-summary(1) MEMORY); loaded whole, or from standard input, the output is the same
run 'for v in "" "--op-detail --top 5" "--view model,overview --steps 2-3" "--time-window 1ms: --format json"; do proftool summary s.ptm $v > a.txt; proftool summary s.ptm --in-memory $v > b.txt; proftool summary - $v < s.ptm > c.txt; cmp a.txt b.txt && cmp a.txt c.txt && echo "same: $v"; done'
