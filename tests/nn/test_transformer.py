"""``nn.TransformerEncoderLayer``, ``TransformerDecoderLayer``, ``TransformerEncoder``,
``TransformerDecoder`` and ``Transformer`` against PyTorch 2.13, from the same weights
(copied through ``load_state_dict``): reprs, parameter names and order, warnings, recorded
graphs (node names all the way down), outputs and float64 gradients of the inputs and every
parameter, PyTorch's eval-mode fast path (equal up to rounding; padded positions zero),
``generate_square_subsequent_mask``, errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import copy_state, upstream

RNG = np.random.default_rng(12)
E, H, FF = 8, 2, 16
SRC = RNG.standard_normal((5, 3, E))  # (S, N, E)
TGT = RNG.standard_normal((4, 3, E))  # (T, N, E)
PADDING = np.zeros((3, 5), bool)
PADDING[0, 3:] = True
PADDING[2, 4] = True  # (the padding comes last in each sequence)
CAUSAL5 = np.triu(np.full((5, 5), -np.inf), 1)
CAUSAL4 = np.triu(np.full((4, 4), -np.inf), 1)

Make = Callable[[ModuleType], Any]


def _enc(**kw: Any) -> Make:
    return lambda t: t.nn.TransformerEncoderLayer(E, H, FF, dropout=0.0, **kw)


def _dec(**kw: Any) -> Make:
    return lambda t: t.nn.TransformerDecoderLayer(E, H, FF, dropout=0.0, **kw)


def _bf(a: np.ndarray) -> np.ndarray:
    return a.transpose(1, 0, 2).copy()


# name -> (make(lib), inputs, keyword arrays)
CASES: dict[str, tuple[Make, list[np.ndarray], dict[str, Any]]] = {
    "encoder_layer": (_enc(), [SRC], {}),
    "encoder_layer_norm_first": (_enc(norm_first=True), [SRC], {}),
    "encoder_layer_gelu": (_enc(activation="gelu"), [SRC], {}),
    "encoder_layer_callable": (
        lambda t: t.nn.TransformerEncoderLayer(
            E, H, FF, dropout=0.0, activation=t.nn.functional.silu
        ),
        [SRC],
        {},
    ),  # fmt: skip
    "encoder_layer_module_activation": (
        lambda t: t.nn.TransformerEncoderLayer(E, H, FF, dropout=0.0, activation=t.nn.GELU()),
        [SRC],
        {},
    ),  # fmt: skip
    "encoder_layer_batch_first_no_bias": (_enc(batch_first=True, bias=False), [_bf(SRC)], {}),
    "encoder_layer_masks": (_enc(), [SRC], {"src_mask": CAUSAL5, "src_key_padding_mask": PADDING}),
    "encoder_layer_bool_mask": (_enc(), [SRC], {"src_mask": RNG.random((5, 5)) > 0.8}),
    "decoder_layer": (_dec(), [TGT, SRC], {}),
    "decoder_layer_norm_first": (_dec(norm_first=True), [TGT, SRC], {}),
    "decoder_layer_masks": (
        _dec(),
        [TGT, SRC],
        {"tgt_mask": CAUSAL4, "memory_key_padding_mask": PADDING, "tgt_is_causal": True},
    ),
    "decoder_layer_batch_first": (_dec(batch_first=True), [_bf(TGT), _bf(SRC)], {}),
    "encoder": (lambda t: t.nn.TransformerEncoder(_enc()(t), 2), [SRC], {}),
    "encoder_norm_padding": (
        lambda t: t.nn.TransformerEncoder(_enc()(t), 2, t.nn.LayerNorm(E)),
        [SRC],
        {"src_key_padding_mask": PADDING},
    ),
    "encoder_causal_detected": (
        lambda t: t.nn.TransformerEncoder(_enc(batch_first=True)(t), 2),
        [_bf(SRC)],
        {"mask": CAUSAL5},
    ),
    "decoder": (
        lambda t: t.nn.TransformerDecoder(_dec()(t), 2, t.nn.LayerNorm(E)),
        [TGT, SRC],
        {"tgt_mask": CAUSAL4},
    ),
    "transformer": (
        lambda t: t.nn.Transformer(E, H, 2, 2, FF, dropout=0.0),
        [SRC, TGT],
        {"tgt_mask": CAUSAL4, "src_key_padding_mask": PADDING},
    ),
    "transformer_batch_first_norm_first": (
        lambda t: t.nn.Transformer(
            E, H, 1, 1, FF, dropout=0.0, batch_first=True, norm_first=True, activation="gelu"
        ),
        [_bf(SRC), _bf(TGT)],
        {},
    ),
}


def _build(lib: ModuleType, make: Make) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = make(lib).double()
    return layer, [str(w.message) for w in caught]


def _run(lib: ModuleType, layer: Any, inputs: list[np.ndarray], kw: dict[str, Any]) -> dict:
    tensors = [lib.tensor(a, requires_grad=True) for a in inputs]
    call = {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = layer(*tensors, **call)
    names = graph(out, depth=60)
    out.backward(lib.tensor(upstream(tuple(out.shape), np.float64)))
    return {
        "warnings": [str(w.message) for w in caught],
        "graph": names,
        "out": out.detach().numpy(),
        "grads": [t.grad.numpy() for t in tensors],
        "params": {n: p.grad.numpy() for n, p in layer.named_parameters()},
    }


def _pair(torch: ModuleType, make: Make) -> tuple[Any, Any]:
    torch.manual_seed(0)
    theirs, their_warnings = _build(torch, make)
    mine, my_warnings = _build(microtorch, make)
    assert my_warnings == [w for w in their_warnings if "nested tensors is in prototype" not in w]
    copy_state(theirs, mine)
    return mine, theirs


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(CASES))
def test_transformer_modules_match_torch(torch_module: ModuleType, case: str) -> None:
    make, inputs, kw = CASES[case]
    mine_layer, theirs_layer = _pair(torch_module, make)
    assert repr(mine_layer) == repr(theirs_layer).replace("torch.nn.functional", "microtorch")
    assert list(mine_layer.state_dict()) == list(theirs_layer.state_dict())
    mine = _run(microtorch, mine_layer, inputs, kw)
    theirs = _run(torch_module, theirs_layer, inputs, kw)
    assert mine["graph"] == theirs["graph"]
    assert mine["warnings"] == theirs["warnings"]  # (mismatched mask dtypes: deprecated)
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-10, atol=1e-12)
    for a, b in zip(mine["grads"], theirs["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)
    assert mine["params"].keys() == theirs["params"].keys()
    for name in mine["params"]:
        np.testing.assert_allclose(mine["params"][name], theirs["params"][name], atol=1e-10)


FAST_PATH: dict[str, tuple[Make, dict[str, Any]]] = {
    "encoder_layer": (lambda t: t.nn.TransformerEncoderLayer(E, H, FF, batch_first=True), {}),
    "encoder_padded": (
        lambda t: t.nn.TransformerEncoder(
            t.nn.TransformerEncoderLayer(E, H, FF, batch_first=True), 2, t.nn.LayerNorm(E)
        ),
        {"src_key_padding_mask": PADDING},
    ),
    "encoder_padding_not_last": (
        lambda t: t.nn.TransformerEncoder(
            t.nn.TransformerEncoderLayer(E, H, FF, batch_first=True), 2
        ),
        {"src_key_padding_mask": PADDING[:, ::-1].copy()},
    ),
}


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(FAST_PATH))
def test_eval_mode_fast_path_differs_by_rounding_only(torch_module: ModuleType, case: str) -> None:
    make, kw = FAST_PATH[case]
    mine_layer, theirs_layer = _pair(torch_module, make)
    mine_layer.eval(), theirs_layer.eval()
    x = _bf(SRC)
    with torch_module.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (PyTorch: nested tensors are a prototype)
        call = {k: torch_module.tensor(v) for k, v in kw.items()}
        theirs = theirs_layer(torch_module.tensor(x), **call).numpy()
    with microtorch.no_grad():
        call = {k: microtorch.tensor(v) for k, v in kw.items()}
        mine = mine_layer(microtorch.tensor(x), **call).numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.torch
def test_parameters_and_init_of_transformer(torch_module: ModuleType) -> None:
    mine, my_warnings = _build(microtorch, lambda t: t.nn.Transformer(E, H, 2, 1, FF))
    theirs, their_warnings = _build(torch_module, lambda t: t.nn.Transformer(E, H, 2, 1, FF))
    assert my_warnings == their_warnings  # enable_nested_tensor ... batch_first was not True
    assert repr(mine) == repr(theirs)
    mine_shapes = [(n, tuple(p.shape)) for n, p in mine.named_parameters()]
    assert mine_shapes == [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    for name, p in mine.named_parameters():  # Xavier-uniform for every matrix
        if p.dim() > 1:
            bound = (6 / (p.shape[0] + p.shape[1])) ** 0.5
            assert 0.5 * bound < float(p.abs().max()) <= bound, name
    assert mine.encoder.layers[0].self_attn.in_proj_weight is not (
        mine.encoder.layers[1].self_attn.in_proj_weight
    )  # (each layer its own copy)


@pytest.mark.torch
def test_generate_square_subsequent_mask(torch_module: ModuleType) -> None:
    mine = microtorch.nn.Transformer.generate_square_subsequent_mask(4)
    theirs = torch_module.nn.Transformer.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    assert mine.dtype is microtorch.float32
    mask = microtorch.nn.Transformer.generate_square_subsequent_mask(3, dtype=microtorch.float64)
    assert mask.dtype is microtorch.float64


def test_gradients_by_finite_differences() -> None:
    microtorch.manual_seed(0)
    layer = microtorch.nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, norm_first=True)
    layer = layer.double()
    tgt = microtorch.randn(3, 1, 4, dtype=microtorch.float64, requires_grad=True)
    memory = microtorch.randn(2, 1, 4, dtype=microtorch.float64, requires_grad=True)
    mask = microtorch.nn.Transformer.generate_square_subsequent_mask(3, dtype=microtorch.float64)
    assert gradcheck(lambda t, m: layer(t, m, tgt_mask=mask), (tgt, memory))


def test_dropout_in_training_mode_changes_the_output() -> None:
    microtorch.manual_seed(0)
    layer = microtorch.nn.TransformerEncoderLayer(E, H, FF, dropout=0.5)
    x = microtorch.randn(5, 3, E)
    assert not microtorch.equal(layer(x), layer(x))
    layer.eval()
    assert microtorch.equal(layer(x), layer(x))


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "activation": lambda t: t.nn.TransformerEncoderLayer(E, H, activation="tanh"),
    "batch": lambda t: t.nn.Transformer(E, H, 1, 1, FF)(t.ones(5, 3, E), t.ones(4, 2, E)),
    "d_model": lambda t: t.nn.Transformer(E, H, 1, 1, FF)(t.ones(5, 3, 6), t.ones(4, 3, 6)),
    "heads": lambda t: t.nn.TransformerEncoderLayer(E, 3),
}


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, case: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as mine:
            ERRORS[case](microtorch)
        with pytest.raises(Exception) as theirs:
            ERRORS[case](torch_module)
    assert type(mine.value).__name__ == type(theirs.value).__name__
    assert str(mine.value).startswith(str(theirs.value).split("\n")[0])
