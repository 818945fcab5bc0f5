"""Write tests/keyword_parity_todo.py: the names tests/test_keyword_parity.py finds failing
today (NOT_YET), and those whose error for a float where an int goes is not PyTorch's first
line (WRONG_TEXT), each with its first failing call, so that the test passes on them (as expected
failures) until they are fixed, and fails as soon as one of them passes (then run this again).

    .venv/bin/python tools/update_keyword_parity_todo.py     (needs torch==2.13.0)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests import test_keyword_parity as parity  # noqa: E402

HEADER = '''# ruff: noqa: E501 (one row a name, as the tool writes it)
"""The names tests/test_keyword_parity.py finds failing, with the first failing call: written
by tools/update_keyword_parity_todo.py (run it again after a fix). Each is a bug to fix."""
'''


def main() -> None:
    torch.set_num_threads(1)
    text = HEADER
    for table, failing in (("NOT_YET", parity.failures_of), ("WRONG_TEXT", parity.wrong_texts_of)):
        rows = []
        for name in parity.NAMES:
            if name in parity.SKIPPED or not parity._torch_callable(torch, name):
                continue
            failures = failing(torch, name)
            if failures:
                first = failures[0].replace("\n", " ").replace('"', "'")  # (as ruff formats it)
                first = first if len(first) <= 300 else first[:297] + "..."
                rows.append(
                    f"    {json.dumps(name)}: {json.dumps(first)},  # {len(failures)} failing\n"
                )
        text += f"\n{table}: dict[str, str] = {{\n" + "".join(rows) + "}\n"
        print(f"{table}: {len(rows)} names fail")
    (ROOT / "tests" / "keyword_parity_todo.py").write_text(text)


if __name__ == "__main__":
    main()
