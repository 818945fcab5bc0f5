"""Benchmarks: microtorch vs a hand-written numpy version vs PyTorch (when installed).

Run ``make bench`` (or ``python benchmarks/run.py [--quick] [--only W1,W3]``). Each workload
runs the same data and initial weights on every implementation, interleaved in one process,
with BLAS and torch pinned to one thread; losses are cross-checked so nothing fast is wrong.
The table shows medians and the ratios microtorch/torch and microtorch/numpy. This is a
measurement, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one BLAS thread for everyone

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import workloads  # noqa: E402

import microtorch as mt  # noqa: E402

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the numpy and microtorch columns still run
    torch = None


def measure(fn: Callable[[], object], repeats: int) -> float:
    """Median seconds of ``repeats`` calls of ``fn`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def interleaved(impls: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds per implementation, taking turns so drift hits all equally."""
    for fn in impls.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in impls}
    for _ in range(repeats):
        for name, fn in impls.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--only", default="", help="comma-separated workload ids, e.g. W1,W3")
    args = parser.parse_args()
    only = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    repeats = 3 if args.quick else 15
    libs = {"microtorch": mt, "torch": torch}
    rows = []
    for wid, workload in workloads.ALL.items():
        if only and wid not in only:
            continue
        for row in workload(libs, repeats, interleaved, measure):
            rows.append((wid, *row))
    print(
        f"\nmicrotorch {mt.__version__}, numpy {np.__version__}, "
        f"torch {torch.__version__ if torch else 'not installed'}, 1 thread\n"
    )
    header = f"{'id':<4} {'measure':<34} {'microtorch':>12} {'numpy':>12} {'torch':>12} "
    header += f"{'mt/torch':>9} {'mt/numpy':>9}"
    print(header)
    print("-" * len(header))
    for wid, label, unit, mt_v, np_v, torch_v in rows:

        def fmt(v: float | None, unit: str = unit) -> str:
            return "-" if v is None else f"{v:.3g} {unit}"

        r_t = f"{mt_v / torch_v:.2f}x" if torch_v else "-"
        r_n = f"{mt_v / np_v:.2f}x" if np_v else "-"
        print(
            f"{wid:<4} {label:<34} {fmt(mt_v):>12} {fmt(np_v):>12} {fmt(torch_v):>12} "
            f"{r_t:>9} {r_n:>9}"
        )


if __name__ == "__main__":
    main()
