"""``save`` and ``load``: tensors and state dicts on disk, in a format that cannot run code.

PyTorch's ``torch.save`` uses pickle, and unpickling a file can execute anything written into
it. microtorch never pickles: a file is a numpy ``.npz`` archive (read with
``allow_pickle=False``) holding one array per tensor plus ``manifest``, a JSON description of
the structure: nested dicts, lists and tuples of tensors, numbers, strings, booleans and None.
Writing to a path goes to a temporary file first and is then renamed over the target, so a
crash never leaves a half-written checkpoint behind.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
import zipfile
import zlib
from collections import OrderedDict
from typing import IO, Any

import numpy as np

from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["save", "load"]

FORMAT = "microtorch.save"
VERSION = 1
_MANIFEST = "manifest"
_SCALARS = {bool: "bool", int: "int", float: "float", str: "str"}


def _encode(obj: Any, arrays: dict[str, np.ndarray], memo: dict[int, str]) -> dict[str, Any]:
    # One node of the manifest; tensors become references to arrays named t0, t1, ...
    if isinstance(obj, Tensor):
        key = memo.get(id(obj))
        if key is None:
            key = memo[id(obj)] = f"t{len(arrays)}"
            arrays[key] = obj._data  # np.save writes views and 0-d arrays as they are
        return {
            "type": "tensor",
            "array": key,
            "dtype": obj._dtype.name,
            "requires_grad": obj._rg,
            "parameter": isinstance(obj, Parameter),
        }
    if obj is None:
        return {"type": "none"}
    kind = _SCALARS.get(type(obj))
    if kind is not None:
        return {"type": kind, "value": obj}
    if isinstance(obj, np.generic) and obj.dtype.kind in "biuf":
        return _encode(obj.item(), arrays, memo)
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        kind = "list" if isinstance(obj, list) else "tuple"
        return {"type": kind, "items": [_encode(v, arrays, memo) for v in obj]}
    if isinstance(obj, dict):
        return {
            "type": "odict" if isinstance(obj, OrderedDict) else "dict",
            "items": [[_encode(k, arrays, memo), _encode(v, arrays, memo)] for k, v in obj.items()],
        }
    hint = (
        " (Fix: save model.state_dict() and load it into a new model)"
        if hasattr(obj, "state_dict")
        else ""
    )
    raise TypeError(
        "microtorch.save stores tensors, numbers, strings, booleans, None and lists, tuples "
        f"and dicts of them; got {type(obj).__name__}{hint}"
    )


def save(obj: Any, f: str | os.PathLike[str] | IO[bytes]) -> None:
    """Write ``obj`` (a tensor, a state dict, ...) to the path or binary file ``f``.

    >>> import io, microtorch as torch
    >>> buffer = io.BytesIO()
    >>> torch.save({"w": torch.tensor([1.0, 2.0])}, buffer)
    >>> _ = buffer.seek(0)
    >>> torch.load(buffer)
    {'w': tensor([1., 2.])}
    """
    arrays: dict[str, np.ndarray] = {}
    manifest = {"format": FORMAT, "version": VERSION, "root": _encode(obj, arrays, {})}
    text = json.dumps(manifest, ensure_ascii=False, separators=(",", ":"))
    arrays[_MANIFEST] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    if hasattr(f, "write"):
        np.savez(f, **arrays)  # type: ignore[arg-type]  # numpy's stubs miss **arrays
        return
    if not isinstance(f, (str, os.PathLike)):
        raise AttributeError(
            "expected 'f' to be string, path, or a file-like object with a 'write' attribute "
            f"(got {type(f).__name__})"
        )
    path = os.fspath(f)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise RuntimeError(
            f"Parent directory {folder} does not exist. (Fix: create it first, e.g. "
            "os.makedirs(folder, exist_ok=True))"
        )
    if os.path.isdir(path):
        raise RuntimeError(
            f"microtorch.save: {path!r} is a directory (Fix: give a file name inside it, e.g. "
            f"{os.path.join(path, 'model.pt')!r})"
        )
    fd, tmp = tempfile.mkstemp(prefix=".microtorch-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, **arrays)  # type: ignore[arg-type]
            handle.flush()
            os.fsync(handle.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # the permissions a plain open() would have given
        os.replace(tmp, path)  # atomic: readers see the old file or the new one, never half
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _name(f: Any) -> str:
    return repr(os.fspath(f)) if isinstance(f, (str, os.PathLike)) else "the file"


def _corrupted(f: Any, why: str) -> RuntimeError:
    return RuntimeError(
        f"microtorch.load: {_name(f)} is truncated or corrupted ({why}); it cannot be read. "
        "Save it again with microtorch.save."
    )


def load(
    f: str | os.PathLike[str] | IO[bytes],
    map_location: Any = None,
    *,
    weights_only: bool | None = None,
    **kwargs: Any,
) -> Any:
    """Read what ``save`` wrote. ``map_location`` and ``weights_only`` are accepted for
    compatibility: everything loads onto the cpu, and only data is ever read."""
    _check_entries(f)
    try:
        archive = np.load(f, allow_pickle=False)
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise
    except (zipfile.BadZipFile, EOFError, zlib.error) as e:
        raise _corrupted(f, str(e) or type(e).__name__) from None
    except (ValueError, OSError) as e:
        raise RuntimeError(
            f"microtorch.load: {_name(f)} is not a file written by microtorch.save (numpy "
            f"could not read it as an .npz archive: {e})"
        ) from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise RuntimeError(
            f"microtorch.load: {_name(f)} is a single numpy array (.npy), not a file written "
            "by microtorch.save (Fix: load it with numpy.load and torch.from_numpy)"
        )
    with archive:
        if _MANIFEST not in archive.files:
            if any(name.endswith("data.pkl") for name in archive.files):
                raise RuntimeError(
                    f"microtorch.load: {_name(f)} looks like a PyTorch checkpoint "
                    "(torch.save). microtorch never unpickles, since unpickling can run code. "
                    "Fix: in PyTorch, load it and convert each tensor with .numpy(), then save "
                    "with microtorch.save."
                )
            raise RuntimeError(
                f"microtorch.load: {_name(f)} is an .npz archive but has no microtorch manifest, "
                "so it was not written by microtorch.save"
            )
        try:
            manifest = json.loads(bytes(archive[_MANIFEST]).decode("utf-8"))
            if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
                raise ValueError("the manifest is not microtorch's")
            if manifest.get("version") != VERSION:
                raise ValueError(f"unknown format version {manifest.get('version')!r}")
            return _decode(manifest["root"], archive, {})
        except (zipfile.BadZipFile, EOFError, zlib.error, KeyError, TypeError) as e:
            raise _corrupted(f, f"{type(e).__name__}: {e}") from None
        except RecursionError:
            raise _corrupted(f, "the manifest is nested too deeply") from None
        except ValueError as e:
            raise _corrupted(f, str(e)) from None


_ENTRY = re.compile(r"(manifest|t[0-9]+)\.npy")  # the only names save() writes


def _check_entries(f: Any) -> None:
    # Before numpy reads any data: refuse what a file from save() never holds. Pickled
    # objects (unpickling can run code), compressed entries (one can expand to any size),
    # headers declaring more data than the entry holds (numpy would allocate it first) and
    # other names. Files that are not microtorch archives are left to the checks in load().
    start = f.tell() if hasattr(f, "read") else None
    try:
        with zipfile.ZipFile(f) as archive:
            infos = archive.infolist()
            if not any(i.filename == _MANIFEST + ".npy" for i in infos):
                return
            for info in infos:
                _check_entry(f, archive, info)
    except zipfile.BadZipFile:
        return
    finally:
        if start is not None:
            f.seek(start)


def _check_entry(f: Any, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    name = info.filename
    if not _ENTRY.fullmatch(name):
        raise _refused(f, f"an unexpected entry {name!r}")
    if info.compress_type != zipfile.ZIP_STORED:
        raise _refused(f, f"a compressed entry {name!r}, which could expand to any size")
    with archive.open(info) as member:
        try:
            version = np.lib.format.read_magic(member)
            read = np.lib.format.read_array_header_1_0
            if version != (1, 0):
                read = np.lib.format.read_array_header_2_0
            shape, _, dtype = read(member)
        except (ValueError, EOFError) as e:
            raise _corrupted(f, f"entry {name!r}: {e}") from None
        if dtype.hasobject:
            raise _refused(f, f"pickled Python objects in {name!r}, and unpickling can run code")
        declared = math.prod(shape) * dtype.itemsize
        if declared != info.file_size - member.tell():
            raise _corrupted(
                f, f"entry {name!r} declares {declared} bytes but holds {info.file_size} in all"
            )


def _refused(f: Any, what: str) -> RuntimeError:
    return RuntimeError(
        f"microtorch.load: {_name(f)} holds {what}; a file written by microtorch.save never "
        "does, so it is refused without reading it"
    )


def _decode(node: dict[str, Any], archive: Any, memo: dict[str, Tensor]) -> Any:
    kind = node["type"]
    if kind == "tensor":
        key = node["array"]
        if key not in memo:
            memo[key] = _tensor(node, archive[key])
        return memo[key]
    if kind == "none":
        return None
    if kind in ("bool", "int", "float", "str"):
        value = node["value"]
        types: dict[str, Any] = {"bool": bool, "int": int, "float": (float, int), "str": str}
        expected = types[kind]
        if not isinstance(value, expected):
            raise ValueError(f"a {kind} entry holds {type(value).__name__}")
        return float(value) if kind == "float" else value
    if kind in ("list", "tuple"):
        items = [_decode(v, archive, memo) for v in node["items"]]
        return items if kind == "list" else tuple(items)
    if kind in ("dict", "odict"):
        pairs = [(_decode(k, archive, memo), _decode(v, archive, memo)) for k, v in node["items"]]
        return OrderedDict(pairs) if kind == "odict" else dict(pairs)
    raise ValueError(f"unknown entry type {kind!r}")


def _tensor(node: dict[str, Any], data: np.ndarray) -> Tensor:
    if data.dtype.name != node["dtype"]:
        raise ValueError(f"array {node['array']} is {data.dtype.name}, expected {node['dtype']}")
    t = plain_tensor(np.array(data))  # a writeable copy, owned by the tensor
    if node["parameter"]:
        return Parameter(t, requires_grad=bool(node["requires_grad"]))
    return t.requires_grad_(True) if node["requires_grad"] else t
