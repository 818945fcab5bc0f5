"""Memory workloads, each measured in a fresh process so nothing else's allocations count.

W4's peak is the largest resident set size seen by a thread sampling /proc/self/statm every
0.2 ms while the workload runs, minus the resident size just before it starts: the same probe
for microtorch, numpy and torch. W6's megabyte-sized peaks are below what RSS resolves (the
allocator reuses memory), so numpy and microtorch are measured exactly with tracemalloc there;
torch, whose C++ allocations tracemalloc cannot see, by RSS.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

Row = tuple[str, str, float, float | None, float | None]
HERE = Path(__file__).resolve().parent

PROBE = r"""
import os, sys, threading, time, json
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"
sys.path.insert(0, {root!r})
import numpy as np
PAGE = os.sysconf("SC_PAGE_SIZE")

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE

class Peak:
    def __enter__(self):
        self.base = self.peak = rss()
        self.run = True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self
    def sample(self):
        while self.run:
            self.peak = max(self.peak, rss())
            time.sleep(0.0002)
    def __exit__(self, *exc):
        self.run = False
        self.thread.join()
        self.peak = max(self.peak, rss())

lib_name = {lib!r}
if lib_name == "torch":
    import torch as lib
    torch_threads = lib.set_num_threads(1)
elif lib_name == "microtorch":
    import microtorch as lib
else:
    lib = None
result = {{}}
{traced}
{body}
print(json.dumps(result))
"""

CHAIN = r"""
n = 100_000
if lib is None:
    with Peak() as p:
        y, ys = np.array([1.0], np.float32), []
        for _ in range(n):
            ys.append(y)
            y = y * np.float32(1.000001)
        g = np.ones(1, np.float32)
        for _ in reversed(ys):
            g = g * np.float32(1.000001)
        del ys
else:
    x = lib.tensor([1.0], requires_grad=True)
    with Peak() as p:
        y = x
        for _ in range(n):
            y = y * 1.000001
        y.backward()
        del y
result["peak"] = p.peak - p.base
"""

MLP_SETUP = r"""
rng = np.random.default_rng(1)
x = rng.standard_normal((1024, 784)).astype(np.float32)
w1 = (rng.standard_normal((784, 256)) * 0.05).astype(np.float32)
w2 = (rng.standard_normal((256, 10)) * 0.05).astype(np.float32)
b1, b2 = np.zeros(256, np.float32), np.zeros(10, np.float32)
if lib is not None:
    X = lib.tensor(x)
    W1, B1, W2, B2 = (lib.tensor(a).requires_grad_() for a in (w1, b1, w2, b2))
# numpy's and microtorch's allocations are exact under tracemalloc; torch's are invisible to
# it (C++), so torch is measured by the resident set size instead.
import tracemalloc
Probe = Peak if lib_name == "torch" else Traced
"""

TRACED = r"""
import tracemalloc
class Traced:
    def __enter__(self):
        tracemalloc.start()
        self.base = 0
        return self
    def __exit__(self, *exc):
        self.peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
"""

MLP_NO_GRAD = (
    MLP_SETUP
    + r"""
if lib is None:
    with Probe() as p:
        out = np.maximum(x @ w1 + b1, 0) @ w2 + b2
        del out
else:
    with lib.no_grad(), Probe() as p:
        out = (X @ W1 + B1).relu() @ W2 + B2
        del out
result["peak"] = p.peak - p.base
"""
)

MLP_GRAPH = (
    MLP_SETUP
    + r"""
import gc
gc.disable()  # memory must come back by reference counting alone: no cycles to collect
if lib is not None:
    with Probe() as p:
        loss = ((X @ W1 + B1).relu() @ W2 + B2).sum()
    result["peak"] = p.peak - p.base
    before = rss() if lib_name == "torch" else None
    if lib_name != "torch":
        tracemalloc.start()
    loss.backward()
    grads = sum(a.nbytes for a in (w1, b1, w2, b2))
    del loss
    kept = rss() - before if lib_name == "torch" else tracemalloc.get_traced_memory()[0]
    result["kept_after_backward"] = kept - grads
"""
)


def _run(lib: str, body: str, root: Path = HERE.parent) -> dict[str, Any]:
    code = PROBE.format(root=str(root), lib=lib, body=body, traced=TRACED)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _mb(value: float | None) -> float | None:
    return None if value is None else value / 2**20


def memory_rows(have_torch: bool, root: Path = HERE.parent) -> Iterator[Row]:
    """W4's peak memory and W6's rows, in MB, for the microtorch of checkout ``root``."""
    chain = {lib: _run(lib, CHAIN, root)["peak"] for lib in ("microtorch", "numpy")}
    chain_torch = _run("torch", CHAIN)["peak"] if have_torch else None
    yield (
        "100,000-op chain, peak memory",
        "MB",
        _mb(chain["microtorch"]),
        _mb(chain["numpy"]),
        _mb(chain_torch),
    )
    no_grad = {lib: _run(lib, MLP_NO_GRAD, root)["peak"] for lib in ("microtorch", "numpy")}
    no_grad_torch = _run("torch", MLP_NO_GRAD)["peak"] if have_torch else None
    yield (
        "W3 fwd, batch 1024, no_grad peak",
        "MB",
        _mb(no_grad["microtorch"]),
        _mb(no_grad["numpy"]),
        _mb(no_grad_torch),
    )
    graph = _run("microtorch", MLP_GRAPH, root)
    graph_torch = _run("torch", MLP_GRAPH) if have_torch else {}
    yield (
        "W3 fwd, batch 1024, graph peak",
        "MB",
        _mb(graph["peak"]),
        None,
        _mb(graph_torch.get("peak")),
    )
    yield (
        "  kept after backward (no gc)",
        "MB",
        _mb(graph["kept_after_backward"]),
        None,
        _mb(graph_torch.get("kept_after_backward")),
    )
