"""Making tensors: ``tensor``, ``zeros``, ``ones``, ``arange``, ``randn`` ... and the seeded RNG.

Random numbers come from one numpy generator that ``manual_seed`` resets, so a seeded
notebook prints the same numbers on every run. They are not the numbers PyTorch draws for the
same seed (PyTorch's generator is its own); the statistics are the same.
"""

from __future__ import annotations

import builtins
import functools
import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from microtorch._limits import C_NAMES, check_depth, check_fits, has_big_int
from microtorch._warn import warn
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_int, parsed, parser_error
from microtorch.api.keywords import torch_keywords
from microtorch.api.multinomial import multinomial  # noqa: F401 - torch.multinomial, from here
from microtorch.api.random_fill import use_default_generator
from microtorch.api.tensor_options import check_options, tensor_options
from microtorch.autograd import grad_mode
from microtorch.autograd.quiet import quiet_numpy
from microtorch.autograd.versions import bump_version
from microtorch.device import as_device
from microtorch.dtypes import bool as bool_
from microtorch.dtypes import dtype, from_numpy_dtype, get_default_dtype, int64, promote_types
from microtorch.ops._layout import preserved_full
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "tensor", "as_tensor", "from_numpy", "zeros", "ones", "full", "empty", "arange", "linspace",
    "logspace", "eye", "rand", "randn", "randint", "randperm", "zeros_like", "ones_like",
    "full_like", "empty_like", "rand_like", "randn_like", "manual_seed", "seed", "Generator",
    "range", "default_generator", "asarray",
]  # fmt: skip


class Generator:
    """A seeded source of random numbers (``microtorch.Generator().manual_seed(0)``)."""

    def __init__(self, device: str = "cpu") -> None:
        self._seed = 67280421310721  # PyTorch's default seed
        self._numpy_rng: np.random.Generator | None = None

    @property
    def _rng(self) -> np.random.Generator:
        # Made on first use: importing numpy.random costs ~10 ms that `import microtorch`
        # need not pay.
        if self._numpy_rng is None:
            self._numpy_rng = np.random.default_rng(self._seed % 2**64)
        return self._numpy_rng

    def manual_seed(self, seed: int) -> Generator:
        """Restart the sequence from ``seed``."""
        self._seed = int(seed)
        self._numpy_rng = None  # restarted from the new seed on next use
        return self

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> dict[str, Any]:
        return dict(self._rng.bit_generator.state)

    def set_state(self, state: dict[str, Any]) -> None:
        self._rng.bit_generator.state = state


default_generator = Generator()
use_default_generator(default_generator)  # (x.random_() draws from it: see api/random_fill.py)


def manual_seed(seed: int) -> Generator:
    """Seed the global generator: the same seed gives the same numbers on every run."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    """Seed the global generator from the operating system and return the seed."""
    s = int(np.random.SeedSequence().entropy) % (2**63)  # type: ignore[arg-type]
    default_generator.manual_seed(s)
    return s


def factory_out(fn: Any) -> Any:
    """Let the factory ``fn`` take ``out=``: ``torch.zeros(2, 3, out=t)`` makes the values in
    ``t``'s dtype and writes them into ``t`` (resized to fit, silently as in PyTorch); and
    PyTorch's ``layout=`` and ``pin_memory=`` (api/tensor_options.py)."""

    @functools.wraps(fn)
    def with_out(*args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        if kwargs:  # layout=torch.strided, pin_memory=False: the one value microtorch has
            check_options(fn.__name__, kwargs, memory_format=fn.__name__ == "empty")
        if out is None:
            return fn(*args, **kwargs)
        name = fn.__name__
        if not isinstance(out, Tensor):
            raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
        given = kwargs.get("dtype")
        if given is not None and given is not out._dtype:
            raise RuntimeError(
                f"dtype {given._legacy[:-6]} does not match dtype of out parameter "
                f"({out._dtype._legacy[:-6]})"
            )
        if out.requires_grad and grad_mode.state.grad_enabled:
            raise RuntimeError(
                f"aten::{name}(): functions with out=... arguments don't support automatic "
                "differentiation, but one of the arguments requires grad. (Fix: drop out= and "
                "assign the result)"
            )
        made = fn(*args, **{**kwargs, "dtype": out._dtype})._data
        if made.shape == out._data.shape:
            np.copyto(out._data, made)
        else:
            out._data = made  # (a new memory of the new size)
        bump_version(out)
        return out

    return with_out


@quiet_numpy  # tensor([1e300], dtype=float32) is inf, silently as in PyTorch
def _finish(data: np.ndarray, dtype_: dtype | None, device: Any, requires_grad: bool) -> Tensor:
    if dtype_ is not None and not isinstance(dtype_, dtype):
        raise TypeError(
            f"argument 'dtype' must be torch.dtype, not {type(dtype_).__name__} (Fix: e.g. "
            "dtype=torch.float32, not the string 'float32')"
        )
    if dtype_ is not None:
        if dtype_.name != "bool" and not dtype_.is_floating_point and data.dtype != dtype_.numpy:
            check_fits(data, dtype_, dtype_.name)  # PyTorch refuses what would wrap around
        data = data.astype(dtype_.numpy, copy=False)
    t = plain_tensor(data, as_device(device), grad_mode.state.inference)
    if requires_grad:
        t._set_requires_grad(True, "Only Tensors of floating point and complex dtype")
    return t


def _plain(data: Any, nested: bool = False) -> Any:
    # Replace tensors inside nested lists by their values, so [x[0], x[1]] works.
    if isinstance(data, Tensor) and not nested:
        return data._data
    if isinstance(data, Tensor):  # in a list: one element, read as a number (as PyTorch)
        if data._data.size != 1:
            raise ValueError(
                "only one element tensors can be converted to Python scalars (Fix: join "
                "tensors with torch.stack(tensors) or torch.cat(tensors))"
            )
        return data._data.reshape(())
    if isinstance(data, (list, tuple)):
        return [_plain(d, nested=True) for d in data]
    return data


def _infer(data: Any, dtype_: dtype | None = None) -> np.ndarray:
    check_depth(data)
    if isinstance(data, (list, tuple)):
        arr = _from_numbers(data, dtype_)
        if arr is not None:
            return arr
    if isinstance(data, str) or (isinstance(data, (list, tuple)) and _has_str(data)):
        raise TypeError(
            f"new(): invalid data type '{type(data).__name__ if isinstance(data, str) else 'str'}'"
        )
    if isinstance(data, np.ndarray):
        return np.array(data, copy=True)
    inferred = _inferred_dtype(data)  # also refuses None and other non-numbers
    if not _floating(dtype_) and isinstance(data, (list, tuple)):
        _integer_elements(data)
    plain = _plain(data)
    try:
        arr = np.array(plain)
    except ValueError:
        arr = np.array(None, dtype=object)
    if inferred is int64 and arr.dtype.kind != "i" and has_big_int(data):
        if dtype_ is None or not dtype_.is_floating_point:
            raise ValueError(
                "Overflow when unpacking long long (Fix: int64 holds whole numbers below 2**63; "
                "use floats, e.g. dtype=torch.float64, for larger ones)"
            )
        arr = np.array(plain, dtype=np.float64)
    if arr.dtype == object:
        raise _ragged(data, dtype_ or inferred)
    if dtype_ is None:
        arr = arr.astype(inferred.numpy, copy=False)
    return arr


_SEQUENCES = frozenset({list, tuple})
_PYTHON_NUMBERS = {builtins.bool: bool_, builtins.int: int64}  # (float: the default dtype)


def _number_types(data: list[Any] | tuple[Any, ...]) -> set[type] | None:
    """The types of the items of nested lists, one pass over each level (no Python loop per
    item); ``None`` if a level mixes lists and other things (ragged: ``_infer`` says how)."""
    level: Any = data
    while True:
        types = set(map(type, level))
        if not types & _SEQUENCES:
            return types
        if not types <= _SEQUENCES:
            return None
        level = list(itertools.chain.from_iterable(level))


def _type_dtype(t: type) -> dtype | None:
    # A Python number counts as PyTorch counts it, a numpy scalar keeps its dtype.
    if t is builtins.float:
        return get_default_dtype()
    if t in _PYTHON_NUMBERS:
        return _PYTHON_NUMBERS[t]
    if issubclass(t, (np.bool_, np.integer, np.floating)):
        try:
            return from_numpy_dtype(np.dtype(t))
        except TypeError:  # (uint16 and such: the walk gives PyTorch's error in its order)
            return None
    return None  # tensors, arrays and whatever else: the element-by-element walk


@quiet_numpy  # tensor([1e300]) is inf in float32, silently as in PyTorch
def _from_numbers(data: list[Any] | tuple[Any, ...], dtype_: dtype | None) -> np.ndarray | None:
    """Nested lists of numbers in one numpy conversion, straight to the dtype PyTorch infers
    (or the one asked for); ``None`` where the element-by-element walk must decide (arrays or
    tensors in nested lists, ragged rows, ints beyond int64, anything not a number)."""
    types = _number_types(data)
    if types is None or not isinstance(dtype_, (dtype, type(None))):
        return None
    if types == {Tensor} and type(data[0]) is Tensor:  # tensor(losses): 0-d tensors in a list
        if any(t._data.size != 1 for t in data) or not _floating(dtype_):
            return None  # (the walk gives PyTorch's errors)
        dtypes = {t._dtype for t in data}
        data = [t._data.reshape(()) for t in data]  # each read as a number, as in PyTorch
    else:
        dtypes = {_type_dtype(t) for t in types}
        if None in dtypes:
            return None
    found = functools.reduce(promote_types, dtypes) if dtypes else get_default_dtype()
    # Floats round once, from the Python float. For an integer or bool dtype, numpy's own
    # dtype comes first, so that _finish can refuse what would overflow.
    floating = dtype_ is None or dtype_.is_floating_point
    target = (dtype_ or found).numpy if floating else None
    try:
        return np.array(data, dtype=target)
    except (ValueError, OverflowError, TypeError):  # ragged, or beyond int64
        return None


def _floating(dtype_: dtype | None) -> bool:
    return dtype_ is None or dtype_.is_floating_point


def _integer_elements(data: list[Any] | tuple[Any, ...]) -> None:
    # tensor([t1, t2], dtype=torch.int64): PyTorch reads each tensor as an index, so a float
    # tensor or one of several elements is refused (it does not round 1.5 down to 1)
    stack = list(data)
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor) and (x._dtype.is_floating_point or x._data.size != 1):
            raise TypeError(
                "only integer tensors of a single element can be converted to an index (Fix: "
                "convert the tensors first, e.g. torch.stack(tensors).long())"
            )


def _ragged(data: Any, dtype_: dtype) -> Exception:
    """PyTorch's error for nested lists that are not a grid: it takes the shape from the first
    element at each depth, then walks depth-first, checking each list against it."""
    sizes = []
    first = data
    while isinstance(first, (list, tuple)):
        sizes.append(len(first))
        if not first:
            break
        first = first[0]
    stack = [(data, 0)]
    while stack:
        x, depth = stack.pop()
        is_list = isinstance(x, (list, tuple))
        if depth == len(sizes):
            if is_list and dtype_.is_floating_point:
                return TypeError(f"must be real number, not {type(x).__name__}")
            if is_list:
                return TypeError(f"'{type(x).__name__}' object cannot be interpreted as an integer")
            continue
        if not is_list:
            return TypeError(
                "not a sequence (Fix: every row of a nested list needs the same shape)"
            )
        if len(x) != sizes[depth]:
            return ValueError(
                f"expected sequence of length {sizes[depth]} at dim {depth} (got {len(x)}) "
                "(every row of a nested list needs the same length)"
            )
        stack.extend((y, depth + 1) for y in reversed(x))
    return ValueError("expected a rectangular nested list of numbers")


def _has_str(data: Any) -> bool:
    return any(isinstance(d, str) or (isinstance(d, (list, tuple)) and _has_str(d)) for d in data)


def _inferred_dtype(data: Any) -> dtype:
    # PyTorch's rule: promote the types of all elements, where a Python float counts as the
    # default dtype, an int as int64, a bool as bool, and numpy scalars and tensors keep
    # theirs (so torch.tensor([x[0], x[1]]) of a float64 x stays float64).
    found = None
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
            continue
        if isinstance(x, Tensor):
            d = x._dtype
        elif isinstance(x, (np.ndarray, np.generic)):
            d = from_numpy_dtype(x.dtype)
        elif isinstance(x, builtins.bool):
            d = bool_
        elif isinstance(x, builtins.int):
            d = int64
        elif isinstance(x, builtins.float):
            d = get_default_dtype()
        else:
            raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")
        found = d if found is None else promote_types(found, d)
    return found or get_default_dtype()  # an empty list is float32


@tensor_options()
def tensor(
    data: Any, *, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """A new tensor holding a copy of ``data`` (a number, nested lists, or an array).

    >>> import microtorch as torch
    >>> torch.tensor([2.0, 3.0], requires_grad=True)
    tensor([2., 3.], requires_grad=True)
    """
    check_dtype(dtype, "tensor")
    if isinstance(data, Tensor):
        warn(
            "To copy construct from a tensor, it is recommended to use sourceTensor.detach()."
            "clone() or sourceTensor.detach().clone().requires_grad_(True), rather than "
            "torch.tensor(sourceTensor).",
        )
    return _finish(_infer(data, dtype), dtype, device, requires_grad)  # one rounding, to dtype


def as_tensor(data: Any, *, dtype: dtype | None = None, device: Any = None) -> Tensor:
    """``data`` as a tensor, sharing memory with a numpy array or tensor when possible."""
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray):
        return from_numpy(data) if dtype is None else _finish(data, dtype, device, False)
    return tensor(data, dtype=dtype, device=device)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor that shares memory with ``array`` (changing one changes the other)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return plain_tensor(array)


def asarray(
    obj: Any,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    copy: bool | None = None,
    requires_grad: bool = False,
) -> Any:
    """``obj`` as a tensor, sharing its memory where it can (a tensor, or a numpy array of the
    dtype asked for) unless ``copy=True``; ``copy=False`` refuses to copy."""
    if isinstance(obj, Tensor):
        if dtype is not None and dtype is not obj.dtype:
            if copy is False:
                raise ValueError(
                    f"can't alias tensor with dtype '{obj.dtype._legacy[:-6]}' into dtype "
                    f"'{dtype._legacy[:-6]}'."
                )
            return _as_requiring(obj.to(dtype), requires_grad)
        return _as_requiring(obj.clone() if copy else obj, requires_grad)
    if isinstance(obj, (np.ndarray, np.generic)):
        array = np.asarray(obj)
        wanted = dtype.numpy if dtype is not None else array.dtype
        if copy is False and array.dtype != wanted:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        if copy or array.dtype != wanted:
            array = array.astype(wanted)
        return _as_requiring(from_numpy(array), requires_grad)
    if copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    return tensor(obj, dtype=dtype, device=device, requires_grad=requires_grad)


def _as_requiring(t: Tensor, requires_grad: bool) -> Tensor:
    if requires_grad:
        t.requires_grad_(True)
    return t


def _shape(size: Sequence[Any], op: str = "empty") -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not hasattr(s, "__index__"):  # ints, numpy ints and 0-d integer tensors
            message = parser_error(op, ["tuple of ints size"], size, {})
            raise TypeError(f"{message} (Fix: sizes are whole numbers, e.g. n // 2 or int(x))")
    dims = tuple(int(s) for s in size)
    if op == "zeros" and any(d < 0 for d in dims):
        raise RuntimeError("zeros: Dimension size must be non-negative.")
    if any(d < 0 for d in dims):
        raise RuntimeError(
            f"Trying to create tensor with negative dimension {min(dims)}: {list(dims)}"
        )
    return dims


def _sizes(sizes: tuple[Any, ...], size: Any) -> tuple[Any, ...]:
    # zeros(2, 3), zeros((2, 3)) and zeros(size=(2, 3)) are one shape, as in PyTorch
    return sizes if size is None else (size,)


def _float(dtype_: dtype | None, op: str) -> dtype:
    check_dtype(dtype_, op)
    return dtype_ or get_default_dtype()


def check_dtype(dtype_: Any, op: str) -> None:
    """PyTorch's TypeError for a ``dtype=`` that is not a dtype (``dtype="float32"``)."""
    if dtype_ is not None and not isinstance(dtype_, dtype):
        raise TypeError(
            f"{op}(): argument 'dtype' must be torch.dtype, not {type(dtype_).__name__} (Fix: "
            "e.g. dtype=torch.float32, not the string 'float32')"
        )


@factory_out
def zeros(
    *sizes: Any,
    size: Any = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of zeros with the given shape."""
    data = np.zeros(_shape(_sizes(sizes, size), "zeros"), _float(dtype, "zeros").numpy)
    return _finish(data, None, device, requires_grad)


@factory_out
def ones(
    *sizes: Any,
    size: Any = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of ones with the given shape."""
    data = np.ones(_shape(_sizes(sizes, size), "ones"), _float(dtype, "ones").numpy)
    return _finish(data, None, device, requires_grad)


@factory_out
def empty(
    *sizes: Any,
    size: Any = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of the given shape (zeros here; PyTorch leaves the memory uninitialised)."""
    data = np.zeros(_shape(_sizes(sizes, size), "empty"), _float(dtype, "empty").numpy)
    return _finish(data, None, device, requires_grad)


@factory_out
def full(
    size: Sequence[int],
    fill_value: Any,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A tensor of the given shape filled with ``fill_value`` (its dtype inferred from it)."""
    if not isinstance(fill_value, (builtins.int, builtins.float, np.number, np.bool_)):
        raise TypeError(
            "full(): argument 'fill_value' (position 2) must be Number, not "
            f"{type(fill_value).__name__}"
        )
    inferred = dtype or (
        bool_
        if isinstance(fill_value, builtins.bool)
        else int64
        if isinstance(fill_value, builtins.int)
        else get_default_dtype()
    )
    if inferred.name != "bool" and not inferred.is_floating_point:
        check_fits(np.asarray(fill_value), inferred, C_NAMES[inferred.name])
    with np.errstate(over="ignore", invalid="ignore"):  # (what does not fit was refused above)
        data = np.full(_shape((size,)), fill_value, inferred.numpy)
    return _finish(data, None, device, requires_grad)


_ARANGE = (  # PyTorch's signatures (for its error on a wrong argument type)
    "Number end, *, torch.dtype dtype=None, bool requires_grad=False",
    "Number start, Number end, *, torch.dtype dtype=None, bool requires_grad=False",
    "Number start, Number end, Number step=1, *, torch.dtype dtype=None, bool requires_grad=False",
)


@factory_out
def arange(
    start: float | None = None,
    end: float | None = None,
    step: float = 1,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Evenly spaced values in ``[start, end)``; integers if all arguments are integers."""
    if dtype is not None and not isinstance(dtype, builtins.type(int64)):  # (dtype: the arg)
        args = [start] if end is None else [start, end] if step == 1 else [start, end, step]
        raise TypeError(parser_error("arange", _ARANGE, args, {"dtype": dtype}))
    if start is None:  # arange(end=5)
        if end is None:
            raise TypeError(parser_error("arange", _ARANGE, [], {}))
        start = 0
    elif end is None:
        start, end = 0, start
    for value in (start, end, step):
        if not isinstance(value, (builtins.int, builtins.float, np.number)):
            raise TypeError(
                f"arange(): argument 'end' (position 1) must be Number, not {type(value).__name__}"
            )
    ints = all(isinstance(v, builtins.int) for v in (start, end, step))
    inferred = dtype or (int64 if ints else get_default_dtype())
    if inferred is bool_:
        raise NotImplementedError("\"arange_cpu\" not implemented for 'Bool'")
    if not all(np.isfinite(v) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if inferred.is_floating_point or ints:
        data = np.arange(start, end, step)
    else:
        data = _integer_arange(start, end, step, inferred)
    return _finish(data.astype(inferred.numpy), None, device, requires_grad)


def _integer_arange(start: float, end: float, step: float, dtype_: dtype) -> np.ndarray:
    """PyTorch's arange of float arguments in an integer dtype: the values are start + i * step
    with start and step cut to integers first (arange(-1.5, 2.5, 0.5) in int32 is eight -1s);
    int64 cuts end too, counts in integers, and refuses a step that became 0."""
    first, stop, stride = (int(v) for v in (start, end, step))  # int() cuts toward zero
    if dtype_ is int64:
        if stride == 0:
            raise ValueError("step must be nonzero")
        sign = 1 if stride > 0 else -1
        count = (stop - first + stride - sign) // stride
    else:
        count = int(np.ceil((end - start) / step))
    values = first + stride * np.arange(builtins.max(count, 0), dtype=np.int64)
    return values.astype(dtype_.numpy)  # (wraps around as PyTorch's cast: -1 is 255 in uint8)


_RANGE_DEPRECATED = (
    "torch.range is deprecated and will be removed in a future release because its behavior "
    "is inconsistent with Python's range builtin. Instead, use torch.arange, which produces "
    "values in [start, end)."
)


@factory_out
def range(  # noqa: A001 - PyTorch's name
    start: float,
    end: float | None = None,
    step: float = 1,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Deprecated: values from ``start`` to ``end`` *inclusive* (``arange`` excludes ``end``),
    in the default float dtype even for integers."""
    warn(_RANGE_DEPRECATED)  # (the caller of factory_out)
    for name, value in (("start", start), ("end", end), ("step", step)):
        if value is not None and not isinstance(value, (builtins.int, builtins.float, np.number)):
            position = ("start", "end", "step").index(name) + 1
            raise TypeError(
                f"range(): argument '{name}' (position {position}) must be Number, not "
                f"{type(value).__name__}"
            )
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = builtins.int((end - start) // step) + 1
    data = start + np.arange(n, dtype=np.float64) * step
    return _finish(data.astype(_float(dtype, "range").numpy), None, device, requires_grad)


# torch.linspace's and logspace's options, after their numbers, as PyTorch declares them
_SPACE_OPTIONS = (
    "*, Tensor out=None, torch.dtype dtype=None, torch.layout layout=None, "
    "torch.device device=None, bool pin_memory=False, bool requires_grad=False"
)
_ENDS: tuple[str, ...] = ("Tensor start, Tensor end", "Number start, Tensor end")
_ENDS += ("Tensor start, Number end", "Number start, Number end")


@parsed("linspace", *(f"{ends}, int steps, {_SPACE_OPTIONS}" for ends in _ENDS))
@factory_out
def linspace(
    start: float,
    end: float,
    steps: int,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    expect_int(steps, "steps")  # (the parser's cue)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is bool_:
        raise NotImplementedError("\"linspace_cpu\" not implemented for 'Bool'")
    data = np.linspace(start, end, steps).astype(_float(dtype, "linspace").numpy)
    return _finish(data, None, device, requires_grad)


@parsed("logspace", *(f"{ends}, int steps, float base=10.0, {_SPACE_OPTIONS}" for ends in _ENDS))
@factory_out
@quiet_numpy  # (a negative base to a fractional power is nan, silently as in PyTorch)
def logspace(
    start: float,
    end: float,
    steps: int,
    base: float = 10.0,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``base`` to the power of ``steps`` evenly spaced values from ``start`` to ``end``."""
    expect_int(steps, "steps")  # (the parser's cue)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is bool_:
        raise NotImplementedError("\"logspace_cpu\" not implemented for 'Bool'")
    out = _float(dtype, "logspace").numpy
    if steps == 1:
        return _finish(
            np.array([_pow(base, float(start))]).astype(out), None, device, requires_grad
        )
    # PyTorch's kernel: start, end and their difference in the result's dtype (an integer one
    # truncates them and takes the base in float32), the step and the powers in float64; the
    # first half of the exponents counts up from start, the second half down from end
    first, last = (np.asarray(v).astype(out) for v in (start, end))
    if out.kind != "f":
        base = float(np.float32(base))
    step = np.float64(last - first) / (steps - 1)
    first, last = first.astype(np.float64), last.astype(np.float64)
    i = np.arange(steps)
    exponents = np.where(i < steps // 2, first + step * i, last - step * (steps - 1 - i))
    data = np.array([_pow(base, x) for x in exponents.tolist()], np.float64)
    return _finish(data.astype(out), None, device, requires_grad)


def _pow(base: float, exponent: float) -> float:
    # the C library's pow, as PyTorch's kernel calls it (numpy's power can differ in the last
    # digit); nan for a negative base to a fractional power, inf past float64's range
    try:
        return math.pow(base, exponent)
    except ValueError:
        return math.nan
    except OverflowError:
        return math.copysign(math.inf, base) if exponent % 2 == 1 else math.inf


@factory_out
def eye(
    n: int,
    m: int | None = None,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """The identity matrix (ones on the diagonal)."""
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    return _finish(np.eye(n, m, dtype=_float(dtype, "eye").numpy), None, device, requires_grad)


def _floats_only(dtype_: dtype | None, kernel: str) -> None:
    if dtype_ is not None and not dtype_.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{dtype_._legacy[:-6]}' (Fix: draw floats, or use "
            "torch.randint for random integers)"
        )


def _rng(generator: Generator | None) -> np.random.Generator:
    return (generator or default_generator)._rng


@factory_out
def rand(
    *sizes: Any,
    size: Any = None,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Uniform random numbers in ``[0, 1)``."""
    _floats_only(dtype, "check_uniform_bounds")
    data = (
        _rng(generator)
        .random(_shape(_sizes(sizes, size), "rand"))
        .astype(_float(dtype, "rand").numpy)
    )
    return _finish(data, None, device, requires_grad)


@factory_out
def randn(
    *sizes: Any,
    size: Any = None,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Standard normal random numbers (mean 0, standard deviation 1)."""
    _floats_only(dtype, "normal_kernel_cpu")
    data = (
        _rng(generator)
        .standard_normal(_shape(_sizes(sizes, size), "randn"))
        .astype(_float(dtype, "randn").numpy)
    )
    return _finish(data, None, device, requires_grad)


@factory_out
def randint(
    low: int = 0,
    high: int | None = None,
    size: Sequence[int] = (),
    *,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Random integers in ``[low, high)`` (``randint(high, size)`` starts at 0)."""
    if isinstance(high, (tuple, list)):  # randint(10, (3,)): PyTorch's (high, size) form
        low, high, size = 0, low, high
    elif high is None:
        if not isinstance(size, (tuple, list)) or not size:
            raise TypeError(
                "randint() received an invalid combination of arguments: it needs a size, e.g. "
                "torch.randint(10, (3,)) or torch.randint(0, 10, (3,))"
            )
        low, high = 0, low
    for value in (low, high):
        if not hasattr(value, "__index__"):
            raise TypeError(
                f"randint(): low and high must be ints, not {type(value).__name__} (Fix: int(...))"
            )
    if low >= high:
        raise RuntimeError(
            f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )
    data = _rng(generator).integers(low, high, size=_shape((size,)))
    return _finish(data.astype((dtype or int64).numpy), None, device, requires_grad)


@factory_out
def randperm(
    n: int,
    *,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """A random ordering of ``0 .. n-1``."""
    if not isinstance(n, (builtins.int, np.integer)) or isinstance(n, builtins.bool):
        raise TypeError(
            f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}"
        )
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    order = _rng(generator).permutation(n).astype((dtype or int64).numpy)
    return _finish(order, None, device, requires_grad)


def _like(t: Tensor, dtype_: dtype | None, op: str) -> tuple[tuple[int, ...], dtype]:
    expect_tensor(t, op)
    return t._data.shape, dtype_ or t._dtype


def _like_device(t: Tensor, device: Any) -> Any:
    return t._device if device is None else device


@torch_keywords("input")
@tensor_options(memory_format=True)
def zeros_like(
    t: Tensor, *, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """Zeros with ``t``'s shape and dtype."""
    _, d = _like(t, dtype, "zeros_like")
    data = preserved_full(t._data, 0, d.numpy)  # laid out as t (PyTorch's preserve_format)
    return _finish(data, None, _like_device(t, device), requires_grad)


@torch_keywords("input")
@tensor_options(memory_format=True)
def ones_like(
    t: Tensor, *, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """Ones with ``t``'s shape and dtype."""
    _, d = _like(t, dtype, "ones_like")
    data = preserved_full(t._data, 1, d.numpy)  # laid out as t (PyTorch's preserve_format)
    return _finish(data, None, _like_device(t, device), requires_grad)


@torch_keywords("input")
@tensor_options(memory_format=True)
def empty_like(
    t: Tensor, *, dtype: dtype | None = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """A tensor with ``t``'s shape and dtype (zeros here)."""
    expect_tensor(t, "empty_like")
    return zeros_like(t, dtype=dtype, device=device, requires_grad=requires_grad)


@torch_keywords("input", "fill_value")
@tensor_options(memory_format=True)
def full_like(
    t: Tensor,
    fill_value: Any,
    *,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """``fill_value`` everywhere, with ``t``'s shape and dtype."""
    _, d = _like(t, dtype, "full_like")
    data = preserved_full(t._data, fill_value, d.numpy)  # laid out as t (preserve_format)
    return _finish(data, None, _like_device(t, device), requires_grad)


@torch_keywords("input")
@tensor_options(memory_format=True)
def rand_like(
    t: Tensor,
    *,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Uniform random numbers with ``t``'s shape and dtype."""
    s, d = _like(t, dtype, "rand_like")
    device = _like_device(t, device)
    return rand(*s, generator=generator, dtype=d, device=device, requires_grad=requires_grad)


@torch_keywords("input")
@tensor_options(memory_format=True)
def randn_like(
    t: Tensor,
    *,
    generator: Generator | None = None,
    dtype: dtype | None = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    """Normal random numbers with ``t``'s shape and dtype."""
    s, d = _like(t, dtype, "randn_like")
    device = _like_device(t, device)
    return randn(*s, generator=generator, dtype=d, device=device, requires_grad=requires_grad)
