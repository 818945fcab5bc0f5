"""``nn.EmbeddingBag`` / ``F.embedding_bag`` against PyTorch 2.13: values, grad_fn, float64
gradients for weight and per_sample_weights (against torch and by finite differences), the
layer's repr, init, state_dict and from_pretrained, and PyTorch's errors."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(24)
W = RNG.standard_normal((7, 4))
IDX1 = np.array([0, 2, 2, 5, 6, 1, 3, 3, 0])
IDX2 = np.array([[0, 2, 2], [5, 6, 1], [3, 3, 0]])
OFF = np.array([0, 3, 3, 5])  # (bag 1 is empty)
# (include_last_offset with offsets[-1] < len(input) is not compared: PyTorch's float64 kernel
# reads on to the end, its float32 one stops at offsets[-1] but divides means by the longer run.)

# name: (input, offsets, keywords, with per_sample_weights)
CASES: dict[str, tuple[np.ndarray, np.ndarray | None, dict[str, Any], bool]] = {}
for _mode in ("sum", "mean", "max"):
    CASES[f"2d_{_mode}"] = (IDX2, None, {"mode": _mode}, False)
    CASES[f"1d_{_mode}"] = (IDX1, OFF, {"mode": _mode}, False)
    CASES[f"1d_{_mode}_padding"] = (IDX1, OFF, {"mode": _mode, "padding_idx": 3}, False)
    CASES[f"2d_{_mode}_padding_neg"] = (IDX2, None, {"mode": _mode, "padding_idx": -7}, False)
    CASES[f"1d_{_mode}_last"] = (
        IDX1, np.array([0, 3, 3, 5, 9]), {"mode": _mode, "include_last_offset": True}, False
    )  # fmt: skip
CASES["2d_sum_psw"] = (IDX2, None, {"mode": "sum"}, True)
CASES["1d_sum_psw"] = (IDX1, OFF, {"mode": "sum"}, True)
CASES["1d_sum_psw_padding"] = (IDX1, OFF, {"mode": "sum", "padding_idx": 2}, True)
CASES["1d_sum_psw_last"] = (
    IDX1, np.array([0, 4, 9]), {"mode": "sum", "include_last_offset": True}, True
)  # fmt: skip
CASES["1d_all_padding_mean"] = (np.array([3, 3, 1]), np.array([0, 2]), {"padding_idx": 3}, False)
CASES["1d_empty_input"] = (np.zeros(0, np.int64), np.array([0, 0]), {"mode": "max"}, False)
CASES["1d_int32"] = (IDX1.astype(np.int32), OFF.astype(np.int32), {"mode": "mean"}, False)


def _run(L: ModuleType, case: tuple[Any, ...], dtype: str = "float64") -> tuple[Any, ...]:
    idx, off, kw, with_psw = case
    weight = L.tensor(W, dtype=getattr(L, dtype), requires_grad=True)
    psw = None
    if with_psw:
        psw = L.tensor(RNG_PSW[: idx.size].reshape(idx.shape), dtype=getattr(L, dtype))
        psw.requires_grad_(True)
    offsets = None if off is None else L.tensor(off)
    out = L.nn.functional.embedding_bag(
        L.tensor(idx), weight, offsets, per_sample_weights=psw, **kw
    )
    grad_out = L.tensor(np.linspace(-1, 2, out.numel()).reshape(tuple(out.shape)), dtype=out.dtype)
    (out * grad_out).sum().backward()
    return out, weight.grad, None if psw is None else psw.grad


RNG_PSW = RNG.standard_normal(9)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_matches_torch(torch_module: ModuleType, name: str, dtype: str) -> None:
    ours = _run(microtorch, CASES[name], dtype)
    theirs = _run(torch_module, CASES[name], dtype)
    tol = 1e-12 if dtype == "float64" else 1e-5
    assert type(ours[0].grad_fn).__name__ == type(theirs[0].grad_fn).__name__
    assert type(ours[0].grad_fn).__name__ == "EmbeddingBagBackward0"
    assert str(ours[0].dtype).split(".")[1] == str(theirs[0].dtype).split(".")[1]
    for a, b in zip(ours, theirs):
        if b is None:
            assert a is None
            continue
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize(
    "name", ["2d_sum", "1d_mean", "1d_max_padding", "1d_sum_psw", "1d_sum_psw_padding"]
)
def test_gradcheck(name: str) -> None:
    idx, off, kw, with_psw = CASES[name]
    weight = microtorch.tensor(W, dtype=microtorch.float64, requires_grad=True)
    offsets = None if off is None else microtorch.tensor(off)
    inputs: list[Any] = [weight]
    if with_psw:
        psw = microtorch.tensor(RNG_PSW[: idx.size].reshape(idx.shape), requires_grad=True)
        inputs.append(psw)

    def f(*ts: Any) -> Any:
        p = ts[1] if len(ts) > 1 else None
        return microtorch.nn.functional.embedding_bag(
            microtorch.tensor(idx), ts[0], offsets, per_sample_weights=p, **kw
        )

    assert gradcheck(f, tuple(inputs))


def test_max_norm_matches_torch(torch_module: ModuleType) -> None:
    for norm_type in (2.0, 1.0):
        results = []
        for L in (microtorch, torch_module):
            bag = L.nn.EmbeddingBag.from_pretrained(
                L.tensor(W * 2), freeze=False, max_norm=1.5, norm_type=norm_type, mode="sum"
            )
            out = bag(L.tensor(IDX1), L.tensor(OFF))
            out.sum().backward()
            results.append([out.detach().numpy(), bag.weight.detach().numpy(), bag.weight.grad])
        for a, b in zip(results[0][:2], results[1][:2]):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(results[0][2].numpy(), results[1][2].numpy())


REPRS = [
    lambda L: L.nn.EmbeddingBag(10, 3),
    lambda L: L.nn.EmbeddingBag(10, 3, mode="max", padding_idx=-2, max_norm=1.0),
    lambda L: L.nn.EmbeddingBag(10, 3, norm_type=1.0, max_norm=2, mode="sum"),
    lambda L: L.nn.EmbeddingBag(4, 2, scale_grad_by_freq=True, include_last_offset=True),
    lambda L: L.nn.EmbeddingBag.from_pretrained(L.ones(3, 2), padding_idx=1),
]


@pytest.mark.parametrize("make", REPRS)
def test_repr_and_attributes(torch_module: ModuleType, make: Any) -> None:
    ours, theirs = make(microtorch), make(torch_module)
    assert repr(ours) == repr(theirs)
    for name in type(theirs).__constants__:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert list(ours.state_dict()) == list(theirs.state_dict()) == ["weight"]
    assert ours.weight.requires_grad == theirs.weight.requires_grad


def test_init_and_padding_row() -> None:
    microtorch.manual_seed(0)
    bag = microtorch.nn.EmbeddingBag(400, 50, padding_idx=3)
    data = bag.weight.detach().numpy()
    assert bag.weight.dtype == microtorch.float32 and bag.weight.requires_grad
    assert np.all(data[3] == 0)
    assert abs(data.std() - 1) < 0.02 and abs(data.mean()) < 0.02
    bag64 = microtorch.nn.EmbeddingBag(4, 2, dtype=microtorch.float64)
    assert bag64.weight.dtype == microtorch.float64
    frozen = microtorch.nn.EmbeddingBag.from_pretrained(microtorch.ones(3, 2))
    assert not frozen.weight.requires_grad
    assert frozen(microtorch.tensor([[0, 1]])).tolist() == [[1.0, 1.0]]


def test_state_dict_round_trip() -> None:
    a = microtorch.nn.EmbeddingBag(5, 3, mode="sum")
    b = microtorch.nn.EmbeddingBag(5, 3, mode="sum")
    b.load_state_dict(a.state_dict())
    x = microtorch.tensor([[0, 4], [1, 1]])
    assert np.array_equal(a(x).detach().numpy(), b(x).detach().numpy())


def _f(L: ModuleType) -> Any:
    return L.nn.functional


def _w(L: ModuleType) -> Any:
    return L.tensor(W)


ERRORS = {
    "no_offsets": lambda L: _f(L).embedding_bag(L.tensor([0, 1]), _w(L)),
    "offsets_2d": lambda L: _f(L).embedding_bag(L.tensor([0, 1]), _w(L), L.tensor([[0]])),
    "offsets_with_2d": lambda L: _f(L).embedding_bag(L.tensor([[0, 1]]), _w(L), L.tensor([0])),
    "input_3d": lambda L: _f(L).embedding_bag(L.tensor([[[0]]]), _w(L)),
    "weight_1d": lambda L: _f(L).embedding_bag(L.tensor([[0]]), L.tensor(W[0])),
    "weight_long": lambda L: _f(L).embedding_bag(L.tensor([[0]]), L.tensor([[1, 2]])),
    "mode": lambda L: _f(L).embedding_bag(L.tensor([[0]]), _w(L), mode="foo"),
    "first_offset": lambda L: _f(L).embedding_bag(L.tensor([0, 1]), _w(L), L.tensor([1])),
    "last_offset": lambda L: _f(L).embedding_bag(L.tensor([0, 1]), _w(L), L.tensor([0, 5])),
    "index_high": lambda L: _f(L).embedding_bag(L.tensor([0, 7]), _w(L), L.tensor([0])),
    "index_neg": lambda L: _f(L).embedding_bag(L.tensor([[0, -1]]), _w(L)),
    "index_high_float32": lambda L: _f(L).embedding_bag(
        L.tensor([0, 1, 7]), L.ones(5, 2), L.tensor([0]), mode="sum"
    ),
    "index_neg_float32_max": lambda L: _f(L).embedding_bag(
        L.tensor([[0, -1]]), L.ones(5, 2), mode="max"
    ),
    "index_float32_padding": lambda L: _f(L).embedding_bag(
        L.tensor([[0, 9]]), L.ones(5, 2), padding_idx=0
    ),
    "index_float": lambda L: _f(L).embedding_bag(L.tensor([[0.0]]), _w(L)),
    "offsets_float": lambda L: _f(L).embedding_bag(L.tensor([0]), _w(L), L.tensor([0.0])),
    "psw_mean": lambda L: _f(L).embedding_bag(
        L.tensor([[0]]), _w(L), per_sample_weights=L.ones(1, 1, dtype=L.float64)
    ),
    "psw_max": lambda L: _f(L).embedding_bag(
        L.tensor([[0]]), _w(L), mode="max", per_sample_weights=L.ones(1, 1, dtype=L.float64)
    ),
    "psw_shape": lambda L: _f(L).embedding_bag(
        L.tensor([[0, 1]]), _w(L), mode="sum", per_sample_weights=L.ones(2, dtype=L.float64)
    ),
    "psw_dtype": lambda L: _f(L).embedding_bag(
        L.tensor([[0, 1]]), _w(L), mode="sum", per_sample_weights=L.ones(1, 2)
    ),
    "padding_idx": lambda L: _f(L).embedding_bag(L.tensor([[0]]), _w(L), padding_idx=7),
    "zero_length": lambda L: _f(L).embedding_bag(L.zeros(2, 0, dtype=L.int64), _w(L)),
    "layer_padding": lambda L: L.nn.EmbeddingBag(4, 2, padding_idx=4),
    "pretrained_1d": lambda L: L.nn.EmbeddingBag.from_pretrained(L.ones(3)),
    "layer_no_offsets": lambda L: L.nn.EmbeddingBag(4, 2)(L.tensor([0, 1])),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    call = ERRORS[name]
    with pytest.raises(Exception) as theirs:
        call(torch_module)
    with pytest.raises(type(theirs.value)) as ours:
        call(microtorch)
    expected = str(theirs.value).splitlines()[0].replace("torch.", "microtorch.")
    expected = expected.split(" However, found offsets of type")[0]
    assert expected in str(ours.value).replace("microtorch.microtorch.", "microtorch.")


def test_not_supported_is_named() -> None:
    # (PyTorch raises AttributeError: 'list' object has no attribute 'dim'; this says more)
    with pytest.raises(TypeError, match="argument 'input' .position 1. must be Tensor, not list"):
        microtorch.nn.functional.embedding_bag([0, 1], microtorch.ones(2, 2))
    for kw in ({"scale_grad_by_freq": True}, {"sparse": True}):
        with pytest.raises(NotImplementedError, match=next(iter(kw))):
            microtorch.nn.functional.embedding_bag(
                microtorch.tensor([[0]]), microtorch.ones(2, 2), **kw
            )


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_create_graph_records_but_has_no_second_derivative(
    torch_module: ModuleType, mode: str
) -> None:
    # PyTorch records EmbeddingBagBackwardBackward0 and raises on a second backward
    # (NotImplementedError there, RuntimeError here: see the report of issue 24).
    for L in (microtorch, torch_module):
        w = L.tensor(W, requires_grad=True)
        out = L.nn.functional.embedding_bag(L.tensor(IDX1), w, L.tensor(OFF), mode=mode)
        (g,) = L.autograd.grad((out * out).sum(), [w], create_graph=True)
        assert type(g.grad_fn).__name__ == "EmbeddingBagBackwardBackward0"
        with pytest.raises((RuntimeError, NotImplementedError), match="_embedding_bag_backward"):
            g.sum().backward()


def test_max_ties_send_the_gradient_to_the_first(torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        w = L.tensor([[1.0, 2.0], [1.0, 3.0], [0.0, 3.0]], dtype=L.float64, requires_grad=True)
        out = L.nn.functional.embedding_bag(
            L.tensor([0, 1, 2, 2, 1]), w, L.tensor([0, 3]), mode="max"
        )
        out.sum().backward()
        grads.append(w.grad.tolist())
    assert grads[0] == grads[1] == [[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
