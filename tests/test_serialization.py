"""microtorch.save / microtorch.load: round trips, no pickle, atomic writes, clear errors."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
from tests.nn.models import nested_net, two_layer_net


def test_state_dict_round_trip_restores_the_model(tmp_path: Path) -> None:
    net = nested_net(microtorch)
    path = tmp_path / "model.pt"
    microtorch.save(net.state_dict(), path)
    loaded = microtorch.load(path)
    assert isinstance(loaded, OrderedDict) and list(loaded) == list(net.state_dict())
    twin = nested_net(microtorch)
    assert repr(twin.load_state_dict(loaded)) == "<All keys matched successfully>"
    x = microtorch.randn(2, 4)
    assert twin(x).tolist() == net(x).tolist()
    assert os.listdir(tmp_path) == ["model.pt"]  # no temporary file left behind


def test_nested_structures_and_tensor_kinds_survive() -> None:
    shared = microtorch.arange(3)
    obj = {
        "epoch": 7,
        "lr": 0.1,
        "name": "run-1 ✓",
        "flags": [True, None, (1, 2.5)],
        "ints": shared,
        "again": shared,
        "half": microtorch.ones(2, dtype=microtorch.float16),
        "mask": microtorch.tensor([True, False]),
        "leaf": microtorch.tensor([1.0, 2.0], requires_grad=True),
        "param": nn.Parameter(microtorch.zeros(2, 2)),
        "scalar": microtorch.tensor(3.5),
        "transposed": microtorch.arange(6.0).view(2, 3).t(),
        1: "integer key",
    }
    buffer = io.BytesIO()
    microtorch.save(obj, buffer)
    buffer.seek(0)
    back = microtorch.load(buffer)
    assert back["epoch"] == 7 and back["lr"] == 0.1 and back["name"] == "run-1 ✓"
    assert back["flags"] == [True, None, (1, 2.5)] and back[1] == "integer key"
    assert back["ints"] is back["again"] and back["ints"].dtype is microtorch.int64
    assert back["half"].dtype is microtorch.float16 and back["mask"].tolist() == [True, False]
    assert back["leaf"].requires_grad and not back["ints"].requires_grad
    assert isinstance(back["param"], nn.Parameter) and back["param"].requires_grad
    assert back["scalar"].shape == () and back["scalar"].item() == 3.5
    assert back["transposed"].tolist() == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


def test_optimizer_state_round_trip(tmp_path: Path) -> None:
    net = two_layer_net(microtorch)
    opt = microtorch.optim.Adam(net.parameters(), lr=0.01)
    net(microtorch.randn(4, 5)).sum().backward()
    opt.step()
    microtorch.save({"model": net.state_dict(), "optim": opt.state_dict()}, tmp_path / "ck")
    back = microtorch.load(tmp_path / "ck")
    fresh = microtorch.optim.Adam(two_layer_net(microtorch).parameters(), lr=0.01)
    fresh.load_state_dict(back["optim"])
    assert fresh.state_dict()["param_groups"] == opt.state_dict()["param_groups"]
    assert back["optim"]["state"][0]["step"].item() == 1.0


def test_the_file_is_an_npz_with_a_json_manifest_and_no_pickle(tmp_path: Path) -> None:
    path = tmp_path / "t.mt"
    microtorch.save({"w": microtorch.ones(2)}, path)
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["manifest.npy", "t0.npy"]
        for name in archive.namelist():
            assert b"\x80\x02" not in archive.read(name)[:2]  # no pickle protocol header
    with np.load(path, allow_pickle=False) as npz:
        manifest = json.loads(bytes(npz["manifest"]).decode())
    assert manifest["format"] == "microtorch.save" and manifest["root"]["type"] == "dict"


def test_save_refuses_objects_it_cannot_describe() -> None:
    with pytest.raises(TypeError, match=r"got TwoLayerNet \(Fix: save model.state_dict\(\)"):
        microtorch.save(two_layer_net(microtorch), io.BytesIO())
    with pytest.raises(TypeError, match="got set"):
        microtorch.save({1, 2}, io.BytesIO())


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "model.pt"
    microtorch.save({"v": microtorch.ones(1)}, path)
    with pytest.raises(TypeError):
        microtorch.save({"v": microtorch.zeros(1), "bad": object()}, path)
    assert microtorch.load(path)["v"].tolist() == [1.0]
    assert os.listdir(tmp_path) == ["model.pt"]


def _error(path: Path) -> str:
    with pytest.raises(RuntimeError) as info:
        microtorch.load(path)
    return str(info.value)


def test_truncated_corrupted_and_foreign_files_give_clear_errors(tmp_path: Path) -> None:
    good = tmp_path / "good.pt"
    microtorch.save({"w": microtorch.arange(1000.0)}, good)
    data = good.read_bytes()
    (tmp_path / "truncated.pt").write_bytes(data[: len(data) // 2])
    assert "is truncated or corrupted" in _error(tmp_path / "truncated.pt")
    (tmp_path / "empty.pt").write_bytes(b"")
    assert "is truncated or corrupted" in _error(tmp_path / "empty.pt")
    flipped = bytearray(data)
    flipped[200] ^= 0xFF  # inside t0's values: the zip CRC check catches it
    (tmp_path / "flipped.pt").write_bytes(bytes(flipped))
    assert "is truncated or corrupted" in _error(tmp_path / "flipped.pt")
    (tmp_path / "text.txt").write_text("hello")
    assert "not a file written by microtorch.save" in _error(tmp_path / "text.txt")
    (tmp_path / "pickled.pkl").write_bytes(pickle.dumps({"a": 1}))
    assert "not a file written by microtorch.save" in _error(tmp_path / "pickled.pkl")
    np.save(tmp_path / "array.npy", np.ones(3))
    assert "single numpy array" in _error(tmp_path / "array.npy")
    np.savez(tmp_path / "plain.npz", a=np.ones(3))
    assert "has no microtorch manifest" in _error(tmp_path / "plain.npz")
    with pytest.raises(FileNotFoundError):
        microtorch.load(tmp_path / "missing.pt")


def test_a_forged_manifest_is_rejected(tmp_path: Path) -> None:
    bad = json.dumps({"format": "microtorch.save", "version": 1, "root": {"type": "exec"}})
    np.savez(tmp_path / "forged.npz", manifest=np.frombuffer(bad.encode(), np.uint8))
    assert "unknown entry type 'exec'" in _error(tmp_path / "forged.npz")
    missing = {"format": "microtorch.save", "version": 1, "root": {"type": "tensor", "array": "t9"}}
    text = json.dumps(missing).encode()
    np.savez(tmp_path / "missing.npz", manifest=np.frombuffer(text, np.uint8))
    assert "is truncated or corrupted" in _error(tmp_path / "missing.npz")


def test_a_torch_checkpoint_is_recognised_and_never_unpickled(
    torch_module: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "torch.pt"
    torch_module.save({"w": torch_module.ones(2)}, path)
    message = _error(path)
    assert "looks like a PyTorch checkpoint" in message and "never unpickles" in message
