# proftool export --table tensors (ascend.md §3.13): every tensor of the memory graphs with its source
# node and occupied index range, in every format; the holders at any node follow from it and equal
# `proftool memory --at`. Known answers (graph 1, 3 nodes):
#   1: Conv2D-op1:0, [0, 1] ok          2: workspace, no source, [0, 0] ok
#   3: ReLU-op2:0, [1, 2] ok            4: Add-op3:0, life 2..5 cut to [2, 2]
#   5: no source, LifeLongGraphAll [0, 2]    6: reversed 2..1 (none)   7: unknown life_long (none)
#   8: LifeLongGraphEnd from 9: 9..2 is reversed (none)       9: LifeLongGraphStart to 0: [0, 0]
#   10: 5..7 lies past the last node (none, past_end)
# Graph 2 has no nodes: its tensor 1 occupies nothing (no_nodes). Device 1 holds graph 3.
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
mem-tensor 8 1 life LifeLongGraphEnd start 9 end 9
mem-tensor 9 1024 type GraphInput life LifeLongGraphStart start 7 end 0
mem-tensor 10 1 start 5 end 7
mem-graph 2 static 10
mem-tensor 1 4 start 0 end 0
D
cat >dev1.txt <<'D'
mem-file total 2048
mem-graph 3 static 0
mem-node MatMul-op9 out 11
mem-tensor 11 512 start 0 end 0
D
run 'proftool-gen desc.txt -o dump >/dev/null && proftool-gen dev1.txt -o d1 >/dev/null && mv d1/memory_usage_0.pb dump/memory_usage_1.pb && ls dump'
run proftool export dump --table tensors
run proftool export dump --table tensors --format table
run proftool export dump --table tensors --format json
run proftool export dump --table tensors --format jsonl
run proftool export dump --table tensors --device 1
# holders at node 1 from the export equal memory --at 1 (tensor ids, largest first)
run "proftool export dump --table tensors --device 0 2>/dev/null | awk -F, 'NR > 1 && \$2 == 1 && \$12 != \"\" && \$12 <= 1 && 1 <= \$13 {print \$7, \$3}' | sort -k1,1nr -k2,2n | awk '{print \$2}' | paste -sd' '"
run "proftool memory dump --device 0 --at 1 --format csv --table memory_holders 2>/dev/null | awk -F, '/^device_id,graph_id,node_index,tensor_id/ {h=1; next} h && NF > 1 && \$2 == 1 {print \$4}' | paste -sd' '"
run proftool import dump -o m.ptm
run 'proftool export m.ptm --table tensors | md5sum; proftool export dump --table tensors 2>/dev/null | md5sum'
run proftool export m.ptm --table tensors --device 7
# malformed and empty memory files (ascend.md §0): a fatal error naming the file and offset; an empty
# file is a valid, empty message: the header alone, as for a model without memory graphs
mkdir bad empty
printf '\x0a\x05\x08\x01' >bad/memory_usage_0.pb
: >empty/memory_usage_0.pb
run proftool export bad --table tensors
run proftool export empty --table tensors --format json
run 'proftool-gen cupti "$SRC/tests/gen/cases/memory-pools.cdtxt" -o p.cdump && proftool export p.cdump --table tensors'
