"""The costs a student or an instructor feels: import time, drawing, stepping, the notebooks."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

Row = tuple[str, str, float, float | None, float | None]
ROOT = Path(__file__).resolve().parent.parent


def _import_seconds(module: str, repeats: int = 7) -> float:
    """Median wall time of ``python -c 'import module'`` minus that of an empty interpreter.

    Measured as every import after the first one: with Python's bytecode cache written (a
    first run writes it, even where PYTHONDONTWRITEBYTECODE is set, as on some CI machines).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env)
        return time.perf_counter() - start

    run(f"import {module}")  # writes the bytecode cache if it is missing
    empty = statistics.median(run("pass") for _ in range(repeats))
    return statistics.median(run(f"import {module}") for _ in range(repeats)) - empty


def _notebook_suite_seconds() -> float | None:
    notebooks = sorted(str(p) for p in (ROOT / "notebooks").glob("[0-9][0-9]*.ipynb"))
    if not notebooks:
        return None
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            "notebooks/sanitize.cfg",
            *notebooks,
        ],
        check=True,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    return time.perf_counter() - start


def teaching_rows(have_torch: bool, notebooks: bool) -> Iterator[Row]:
    """Import time (numpy included), DOT for 1,000 nodes, one stepper step, nbval suite."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from viz_bench import bench_viz
    from widgets_bench import bench_stepper

    yield (
        "import microtorch (incl. numpy)",
        "ms",
        _import_seconds("microtorch") * 1e3,
        _import_seconds("numpy") * 1e3,
        _import_seconds("torch") * 1e3 if have_torch else None,
    )
    viz = bench_viz(repeat=3)
    dot_1000 = viz["walk/backward/1000"] + viz["dot/backward/1000"]
    yield ("walk + DOT, 1,000-node graph", "ms", dot_1000 * 1e3, None, None)
    step = bench_stepper(100)
    yield ("stepper update, 100-node graph", "ms", step["median_ms"], None, None)
    if notebooks:
        seconds = _notebook_suite_seconds()
        if seconds is not None:
            yield ("all chapters under nbval", "s", seconds, None, None)
