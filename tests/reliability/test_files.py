"""Hostile and broken files never run code or exhaust memory; a crash mid-save loses nothing.

Adds to tests/test_serialization.py (round trips, truncated, flipped and foreign files, a
forged manifest): pickle payloads in every place a file could carry one (proved inert with a
marker file that the payload would create), a header declaring terabytes, a compressed entry
that would expand without bound, manifests with unexpected types or nesting, entry names that
climb out of the archive, and writes that die half way.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import microtorch


class Payload:
    """Unpickling this creates ``marker``: the proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (exec, (f"open({str(self.marker)!r}, 'w').close()",))


def _manifest(root: Any) -> np.ndarray:
    text = json.dumps({"format": "microtorch.save", "version": 1, "root": root})
    return np.frombuffer(text.encode(), np.uint8)


def _tensor_node(dtype: str = "float32") -> dict[str, Any]:
    node = {"type": "tensor", "array": "t0", "dtype": dtype}
    return {**node, "requires_grad": False, "parameter": False}


def _npy(array: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=True)
    return buffer.getvalue()


def _zip(path: Path, entries: dict[str, bytes], deflated: tuple[str, ...] = ()) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in entries.items():
            kind = zipfile.ZIP_DEFLATED if name in deflated else zipfile.ZIP_STORED
            archive.writestr(name, data, compress_type=kind)
    return path


def _refused(path: Path | io.BytesIO) -> str:
    with pytest.raises(RuntimeError) as info:
        microtorch.load(path)
    assert str(info.value).startswith("microtorch.load: ")
    return str(info.value)


# --- pickle payloads: each file would run code if anything unpickled it ------------------


def _object_tensor(tmp: Path, payload: Payload) -> Path:
    t0 = np.array([payload], dtype=object)
    manifest = _npy(_manifest(_tensor_node("object")))
    return _zip(tmp / "f.npz", {"manifest.npy": manifest, "t0.npy": _npy(t0)})


def _object_manifest(tmp: Path, payload: Payload) -> Path:
    return _zip(tmp / "f.npz", {"manifest.npy": _npy(np.array([payload], dtype=object))})


def _plain_pickle(tmp: Path, payload: Payload) -> Path:
    (tmp / "f.pt").write_bytes(pickle.dumps({"w": payload}))
    return tmp / "f.pt"


def _torch_style_zip(tmp: Path, payload: Payload) -> Path:
    return _zip(tmp / "f.pt", {"archive/data.pkl": pickle.dumps(payload), "archive/version": b"3"})


def _object_npy(tmp: Path, payload: Payload) -> Path:
    (tmp / "f.npy").write_bytes(_npy(np.array([payload], dtype=object)))
    return tmp / "f.npy"


PAYLOADS: dict[str, tuple[Callable[[Path, Payload], Path], str]] = {
    "object_array_as_a_tensor": (_object_tensor, "pickled Python objects in 't0.npy'"),
    "object_array_as_the_manifest": (_object_manifest, "pickled Python objects"),
    "a_plain_pickle": (_plain_pickle, "not a file written by microtorch.save"),
    "a_torch_save_checkpoint": (_torch_style_zip, "looks like a PyTorch checkpoint"),
    "an_object_npy": (_object_npy, "not a file written by microtorch.save"),
}


@pytest.mark.parametrize("kind", list(PAYLOADS))
def test_a_pickle_payload_is_refused_and_never_runs(kind: str, tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    make, expected = PAYLOADS[kind]
    pickle.loads(pickle.dumps(Payload(marker)))  # the payload is real: unpickling runs it
    assert marker.exists()
    marker.unlink()
    path = make(tmp_path, Payload(marker))
    assert expected in _refused(path)
    assert not marker.exists()


# --- sizes: nothing huge is allocated or decompressed -------------------------------------


def _header(shape: tuple[int, ...]) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": "<f8", "fortran_order": False, "shape": shape}
    )
    return buffer.getvalue()


def test_a_header_declaring_terabytes_is_refused_before_allocating(tmp_path: Path) -> None:
    entries = {
        "manifest.npy": _npy(_manifest(_tensor_node("float64"))),
        "t0.npy": _header((10**12,)) + bytes(16),  # 8 TB declared, 16 bytes present
    }
    start = time.perf_counter()
    message = _refused(_zip(tmp_path / "f.npz", entries))
    assert "declares 8000000000000 bytes" in message and "truncated or corrupted" in message
    assert time.perf_counter() - start < 1


def test_a_header_declaring_less_than_the_entry_holds_is_refused(tmp_path: Path) -> None:
    entries = {
        "manifest.npy": _npy(_manifest(_tensor_node("float64"))),
        "t0.npy": _header((1,)) + bytes(800),
    }
    assert "declares 8 bytes" in _refused(_zip(tmp_path / "f.npz", entries))


def test_a_compressed_entry_is_refused_without_expanding_it(tmp_path: Path) -> None:
    zeros = np.zeros(25_000_000)  # 200 MB that deflate to about 200 kB: a small zip bomb
    entries = {"manifest.npy": _npy(_manifest(_tensor_node("float64"))), "t0.npy": _npy(zeros)}
    path = _zip(tmp_path / "bomb.npz", entries, deflated=("t0.npy",))
    assert path.stat().st_size < 2_000_000
    start = time.perf_counter()
    assert "a compressed entry 't0.npy', which could expand to any size" in _refused(path)
    assert time.perf_counter() - start < 1  # refused from the zip directory, not inflated


# --- manifests with unexpected types --------------------------------------------------------

DEEP = '{"type":"list","items":[' * 5000 + '{"type":"none"}' + "]}" * 5000
MANIFESTS: dict[str, str] = {
    "root_is_a_number": json.dumps({"format": "microtorch.save", "version": 1, "root": 5}),
    "root_missing": json.dumps({"format": "microtorch.save", "version": 1}),
    "manifest_is_a_list": "[1, 2, 3]",
    "other_format": json.dumps({"format": "evil", "version": 1, "root": {"type": "none"}}),
    "future_version": json.dumps({"format": "microtorch.save", "version": 9, "root": {}}),
    "items_is_a_string": json.dumps(
        {"format": "microtorch.save", "version": 1, "root": {"type": "list", "items": "abc"}}
    ),
    "unhashable_key": json.dumps(
        {
            "format": "microtorch.save",
            "version": 1,
            "root": {"type": "dict", "items": [[{"type": "list", "items": []}, {"type": "none"}]]},
        }
    ),
    "int_holding_a_string": json.dumps(
        {"format": "microtorch.save", "version": 1, "root": {"type": "int", "value": "7"}}
    ),
    "tensor_array_is_a_number": json.dumps(
        {"format": "microtorch.save", "version": 1, "root": dict(_tensor_node(), array=5)}
    ),
    "tensor_without_its_array": json.dumps(
        {"format": "microtorch.save", "version": 1, "root": _tensor_node()}
    ),
    "not_json": "{not json",
    "nested_5000_deep": '{"format":"microtorch.save","version":1,"root":' + DEEP + "}",
}


@pytest.mark.parametrize("kind", list(MANIFESTS))
def test_a_manifest_with_unexpected_types_gives_a_clear_error(kind: str, tmp_path: Path) -> None:
    manifest = np.frombuffer(MANIFESTS[kind].encode(), np.uint8)
    path = _zip(tmp_path / "f.npz", {"manifest.npy": _npy(manifest)})
    assert "truncated or corrupted" in _refused(path)


def test_a_manifest_that_is_not_utf8_gives_a_clear_error(tmp_path: Path) -> None:
    manifest = np.frombuffer(b"\xff\xfe\x00garbage", np.uint8)
    path = _zip(tmp_path / "f.npz", {"manifest.npy": _npy(manifest)})
    assert "truncated or corrupted" in _refused(path)


def test_a_dtype_the_manifest_does_not_announce_is_refused(tmp_path: Path) -> None:
    entries = {"manifest.npy": _npy(_manifest(_tensor_node("float32"))), "t0.npy": _npy(np.ones(2))}
    assert "t0 is float64, expected float32" in _refused(_zip(tmp_path / "f.npz", entries))


# --- entry names that climb out of the archive ----------------------------------------------


@pytest.mark.parametrize("name", ["../escape.npy", "/tmp/escape.npy", "a/../../escape.npy"])
def test_entry_names_outside_the_archive_are_refused(name: str, tmp_path: Path) -> None:
    folder = tmp_path / "inner"
    folder.mkdir()
    entries = {"manifest.npy": _npy(_manifest({"type": "none"})), name: _npy(np.ones(1))}
    before = sorted(p.name for p in tmp_path.iterdir())
    assert f"an unexpected entry {name!r}" in _refused(_zip(folder / "f.npz", entries))
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written outside


def test_load_leaves_a_file_object_where_numpy_expects_it() -> None:
    buffer = io.BytesIO(b"prefix")
    buffer.seek(6)
    microtorch.save({"w": microtorch.arange(3.0)}, buffer)
    buffer.seek(6)
    assert microtorch.load(buffer)["w"].tolist() == [0.0, 1.0, 2.0]


# --- atomic saves ----------------------------------------------------------------------------


def _half_written(error: BaseException) -> Callable[..., None]:
    def savez(file: Any, **arrays: Any) -> None:
        file.write(b"PK\x03\x04 half of a checkpoint")  # some output reached the disk
        raise error

    return savez


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_crash_mid_write_keeps_the_old_file_and_leaves_no_temp_file(
    error: BaseException, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "model.pt"
    microtorch.save({"v": microtorch.ones(3)}, path)
    old = path.read_bytes()
    monkeypatch.setattr(np, "savez", _half_written(error))
    with pytest.raises(type(error)):
        microtorch.save({"v": microtorch.zeros(3)}, path)
    assert path.read_bytes() == old
    assert os.listdir(tmp_path) == ["model.pt"]
    monkeypatch.undo()
    assert microtorch.load(path)["v"].tolist() == [1.0, 1.0, 1.0]


def test_a_failed_rename_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "model.pt"
    microtorch.save({"v": microtorch.ones(1)}, path)

    def replace(src: Any, dst: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(PermissionError):
        microtorch.save({"v": microtorch.zeros(1)}, path)
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ["model.pt"]
    assert microtorch.load(path)["v"].tolist() == [1.0]


def test_a_crash_on_the_first_save_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(np, "savez", _half_written(OSError(5, "I/O error")))
    with pytest.raises(OSError):
        microtorch.save({"v": microtorch.ones(1)}, tmp_path / "new.pt")
    assert os.listdir(tmp_path) == []
