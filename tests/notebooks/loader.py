"""Import the scripts of tools/ as modules, for the tests and for parametrising over chapters."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py``; tools/ is a folder of scripts, so it goes on sys.path."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    return importlib.import_module(name)
