# One origin for --time-window in every command (proftool(1) COMMON OPTIONS, pass/select.h): the
# earliest time of the model, events and step records alike. This job's HWTS log lost step 1's
# tasks, so its step trace starts step 1 at 1000000200000 ns, 463 us before the first task
# (1000000663000). From that origin 675us:1138us is step 3, [1000000875000, 1000001338000), exactly:
# steps keeps step 3 alone; the summary (streamed from the model file, read whole with --in-memory,
# streamed from standard input and from the raw job) and the timeline keep its three tasks, the
# ReLU among them (it runs in odd steps only: step 4 has none). Counted from the first task, the
# same window would be step 4.
cat >desc.txt <<'EOF'
device 0
era text backend vm
freq 100
info yes
seed 7
op Default/net/Conv2D-op1 type Conv2D stream 5 task 1 block 32 dur 100us
op Default/net/ReLU-op2 type ReLU stream 5 task 2 block 32 dur 50us every 2
op Default/net/MatMul-op3 type MatMul stream 5 task 3 block 8 dur 80us
steps 4 fp-at 200us tail 30us
inject hwts drop at 0 count 6
EOF
proftool-gen desc.txt -o job >/dev/null || exit 1
run proftool import job -o job.ptm
run "proftool dump job.ptm | grep -E '^(step|event) ' | sed 's/ name=.*//'"
run proftool steps job.ptm --format csv --time-window 675us:1138us
run proftool summary job.ptm --view kernel --format csv --time-window 675us:1138us
run "for v in '--view kernel' '--view overview,model,operator --format json' '--view all'; do proftool summary job.ptm --time-window 675us:1138us \$v > a.txt 2>&1; proftool summary job.ptm --in-memory --time-window 675us:1138us \$v > b.txt 2>&1; proftool summary - --time-window 675us:1138us \$v < job.ptm > c.txt 2>&1; proftool summary job --time-window 675us:1138us \$v > d.txt 2>&1; cmp -s a.txt b.txt && cmp -s a.txt c.txt && cmp -s a.txt d.txt && echo \"same: \$v\" || echo \"DIFFERS: \$v\"; done"
# the timeline's Steps row and kernels, with the step of each
run "proftool timeline job.ptm --time-window 675us:1138us -o - | sed -n -e 's/.*\"cat\":\"Step\",\"name\":\"\\([^\"]*\\)\".*/\\1/p' -e 's/.*\"cat\":\"Kernel\",\"name\":\"\\([^\"]*\\)\".*\"step\":\\([0-9]*\\)}}.*/\\1 step \\2/p'"
# an open end, and a start past the end of the clock (the origin plus it overflows): nothing, said so
run proftool steps job.ptm --format csv --time-window :675us
run proftool steps job.ptm --format csv --time-window 9223372036s:
run proftool summary job.ptm --view kernel --format csv --time-window 9223372036s:
run "proftool timeline job.ptm --time-window 9223372036s: -o - | grep -o '\"ph\":\"X\"' | wc -l"
