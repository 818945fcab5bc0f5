"""walki: F.linear_cross_entropy, nn.LinearCrossEntropyLoss and nn.LinearCrossEntropyOptions
against PyTorch 2.13: values, dtypes, grad_fn names, gradients (first order; second order on
the reference path), finite differences, the chunked path's one node and its used-up
gradients, the fallback warning, the options' checks, the layer's repr and errors."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(11)
X = RNG.standard_normal((6, 4))
W = RNG.standard_normal((5, 4))
WK = RNG.standard_normal((5, 2, 4))
B = RNG.standard_normal(5)
BK = RNG.standard_normal((5, 2))
T = np.array([0, 1, 4, 3, 4, 2])
TK = RNG.integers(0, 5, (6, 2))
P = RNG.dirichlet(np.ones(5), 6)
CW = RNG.uniform(0.5, 2.0, 5)


def _call(L: ModuleType, case: dict[str, Any], dtype: str, options: Any = None):
    f = getattr(L, dtype)
    x = L.tensor(X if case.get("batched", True) else X[0], dtype=f, requires_grad=True)
    w = L.tensor(WK if case.get("k") else W, dtype=f, requires_grad=True)
    b = L.tensor(BK if case.get("k") else B, dtype=f, requires_grad=True)
    target = case["target"](L, f)
    kwargs = {
        k: v for k, v in case.items() if k in ("reduction", "ignore_index", "label_smoothing")
    }
    if case.get("weight"):
        kwargs["weight"] = L.tensor(CW, dtype=f)
    bias = b if case.get("bias", True) else None
    loss = L.nn.functional.linear_cross_entropy(
        x, w, target, linear_bias=bias, options=options, **kwargs
    )
    upstream = L.tensor(RNG_UP[: loss.numel()].reshape(loss.shape), dtype=f)
    inputs = [x, w] + ([b] if bias is not None else [])
    grads = L.autograd.grad(loss, inputs, upstream)
    return loss, grads


RNG_UP = np.random.default_rng(3).standard_normal(12)


def _idx(values: Any) -> Callable[[ModuleType, Any], Any]:
    return lambda L, f: L.tensor(values)


CASES = {
    "mean": {"target": _idx(T)},
    "sum no bias": {"target": _idx(T), "reduction": "sum", "bias": False},
    "none weight": {"target": _idx(T), "reduction": "none", "weight": True},
    "mean weight ignore": {"target": _idx(T), "weight": True, "ignore_index": 4},
    "mean -100": {"target": _idx(np.where(T == 4, -100, T))},
    "unbatched": {"target": _idx(T[0]), "batched": False, "reduction": "none"},
    "unbatched mean": {"target": _idx(T[0]), "batched": False},
    "smoothing": {"target": _idx(T), "label_smoothing": 0.2},
    "probabilities": {"target": lambda L, f: L.tensor(P, dtype=f)},
    "k-dim": {"target": _idx(TK), "k": True},
    "k-dim none smoothing": {
        "target": _idx(TK),
        "k": True,
        "reduction": "none",
        "label_smoothing": 0.1,
    },  # fmt: skip
}
CHUNKED = ["mean", "sum no bias", "none weight", "mean weight ignore", "mean -100", "unbatched",
           "unbatched mean"]  # fmt: skip


def _compare(got: Any, want: Any, tol: float) -> None:
    (loss, grads), (want_loss, want_grads) = got, want
    assert loss.grad_fn.name() == want_loss.grad_fn.name()
    assert tuple(loss.shape) == tuple(want_loss.shape)
    assert str(loss.dtype).split(".")[1] == str(want_loss.dtype).split(".")[1]
    for a, b in zip([loss, *grads], [want_loss, *want_grads]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_reference_path_matches_torch(torch_module, name, dtype) -> None:
    tol = 1e-12 if dtype == "float64" else 1e-5
    got = _call(microtorch, CASES[name], dtype)
    _compare(got, _call(torch_module, CASES[name], dtype), tol)


@pytest.mark.parametrize("name", CHUNKED)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_chunked_path_matches_torch(torch_module, name, dtype) -> None:
    tol = 1e-12 if dtype == "float64" else 1e-5
    got = _call(microtorch, CASES[name], dtype, microtorch.nn.LinearCrossEntropyOptions())
    want = _call(torch_module, CASES[name], dtype, torch_module.nn.LinearCrossEntropyOptions())
    _compare(got, want, tol)


@pytest.mark.parametrize("name", ["smoothing", "probabilities", "k-dim"])
def test_options_fall_back_with_torchs_warning(torch_module, name) -> None:
    messages, results = [], []
    for L in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            results.append(_call(L, CASES[name], "float64", L.nn.LinearCrossEntropyOptions()))
        messages.append([str(w.message).replace("torch.", "T.") for w in caught])
    assert (
        messages[0] == [m.replace("microT.", "T.") for m in messages[1]]
        or [m.replace("microT.", "T.") for m in messages[0]] == messages[1]
    )
    assert len(messages[0]) == 1 and "``options`` ignored" in messages[0][0]
    _compare(results[0], results[1], 1e-12)


def test_the_chunked_gradients_are_used_up(torch_module) -> None:
    for L in (microtorch, torch_module):
        x = L.tensor(X, requires_grad=True)
        w = L.tensor(W, requires_grad=True)
        loss = L.nn.functional.linear_cross_entropy(
            x, w, L.tensor(T), options=L.nn.LinearCrossEntropyOptions()
        )
        loss.backward(retain_graph=True)
        with pytest.raises(RuntimeError, match="chunked backward called twice; retain_graph="):
            loss.backward()
        opts = L.nn.LinearCrossEntropyOptions(allow_retain_graph=True)
        for reduction in ("sum", "none"):
            x.grad = None
            loss = L.nn.functional.linear_cross_entropy(
                x, w, L.tensor(T), reduction=reduction, options=opts
            )
            loss.sum().backward(retain_graph=True)
            first = x.grad.clone()
            loss.sum().backward()
            np.testing.assert_allclose(x.grad.numpy(), 2 * first.numpy(), rtol=1e-12)


def test_all_targets_ignored_gives_nan(torch_module) -> None:
    for L in (microtorch, torch_module):
        for options in (None, L.nn.LinearCrossEntropyOptions()):
            loss = L.nn.functional.linear_cross_entropy(
                L.tensor(X), L.tensor(W), L.full((6,), -100), options=options
            )
            assert np.isnan(loss.item())


def test_second_order_on_the_reference_path(torch_module) -> None:
    out = []
    for L in (microtorch, torch_module):
        x = L.tensor(X, requires_grad=True)
        w = L.tensor(W, requires_grad=True)
        loss = L.nn.functional.linear_cross_entropy(x, w, L.tensor(T), label_smoothing=0.1)
        (g,) = L.autograd.grad(loss, x, create_graph=True)
        (gg,) = L.autograd.grad((g * g).sum(), w)
        out.append(gg.numpy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_the_chunked_gradient_has_no_graph(torch_module, reduction) -> None:
    for L in (microtorch, torch_module):
        x = L.tensor(X, requires_grad=True)
        w = L.tensor(W, requires_grad=True)
        loss = L.nn.functional.linear_cross_entropy(
            x, w, L.tensor(T), reduction=reduction, options=L.nn.LinearCrossEntropyOptions()
        )
        (g,) = L.autograd.grad(loss.sum(), x, create_graph=True)
        assert g.grad_fn is None and not g.requires_grad
        with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
            L.autograd.grad(g.sum(), w)


def test_finite_differences() -> None:
    x = microtorch.tensor(X, requires_grad=True)
    w = microtorch.tensor(W, requires_grad=True)
    b = microtorch.tensor(B, requires_grad=True)
    t = microtorch.tensor(T)
    F = microtorch.nn.functional
    # (gradcheck runs backward more than once on one graph: the chunked path must allow it)
    opts = microtorch.nn.LinearCrossEntropyOptions(allow_retain_graph=True)
    for options in (None, opts):
        for reduction in ("mean", "none"):

            def f(x: Any, w: Any, b: Any, options: Any = options, reduction: str = reduction):
                return F.linear_cross_entropy(
                    x, w, t, linear_bias=b, reduction=reduction, options=options
                )

            assert gradcheck(f, (x, w, b))
    assert gradgradcheck(lambda x, w: F.linear_cross_entropy(x, w, t, label_smoothing=0.1), (x, w))


def test_options_repr_checks_and_dataclass(torch_module) -> None:
    got, want = microtorch.nn.LinearCrossEntropyOptions, torch_module.nn.LinearCrossEntropyOptions
    assert [f.name for f in dataclasses.fields(got)] == [f.name for f in dataclasses.fields(want)]
    assert repr(got()) == repr(want())
    assert repr(got(True, 3, "aspect_ratio:2", "accurate")) == repr(
        want(True, 3, "aspect_ratio:2", "accurate")
    )
    assert got() == got() and hash(got()) == hash(got()) and got.__slots__ == want.__slots__
    with pytest.raises(dataclasses.FrozenInstanceError):
        got().acc_policy = "accurate"  # type: ignore[misc]
    assert got(acc_dtype=microtorch.float32).acc_dtype is microtorch.float32


OPTION_ERRORS = {
    "policy": {"acc_policy": "fast"},
    "method": {"chunking_method": "aspect_ratio:0"},
    "method name": {"chunking_method": "square"},
    "size": {"batch_chunk_size": 0},
    "size float": {"batch_chunk_size": 2.0},
    "dtype": {"acc_dtype": "int32"},
}


@pytest.mark.parametrize("name", sorted(OPTION_ERRORS))
def test_option_errors(torch_module, name) -> None:
    texts = []
    for L in (microtorch, torch_module):
        kwargs = dict(OPTION_ERRORS[name])
        if kwargs.get("acc_dtype") == "int32":
            kwargs["acc_dtype"] = L.int32
        with pytest.raises(ValueError) as caught:
            L.nn.LinearCrossEntropyOptions(**kwargs)
        texts.append(str(caught.value).replace("microtorch.int32", "torch.int32"))
    assert texts[0] == texts[1]


F_ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "input 3-d": lambda L: _F(L)(L.ones(1, 6, 4), L.ones(5, 4), L.zeros(6, dtype=L.long)),
    "input 0-d": lambda L: _F(L)(L.ones(()), L.ones(5, 4), L.zeros(6, dtype=L.long)),
    "weight 1-d": lambda L: _F(L)(L.ones(6, 4), L.ones(4), L.zeros(6, dtype=L.long)),
    "features": lambda L: _F(L)(L.ones(6, 4), L.ones(5, 3), L.zeros(6, dtype=L.long)),
    "bias": lambda L: _F(L)(
        L.ones(6, 4), L.ones(5, 4), L.zeros(6, dtype=L.long), linear_bias=L.ones(4)
    ),
    "k-dim unbatched": lambda L: _F(L)(L.ones(4), L.ones(5, 2, 4), L.zeros(2, dtype=L.long)),
    "ignore_index with probabilities": lambda L: _F(L)(
        L.ones(6, 4), L.ones(5, 4), L.ones(6, 5) / 5, ignore_index=1
    ),
    "positional bias": lambda L: _F(L)(
        L.ones(6, 4), L.ones(5, 4), L.zeros(6, dtype=L.long), L.ones(5)
    ),
    "reduction": lambda L: _F(L)(
        L.ones(6, 4), L.ones(5, 4), L.zeros(6, dtype=L.long), reduction="avg"
    ),
    "chunk sizes disagree": lambda L: _F(L)(
        L.ones(6, 4),
        L.ones(5, 4),
        L.zeros(6, dtype=L.long),
        options=L.nn.LinearCrossEntropyOptions(batch_chunk_size=3, chunking_method="aspect_ratio"),
    ),  # fmt: skip
    "acc_dtype": lambda L: _F(L)(
        L.ones(6, 4, dtype=L.float64),
        L.ones(5, 4, dtype=L.float64),
        L.zeros(6, dtype=L.long),
        options=L.nn.LinearCrossEntropyOptions(acc_dtype=L.float32),
    ),  # fmt: skip
    "chunked dtypes": lambda L: _F(L)(
        L.ones(6, 4),
        L.ones(5, 4, dtype=L.float64),
        L.zeros(6, dtype=L.long),
        options=L.nn.LinearCrossEntropyOptions(),
    ),  # fmt: skip
    "chunked target range": lambda L: _F(L)(
        L.ones(6, 4),
        L.ones(5, 4),
        L.tensor([0, 1, 2, 3, 4, 7]),
        options=L.nn.LinearCrossEntropyOptions(),
    ),  # fmt: skip
    "chunked target 2-d": lambda L: _F(L)(
        L.ones(6, 4),
        L.ones(5, 4),
        L.zeros(6, 1, dtype=L.long),
        options=L.nn.LinearCrossEntropyOptions(),
    ),  # fmt: skip
    "chunked class weight": lambda L: _F(L)(
        L.ones(6, 4),
        L.ones(5, 4),
        L.tensor([0, 1, 2, 3, 4, 4]),
        weight=L.ones(4),
        options=L.nn.LinearCrossEntropyOptions(),
    ),  # fmt: skip
    "layer weight": lambda L: L.nn.LinearCrossEntropyLoss(4, 5, weight=L.ones(4)),
    "layer smoothing": lambda L: L.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=1.5),
    "layer smoothing negative": lambda L: L.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=-0.1),
    "layer positional": lambda L: L.nn.LinearCrossEntropyLoss(4, 5, (2,)),
}


def _F(L: ModuleType) -> Any:
    return L.nn.functional.linear_cross_entropy


@pytest.mark.parametrize("name", sorted(F_ERRORS))
def test_errors_match_torch(torch_module, name) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as want:
            F_ERRORS[name](torch_module)
        with pytest.raises(want.type) as got:
            F_ERRORS[name](microtorch)
    text = str(got.value).replace("microtorch.float", "torch.float")  # (dtypes' reprs)
    assert text.startswith(str(want.value).split("\n")[0])


def test_layer_repr_parameters_and_forward(torch_module) -> None:
    opts = (microtorch.nn.LinearCrossEntropyOptions(), torch_module.nn.LinearCrossEntropyOptions())
    for kwargs in [{}, {"out_features": (2,), "bias": True, "reduction": "sum",
                        "ignore_index": 3, "label_smoothing": 0.1, "options": 0}]:  # fmt: skip
        layers = []
        for i, L in enumerate((microtorch, torch_module)):
            kw = {**kwargs, "options": opts[i]} if "options" in kwargs else kwargs
            torch_module.manual_seed(0)
            weight = L.tensor(CW, dtype=L.float32)
            layers.append(L.nn.LinearCrossEntropyLoss(4, 5, weight=weight, **kw))
        got, want = layers
        assert repr(got) == repr(want)
        assert [(n, tuple(p.shape)) for n, p in got.named_parameters()] == [
            (n, tuple(p.shape)) for n, p in want.named_parameters()
        ]
        assert list(got.state_dict()) == list(want.state_dict())
        got.load_state_dict({k: microtorch.tensor(v.numpy()) for k, v in want.state_dict().items()})
        target = TK if "out_features" in kwargs else T
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (options with out_features: the fallback warning)
            values = [
                layer(L.tensor(X, dtype=L.float32), L.tensor(target)).detach().numpy()
                for L, layer in ((microtorch, got), (torch_module, want))
            ]
        np.testing.assert_allclose(values[0], values[1], rtol=1e-5)
    layer = microtorch.nn.LinearCrossEntropyLoss(4, 5, dtype=microtorch.float64)
    assert layer.linear.weight.dtype is microtorch.float64 and layer.weight is None
