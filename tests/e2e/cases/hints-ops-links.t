# proftool hints over a Kineto model with PyTorch operator ranges whose launch links come out of event
# order (tests/e2e/ptm-edit links-twice:ranges: every link batch again before the footer, its calls and
# ranges reversed, so that each kernel has a second link naming another range) reads it as a stream
# (proftool-hints(1) MEMORY): the Operator ranges' read sorts the links by kernel, each kernel's in file
# order (its op type from its first link with a range, the FLOPs and Tensor Core ranges from its last);
# the same bytes as --in-memory and as standard input, which load the model whole, with thresholds moved
# so that the rules fire. The model as imported (links in event order) too. Scaled to 3 MB: several
# batches of events, links, range infos and Input Dims.
# (the trace of hints-ops-stream)
sed -n "/^cat > ops.ktdesc/,/^KT\$/p" "$SRC/tests/e2e/cases/hints-ops-stream.t" | sed '1d;$d' > ops.ktdesc
run 'grep -c "^op " ops.ktdesc'
run 'proftool-gen kineto ops.ktdesc -o ops.json --scale 3M && proftool import ops.json -o ops.ptm 2>/dev/null && "$SRC/tests/e2e/ptm-edit" ops.ptm twice.ptm links-twice:ranges && echo edited'
run 'proftool dump twice.ptm | grep -c gpu-link; proftool dump ops.ptm | grep -c gpu-link'
cp "$SRC/tests/e2e/cases/hints-stream-same.sh" same.sh # (the streamed, whole and standard input outputs compared)
FIRE='--hint hints.low_util.pct=100 --hint hints.idle.min_pct=0 --hint hints.top_ops.type_pct=0 --hint hints.flops_util.min_coverage_pct=0 --hint hints.tensor_cores.op_names=aten::mm,aten::relu'
for m in ops.ptm twice.ptm; do
	run "for v in '' '--format json --show-suppressed' '--steps 2-3 --format csv'; do bash same.sh $m \$v; done"
	run "for v in '--format csv --show-suppressed' '--steps 2-4 --format json --show-suppressed'; do bash same.sh $m $FIRE \$v; done"
done
# the rules that read the links: op types from the first link's range, FLOPs and Tensor Cores from the last
run "for m in ops twice; do proftool hints \$m.ptm $FIRE --format csv --show-suppressed -o \$m/ && cat \$m/hints.csv \$m/hints_suppressed.csv | grep -E 'TOP_OPS|LOW_FLOPS_UTIL|TENSOR_CORES_UNUSED' | cut -d, -f3-; done"
