"""How much memory one student's kernel holds after a chapter, on microtorch and on PyTorch.

    .venv/bin/python tools/kernel_memory.py                       # chapter 10, both libraries
    .venv/bin/python tools/kernel_memory.py notebooks/04_chain_rule_and_backward.ipynb

Runs the chapter top to bottom in a fresh kernel of this Python (as tools/execute_notebooks.py
does), then reads the kernel's own /proc/self/smaps_rollup: RSS (resident memory) and PSS (RSS
with each shared page divided among the processes sharing it: what one more kernel costs),
and the CPU time the kernel used.
The PyTorch run is the chapter as tests/notebooks/test_on_pytorch.py runs it (``import torch``,
no microtorch-only cells); it needs ``pip install torch==2.13.0``. Linux only.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import execute_notebooks
import nbformat
from make_exercises import NOTEBOOKS

ROOT = NOTEBOOKS.parent
CHAPTER = NOTEBOOKS / "10_capstone_tiny_language_model.ipynb"
REPORT = """\
import gc; gc.collect()
rollup = open("/proc/self/smaps_rollup").read().splitlines()[1:]
fields = dict(line.split(":", 1) for line in rollup)
import resource
usage = resource.getrusage(resource.RUSAGE_SELF)
print(*(int(fields[k].split()[0]) for k in ("Rss", "Pss")), usage.ru_utime + usage.ru_stime)
"""


def _on_pytorch(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The chapter as the PyTorch run of the test suite executes it."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.notebooks.test_on_pytorch import for_pytorch

    return for_pytorch(nb)


def measure(
    nb: nbformat.NotebookNode, cwd: Path, cells: int | None = None
) -> tuple[int, int, float]:
    """RSS and PSS in kB, and CPU seconds, of a fresh kernel after ``nb``'s first ``cells``."""
    nb = nbformat.from_dict(nb)
    if cells is not None:
        code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
        nb.cells = nb.cells[: code[cells - 1] + 1] if cells else []
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    execute_notebooks.execute(nb, cwd)
    rss, pss, cpu = nb.cells[-1].outputs[0].text.split()
    return int(rss), int(pss), float(cpu)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapter", nargs="?", type=Path, default=CHAPTER)
    args = parser.parse_args(argv)
    chapter = nbformat.read(args.chapter, as_version=4)
    runs = {"microtorch": chapter}
    if importlib.util.find_spec("torch") is not None:
        runs["PyTorch"] = _on_pytorch(chapter)
    else:
        print("PyTorch not installed (pip install torch==2.13.0): microtorch only")
    print(f"{args.chapter.name}, one kernel:  RSS MiB  PSS MiB  CPU s")
    row = "{:>10} {:<24} {:6.0f}  {:6.0f}  {:6.1f}"
    rss, pss, cpu = measure(chapter, args.chapter.parent.resolve(), 0)
    print(row.format("ipykernel", "with nothing run", rss / 1024, pss / 1024, cpu))
    for name, nb in runs.items():
        for label, cells in (("after the setup cell", 1), ("after the whole chapter", None)):
            rss, pss, cpu = measure(nb, args.chapter.parent.resolve(), cells)
            print(row.format(name, label, rss / 1024, pss / 1024, cpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())
