"""``python -m tests.autograd.random_programs``: run many programs, print each mismatch class."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from .programs import CAUSES, Result, cause, describe, load_torch, shrink, sweep
from .statements import families


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--length", type=int, default=25, help="statements per program")
    parser.add_argument(
        "--families", default="ci", help="all, ci, pending, other, or a comma-separated list"
    )
    parser.add_argument("--show", type=int, default=1, help="minimised programs per class")
    parser.add_argument(
        "--boost", help="draw this family 5x as often (to find what it alone finds)"
    )
    args = parser.parse_args(argv)
    chosen = families(args.families)
    start = time.perf_counter()
    classes: dict[tuple[str, str], list[Result]] = {}
    deliberate_counts: dict[str, int] = {}
    statements = 0
    if args.boost and args.boost not in chosen:
        parser.error(f"--boost {args.boost}: not among the chosen families")
    for result in sweep(args.seed, args.programs, chosen, args.length, args.boost):
        statements += len(result.program)
        if result.deliberate:
            deliberate_counts[result.deliberate] = deliberate_counts.get(result.deliberate, 0) + 1
        elif result.failed:
            classes.setdefault((cause(result), result.signature()), []).append(result)
    elapsed = time.perf_counter() - start
    failed = sum(len(v) for v in classes.values())
    print(f"families: {', '.join(chosen)}")
    print(
        f"{args.programs} programs, {statements} statements in {elapsed:.1f} s: "
        f"{failed} stopped at a mismatch, {len(classes)} distinct; "
        f"stopped at a deliberate difference: {deliberate_counts or 'none'}"
    )
    torch = load_torch()
    for group in CAUSES:
        found = sorted(
            ((k, v) for k, v in classes.items() if k[0] == group), key=lambda kv: -len(kv[1])
        )
        if not found:
            continue
        print(f"\n## {group}: {sum(len(v) for _, v in found)} programs, {len(found)} classes")
        for (_, signature), results in found:
            print(f"\n### {len(results)}x `{signature}` (family {results[0].family})\n")
            for result in sorted(results, key=lambda r: len(r.program))[: args.show]:
                print("```python\n" + describe(shrink(result, torch)) + "\n```")
    return 1 if classes else 0


if __name__ == "__main__":
    sys.exit(main())
