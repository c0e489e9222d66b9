"""Why Folio flushes denormal floats (inference/models/modelrunner.cpp, configureThreads): AdamW
steps on parameters whose gradient stays zero get slower as their moments decay into the denormal
range, unless denormals are flushed to zero. LibTorch's AdamW through Debian's torch, one thread.

    /usr/bin/python3 bench/denormal_adam.py noftz; /usr/bin/python3 bench/denormal_adam.py ftz"""
import sys, time, torch
torch.set_num_threads(1)
ftz = sys.argv[1] == "ftz"
torch.set_flush_denormal(ftz)
p = torch.nn.Parameter(torch.randn(300_000))
opt = torch.optim.AdamW([p], lr=1e-3, betas=(0.9, 0.98), weight_decay=0.0)
def steps(n, g):
    t = time.perf_counter()
    for _ in range(n):
        p.grad = g.clone()
        opt.step()
    return (time.perf_counter() - t) / n * 1e3
g0 = torch.randn(300_000) * 1e-3
print("ftz" if ftz else "no ftz", "first 20 steps (real grads): %.3f ms" % steps(20, g0))
z = torch.zeros(300_000)
early = steps(200, z)
for _ in range(12): steps(500, z)
late = steps(200, z)
print("zero grads: steps 20-220 %.3f ms/step, after 6,200 steps %.3f ms/step (x%.1f)" % (early, late, late / early))
