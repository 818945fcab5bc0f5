"""Issue 22's hot paths, microtorch against PyTorch in one process: lists to tensors,
DataLoader batching, optimizer steps, and small CNNs on 28x28 images.

Run ``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/hot_paths.py
[list] [data] [optim] [conv] [--tree PATH]`` (``--tree``: another checkout's microtorch, e.g.
the commit before a change, with these same workloads). BLAS and torch run on one thread; the
two libraries take turns, and each figure is the best of five rounds of CPU time
(``time.process_time``), since the machine may be shared. It measures; nothing here fails.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one BLAS thread for everyone

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv[:-1]:  # before microtorch is imported: which checkout's microtorch
    ROOT = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

import microtorch as mt  # noqa: E402

torch.set_num_threads(1)
RNG = np.random.default_rng(0)


def _seconds(fn: Callable[[], Any], repeats: int) -> float:
    gc.collect()
    start = time.process_time()
    for _ in range(repeats):
        fn()
    return (time.process_time() - start) / repeats


def compare(name: str, mine: Callable[[], Any], theirs: Callable[[], Any], repeats: int) -> None:
    """Best of five alternating rounds of each, in ms, and their ratio."""
    mine(), theirs()  # warm up
    m, t = [], []
    for _ in range(5):
        m.append(_seconds(mine, repeats))
        t.append(_seconds(theirs, repeats))
    print(f"{name:46s} microtorch {min(m) * 1e3:9.3f} ms  torch {min(t) * 1e3:9.3f} ms  "
          f"ratio {min(m) / min(t):5.2f}x", flush=True)  # fmt: skip


def lists() -> None:
    ints = RNG.integers(0, 27, 1_000_000).tolist()
    floats = RNG.standard_normal(1_000_000).tolist()
    rows = RNG.standard_normal((1000, 100)).tolist()
    numpy_scalars = list(RNG.standard_normal(100_000).astype(np.float32))
    losses = RNG.standard_normal(10_000).tolist()
    mine_0d, theirs_0d = [mt.tensor(v) for v in losses], [torch.tensor(v) for v in losses]
    for name, data, repeats in [
        ("tensor(1M ints)", ints, 1),
        ("tensor(1M floats)", floats, 1),
        ("tensor(1000 x 100 nested floats)", rows, 3),
        ("tensor(100k numpy float32 scalars)", numpy_scalars, 1),
    ]:
        compare(name, lambda d=data: mt.tensor(d), lambda d=data: torch.tensor(d), repeats)
    compare(
        "tensor(10k 0-d tensors)", lambda: mt.tensor(mine_0d), lambda: torch.tensor(theirs_0d), 3
    )


def _epoch(loader: Any) -> Callable[[], None]:
    def run() -> None:
        for _ in loader:
            pass

    return run


def data() -> None:
    x = RNG.standard_normal((6000, 1, 28, 28)).astype(np.float32)
    y = RNG.integers(0, 10, 6000)
    loaders = []
    for lib in (mt, torch):
        u = lib.utils.data
        full = u.TensorDataset(lib.tensor(x), lib.tensor(y))
        part = u.random_split(full, [5000, 1000])[0]
        loaders.append(
            (
                u.DataLoader(full, batch_size=64, shuffle=True),
                u.DataLoader(part, batch_size=64, shuffle=True),
                u.DataLoader(u.TensorDataset(lib.tensor(x[:2000])), batch_size=None),
            )
        )
    names = ["TensorDataset 6000, batch 64, shuffle", "random_split part 5000, batch 64",
             "TensorDataset 2000, batch_size=None"]  # fmt: skip
    for name, mine, theirs, repeats in zip(names, *loaders, (3, 3, 1)):
        compare(f"DataLoader {name}", _epoch(mine), _epoch(theirs), repeats)


def _optimizer(name: str, make: Callable[[Any, list[Any]], Any], shapes: list[tuple]) -> None:
    weights = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    grads = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    steps = []
    for lib in (mt, torch):
        params = [lib.tensor(w, requires_grad=True) for w in weights]
        for p, g in zip(params, grads):
            p.grad = lib.tensor(g)
        steps.append(make(lib, params).step)
    compare(name, *steps, repeats=200 if shapes[0][0] > 100 else 2000)


def optim() -> None:
    mlp = [(256, 784), (256,), (10, 256), (10,)]
    char_lm = [(27, 16), (64, 48), (64,), (27, 64), (27,)]
    _optimizer("SGD, 784-256-10 MLP", lambda L, p: L.optim.SGD(p, lr=0.01), mlp)
    _optimizer(
        "SGD momentum nesterov weight_decay, MLP",
        lambda L, p: L.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-4),
        mlp,
    )
    _optimizer("Adam, MLP", lambda L, p: L.optim.Adam(p, lr=1e-3), mlp)
    _optimizer("AdamW amsgrad, MLP", lambda L, p: L.optim.AdamW(p, lr=1e-3, amsgrad=True), mlp)
    _optimizer("Adam, char-level LM (small tensors)", lambda L, p: L.optim.Adam(p), char_lm)
    _optimizer("SGD, char-level LM (small tensors)", lambda L, p: L.optim.SGD(p, lr=0.1), char_lm)


def _cnn(lib: Any, pool: str) -> Any:
    nn = lib.nn
    lib.manual_seed(0)
    pooling = nn.AvgPool2d if pool == "avg" else nn.MaxPool2d
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), pooling(2),  # (N, 8, 14, 14)
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), pooling(2),  # (N, 16, 7, 7)
        nn.Flatten(), nn.Linear(16 * 49, 10),
    )  # fmt: skip


def conv() -> None:
    x = RNG.standard_normal((64, 1, 28, 28)).astype(np.float32)
    y = RNG.integers(0, 10, 64)
    for pool in ("avg", "max"):
        runs: dict[str, list[Callable[[], None]]] = {"forward": [], "step": []}
        for lib in (mt, torch):
            model = _cnn(lib, pool)
            opt = lib.optim.SGD(model.parameters(), lr=0.01)
            xb, yb = lib.tensor(x), lib.tensor(y)

            def forward(lib: Any = lib, model: Any = model, xb: Any = xb) -> None:
                with lib.no_grad():
                    model(xb)

            def step(lib: Any = lib, model: Any = model, opt: Any = opt, xb: Any = xb,
                     yb: Any = yb) -> None:  # fmt: skip
                opt.zero_grad()
                lib.nn.functional.cross_entropy(model(xb), yb).backward()
                opt.step()

            runs["forward"].append(forward)
            runs["step"].append(step)
        compare(f"CNN 2 conv + {pool} pool, batch 64, forward", *runs["forward"], repeats=10)
        compare(f"CNN 2 conv + {pool} pool, batch 64, train step", *runs["step"], repeats=10)
    x8 = RNG.standard_normal((64, 8, 28, 28)).astype(np.float32)
    w = RNG.standard_normal((16, 8, 3, 3)).astype(np.float32)
    mine, theirs = (_single_ops(lib, x8, w) for lib in (mt, torch))
    for name in mine:
        compare(f"{name} forward + backward, 64 x 8 x 28 x 28", mine[name], theirs[name], 5)


def _single_ops(lib: Any, x: np.ndarray, w: np.ndarray) -> dict[str, Callable[[], None]]:
    F = lib.nn.functional
    t, weight = lib.tensor(x, requires_grad=True), lib.tensor(w, requires_grad=True)
    pooled, convolved = lib.ones(64, 8, 14, 14), lib.ones(64, 16, 28, 28)
    return {
        "avg_pool2d(2)": lambda: F.avg_pool2d(t, 2).backward(pooled),
        "max_pool2d(2)": lambda: F.max_pool2d(t, 2).backward(pooled),
        "conv2d 8->16 3x3 padding 1": lambda: F.conv2d(t, weight, padding=1).backward(convolved),
    }


if __name__ == "__main__":
    chosen = [a for a in sys.argv[1:] if a in {"list", "data", "optim", "conv"}]
    print(f"microtorch from {ROOT}, torch {torch.__version__}, numpy {np.__version__}, 1 thread")
    for part in chosen or ["list", "data", "optim", "conv"]:
        {"list": lists, "data": data, "optim": optim, "conv": conv}[part]()
