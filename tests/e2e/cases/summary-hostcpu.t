# summary --view device: the CPU rows and the Host CPU table of summary.md §3.1, from generated
# minddata_cpu_utilization files (ascend.md §2.11), in every format; dataset and hints read the
# same figures (model/hostcpu.c).
#
# Dump `job`: 4 step-trace steps (numbers 1-4, windows from `proftool steps`: step 1
# [1000000020000, 1000000131000), then 131 us each); host connector records of
# device_queue_profiling for batches 1..5 at 1000, 1100, 1200, 1300, 1400 ms; CPU samples:
#   ms    user sys io idle ctx  proc user/sys   step (rule 2: batch of the latest record <= ms)
#   990    10   5  5  80  100     50  10        none: before every record -> outside
#   1000   20  10  0  70  200    100  20        batch 1 -> step 1
#   1050   40  10 10  40  300    120  30        step 1
#   1100   60  20  0  20  400    200  40        step 2
#   1150   30  10 10  50  500    150  50        step 2
#   1210   50  25  5  20  600    300  60        step 3
#   1410   70  20  5   5  700    350  70        batch 5: no step 5 -> outside
# Expected host rows (samples, user, sys, io, idle, ctx, process user, process sys):
#   1: 2, 30, 10, 5, 55, 500, 110, 25        2: 2, 45, 15, 5, 35, 900, 175, 45
#   3: 1, 50, 25, 5, 20, 600, 300, 60        4: 0 samples, '-' elsewhere
#   outside: 2, 40, 12.50, 5, 42.50, 800, 200, 40
#   all: 7, 280/7 = 40.00, 100/7 = 14.29 (14.2857), 35/7 = 5, 285/7 = 40.71 (40.7143), 2800,
#        1270/7 = 181.43 (181.4286), 280/7 = 40
# CPU(Process) over the 5 samples in steps: (870 + 200) / 5 = 214.00;
# CPU(System) = 100 - mean idle 200/5 - mean io 25/5 = 55.00. NPU0 is the existing kernel row.
# --steps 2-3: rows 2, 3, all (no outside); CPU(Process) (650 + 150) / 3 = 266.67 (266.6667),
#   CPU(System) 100 - 90/3 - 15/3 = 65.00.
# --time-window 250us: (T starts 250 us after the first task, 1000000020000: at 1000000270000, inside
#   step 3): rows 3 and 4; rule 2 places by batch, so whole steps count: CPU(Process) 360.00,
#   CPU(System) 75.00.
# --time-window 10s: no step meets T: only `all`; the CPU rows show '-' (samples lie in steps, none kept).
# MD_CPU_BUSY (dataset, hints): busy = 100 - 40.7143 = 59.2857 over all 7 samples, the `all` row's
# idle; it fires with hints.md_cpu.busy_pct=50.
steps() { printf 'steps 4\nop Default/MatMul-op1 type MatMul dur 100us task 1\n'; }
devq() { local b=0 t; for t in 1000 1100 1200 1300 1400; do b=$((b + 1)); echo "md-devq 1 64 $b $((6 - b)) $t"; done; }
cpu() {
	echo "md-cpu interval 50 $1 device-user 10,20,40,60,30,50,70 device-sys 5,10,10,20,10,25,20" \
		"device-io 5,0,10,0,10,5,5 device-idle 80,70,40,20,50,20,5 device-runable 1,2,3,4,5,6,7" \
		"device-ctx 100,200,300,400,500,600,700 process-user 50,100,120,200,150,300,350" \
		"process-sys 10,20,30,40,50,60,70"
}
stamps='stamps 990,1000,1050,1100,1150,1210,1410'
{ steps; devq; cpu "$stamps"; } >job.desc
# no step trace: only the `all` row
{ devq; cpu "$stamps"; } >nostep.desc
# no time_stamp in the CPU file: sample times are index x interval, never placed: only `all`,
# CPU rows over all 7 samples: process 181.43 + 40 = 221.43, system 100 - 40.71 - 5 = 54.29
{ steps; devq; cpu ""; } >unstamped.desc
# connector records only in the iterator file (with timestamps): rule 2 reads them
{ steps; devq | sed 's/md-devq/md-iter/'; cpu "$stamps"; } >iter.desc
# connector records without timestamps: nothing places the samples
{ steps; devq | sed 's/ [0-9]*$//'; cpu "$stamps"; } >nots.desc
for d in job nostep unstamped iter nots; do proftool-gen $d.desc -o $d >/dev/null; done
run proftool summary job --view device
run proftool summary job --view device --format csv
run proftool summary job --view device --format json
run proftool summary job --view device --format jsonl
run proftool summary job --view device --format csv --time-unit us
run proftool summary job --view device --format csv --steps 2-3
run proftool summary job --view device --steps 2-3
run proftool summary job --view device --format json --time-window 250us:
run proftool summary job --view device --time-window 10s:
run "rm -rf v; proftool summary job --view device,distributed --format csv --device 0 -o v/ && tail -n +1 v/*.csv"
run proftool summary nostep --view device
run proftool summary nostep --view device --format csv
run proftool summary unstamped --view device --format csv
run proftool summary iter --view device --format csv
run proftool summary nots --view device --format csv
# one computation: the `all` idle of the summary is MD_CPU_BUSY's mean idle
run 'proftool dataset job --format csv --table hints --hint hints.md_cpu.busy_pct=50 2>/dev/null | grep MD_CPU_BUSY'
run 'proftool hints job --format csv --hint hints.md_cpu.busy_pct=50 2>/dev/null | grep MD_CPU_BUSY'
run 'proftool summary job --view device --format csv 2>/dev/null | grep ",all,"'
# a model file gives the same bytes as the raw dump
run proftool import job -o job.ptm
run 'proftool summary job.ptm --view device --format csv | md5sum; proftool summary job --view device --format csv 2>/dev/null | md5sum'
# Per-op CPU per step: the op_cpu view of proftool dataset places each pipeline op's samples by the same
# rules (model/hostcpu.c; here rule 2, the batch of the latest connector record). Op 0 (BatchOp, 2
# workers) has 7 samples user 10..70, sys 1..7; op 1 (MapOp, 4 workers) has 7 user samples
# 100..700 and 5 sys samples 10 each, so 5 paired samples (the 5 first stamps). Expected:
#   op 0: step 1 (1000, 1050): user 25, sys 2.50, cpu 27.50, per worker 13.75; step 2 (1100, 1150):
#         45, 4.50, 49.50, 24.75; step 3 (1210): 60, 6, 66, 33; step 4: no sample; outside (990,
#         1410): 40, 4, 44, 22; all: 40, 4, 44, 22 (= the ops view's cpu_pct)
#   op 1: step 1: 250, 10, 260, 65; step 2: 450, 10, 460, 115; steps 3, 4: none; outside (990):
#         100, 10, 110, 27.50; all (5): 300, 10, 310, 77.50
# Without steps or without a placing rule the view is left out (the ops view has the all-sample figures).
pipeline() {
	printf 'md-pipeline interval 10\nmd-op 0 BatchOp workers 2 queue 10 children 1 sizes 5,5\n'
	printf 'md-op 1 MapOp workers 4 queue 10 sizes 8,9\n'
	printf 'md-cpu-op 0 user 10,20,30,40,50,60,70 sys 1,2,3,4,5,6,7\n'
	printf 'md-cpu-op 1 user 100,200,300,400,500,600,700 sys 10,10,10,10,10\n'
}
{ steps; devq; cpu "$stamps"; pipeline; } >ops.desc
{ devq; cpu "$stamps"; pipeline; } >ops-nostep.desc
{ steps; devq; cpu ""; pipeline; } >ops-unstamped.desc
for d in ops ops-nostep ops-unstamped; do proftool-gen $d.desc -o $d >/dev/null; done
run 'proftool dataset ops --format csv --table op_cpu 2>/dev/null | sed -n "/^op_id,op_type,num_workers,step,/,/^$/p"'
run 'proftool dataset ops 2>/dev/null | sed -n "/op CPU per step/,/^$/p"'
run "proftool dataset ops --format json 2>/dev/null | jq -c '.views[] | select(.name == \"op_cpu\")'"
run 'proftool dataset ops --format jsonl 2>/dev/null | grep "\"view\":\"op_cpu\""'
run 'proftool dataset ops --format csv --table op_cpu --time-unit us 2>/dev/null | grep -c "^[01],[A-Za-z]*Op,[0-9],[0-9a-z]*,"'
run "proftool dataset ops-nostep --format json 2>/dev/null | jq -c '[.views[].name]'"
run "proftool dataset ops-unstamped --format json 2>/dev/null | jq -c '[.views[].name]'"
run "proftool dataset ops --format json 2>/dev/null | jq -c '[.views[].name]'"
