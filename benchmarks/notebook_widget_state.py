"""How much a saved notebook grows when JupyterLab stores the widget state (GraphView included).

Executes chapters (03: drawings, 04: steppers) in a fresh kernel with nbclient, keeps the widget
state as "Save Widget State Automatically" would, and prints the file size with and without it,
and how much of it GraphView's loader (``_esm``) takes: the ~0.8 MB renderer is never in it.

    .venv/bin/python benchmarks/notebook_widget_state.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).parents[1]
CHAPTERS = ("03_the_computation_graph.ipynb", "04_chain_rule_and_backward.ipynb")


def sizes(name: str) -> dict[str, int]:
    """Bytes of the notebook with and without widget state, and of every GraphView ``_esm``."""
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True,
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()  # fmt: skip
    with_state = len(nbformat.writes(nb).encode())
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    models = state.get("state", {})
    views = [m for m in models.values() if "_esm" in m.get("state", {})]
    esm = sum(len(m["state"]["_esm"].encode()) for m in views)
    nb.metadata.pop("widgets", None)
    return {
        "with_state": with_state,
        "without_state": len(nbformat.writes(nb).encode()),
        "graph_views": len(views),
        "esm_bytes_total": esm,
        "graph_view_state_bytes": sum(len(json.dumps(m).encode()) for m in views),
    }


if __name__ == "__main__":
    for chapter in sys.argv[1:] or CHAPTERS:
        print(chapter, sizes(chapter))
