"""Re-execute the chapter notebooks in place, deterministically, then regenerate the exercises.

    .venv/bin/python tools/execute_notebooks.py                  # every notebooks/NN_*.ipynb
    .venv/bin/python tools/execute_notebooks.py notebooks/01_tensors.ipynb

Each notebook runs top to bottom in a fresh kernel of this Python (as ``nbval
--nbval-current-env`` does). Only cells tagged ``raises-exception`` may raise. What would make
the stored file change from run to run without the lesson changing is removed: execution
timings, widget state, the Python version, memory addresses and temporary paths (the
patterns of ``notebooks/sanitize.cfg``). Tracebacks are stored as the kernel printed them: in
IPython microtorch leaves its own frames out (``microtorch/_traceback.py``), so what is stored
is what a student sees. Running it twice gives byte-identical files.

A chapter that imports the real PyTorch (chapter 03 shows PyTorch's output beside
microtorch's) is only re-executed where PyTorch is installed: without it the stored PyTorch
output would be replaced by "PyTorch is not installed", so the run stops before writing.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import ipykernel.kernelspec
import make_exercises
import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from make_exercises import NOTEBOOKS, chapters, write
from nbclient import NotebookClient
from nbval.plugin import coalesce_streams, get_sanitize_patterns

SANITIZE_CFG = NOTEBOOKS / "sanitize.cfg"
CURRENT_ENV = "microtorch-current-env"
CELL_TIMEOUT = 120  # seconds; a chapter should take well under 30 s in all
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO = {"name": "python", "pygments_lexer": "ipython3"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
NOISY_CELL_METADATA = ("execution", "ExecuteTime", "collapsed", "scrolled", "widgets")
REAL_TORCH = re.compile(r"^\s*(import torch\b|from torch\b)", re.MULTILINE)  # not microtorch
TORCH_PIN = "torch==2.13.0"


class _CurrentEnvSpecs(KernelSpecManager):
    """Resolves one extra kernel name to ipykernel running in this very Python."""

    def get_kernel_spec(self, kernel_name: str) -> Any:
        if kernel_name == CURRENT_ENV:
            return self.kernel_spec_class(
                resource_dir=ipykernel.kernelspec.RESOURCES,
                **ipykernel.kernelspec.get_kernel_dict(),
            )
        return super().get_kernel_spec(kernel_name)


def sanitize_patterns(path: Path = SANITIZE_CFG) -> list[tuple[re.Pattern[str], str]]:
    """The (regex, replacement) pairs of an nbval sanitize file, read exactly as nbval does."""
    pairs = get_sanitize_patterns(path.read_text(encoding="utf-8"))
    return [(re.compile(regex), replace) for regex, replace in pairs]


def execute(nb: nbformat.NotebookNode, cwd: Path) -> None:
    """Run every code cell of ``nb`` in a fresh kernel of this Python, storing the outputs.

    The kernel imports microtorch from this checkout (PYTHONPATH), not from wherever the
    .venv's editable install points: re-executing in a second git worktree shows that
    worktree's code.
    """
    root = str(NOTEBOOKS.parent)
    paths = [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))  # the kernel inherits it
    km = KernelManager(kernel_name=CURRENT_ENV, kernel_spec_manager=_CurrentEnvSpecs())
    client = NotebookClient(
        nb,
        km=km,
        timeout=CELL_TIMEOUT,
        record_timing=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()


def _apply(text: str, patterns: list[tuple[re.Pattern[str], str]]) -> str:
    for regex, replace in patterns:
        text = regex.sub(replace, text)
    return text


def _clean_output(out: nbformat.NotebookNode, patterns: list[tuple[re.Pattern[str], str]]) -> None:
    if out.output_type == "stream":
        out.text = _apply(out.text, patterns)
    elif out.output_type == "error":
        out.evalue = _apply(out.evalue, patterns)
        out.traceback = [_apply(e, patterns) for e in out.traceback]
    else:  # display_data / execute_result
        out.data.pop(WIDGET_VIEW, None)  # points at widget state that is not stored
        for key, value in out.data.items():
            if key.startswith("text/") and isinstance(value, str):
                out.data[key] = _apply(value, patterns)


def clean(nb: nbformat.NotebookNode, patterns: list[tuple[re.Pattern[str], str]]) -> None:
    """Strip execution noise and widget state from ``nb``, in place."""
    nb.metadata.pop("widgets", None)
    nb.metadata.kernelspec = nbformat.from_dict(KERNELSPEC)
    nb.metadata.language_info = nbformat.from_dict(LANGUAGE_INFO)  # no Python version
    for cell in nb.cells:
        for key in NOISY_CELL_METADATA:
            cell.metadata.pop(key, None)
        if cell.cell_type == "code":
            # A print can arrive in several chunks, split differently from run to run.
            cell.outputs = coalesce_streams(cell.outputs)
            for out in cell.outputs:
                _clean_output(out, patterns)


def needs_pytorch(nb: nbformat.NotebookNode) -> bool:
    """True if a code cell of ``nb`` imports the real PyTorch (``import microtorch as torch``
    does not count)."""
    return any(c.cell_type == "code" and REAL_TORCH.search(c.source) for c in nb.cells)


def missing_pytorch(paths: list[Path]) -> list[Path]:
    """The notebooks among ``paths`` that import PyTorch, if PyTorch is not installed here."""
    if importlib.util.find_spec("torch") is not None:
        return []
    return [p for p in paths if needs_pytorch(nbformat.read(p, as_version=4))]


def run(path: Path) -> float:
    """Re-execute one notebook in place; returns the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    execute(nb, path.parent)
    seconds = time.perf_counter() - start
    clean(nb, sanitize_patterns())
    write(nb, path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every chapter")
    parser.add_argument(
        "--no-exercises", action="store_true", help="skip regenerating notebooks/exercises/"
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or chapters()
    refused = missing_pytorch(paths)
    if refused:
        names = ", ".join(p.name for p in refused)
        print(
            f"{names} show PyTorch's own output, and PyTorch is not installed here: executing "
            "them would replace it with 'PyTorch is not installed'. Nothing was written.\n"
            f"Install it first: .venv/bin/pip install {TORCH_PIN}\n"
            "or re-execute only the other chapters, by path.",
            file=sys.stderr,
        )
        return 1
    for path in paths:
        print(f"{path}: {run(path):.1f} s", flush=True)
    if not args.no_exercises:
        make_exercises.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
