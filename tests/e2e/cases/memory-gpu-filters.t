# proftool memory --steps / --time-window / --step-pattern on GPU records (DESIGN §3 filters; cupti.md
# §6.11), on tests/gen/cases/memory-pools.cdtxt (its header lists the values after every record).
# Steps: ProfilerStep#1 [1000000001, 1000000050), ProfilerStep#2 [1000000050, 1000000100).
# --steps 2: records at 50..90. Device: carried in 250 (reserved 2097402 after the pool creation
#   at 40); allocations 2 (50, 80), releases 2 (70, 80); peak 1250 at 50 with 0x7f1000000000 (1000)
#   and 0x7f0000001000 (50) and 0x7f0000002000 (200) open; reserved peak 4194554 at 50; open at the
#   end: 0x7f0000001000 and 0x7f0000003000 (250 B). Managed: 1 allocation, 4096 at 55. Pools: both
#   existed; pool 1: 1 growth (50), 1 trim (60), max 4194304 at 50; pool 2 max 1048576 carried in at 50.
# --time-window 0:25ns ([1000000001, 1000000026)): device allocations 2, peak 150 at 20, step 1; no
#   pool existed yet, no managed allocation: those rows are left out.
# --time-window 65ns:95ns ([1000000066, 1000000096)): the carried-in 1250 is the peak: peak_time is the
#   window start, 1000000066 (step 2), outstanding are the blocks open then.
run proftool-gen cupti "'$SRC/tests/gen/cases/memory-pools.cdtxt'" -o p.cdump
run proftool memory p.cdump --format csv
run proftool memory p.cdump --format csv --steps 2
run proftool memory p.cdump --format csv --time-window 0:25ns
run proftool memory p.cdump --format csv --time-window 65ns:95ns
run proftool memory p.cdump --steps 2 --time-window :60ns
run proftool memory p.cdump --by time --format csv --steps 1
run proftool memory p.cdump --by time --format json --time-window 75ns:
run proftool memory p.cdump --by op --format csv --time-window :25ns
# --step-pattern: only "ProfilerStep#1" is a step; --steps 2 keeps nothing (empty views, exit 0)
run proftool memory p.cdump --format csv --step-pattern 'ProfilerStep#1' --steps 2
run "proftool memory p.cdump --format csv --step-pattern 'Profiler(' --steps 2"
# --no-demangle is accepted and changes nothing
run 'proftool memory p.cdump --no-demangle --format csv | md5sum; proftool memory p.cdump --format csv | md5sum'
# usage errors and --at without Ascend graphs
run proftool memory p.cdump --steps 2-1
run proftool memory p.cdump --time-window 5:x
run proftool memory p.cdump --at 0
run proftool memory p.cdump --by time --at 0
