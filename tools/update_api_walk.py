"""Bring docs/api_walk.md up to date with docs/api_coverage.md and PyTorch: names that now have a
row there leave the walk's lists, names PyTorch's walk has and neither doc places join "Still to
do", and the counts are recomputed. The categories' texts are left as they are.

    .venv/bin/python tools/update_api_walk.py        (needs torch==2.13.0 in the environment)
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.api_walk import TO_DO, WALK, table_names, walk_lists, walked_names  # noqa: E402


def block(names: list[str]) -> str:
    """A ```names block: the names sorted, one paragraph per namespace, lines of at most 96."""
    spaces: dict[str, list[str]] = {}
    for name in sorted(names, key=lambda n: (n.rpartition(".")[0] != "torch", n)):
        spaces.setdefault(name.rpartition(".")[0], []).append(name)
    lines = [
        textwrap.fill(" ".join(group), 96, break_long_words=False, break_on_hyphens=False)
        for group in spaces.values()
    ]
    return "```names\n" + "\n".join(lines) + "\n```"


def main() -> None:
    walked, rows = walked_names(torch), table_names()
    lists = {
        heading: [n for n in names if n not in rows and n in walked]
        for heading, names in walk_lists().items()
    }
    placed = {n for names in lists.values() for n in names}
    lists[TO_DO] += sorted(walked - rows - placed)
    text = WALK.read_text()
    for heading, names in lists.items():
        pattern = rf"(### {re.escape(heading)}\n.*?)```names\n.*?```"
        new = block(names)
        text = re.sub(pattern, lambda m, new=new: m.group(1) + new, text, count=1, flags=re.S)
    to_do = len(lists[TO_DO])
    out = sum(map(len, lists.values())) - to_do
    counts = (
        f"Walked: {len(walked)} names; {len(walked & rows)} have a row in "
        f"docs/api_coverage.md, {to_do} are still to do, and {out} belong to the categories "
        "below."
    )
    text = re.sub(r"Walked: \d+ names;.*?below\.", counts, text, count=1, flags=re.S)
    WALK.write_text(text)
    print(counts)


if __name__ == "__main__":
    main()
