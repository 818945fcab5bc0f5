"""Wrong input: PyTorch's exception type, PyTorch's message plus a fix, and nothing changed.

The table is ``tests/reliability/bad_inputs.py``. Without PyTorch the cases check the type and
message recorded there; with PyTorch 2.13 each case also runs on torch, which must raise the
same type with a message that microtorch's contains (or, for the ``Same`` cases, return the
same values: NaN and inf propagate where PyTorch lets them).
"""

from __future__ import annotations

import inspect
import math
import warnings
from types import ModuleType
from typing import Any

import pytest

import microtorch
from tests.reliability import bad_inputs
from tests.reliability.bad_inputs import CASES, SNAPSHOT, WATCHED, Bad, Same

BAD = [c for c in CASES if isinstance(c, Bad)]
SAME = [c for c in CASES if isinstance(c, Same)]


def snapshot(obj: Any) -> Any:
    """Everything a failed call could have changed in ``obj``, as comparable plain values."""
    if isinstance(obj, microtorch.Tensor):
        data = obj._data
        grad = None if obj._grad is None else snapshot(obj._grad)
        return (
            data.tobytes(), data.shape, obj.dtype, obj.device, obj.requires_grad,
            obj.grad_fn, obj._version, grad, id(obj._grad),
        )  # fmt: skip
    if isinstance(obj, microtorch.nn.Module):
        return (
            obj.training,
            [(name, id(p), snapshot(p)) for name, p in obj.named_parameters()],
            [(name, snapshot(b)) for name, b in obj.named_buffers()],
        )
    if isinstance(obj, microtorch.optim.Optimizer):
        groups = [
            ({k: v for k, v in g.items() if k != "params"}, [id(p) for p in g["params"]])
            for g in obj.param_groups
        ]
        state = [
            (id(p), sorted((k, snapshot(v)) for k, v in s.items())) for p, s in obj.state.items()
        ]
        return groups, state
    if isinstance(obj, (list, tuple)):
        return [snapshot(o) for o in obj]
    return obj


def _fail(case: Bad, lib: ModuleType) -> BaseException:
    WATCHED.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(BaseException) as info:
            case.call(lib)
    return info.value


def _text(error: BaseException) -> str:
    return str(error).replace("microtorch.", "torch.")


@pytest.mark.parametrize("case", BAD, ids=[c.name for c in BAD])
def test_bad_input_raises_a_clear_error_and_changes_nothing(case: Bad) -> None:
    SNAPSHOT[:] = [snapshot]
    try:
        error = _fail(case, microtorch)
    finally:
        SNAPSHOT.clear()
    assert type(error) is case.error, f"{type(error).__name__}: {error}"
    assert case.message in _text(error), _text(error)
    assert case.hint in _text(error), f"no fix hint {case.hint!r} in: {error}"
    for obj, before in WATCHED:
        assert snapshot(obj) == before, f"{case.name} changed {type(obj).__name__}"


@pytest.mark.torch
@pytest.mark.parametrize("case", BAD, ids=[c.name for c in BAD])
def test_pytorch_raises_the_same_type_and_microtorch_quotes_it(
    case: Bad, torch_module: ModuleType
) -> None:
    import torch.utils.data  # noqa: F401 - bad_inputs uses L.utils.data

    theirs = _fail(case, torch_module)
    assert type(theirs) is case.error, f"torch: {type(theirs).__name__}: {theirs}"
    if not case.torch:  # PyTorch's text is an accident of its C++ argument parser
        return
    first = str(theirs).split("\n")[0]
    assert case.message in first, f"the table's message is not PyTorch's: {first}"
    ours = _text(_fail(case, microtorch))
    assert first in ours, f"\nmicrotorch: {ours}\n     torch: {first}"


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return "nan"  # so that nan == nan when comparing
    return value


def _same(case: Same, lib: ModuleType) -> None:
    WATCHED.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = case.call(lib)
    assert _plain(result) == _plain(case.expected), f"{lib.__name__}: {result}"


@pytest.mark.parametrize("case", SAME, ids=[c.name for c in SAME])
def test_nan_and_inf_propagate_where_pytorch_lets_them(case: Same) -> None:
    SNAPSHOT[:] = [snapshot]
    try:
        _same(case, microtorch)
    finally:
        SNAPSHOT.clear()
    for obj, before in WATCHED:  # out-of-place: the inputs are untouched
        assert snapshot(obj) == before


@pytest.mark.torch
@pytest.mark.parametrize("case", SAME, ids=[c.name for c in SAME])
def test_pytorch_gives_the_same_values(case: Same, torch_module: ModuleType) -> None:
    _same(case, torch_module)


# Public names the table does not call, and why.
NOT_TRIED = {
    "Generator", "Size", "Tensor", "autograd", "bool", "cuda", "default_generator", "device",
    "double", "dtype", "enable_grad", "float", "float16", "float32", "float64",
    "get_default_dtype", "get_printoptions", "half", "inference_mode", "int", "int8", "int16",
    "is_inference_mode_enabled",
    "int32", "int64", "is_grad_enabled", "long", "nn", "no_grad", "optim", "seed",
    "set_grad_enabled", "set_printoptions", "short", "uint8", "utils", "testing", "distributions",
    # nn: containers and activations with nothing to get wrong at construction
    "Identity", "Module", "functional", "init",
    # optim: the base class and the scheduler module
    "Optimizer", "lr_scheduler",
    # utils.data: the base class
    "Dataset",
    # constants and layouts (nothing to call); get_num_threads takes no arguments, and given
    # one, Python's own TypeError text differs from PyTorch's "takes no arguments" (issue 24)
    "pi", "e", "inf", "nan", "newaxis", "layout", "strided", "get_num_threads",
    # PyTorch's aliases, the very functions the table tries as abs, div, mul, neg, pow and
    # sub (issue 24: torch's errors name the alias, "absolute(): ...", microtorch's abs())
    "absolute", "divide", "multiply", "negative", "square", "subtract",
    # issue 13: a module of answers, and a getter with nothing to get wrong
    "accelerator", "get_default_device",
    # issue 24: modules, the legacy tensor types (classes, as Tensor), and PyTorch's other
    # names for functions the table tries (arcsin is asin, clip_ is clamp_, moveaxis movedim)
    "backends", "linalg", "profiler", "random", "special", "BoolTensor", "ByteTensor", "CharTensor",
    "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor",
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "arccos_",
    "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "clip_", "negative_", "moveaxis",
    # walkd: exception classes (no call to get wrong), getters without arguments, constants
    "AcceleratorError", "FatalError", "OutOfMemoryError", "get_float32_matmul_precision",
    "get_num_interop_threads", "get_deterministic_debug_mode", "is_warn_always_enabled",
    "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
    "has_lapack", "has_spectral", "has_mkl", "has_openmp",
    # walkf: the four memory layouts (values of torch.memory_format: nothing to call)
    "contiguous_format", "preserve_format", "channels_last", "channels_last_3d",
}  # fmt: skip


@pytest.mark.parametrize(
    ("namespace", "names"),
    [
        ("L", microtorch.__all__),
        ("L.nn", microtorch.nn.__all__),
        ("_F(L)", microtorch.nn.functional.__all__),
        ("L.optim", microtorch.optim.__all__),
        ("_data(L)", microtorch.utils.data.__all__),
    ],
)
def test_the_table_tries_every_public_function_and_layer(namespace: str, names: list[str]) -> None:
    source = inspect.getsource(bad_inputs)
    missing = [n for n in names if n not in NOT_TRIED and f"{namespace}.{n}(" not in source]
    assert not missing, f"no wrong-input case calls {namespace}.{missing}"


def test_the_table_is_large() -> None:
    assert len(BAD) >= 150 and len(SAME) >= 20
