# A short PyTorch training loop for the collector's GPU checks (cupti.md §8.5).
# mode: plain | nvtx (emit_nvtx(record_shapes=True)) | kineto (torch.profiler) | region (cudaProfilerStart/Stop around steps 4-6)
# usage: loop.py MODE [OUTDIR [STEPS]]; STEPS (plain: 20, nvtx: 6) makes long runs for the memory benchmark.
# Phases are printed as "phase NAME realtime_ns" so dump timestamps (CUPTI realtime ns) can be placed.
import os, sys, time, torch, torch.nn as nn
mode = sys.argv[1]; out = sys.argv[2] if len(sys.argv) > 2 else "."
steps = int(sys.argv[3]) if len(sys.argv) > 3 else None
torch.manual_seed(0)
dev = "cuda"
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1),
                      nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(32 * 16, 64), nn.ReLU(), nn.Linear(64, 10)).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(32, 3, 32, 32, device=dev); y = torch.randint(0, 10, (32,), device=dev)
def phase(n): print("phase", n, time.time_ns(), flush=True)
def step():
    opt.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward(); opt.step()
    return loss
for _ in range(3): step()
torch.cuda.synchronize()
t0 = time.perf_counter()
if mode == "plain":
    for i in range(steps or 20): step()
elif mode == "nvtx":
    with torch.autograd.profiler.emit_nvtx(record_shapes=True):
        for i in range(steps or 6):
            torch.cuda.nvtx.range_push(f"ProfilerStep#{i}"); step(); torch.cuda.nvtx.range_pop()
elif mode == "region":
    for i in range(9):
        if i == 3: phase("region-start"); torch.cuda.profiler.start()
        step()
        if i == 5: torch.cuda.synchronize(); torch.cuda.profiler.stop(); phase("region-stop")
elif mode == "kineto":
    from torch.profiler import profile, schedule, ProfilerActivity
    phase("before")
    for i in range(3): step()
    torch.cuda.synchronize(); phase("profiler-on")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, profile_memory=False,
                 schedule=schedule(wait=1, warmup=1, active=3), on_trace_ready=lambda p: p.export_chrome_trace(
                     os.path.join(out, f"rank0.step{p.step_num}.pt.trace.json"))) as prof:
        for i in range(6):
            step(); prof.step()
    torch.cuda.synchronize(); phase("profiler-off")
    for i in range(3): step()
    torch.cuda.synchronize(); phase("after")
torch.cuda.synchronize()
print("mode", mode, "loop_s", round(time.perf_counter() - t0, 4), "torch", torch.__version__, "cuda", torch.version.cuda,
      "gpu", torch.cuda.get_device_name(0), flush=True)
