"""notebooks/sanitize.cfg: each pattern, read exactly as nbval reads it, hides only what varies."""

from __future__ import annotations

import time
from types import ModuleType

import pytest


@pytest.mark.parametrize(
    ("printed", "compared"),
    [
        ("<MulBackward0 object at 0x7f3a9c2d5e10>", "<MulBackward0 object at 0x...>"),
        (
            "/tmp/ipykernel_4242/3141592653.py:1: UserWarning: The .grad attribute",
            "<cell>:1: UserWarning: The .grad attribute",
        ),
        ("10/10 [00:01<00:00,  9.87it/s]", "10/10 [elapsed<remaining, rate]"),
        ("Wall time: 1.23 ms", "Wall time: ..."),
        ("tensor([[0.3500, -0.1200]])", "tensor([[0.3500, -0.1200]])"),  # values are never hidden
        ("(32x10 and 20x5)", "(32x10 and 20x5)"),  # shapes, not addresses
    ],
)
def test_pattern(execute_notebooks: ModuleType, printed: str, compared: str):
    text = printed
    for regex, replace in execute_notebooks.sanitize_patterns():
        text = regex.sub(replace, text)
    assert text == compared


def test_nbval_reads_every_section(execute_notebooks: ModuleType):
    text = execute_notebooks.SANITIZE_CFG.read_text(encoding="utf-8")
    assert len(execute_notebooks.sanitize_patterns()) == text.count("\n[") + text.startswith("[")


def test_a_long_token_is_sanitized_in_linear_time(execute_notebooks: ModuleType):
    # A widget's static form holds a base64 PNG: one 100,000-character token without spaces.
    text = "<img src=data:image/png;base64," + "iVBORw0KGgo" * 10_000 + "> /tmp/ipykernel_7/1.py"
    start = time.perf_counter()
    for regex, replace in execute_notebooks.sanitize_patterns():
        text = regex.sub(replace, text)
    assert time.perf_counter() - start < 0.5
    assert text.endswith("> <cell>")
