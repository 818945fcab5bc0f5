"""Benchmarks: microtorch vs a hand-written numpy version vs PyTorch and MyGrad (when installed).

Run ``make bench`` (or ``python benchmarks/run.py [--quick] [--only W1,W3,R]``). Each workload
runs the same data and initial weights on every implementation, interleaved in one process,
with BLAS and torch pinned to one thread; losses are cross-checked so nothing fast is wrong.
The table shows medians and the ratios microtorch/torch, microtorch/numpy and mygrad/torch.
Then (id R) the real-code programs of ``realcode.py``, timed by ``realcode_bench.py`` on
microtorch and torch in turn, with the ratio per program and their geometric mean. This is a
measurement, not a test: nothing here passes or fails.

``--tree PATH`` measures the microtorch of another checkout with this checkout's workloads,
``--clock cpu`` times with the process's CPU time instead of wall time, ``--json`` prints the
rows as JSON: what ``benchmarks/compare.py`` (``make bench-compare``) runs for each tree.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy is imported: one BLAS thread for everyone

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv[:-1]:  # before microtorch is imported: which checkout's microtorch
    ROOT = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import explain  # noqa: E402
import memory  # noqa: E402
import realcode_bench  # noqa: E402
import teaching  # noqa: E402
import workloads  # noqa: E402

import microtorch as mt  # noqa: E402

if Path(mt.__file__).resolve().parent.parent != ROOT:
    raise SystemExit(f"microtorch was imported from {mt.__file__}, not from {ROOT}")

try:
    import torch

    torch.set_num_threads(1)
except ImportError:  # the numpy and microtorch columns still run
    torch = None

try:
    import mygrad
except ImportError:  # pip install mygrad (the bench extra): the MyGrad column stays empty
    mygrad = None


clock = time.perf_counter  # --clock cpu: time.process_time, blind to other processes' load


def measure(fn: Callable[[], object], repeats: int) -> float:
    """Median seconds of ``repeats`` calls of ``fn`` (after one warm-up call)."""
    fn()
    times = []
    for _ in range(repeats):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def interleaved(impls: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Median seconds per implementation, taking turns so drift hits all equally."""
    for fn in impls.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in impls}
    for _ in range(repeats):
        for name, fn in impls.items():
            t0 = clock()
            fn()
            times[name].append(clock() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


# (row id, measure) -> (what is compared, the goal): issue 22's "done when". "mt/torch+mg"
# means at most the limit times torch's time and no slower than MyGrad's (when MyGrad ran).
GOALS: dict[tuple[str, str], tuple[str, float]] = {
    ("W1", "tiny-op forward, per op"): ("mt/torch", 2.0),
    ("W1", "tiny-op backward, per node"): ("mt/torch", 1.0),
    ("W2", "5-8-1 net, 2,000 SGD steps"): ("mt/torch+mg", 1.0),
    ("W3", "784-256-10 MLP step, batch 64"): ("mt/torch+mg", 1.0),
    ("W4", "100,000-op chain, fwd+bwd"): ("mt/torch", 1.0),
    ("W4", "100,000-op chain, peak memory"): ("mt/torch", 0.5),
    ("W5", "char LM step (Adam), batch 32"): ("mt/torch+mg", 1.0),
    ("W6", "W3 fwd, batch 1024, no_grad peak"): ("mt/numpy", 1.1),
    ("W6", "  kept after backward (no gc)"): ("mt MB", 1.0),
    ("T", "import microtorch (incl. numpy)"): ("mt ms", 100.0),
    ("T", "stepper update, 100-node graph"): ("mt ms", 50.0),
}


def goal_text(
    wid: str, label: str, mt_v: float, np_v: float | None, t_v: float | None, mg_v: float | None
) -> str:
    """'met' or 'NOT met' against the goal for this row, or '' if it has none."""
    goal = GOALS.get((wid, label))
    if goal is None:
        return ""
    kind, limit = goal
    torch_ratio = mt_v / t_v if t_v else None
    value = {"mt/torch": torch_ratio, "mt/torch+mg": torch_ratio, "mt/numpy": None}
    if np_v:
        value["mt/numpy"] = mt_v / np_v
    measured = value.get(kind, mt_v)
    if measured is None:
        return "(needs torch)"
    met = measured <= limit
    if kind == "mt/torch+mg":
        met = met and (mg_v is None or mt_v <= mg_v)
        return f"{'met' if met else 'NOT met'} (mt/torch <= {limit:g}, mt <= mygrad)"
    return f"{'met' if met else 'NOT met'} ({kind} <= {limit:g})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--only", default="", help="comma-separated ids, e.g. W1,W3,M,T")
    parser.add_argument("--no-notebooks", action="store_true", help="skip timing nbval")
    parser.add_argument("--tree", help="measure the microtorch of this checkout")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="what is timed")
    parser.add_argument("--no-torch", action="store_true", help="leave torch out")
    parser.add_argument("--no-mygrad", action="store_true", help="leave MyGrad out")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the real-code programs")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    only = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    repeats = 3 if args.quick else 15
    libs = {
        "microtorch": mt,
        "torch": None if args.no_torch else torch,
        "mygrad": None if args.no_mygrad else mygrad,
    }
    rows = []
    for wid, workload in workloads.ALL.items():
        if only and wid not in only:
            continue
        for row in workload(libs, repeats, interleaved, measure):
            rows.append((wid, *row))
    if not only or "M" in only:
        for i, row in enumerate(memory.memory_rows(libs["torch"] is not None, ROOT)):
            rows.append(("W4" if i == 0 else "W6", *row, None))
    if not only or "T" in only:
        for row in teaching.teaching_rows(libs["torch"] is not None, not args.no_notebooks):
            rows.append(("T", *row, None))
    if args.json:
        keys = ("id", "measure", "unit", "microtorch", "numpy", "torch", "mygrad")
        print(json.dumps({"clock": args.clock, "rows": [dict(zip(keys, r)) for r in rows]}))
        return
    blas = ", ".join(f"{k}={os.environ[k]}" for k in BLAS_VARS if k in os.environ)
    print(
        f"\nmicrotorch {mt.__version__}, numpy {np.__version__}, "
        f"torch {torch.__version__ if torch else 'not installed'}, "
        f"MyGrad {mygrad.__version__ if mygrad else 'not installed'}, 1 thread, {args.clock} time, "
        f"{blas or 'no OPENBLAS_CORETYPE/L2_SIZE (numpy picks its own BLAS kernel)'}\n"
    )
    if rows:
        print_rows(rows)
    if not only or "R" in only:
        if libs["torch"] is None:
            print("\nReal-code programs: not run (they are timed against torch)")
        else:
            rounds = 2 if args.quick else args.rounds
            programs = {"microtorch": mt, "torch": torch}
            realcode_bench.print_table(realcode_bench.time_programs(programs, rounds), rounds)


BLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")  # make bench unsets both


def print_rows(rows: list[tuple]) -> None:
    """The W1-W6 and T table, then why the goals of W1-W3 not met are not."""
    header = f"| {'id':<3} | {'measure':<34} | {'microtorch':>11} | {'numpy':>11} | {'torch':>11} "
    header += f"| {'mygrad':>11} | {'mt/torch':>8} | {'mt/numpy':>8} | {'mg/torch':>8} | goal"
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:]))
    not_met = set()
    for wid, label, unit, mt_v, np_v, torch_v, mg_v in rows:

        def fmt(v: float | None, unit: str = unit) -> str:
            return "-" if v is None else f"{v:.3g} {unit}"

        r_t = f"{mt_v / torch_v:.2f}x" if torch_v else "-"
        r_n = f"{mt_v / np_v:.2f}x" if np_v else "-"
        r_g = f"{mg_v / torch_v:.2f}x" if torch_v and mg_v else "-"
        goal = goal_text(wid, label, mt_v, np_v, torch_v, mg_v)
        if goal.startswith("NOT met"):
            not_met.add(wid)
        print(
            f"| {wid:<3} | {label:<34} | {fmt(mt_v):>11} | {fmt(np_v):>11} | {fmt(torch_v):>11} "
            f"| {fmt(mg_v):>11} | {r_t:>8} | {r_n:>8} | {r_g:>8} | {goal}"
        )
    explain_not_met(not_met)


def explain_not_met(not_met: set[str]) -> None:
    """For W1, W2 and W3 goals not met: a live breakdown of where the time goes, and why."""
    if "W1" in not_met:
        print("\nW1, where one tiny forward op's time goes:")
        for line in explain.w1_breakdown(mt):
            print(line)
        print("  " + explain.WHY["W1"])
    if "W2" in not_met:
        print("\nW2, the step by phase (medians of 500 steps, in turn with torch):")
        for line in explain.w2_breakdown(mt, torch, workloads._seed_data()):
            print(line)
        print("  " + explain.WHY["W2"])
    if "W3" in not_met:
        print("\nW3, the step by phase (medians of 300 steps, in turn with numpy):")
        for line in explain.w3_breakdown(mt, workloads._mlp_data()):
            print(line)
        print("  " + explain.WHY["W3"])


if __name__ == "__main__":
    main()
