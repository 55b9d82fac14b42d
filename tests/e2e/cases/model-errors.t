# Hostile model files and outputs: bad magic, truncation, a newer version,
# a broken checksum, output to a full disk and to a closed pipe.
# a relative input path: the model records paths as given, and the byte
# offsets below must not depend on where the source tree lives
cp -r "$SRC/testdata/ascend/sample" sample
proftool import sample -o good.ptm 2>/dev/null
proftool import --no-compress sample -o raw.ptm 2>/dev/null
printf 'PTM garbage' > magic.ptm
run proftool info magic.ptm
head -c 500 good.ptm > trunc.ptm
run proftool info trunc.ptm
head -c 16 good.ptm > hdr.ptm
run proftool info hdr.ptm
{ head -c 8 good.ptm; printf '\377\000\000\000'; tail -c +13 good.ptm; } > newer.ptm
run proftool info newer.ptm
python3 -c "import sys; b=bytearray(open('raw.ptm','rb').read()); b[200]^=1; open('flip.ptm','wb').write(b)"
run proftool info flip.ptm
run proftool dump good.ptm -o /dev/full
run 'proftool dump good.ptm | true; echo "status ${PIPESTATUS[0]}"'
run proftool import good.ptm -o again.ptm
