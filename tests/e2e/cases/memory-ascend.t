# proftool memory on a generated Ascend memory_usage file (ascend.md §2.12, §3.13), every format.
# Known answers (EXPECT): curve 204,300,252; peak 300 at node 1 (ReLU-op2); holders 3, 1, 5.
cat >desc.txt <<'D'
mem-file total 1000000
mem-graph 1 static 100
mem-node Conv2D-op1 out 1 ws 1,2
mem-node ReLU-op2 in 1 out 3
mem-node Add-op3 in 3 out 4 unpacked
mem-tensor 1 64 start 0 end 1
mem-tensor 2 32 type Workspace start 0 end 0
mem-tensor 3 128 start 1 end 2
mem-tensor 4 16 start 2 end 5
mem-tensor 5 8 life LifeLongGraphAll
mem-tensor 6 4 start 2 end 1
mem-tensor 7 2 life Bogus
mem-graph 2 static 10
D
run proftool-gen desc.txt -o dump --print-expect
run 'grep ^memory dump/EXPECT'
run proftool memory dump
run proftool memory dump --format csv
run proftool memory dump --format json
run proftool memory dump --format jsonl
run proftool memory dump --by op
run proftool memory dump --by op --format csv
run proftool memory dump --by time --format csv
run proftool memory dump --by time --format json
run proftool memory dump --device 1
run proftool import dump -o run.ptm
run 'proftool dump run.ptm | grep -E "^(mem-|stat|source)"'
run 'proftool memory run.ptm --format csv | md5sum; proftool memory dump --format csv 2>/dev/null | md5sum'
# holders at a chosen node (ascend.md §3.13: the tensors occupying index i): by index or by name
run proftool memory dump --at 2 --format csv
run proftool memory dump --at ReLU-op2
run proftool memory dump --at 3
run proftool memory dump --at Nope --device 0
# the filters do not cut an allocation plan: a warning, the views whole
run 'proftool memory dump --steps 1 --time-window 1ms: --format csv | md5sum; proftool memory dump --format csv 2>/dev/null | md5sum'
