"""Times the real-code programs (realcode.py) on microtorch and on torch, taking turns.

``make bench`` runs this after the W1-W6 table (``run.py``); on its own:
``python benchmarks/realcode_bench.py [--rounds N] [--only a,b] [--profile NAME|all] [--top K]``.

For each program: the data is built once, each library runs the program once (the warm-up) and
their results are cross-checked (``realcode.check``); a program whose results differ, or that
raises, is reported and not timed. Then ``rounds`` rounds, each timing microtorch and torch once
with CPU time (``time.process_time``, blind to the other processes on a shared machine) and wall
time, swapping which goes first every round. The table shows the medians, microtorch/torch for
both clocks, the range of single rounds' CPU ratios (the noise), and the geometric mean.

``--profile`` runs a program once on microtorch under cProfile instead and prints the functions
with the most time of their own (tottime), with their share of the run.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import os
import pstats
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"  # before numpy is imported: one BLAS thread for everyone
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import realcode  # noqa: E402


@dataclass
class Timing:
    name: str
    what: str
    cpu: dict[str, list[float]] = field(default_factory=dict)
    wall: dict[str, list[float]] = field(default_factory=dict)
    error: str = ""

    def median(self, lib: str, clock: str = "cpu") -> float:
        return statistics.median((self.cpu if clock == "cpu" else self.wall)[lib])

    def ratio(self, clock: str = "cpu") -> float:
        return self.median("microtorch", clock) / self.median("torch", clock)


def _once(lib: Any, program: realcode.Program, data: realcode.Data) -> tuple[float, float]:
    """CPU and wall seconds of one run of the program."""
    gc.collect()  # each run starts without the garbage of the one before
    c0, w0 = time.process_time(), time.perf_counter()
    program.run(lib, data)
    return time.process_time() - c0, time.perf_counter() - w0


def time_programs(
    libs: dict[str, Any], rounds: int, only: list[str] | None = None, tiny: bool = False
) -> list[Timing]:
    """Cross-check, then time every program on each library, alternating; see the docstring.
    ``tiny``: the test's small data (tests/test_benchmarks_realcode.py), not the benchmark's."""
    timings = []
    for name, program in realcode.PROGRAMS.items():
        if only and name not in only:
            continue
        timing = Timing(name, program.what)
        timings.append(timing)
        data = program.make_data(tiny)
        try:
            results = {lib_name: program.run(lib, data) for lib_name, lib in libs.items()}
            realcode.check(name, results, program.rtol)
        except Exception as exc:  # a broken program is reported, not timed
            timing.error = f"{type(exc).__name__}: {exc}"
            print(f"  {name}: not timed ({timing.error[:200]})", file=sys.stderr, flush=True)
            continue
        for r in range(rounds):
            order = list(libs.items()) if r % 2 == 0 else list(reversed(libs.items()))
            for lib_name, lib in order:
                cpu, wall = _once(lib, program, data)
                timing.cpu.setdefault(lib_name, []).append(cpu)
                timing.wall.setdefault(lib_name, []).append(wall)
        print(f"  {name}: {timing.ratio():.2f}x", file=sys.stderr, flush=True)
    return timings


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def print_table(timings: list[Timing], rounds: int) -> None:
    print(f"\nReal teaching code (benchmarks/realcode.py): medians of {rounds} alternating rounds")
    print(
        "CPU time (process_time) and wall time; 'rounds': lowest-highest CPU ratio of one round\n"
    )
    header = (
        f"| {'program':<17} | {'torch CPU':>9} | {'mt CPU':>8} | {'mt/torch':>8} "
        f"| {'rounds':>9} | {'wall ratio':>10} | what"
    )
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:]))
    timed = [t for t in timings if not t.error]
    for t in timings:
        if t.error:
            print(
                f"| {t.name:<17} | {'-':>9} | {'-':>8} | {'-':>8} | {'-':>9} | {'-':>10} "
                f"| NOT TIMED: {t.error[:120]}"
            )
            continue
        per_round = [m / p for m, p in zip(t.cpu["microtorch"], t.cpu["torch"])]
        spread = f"{min(per_round):.2f}-{max(per_round):.2f}"
        print(
            f"| {t.name:<17} | {t.median('torch'):>7.3f} s | {t.median('microtorch'):>6.3f} s "
            f"| {t.ratio():>7.2f}x | {spread:>9} | {t.ratio('wall'):>9.2f}x | {t.what}"
        )
    if timed:
        cpu = geomean([t.ratio() for t in timed])
        wall = geomean([t.ratio("wall") for t in timed])
        over = sum(t.ratio() > 2 for t in timed)
        print(
            f"| {'geometric mean':<17} | {'':>9} | {'':>8} | {cpu:>7.2f}x | {'':>9} "
            f"| {wall:>9.2f}x | {len(timed)} of {len(timings)} programs timed, "
            f"{over} over 2x (goal: at most 1.0x, none over 2x)"
        )


def profile(lib: Any, name: str, top: int) -> None:
    """One run of a program under cProfile: the ``top`` functions by time of their own."""
    program = realcode.PROGRAMS[name]
    data = program.make_data(False)
    try:
        program.run(lib, data)  # warm-up: imports and caches are not the program's cost
    except Exception as exc:  # a broken program: nothing to profile
        print(f"\n{name} on {lib.__name__}: not profiled ({type(exc).__name__}: {exc})")
        return
    profiler = cProfile.Profile(time.process_time)  # CPU time: blind to the machine's load
    gc.collect()
    profiler.enable()
    program.run(lib, data)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"\n{name} on {lib.__name__}: {total:.3f} s CPU under cProfile ({program.what})")
    print(f"{'tottime':>8} {'share':>6} {'cumtime':>8} {'calls':>9}  function")
    entries = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
    for (path, line, func), (_cc, calls, tottime, cumtime, _callers) in entries[:top]:
        where = f"{Path(path).name}:{line}" if line else path
        print(
            f"{tottime:>8.3f} {tottime / total:>6.1%} {cumtime:>8.3f} {calls:>9}  {func} ({where})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--profile", help="a program name, or 'all': cProfile on microtorch")
    parser.add_argument("--top", type=int, default=15, help="rows of each profile")
    args = parser.parse_args()
    import microtorch

    only = [n.strip() for n in args.only.split(",") if n.strip()]
    if args.profile:
        names = list(realcode.PROGRAMS) if args.profile == "all" else args.profile.split(",")
        for name in names:
            profile(microtorch, name, args.top)
        return
    import torch

    torch.set_num_threads(1)
    timings = time_programs({"microtorch": microtorch, "torch": torch}, args.rounds, only)
    print_table(timings, args.rounds)


if __name__ == "__main__":
    main()
