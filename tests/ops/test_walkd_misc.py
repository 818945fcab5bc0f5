"""Issue 24 (walkd): process settings, exception classes, fork_rng, StackDataset,
default_convert, the removed Tensor.eig/symeig/lstsq/solve and autograd.variable, against
PyTorch 2.13: results, errors (class and first line) and warnings.
"""

from __future__ import annotations

import warnings
from collections import namedtuple
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome

pytestmark = pytest.mark.torch


@pytest.fixture
def restore(torch_module: ModuleType) -> Any:
    """Put every setting a case changes back, in both libraries."""
    yield
    for lib in (microtorch, torch_module):
        lib.set_float32_matmul_precision("highest")
        lib.use_deterministic_algorithms(False)
        lib.set_warn_always(False)
        lib.set_anomaly_enabled(False)
        lib.set_default_dtype(lib.float32)
        lib.autograd.set_multithreading_enabled(True)


SETTINGS: dict[str, Callable[[ModuleType], Any]] = {
    "float32 matmul precision": lambda L: L.get_float32_matmul_precision(),
    "set high": lambda L: (
        L.set_float32_matmul_precision("high"),
        L.get_float32_matmul_precision(),
    ),
    "set medium": lambda L: (
        L.set_float32_matmul_precision("medium"),
        L.get_float32_matmul_precision(),
    ),
    "set int": lambda L: L.set_float32_matmul_precision(3),
    "interop bad": lambda L: L.set_num_interop_threads(0),
    "interop float": lambda L: L.set_num_interop_threads(2.0),
    "interop get": lambda L: type(L.get_num_interop_threads()).__name__,
    "flush int": lambda L: L.set_flush_denormal(1),
    "debug mode": lambda L: L.get_deterministic_debug_mode(),
    "debug warn": lambda L: (
        L.set_deterministic_debug_mode("warn"),
        L.get_deterministic_debug_mode(),
        L.are_deterministic_algorithms_enabled(),
        L.is_deterministic_algorithms_warn_only_enabled(),
    ),
    "debug error": lambda L: (L.set_deterministic_debug_mode(2), L.get_deterministic_debug_mode()),
    "debug True": lambda L: (
        L.set_deterministic_debug_mode(True),
        L.get_deterministic_debug_mode(),
    ),
    "debug from use": lambda L: (
        L.use_deterministic_algorithms(True, warn_only=True),
        L.get_deterministic_debug_mode(),
    ),
    "debug bad str": lambda L: L.set_deterministic_debug_mode("x"),
    "debug bad int": lambda L: L.set_deterministic_debug_mode(5),
    "debug float": lambda L: L.set_deterministic_debug_mode(1.0),
    "warn always": lambda L: (
        L.is_warn_always_enabled(),
        L.set_warn_always(True),
        L.is_warn_always_enabled(),
    ),
    "warn always int": lambda L: L.set_warn_always(1),
    "anomaly": lambda L: (L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()),
    "anomaly set": lambda L: (
        L.set_anomaly_enabled(True, False),
        L.is_anomaly_enabled(),
        L.is_anomaly_check_nan_enabled(),
    ),
    "anomaly str": lambda L: L.set_anomaly_enabled("x"),
    "anomaly check_nan int": lambda L: L.set_anomaly_enabled(True, 1),
    "get_device": lambda L: (L.get_device(L.ones(2)), L.ones(2).get_device()),
    "get_device int": lambda L: L.get_device(3),
    "is_inference": lambda L: L.is_inference(L.ones(2)),
    "is_inference int": lambda L: L.is_inference(3),
    "is_inference inside": lambda L: _inference(L),
    "has lapack spectral": lambda L: (L.has_lapack, L.has_spectral),
    "has bools": lambda L: tuple(type(x) for x in (L.has_mkl, L.has_openmp)),
    "multithreading": lambda L: type(L.autograd.set_multithreading_enabled(False)).__name__,
    "variable": lambda L: L.autograd.variable(3),
    "default tensor type": lambda L: (
        L.set_default_tensor_type(L.DoubleTensor),
        _name(L.get_default_dtype()),
        _name(L.ones(1).dtype),
    ),
    "default tensor type str": lambda L: (
        L.set_default_tensor_type("torch.DoubleTensor"),
        _name(L.get_default_dtype()),
    ),
    "default tensor type int type": lambda L: L.set_default_tensor_type(L.LongTensor),
    "default tensor type dtype": lambda L: L.set_default_tensor_type(L.float64),
    "removed eig": lambda L: L.eye(2).eig(),
    "removed symeig": lambda L: L.eye(2).symeig(),
    "removed lstsq": lambda L: L.eye(2).lstsq(L.eye(2)),
    "removed solve": lambda L: L.eye(2).solve(L.eye(2)),
}


def _name(d: Any) -> str:
    return str(d).split(".")[1]


def _inference(L: ModuleType) -> Any:
    with L.inference_mode():
        x = L.ones(2)
    return L.is_inference(x)


@pytest.mark.parametrize("case", list(SETTINGS))
def test_settings_match_pytorch(case: str, torch_module: ModuleType, restore: Any) -> None:
    fn = SETTINGS[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mt, t = outcome(fn, microtorch), outcome(fn, torch_module)
    if t[0] == "ok" and isinstance(t[1], tuple):
        assert mt == t
    elif t[0] == "error":
        assert mt[:2] == t[:2], (mt, t)
        assert str(mt[2]).startswith(str(t[2]).splitlines()[0]), (mt, t)
    else:
        assert mt == t, (mt, t)


def test_removed_methods_give_pytorchs_whole_text(torch_module: ModuleType) -> None:
    for name, args in (("eig", ()), ("symeig", ()), ("solve", (1,)), ("lstsq", (1,))):
        texts = []
        for L in (microtorch, torch_module):
            with pytest.raises(RuntimeError) as info:
                getattr(L.eye(2), name)(*args)
            texts.append(str(info.value))
        assert texts[0].startswith(texts[1].split("\n\nTo get")[0].split("\nTo get")[0])


def test_bad_matmul_precision_warns_as_pytorch(torch_module: ModuleType, restore: Any) -> None:
    for L in (microtorch, torch_module):
        with pytest.warns(UserWarning, match="foo is not one of 'highest', 'high', or 'medium'"):
            L.set_float32_matmul_precision("foo")
        assert L.get_float32_matmul_precision() == "highest"


def test_flush_denormal_says_it_is_not_supported() -> None:
    # (numpy cannot flush denormals: False is PyTorch's answer on a CPU without it)
    assert microtorch.set_flush_denormal(True) is False
    assert microtorch.set_flush_denormal(False) is False


def test_interop_threads_are_set_once() -> None:
    from microtorch import runtime

    saved = runtime._settings["interop_threads"]
    try:
        runtime._settings["interop_threads"] = None
        assert microtorch.get_num_interop_threads() == microtorch.get_num_threads()
        microtorch.set_num_interop_threads(3)
        assert microtorch.get_num_interop_threads() == 3
        with pytest.raises(RuntimeError, match="^Error: cannot set number of interop threads"):
            microtorch.set_num_interop_threads(3)
    finally:
        runtime._settings["interop_threads"] = saved


def test_set_anomaly_enabled_turns_detection_on_without_warning(restore: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        microtorch.set_anomaly_enabled(True)
    assert microtorch.autograd.is_anomaly_enabled()
    microtorch.set_anomaly_enabled(False)
    assert not microtorch.is_anomaly_enabled()


def test_set_default_tensor_type_warns_once(torch_module: ModuleType, restore: Any) -> None:
    from microtorch.api import legacy_types

    legacy_types._warned_default_type[0] = False
    with pytest.warns(UserWarning, match=r"^torch.set_default_tensor_type\(\) is deprecated"):
        microtorch.set_default_tensor_type(microtorch.DoubleTensor)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        microtorch.set_default_tensor_type(microtorch.FloatTensor)
    assert microtorch.get_default_dtype() is microtorch.float32


def test_multithreading_context_restores(restore: Any) -> None:
    from microtorch.autograd import grad_mode

    with microtorch.autograd.set_multithreading_enabled(False):
        assert grad_mode._threading.multithreading is False
    assert grad_mode._threading.multithreading is True

    @microtorch.autograd.set_multithreading_enabled(False)
    def inside() -> bool:
        return grad_mode._threading.multithreading

    microtorch.autograd.set_multithreading_enabled(True)  # (making it set it, as PyTorch's)
    assert inside() is False and grad_mode._threading.multithreading is True
    assert microtorch.autograd.set_multithreading_enabled(True).clone().mode is True


def test_exception_classes_as_pytorchs(torch_module: ModuleType) -> None:
    for name in ("AcceleratorError", "FatalError", "OutOfMemoryError"):
        mine, theirs = getattr(microtorch, name), getattr(torch_module, name)
        assert [c.__name__ for c in mine.__mro__] == [c.__name__ for c in theirs.__mro__]
        assert repr(mine) == repr(theirs).replace("torch", "microtorch")
    with pytest.raises(RuntimeError):
        raise microtorch.OutOfMemoryError("x")


def test_fork_rng_restores_the_global_state(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        L.manual_seed(0)
        before = L.rand(3)
        L.manual_seed(0)
        with L.random.fork_rng():
            L.rand(5)
        after = L.rand(3)
        assert np.array_equal(before.numpy(), after.numpy())
        L.manual_seed(0)
        with L.random.fork_rng(enabled=False):
            L.rand(3)
        assert not np.array_equal(before.numpy(), L.rand(3).numpy())


def test_fork_rng_restores_after_an_error() -> None:
    microtorch.manual_seed(1)
    state = microtorch.get_rng_state()
    with pytest.raises(ValueError), microtorch.random.fork_rng():
        microtorch.rand(2)
        raise ValueError
    assert np.array_equal(microtorch.get_rng_state().numpy(), state.numpy())


def _stack(L: ModuleType, **kw: Any) -> Any:
    a = L.utils.data.TensorDataset(L.arange(4.0))
    b = list("wxyz")
    return L.utils.data.StackDataset(a=a, b=b) if kw else L.utils.data.StackDataset(a, b)


def test_stack_dataset_as_pytorchs(torch_module: ModuleType) -> None:
    for kw in ({}, {"named": True}):
        mine, theirs = _stack(microtorch, **kw), _stack(torch_module, **kw)
        assert len(mine) == len(theirs) == 4
        m, t = mine[2], theirs[2]
        assert type(m) is type(t)
        assert str(m).replace("microtorch", "torch") == str(t)
    loader = microtorch.utils.data.DataLoader(_stack(microtorch, named=True), batch_size=2)
    batch = next(iter(loader))
    assert batch["b"] == ["w", "x"] and batch["a"][0].tolist() == [0.0, 1.0]


def test_stack_dataset_errors_as_pytorchs(torch_module: ModuleType) -> None:
    cases = [
        lambda L: L.utils.data.StackDataset(),
        lambda L: L.utils.data.StackDataset([1], b=[2]),
        lambda L: L.utils.data.StackDataset([1], [2, 3]),
        lambda L: L.utils.data.StackDataset(a=[1], b=[2, 3]),
    ]
    for fn in cases:
        mt, t = outcome(fn, microtorch), outcome(fn, torch_module)
        assert mt == t


Point = namedtuple("Point", "x y")


def test_default_convert_as_pytorchs(torch_module: ModuleType) -> None:
    samples = [
        0, "s", np.array([0, 1]), np.float64(2.5), (np.array([1.0]), 3), [np.array(0)],
        {"a": np.array([1, 2]), "b": "t"}, Point(np.array(0), np.array(1)),
        np.array(["a", "b"]),
    ]  # fmt: skip
    for s in samples:
        mine = microtorch.utils.data.default_convert(s)
        theirs = torch_module.utils.data.default_convert(s)
        assert type(mine).__name__ == type(theirs).__name__
        assert repr(mine).replace("microtorch", "torch") == repr(theirs)
