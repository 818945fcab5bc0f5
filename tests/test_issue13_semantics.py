"""Issue #13: beginner code that gives PyTorch 2.13's results, dtypes and errors, not numpy's.

Each case is written once for both libraries (``L`` is microtorch or torch). Errors: the same
type, and microtorch's message starts with PyTorch's (it may add a fix in parentheses).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch

Case = Callable[[ModuleType], Any]


def _outcome(case: Case, lib: ModuleType) -> Any:
    """What ``case`` gives on ``lib``: the result, or the exception it raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (deprecation warnings are checked apart)
        try:
            return case(lib)
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            return e


def _assert_same_error(case: Case, torch: ModuleType) -> None:
    t_err, m_err = _outcome(case, torch), _outcome(case, microtorch)
    assert isinstance(t_err, Exception), f"torch raised nothing: {t_err!r}"
    assert type(m_err) is type(t_err), f"{type(m_err).__name__}: {m_err}\n  torch: {t_err}"
    ours = str(m_err).replace("microtorch.", "torch.")
    assert ours.startswith(str(t_err).split("\n")[0]), f"\nmicrotorch: {m_err}\n     torch: {t_err}"


def _assert_same_tensors(case: Case, torch: ModuleType) -> None:
    t_out, m_out = _outcome(case, torch), _outcome(case, microtorch)
    t_outs = t_out if isinstance(t_out, tuple) else (t_out,)
    m_outs = m_out if isinstance(m_out, tuple) else (m_out,)
    assert len(m_outs) == len(t_outs), f"microtorch: {m_out!r}\n     torch: {t_out!r}"
    for m, t in zip(m_outs, t_outs):
        assert not isinstance(m, Exception), f"microtorch raised {type(m).__name__}: {m}"
        assert str(m.dtype).replace("microtorch", "torch") == str(t.dtype)
        assert tuple(m.shape) == tuple(t.shape)
        np.testing.assert_array_equal(m.detach().numpy(), t.detach().numpy())


# --- 2. no numpy exception text: PyTorch's --------------------------------------------------
NUMPY_ERRORS: dict[str, Case] = {
    "setitem, too many indices": lambda L: L.zeros(3).__setitem__((0, 1), 5),
    "setitem, too many indices in 2-d": lambda L: L.zeros(3, 2).__setitem__((0, 1, 0), 5.0),
    "setitem, an index of a 0-d tensor": lambda L: L.zeros(()).__setitem__(0, 1.0),
    "sum over a dim twice": lambda L: L.zeros(2, 3).sum(dim=(1, -1)),
    "mean over a dim twice": lambda L: L.zeros(2, 3).mean(dim=(0, 0)),
    "amax over a dim twice": lambda L: L.zeros(2, 3).amax(dim=(1, 1)),
    "amin over a dim twice": lambda L: L.zeros(2, 3).amin(dim=(-1, 1)),
    "var over a dim twice": lambda L: L.zeros(2, 3).var(dim=(1, 1)),
    "std over a dim twice": lambda L: L.zeros(2, 3).std(dim=(1, 1)),
    "logsumexp over a dim twice": lambda L: L.zeros(2, 3).logsumexp(dim=(1, 1)),
    "squeeze a dim twice": lambda L: L.zeros(1, 3).squeeze((0, 0)),
    "setitem, a mask of the wrong size": lambda L: L.zeros(3).__setitem__(
        L.tensor([True, False]), 1.0
    ),
    "setitem, a 2-d mask of the wrong size": lambda L: L.zeros(2, 3).__setitem__(
        L.tensor([[True, False]]), 1.0
    ),
    "getitem, a mask of the wrong size": lambda L: L.zeros(3)[L.tensor([True, False])],
    "getitem, a mask on dim 1 of the wrong size": lambda L: L.zeros(2, 3)[
        :, L.tensor([True, False])
    ],
    "getitem, index tensors that do not broadcast": lambda L: L.zeros(2, 3)[
        L.tensor([0, 1]), L.tensor([0, 1, 2])
    ],
    "getitem, a mask and too many indices": lambda L: L.zeros(2, 3)[
        L.tensor([[True, False, True], [True, True, False]]), L.tensor([0, 1])
    ],
    "setitem, index tensors that do not broadcast": lambda L: L.zeros(2, 3).__setitem__(
        (L.tensor([0, 1]), L.tensor([0, 1, 2])), 1.0
    ),
    "setitem, a value that does not fit the indexed rows": lambda L: L.zeros(2, 3).__setitem__(
        L.tensor([0, 1]), L.ones(4)
    ),
    "setitem, a value that does not fit the mask": lambda L: L.zeros(3).__setitem__(
        L.tensor([True, False, True]), L.ones(3)
    ),
    "int tensor to a negative Python int": lambda L: L.tensor([2]) ** -1,
    "bool tensor to a bool tensor": lambda L: L.tensor([True]) ** L.tensor([True]),
    "split(0)": lambda L: L.zeros(4).split(0),
    "split(-1)": lambda L: L.zeros(0).split(-1),
    ".mT of a 1-d tensor": lambda L: L.zeros(3).mT,
}


@pytest.mark.parametrize("name", list(NUMPY_ERRORS))
def test_pytorchs_error_not_numpys(name: str, torch_module: ModuleType) -> None:
    _assert_same_error(NUMPY_ERRORS[name], torch_module)


NUMPY_REFUSED: dict[str, Case] = {
    "logsumexp of an empty dim": lambda L: L.zeros(2, 0).logsumexp(1),
    "logsumexp of an empty tensor": lambda L: L.zeros(0).logsumexp(0),
    "int ** negative int tensor": lambda L: 2 ** L.tensor([-1, 2, 0, -2]),
    "(-1) ** negative int tensor": lambda L: (-1) ** L.tensor([-1, -2, -3]),
    "int tensor ** negative int tensor": lambda L: (
        L.tensor([2, 1, -1, 0, 3, -1]) ** L.tensor([-1, -1, -1, 2, -2, -2])
    ),
    "uint8 tensor ** int tensor": lambda L: L.tensor([2, 3], dtype=L.uint8) ** L.tensor([-1, 1]),
    "split(0) of an empty tensor": lambda L: L.zeros(0).split(0),
}


@pytest.mark.parametrize("name", list(NUMPY_REFUSED))
def test_what_numpy_refuses_gives_pytorchs_result(name: str, torch_module: ModuleType) -> None:
    _assert_same_tensors(NUMPY_REFUSED[name], torch_module)


def test_logsumexp_of_an_empty_dim_has_a_gradient(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        x = lib.zeros(2, 0, requires_grad=True)
        y = x.logsumexp(1)
        assert y.grad_fn.name() == "LogsumexpBackward0"
        y.sum().backward()
        assert tuple(x.grad.shape) == (2, 0)


def test_mT_of_a_0d_tensor_is_itself_with_pytorchs_deprecation(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        x = lib.tensor(2.0, requires_grad=True)
        with pytest.warns(UserWarning, match=r"Tensor.mT is deprecated on 0-D tensors"):
            assert x.mT is x
