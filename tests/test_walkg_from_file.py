"""walkg: torch.from_file with shared=False (a copy of the file's raw values) against PyTorch:
values, dtypes, shapes, requires_grad and errors; the tensor is a copy (the file unchanged
when it is written to); shared=True is refused with a clear error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare

pytestmark = pytest.mark.torch


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("from_file")
    paths = {"f32": root / "f32.bin", "i64": root / "i64.bin", "f64": root / "f64.bin"}
    (np.linspace(-2.0, 3.0, 10).astype(np.float32)).tofile(paths["f32"])
    np.array([3, -1, 7, 0, 2**40, -5], dtype=np.int64).tofile(paths["i64"])
    np.array([0.5, -1.25, 1e300], dtype=np.float64).tofile(paths["f64"])
    return {k: str(v) for k, v in paths.items()} | {"missing": str(root / "missing.bin")}


CASES: dict[str, Callable[[ModuleType, dict[str, str]], Any]] = {
    "all": lambda L, f: L.from_file(f["f32"], shared=False, size=10),
    "first values": lambda L, f: L.from_file(f["f32"], False, 4),
    "shared default": lambda L, f: L.from_file(f["f32"], size=3),
    "size 0": lambda L, f: L.from_file(f["f32"]),
    "int64": lambda L, f: L.from_file(f["i64"], shared=False, size=6, dtype=L.int64),
    "float64": lambda L, f: L.from_file(f["f64"], shared=False, size=3, dtype=L.float64),
    "int32 of int64 bytes": lambda L, f: L.from_file(f["i64"], shared=False, size=4, dtype=L.int32),
    "float16": lambda L, f: L.from_file(f["f32"], shared=False, size=5, dtype=L.float16),
    "uint8": lambda L, f: L.from_file(f["f32"], shared=False, size=8, dtype=L.uint8),
    "requires_grad": lambda L, f: L.from_file(f["f32"], shared=False, size=2, requires_grad=True),
    # errors
    "too large": lambda L, f: L.from_file(f["f32"], shared=False, size=11),
    "too large int64": lambda L, f: L.from_file(f["i64"], shared=False, size=7, dtype=L.int64),
    "missing": lambda L, f: L.from_file(f["missing"], shared=False, size=2),
    "negative size": lambda L, f: L.from_file(f["f32"], shared=False, size=-1),
    "float size": lambda L, f: L.from_file(f["f32"], shared=False, size=2.5),
    "int filename": lambda L, f: L.from_file(3, shared=False, size=2),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, files: dict[str, str], torch_module: ModuleType) -> None:
    compare(lambda L: CASES[case](L, files), torch_module)


def test_is_a_copy(files: dict[str, str]) -> None:
    before = Path(files["f32"]).read_bytes()
    t = microtorch.from_file(files["f32"], shared=False, size=10)
    t[0] = 100.0
    assert Path(files["f32"]).read_bytes() == before
    assert microtorch.from_file(files["f32"], size=1).item() == -2.0


def test_shared_true_is_refused_clearly(files: dict[str, str]) -> None:
    with pytest.raises(NotImplementedError, match="reads a copy of the file only"):
        microtorch.from_file(files["f32"], shared=True, size=2)
