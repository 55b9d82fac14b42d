# proftool summary: usage errors and bad input.
run proftool summary
run proftool summary --view nope x.ptm
run proftool summary --sorted-by size x.ptm
run proftool summary --top -1 x.ptm
run 'proftool summary --name "(" x.ptm'
run proftool summary --steps 3-x x.ptm
run proftool summary /nonexistent/model.ptm
run 'printf "PTM\0garbage" > bad.ptm; proftool summary bad.ptm'
run 'head -c 100 /dev/zero > zero.ptm; proftool summary zero.ptm'
# a damaged model file is the same error whether streamed or loaded whole (a relative
# input path: the model records paths as given, and the byte offsets must not depend on
# where the source tree lives)
cp -r "$SRC/testdata/ascend/sample" sample
proftool import sample -o s.ptm 2>/dev/null
run 'head -c 3000 s.ptm > cut.ptm; proftool summary cut.ptm; proftool summary cut.ptm --in-memory'
run 'cp s.ptm flip.ptm; printf x | dd of=flip.ptm bs=1 seek=2500 conv=notrunc 2>/dev/null; proftool summary flip.ptm; proftool summary flip.ptm --in-memory'
