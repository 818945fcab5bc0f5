"""Side by side: the benchmark workloads on another checkout's microtorch and on this one.

Run ``make bench-compare REF=before-autograd-model`` (or ``python benchmarks/compare.py REF``).
REF is a git revision (checked out into a temporary worktree, removed afterwards) or the path
of a checkout. Both trees are measured by this checkout's ``benchmarks/run.py`` (the same
workloads, only microtorch differs), each round one subprocess per tree with PYTHONPATH at that
tree, the trees taking turns and swapping which goes first every round, so drift on a shared
machine hits both alike. Times are CPU time (``time.process_time``) unless ``--clock wall``; the
table shows the median over the rounds of each subprocess's median, the ratio new/old and
whether it is within the budget of the autograd rewrite (issue #12): times at most 1.10x,
W4's peak memory at most 1.00x. A measurement, not a test: it passes or fails nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BUDGET = {"time": 1.10, "memory": 1.00}  # new/old, issue #12
KEPT = ("W1", "W2", "W3", "W4", "W5")  # W6 and T are not part of the budget


def run_tree(tree: Path, only: str, clock: str, quick: bool) -> list[dict]:
    """One subprocess of run.py measuring ``tree``'s microtorch: its rows, W1-W5 only."""
    cmd = [sys.executable, str(HERE / "run.py"), "--json", "--no-torch", "--no-mygrad"]
    cmd += ["--tree", str(tree)]
    cmd += ["--only", only, "--clock", clock] + (["--quick"] if quick else [])
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree)
    if out.returncode:
        raise SystemExit(f"run.py failed for {tree}:\n{out.stderr}")
    rows = json.loads(out.stdout.strip().splitlines()[-1])["rows"]
    return [r for r in rows if r["id"] in KEPT]


def compare(
    ref: Path, new: Path, rounds: int, only: str, clock: str, quick: bool, label: str = ""
) -> None:
    values: dict[str, dict[tuple[str, str], list[float]]] = {"ref": {}, "new": {}}
    units: dict[tuple[str, str], str] = {}
    for i in range(rounds):
        order = [("ref", ref), ("new", new)] if i % 2 == 0 else [("new", new), ("ref", ref)]
        for name, tree in order:
            for row in run_tree(tree, only, clock, quick):
                key = (row["id"], row["measure"])
                units[key] = row["unit"]
                values[name].setdefault(key, []).append(row["microtorch"])
        print(f"round {i + 1}/{rounds} done", file=sys.stderr, flush=True)
    kind = "CPU time" if clock == "cpu" else "wall time"
    print(f"\nref: {label or ref}\nnew: {new}")
    print(f"medians over {rounds} alternating rounds ({kind}; memory: peak RSS)")
    print("rounds: the lowest and highest new/ref of single rounds, a sign of the noise\n")
    header = f"| {'id':<3} | {'measure':<34} | {'ref':>10} | {'new':>10} | {'new/ref':>7} "
    header += f"| {'rounds':>11} | budget"
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:]))
    for key, unit in units.items():
        old, cur = statistics.median(values["ref"][key]), statistics.median(values["new"][key])
        limit = BUDGET["memory" if unit == "MB" else "time"]
        ratio = cur / old if old else float("nan")
        per_round = [c / o for o, c in zip(values["ref"][key], values["new"][key]) if o]
        spread = f"{min(per_round):.2f}-{max(per_round):.2f}" if per_round else "-"
        verdict = f"{'ok' if ratio <= limit else 'OVER'} (<= {limit:.2f})"
        print(
            f"| {key[0]:<3} | {key[1]:<34} | {old:>7.3g} {unit:<2} | {cur:>7.3g} {unit:<2} "
            f"| {ratio:>6.3f}x | {spread:>11} | {verdict}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ref", help="a git revision, or the path of a microtorch checkout")
    parser.add_argument("--new", default=str(ROOT), help="the checkout to compare (default: this)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--only", default="W1,W2,W3,W4,W5,M", help="run.py ids (M: W4 memory)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--quick", action="store_true", help="run.py's fewer repeats per round")
    args = parser.parse_args()
    new = Path(args.new).resolve()
    if Path(args.ref).is_dir():
        compare(Path(args.ref).resolve(), new, args.rounds, args.only, args.clock, args.quick)
        return
    with tempfile.TemporaryDirectory(prefix="bench-ref-") as tmp:
        ref = Path(tmp) / "ref"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "--quiet", "--detach", str(ref), args.ref], check=True)
        sha = subprocess.run(
            ["git", "-C", str(ref), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        try:
            label = f"{args.ref} ({sha}, a temporary worktree)"
            compare(ref, new, args.rounds, args.only, args.clock, args.quick, label)
        finally:
            subprocess.run([*git, "remove", "--force", str(ref)], check=True)


if __name__ == "__main__":
    main()
