# import -j N: the model is compressed by N threads in 1 MiB blocks, and the
# file is the same for every N. The job is large enough (a 3.6 MB body, four
# blocks) for the blocks to be compressed in parallel and written in order.
run 'proftool-gen "$SRC/testdata/ascend/sample.desc" -o job --hwts-bytes 24M >/dev/null && echo generated'
for j in 1 2 4; do
	run proftool import -j $j job -o j$j.ptm
done
run proftool import --jobs 3 --no-compress job -o raw.ptm
run 'cmp j1.ptm j2.ptm && cmp j1.ptm j4.ptm && echo identical'
# one zlib stream that plain zlib inflates to exactly the uncompressed model's body
cat >inflate.py <<'PY'
import zlib
z = open('j4.ptm', 'rb').read()
raw = open('raw.ptm', 'rb').read()
d = zlib.decompressobj()
body = d.decompress(z[16:]) + d.flush()
print('header', z[16:18].hex(), 'body', len(body), 'blocks', (len(body) + (1 << 20) - 1) >> 20)
print('one stream:', d.eof and not d.unused_data, '| same body:', body == raw[16:], '| same magic and version:', z[:12] == raw[:12])
PY
run python3 inflate.py
run 'proftool dump j4.ptm | cmp - <(proftool dump raw.ptm) && echo same dump'
# the default thread count gives the same file too
run 'proftool import job -o jd.ptm 2>/dev/null && cmp jd.ptm j1.ptm && echo identical'
# a small model is one block: no threads, same bytes
run 'proftool import -j 8 "$SRC/testdata/ascend/sample" -o s8.ptm 2>/dev/null && proftool import -j1 "$SRC/testdata/ascend/sample" -o s1.ptm 2>/dev/null && cmp s1.ptm s8.ptm && echo identical'
# usage errors
run proftool import -j 0 job
run proftool import -j x job
run proftool import --jobs -1 job
run proftool import --jobs 1000 job
run proftool import -j
run ls
