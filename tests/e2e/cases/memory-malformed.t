# Malformed and empty memory files (ascend.md §0, §5): clear fatal errors with file and offset; empty is not fatal.
mkdir bad1 bad2 bad3 empty nothing
printf '\x0a\x05\x08\x01' >bad1/memory_usage_0.pb
printf '\x0f\x01' >bad2/memory_usage_0.pb
cat >desc.txt <<'D'
mem-file total 4096
mem-graph 3 static 1
mem-node A-op1 out 1
mem-tensor 1 8 start 0 end 0
mem-cut 9
D
run proftool-gen desc.txt -o bad3
run proftool memory bad1
run proftool memory bad2
run proftool memory bad3
run proftool import bad3 -o x.ptm
run 'test -e x.ptm && echo written || echo "no model"'
: >empty/memory_usage_0.pb
run proftool import empty -o e.ptm
run 'proftool info e.ptm | grep -i memory'
run proftool memory e.ptm
run proftool memory nothing
run proftool memory empty --by bogus
