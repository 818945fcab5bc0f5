"""``F.scaled_dot_product_attention``, ``F.multi_head_attention_forward`` and
``nn.MultiheadAttention`` against PyTorch 2.13: values, recorded graphs (node names all the
way down: PyTorch's fused CPU node ``ScaledDotProductFlashAttentionForCpuBackward0`` where
PyTorch runs that kernel, else its math path, ``SafeSoftmaxBackward0`` between two batched
matmuls), float64 gradients against torch and by finite differences, parameter names, order,
shapes and initial values, reprs, errors, ``Module.get_parameter``/``get_buffer``.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn.functional as F
from microtorch.autograd import gradcheck
from tests.nn.cases import graph
from tests.nn.layer_parity import copy_state, upstream

RNG = np.random.default_rng(24)


def _data(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


Q, K, V = _data(2, 3, 4, 5), _data(2, 3, 6, 5), _data(2, 3, 6, 7)  # math path (7 != 5)
V5 = _data(2, 3, 6, 5)  # one head size: PyTorch's fused kernel
BOOL_MASK = RNG.random((4, 6)) > 0.3
BOOL_MASK[1] = False  # a query that may attend to nothing: 0s, not NaNs
SDPA_CASES: dict[str, dict[str, Any]] = {
    "plain": {},
    "causal": {"is_causal": True},
    "scale": {"scale": 0.3},
    "negative_scale": {"scale": -0.3},
    "bool_mask": {"attn_mask": BOOL_MASK},
    "float_mask": {"attn_mask": _data(4, 6)},
    "broadcast_mask": {"attn_mask": _data(3, 1, 6)},
    "dropout_one": {"dropout_p": 1.0},  # (every weight dropped: the math path, all zeros)
}
FUSED_CASES = {k: v for k, v in SDPA_CASES.items() if k not in ("broadcast_mask", "dropout_one")}
FUSED_CASES["mask_4d"] = {"attn_mask": RNG.random((2, 1, 4, 6)) > 0.4}


def _lib_kwargs(lib: ModuleType, kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}


def _sdpa(lib: ModuleType, arrays: tuple[np.ndarray, ...], kwargs: dict[str, Any]) -> dict:
    q, k, v = (lib.tensor(a, requires_grad=True) for a in arrays)
    out = lib.nn.functional.scaled_dot_product_attention(q, k, v, **_lib_kwargs(lib, kwargs))
    names = graph(out, depth=12)
    out.backward(lib.tensor(upstream(tuple(out.shape), np.float64)))
    grads = [t.grad.numpy() for t in (q, k, v)]
    return {"out": out.detach().numpy(), "graph": names, "grads": grads, "dtype": str(out.dtype)}


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(SDPA_CASES))
def test_sdpa_matches_torch(torch_module: ModuleType, case: str) -> None:
    mine = _sdpa(microtorch, (Q, K, V), SDPA_CASES[case])
    theirs = _sdpa(torch_module, (Q, K, V), SDPA_CASES[case])
    assert mine["graph"] == theirs["graph"]
    assert mine["dtype"].split(".")[1] == theirs["dtype"].split(".")[1]
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-12, atol=1e-14)
    for a, b in zip(mine["grads"], theirs["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(FUSED_CASES))
def test_sdpa_fused_node_matches_torch(torch_module: ModuleType, case: str) -> None:
    mine = _sdpa(microtorch, (Q, K, V5), FUSED_CASES[case])
    theirs = _sdpa(torch_module, (Q, K, V5), FUSED_CASES[case])
    assert mine["graph"][0] == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert mine["graph"] == theirs["graph"]
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-10, atol=1e-12)
    for a, b in zip(mine["grads"], theirs["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@pytest.mark.torch
def test_sdpa_fused_output_follows_the_query_layout(torch_module: ModuleType) -> None:
    def strides(lib: ModuleType) -> tuple[int, ...]:
        q = lib.tensor(Q.transpose(2, 0, 1, 3).copy()).permute(1, 2, 0, 3)  # memory (L, B, H, E)
        k = lib.tensor(K)
        return tuple(lib.nn.functional.scaled_dot_product_attention(q, k, k).stride())

    assert strides(microtorch) == strides(torch_module)


@pytest.mark.torch
def test_sdpa_mask_that_requires_grad_takes_the_math_path(torch_module: ModuleType) -> None:
    def run(lib: ModuleType) -> tuple[str, np.ndarray]:
        q = lib.tensor(Q, requires_grad=True)
        mask = lib.zeros(4, 4, dtype=lib.float64, requires_grad=True)
        out = lib.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask)
        out.backward(lib.tensor(upstream(tuple(out.shape), np.float64)))
        return out.grad_fn.name(), mask.grad.numpy()

    (mine, mine_grad), (theirs, their_grad) = run(microtorch), run(torch_module)
    assert mine == theirs == "UnsafeViewBackward0"
    np.testing.assert_allclose(mine_grad, their_grad, rtol=1e-12, atol=1e-13)


@pytest.mark.torch
def test_sdpa_fused_node_has_no_second_derivative(torch_module: ModuleType) -> None:
    # as PyTorch: the first gradient is recorded (create_graph=True, one NotImplemented node
    # for the three), and differentiating it raises
    def run(lib: ModuleType) -> list[Any]:
        q, k, v = (lib.tensor(a, requires_grad=True) for a in (Q, K, V5))
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v)
        grads = lib.autograd.grad((out * out).sum(), (q, k, v), create_graph=True)
        seen: list[Any] = [[g.grad_fn.name() for g in grads], grads[0].grad_fn is grads[2].grad_fn]
        seen.append([g.detach().numpy() for g in grads])
        with pytest.raises(RuntimeError) as info:
            lib.autograd.grad(grads[1].sum(), q)
        return [*seen, str(info.value).splitlines()[0]]

    mine, theirs = run(microtorch), run(torch_module)
    assert mine[:2] == theirs[:2] == [["torch::autograd::NotImplemented"] * 3, True]
    for m, t in zip(mine[2], theirs[2]):
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)
    assert mine[3] == theirs[3]
    assert mine[3].startswith("derivative for aten::_scaled_dot_product_flash_attention_for_cpu")


@pytest.mark.torch
@pytest.mark.parametrize("shapes", [((4, 5), (6, 5), (6, 3)), ((3, 4, 5), (3, 6, 5), (3, 6, 2))])
def test_sdpa_2d_and_3d_inputs(torch_module: ModuleType, shapes: tuple) -> None:
    arrays = tuple(_data(*s) for s in shapes)
    mine, theirs = _sdpa(microtorch, arrays, {}), _sdpa(torch_module, arrays, {})
    assert mine["graph"] == theirs["graph"]
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-12, atol=1e-14)


@pytest.mark.torch
def test_sdpa_float32_and_grouped_query_attention(torch_module: ModuleType) -> None:
    q, k, v = _data(1, 4, 3, 8), _data(1, 2, 5, 8), _data(1, 2, 5, 8)
    for arrays, kwargs in [
        ((q, k, v), {"enable_gqa": True}),
        ((q, k, v[..., :3]), {"enable_gqa": True}),
    ]:
        mine = _sdpa(microtorch, arrays, kwargs)
        theirs = _sdpa(torch_module, arrays, kwargs)
        assert mine["graph"] == theirs["graph"]
        np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-10, atol=1e-12)
        for a, b in zip(mine["grads"], theirs["grads"]):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    arrays32 = tuple(a.astype(np.float32) for a in (Q, K, V))
    mine = _sdpa(microtorch, arrays32, {"is_causal": True})
    theirs = _sdpa(torch_module, arrays32, {"is_causal": True})
    assert mine["dtype"] == "microtorch.float32"
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("value", [V, V5], ids=["math", "fused"])
def test_sdpa_gradients_by_finite_differences(value: np.ndarray) -> None:
    q, k, v = (microtorch.tensor(a[:1, :2], requires_grad=True) for a in (Q, K, value))
    mask = microtorch.tensor(BOOL_MASK)
    assert gradcheck(lambda *t: F.scaled_dot_product_attention(*t, attn_mask=mask), (q, k, v))
    assert gradcheck(lambda *t: F.scaled_dot_product_attention(*t, is_causal=True), (q, k, v))
    heads4, heads2 = _data(1, 4, 3, 5), _data(1, 2, 4, 5)
    gq, gk, gv = (microtorch.tensor(a, requires_grad=True) for a in (heads4, heads2, heads2 * 2))
    assert gradcheck(lambda *t: F.scaled_dot_product_attention(*t, enable_gqa=True), (gq, gk, gv))


def test_sdpa_fully_masked_rows_give_zeros() -> None:
    q, k, v = (microtorch.tensor(a) for a in (Q, K, V))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=microtorch.tensor(BOOL_MASK))
    assert (out[:, :, 1] == 0).all() and not out.isnan().any()


def test_sdpa_dropout_zeroes_weights_and_keeps_the_expected_value() -> None:
    microtorch.manual_seed(0)
    q, k = microtorch.zeros(1, 1, 200, 4), microtorch.zeros(1, 1, 1, 4)
    v = microtorch.ones(1, 1, 1, 1)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)  # each weight 1, kept or not
    assert set(np.unique(out.numpy()).tolist()) <= {0.0, 2.0}
    assert 0.3 < float(out.mean()) / 2 < 0.7


ERRORS: dict[str, tuple[Any, ...]] = {
    "dtypes": (lambda t: (t.ones(2, 3), t.ones(2, 3).double(), t.ones(2, 3)), {}),
    "dims": (lambda t: (t.ones(3), t.ones(2, 3), t.ones(2, 3)), {}),
    "mask_dtype": (lambda t: (t.ones(2, 3), t.ones(2, 3), t.ones(2, 3)), {"mask": "long"}),
    "causal_and_mask": (
        lambda t: (t.ones(2, 3), t.ones(2, 3), t.ones(2, 3)),
        {"mask": "bool", "is_causal": True},
    ),
    "dropout": (lambda t: (t.ones(2, 3), t.ones(2, 3), t.ones(2, 3)), {"dropout_p": 1.5}),
    "not_a_tensor": (lambda t: ([1.0], t.ones(2, 3), t.ones(2, 3)), {}),
}


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(ERRORS))
def test_sdpa_errors_match_torch(torch_module: ModuleType, case: str) -> None:
    make, kwargs = ERRORS[case]

    def call(lib: ModuleType) -> BaseException:
        kw = dict(kwargs)
        mask = kw.pop("mask", None)
        if mask is not None:
            kw["attn_mask"] = lib.ones(2, 2, dtype=getattr(lib, mask))
        with pytest.raises(Exception) as info:
            lib.nn.functional.scaled_dot_product_attention(*make(lib), **kw)
        return info.value

    mine, theirs = call(microtorch), call(torch_module)
    assert type(mine).__name__ == type(theirs).__name__
    assert str(mine).startswith(str(theirs).split("\n")[0]), (str(mine), str(theirs))


# --- MultiheadAttention ------------------------------------------------------------------
L, S, N, E = 4, 6, 3, 8
MHA_CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "plain": ({}, {}),
    "batch_first": ({"batch_first": True}, {}),
    "kdim_vdim": ({"kdim": 5, "vdim": 3}, {}),
    "bias_kv_zero_attn": ({"add_bias_kv": True, "add_zero_attn": True}, {}),
    "no_bias": ({"bias": False}, {}),
    "no_weights": ({}, {"need_weights": False}),
    "per_head_weights": ({}, {"average_attn_weights": False}),
    "key_padding_mask": ({}, {"key_padding_mask": RNG.random((N, S)) > 0.7}),
    "float_padding_mask": ({}, {"key_padding_mask": _data(N, S)}),
    "attn_mask_sdpa": ({}, {"attn_mask": RNG.random((L, S)) > 0.7, "need_weights": False}),
    "attn_mask_3d": ({}, {"attn_mask": _data(N * 2, L, S)}),
    "both_masks_sdpa": (
        {},
        {"attn_mask": _data(L, S), "key_padding_mask": _data(N, S), "need_weights": False},
    ),
    "self_attention": ({}, {"self": True}),
    "self_attention_batch_first": ({"batch_first": True}, {"self": True}),
    "key_is_value": ({}, {"kv": True}),
    "unbatched": ({}, {"unbatched": True}),
}


def _mha(lib: ModuleType, layer: Any, call: dict[str, Any], batch_first: bool) -> dict:
    call = dict(call)
    kdim, vdim = layer.kdim, layer.vdim
    shape = (lambda n, d: (N, n, d)) if batch_first else (lambda n, d: (n, N, d))
    rng = np.random.default_rng(3)
    if call.pop("unbatched", False):
        arrays = [rng.standard_normal((L, E)), rng.standard_normal((S, E)), None]
    else:
        arrays = [rng.standard_normal(shape(L, E)), rng.standard_normal(shape(S, kdim)), None]
        arrays[2] = rng.standard_normal(shape(S, vdim))
    q = lib.tensor(arrays[0], requires_grad=True)
    k = lib.tensor(arrays[1], requires_grad=True)
    v = lib.tensor(arrays[2] if arrays[2] is not None else arrays[1], requires_grad=True)
    inputs = [q, k, v]
    if call.pop("self", False):
        k = v = q
        inputs = [q]
    elif call.pop("kv", False):
        v = k
        inputs = [q, k]
    out, weights = layer(q, k, v, **_lib_kwargs(lib, call))
    result = {"graph": graph(out, depth=30), "out": out.detach().numpy()}
    loss = (out * lib.tensor(upstream(tuple(out.shape), np.float64))).sum()
    if weights is not None:
        result["weights"] = weights.detach().numpy()
        result["weights_graph"] = graph(weights, depth=30)
        loss = loss + (weights * lib.tensor(upstream(tuple(weights.shape), np.float64, 2))).sum()
    loss.backward()
    result["grads"] = [t.grad.numpy() for t in inputs]
    result["params"] = {n: p.grad.numpy() for n, p in layer.named_parameters()}
    return result


def _pair(torch: ModuleType, kwargs: dict[str, Any]) -> tuple[Any, Any]:
    torch.manual_seed(0)
    theirs = torch.nn.MultiheadAttention(E, 2, **kwargs).double()
    mine = microtorch.nn.MultiheadAttention(E, 2, **kwargs).double()
    copy_state(theirs, mine)
    return mine, theirs


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(MHA_CASES))
def test_multihead_attention_matches_torch(torch_module: ModuleType, case: str) -> None:
    kwargs, call = MHA_CASES[case]
    mine_layer, theirs_layer = _pair(torch_module, kwargs)
    assert list(mine_layer.state_dict()) == list(theirs_layer.state_dict())
    bf = kwargs.get("batch_first", False)
    mine = _mha(microtorch, mine_layer, call, bf)
    theirs = _mha(torch_module, theirs_layer, call, bf)
    assert mine["graph"] == theirs["graph"]
    np.testing.assert_allclose(mine["out"], theirs["out"], rtol=1e-10, atol=1e-12)
    assert ("weights" in mine) == ("weights" in theirs)
    if "weights" in mine:
        assert mine["weights_graph"] == theirs["weights_graph"]
        np.testing.assert_allclose(mine["weights"], theirs["weights"], rtol=1e-12, atol=1e-13)
    for a, b in zip(mine["grads"], theirs["grads"]):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-12)
    assert mine["params"].keys() == theirs["params"].keys()
    for name in mine["params"]:
        np.testing.assert_allclose(mine["params"][name], theirs["params"][name], atol=1e-12)


@pytest.mark.torch
@pytest.mark.parametrize("kwargs", [{}, {"kdim": 5, "vdim": 3, "add_bias_kv": True}])
def test_multihead_attention_parameters_repr_and_init(
    torch_module: ModuleType, kwargs: dict[str, Any]
) -> None:
    mine = microtorch.nn.MultiheadAttention(E, 2, **kwargs)
    theirs = torch_module.nn.MultiheadAttention(E, 2, **kwargs)
    assert repr(mine) == repr(theirs)
    shapes = {n: tuple(p.shape) for n, p in mine.named_parameters()}
    assert shapes == {n: tuple(p.shape) for n, p in theirs.named_parameters()}
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert float(mine.in_proj_bias.abs().max()) == 0 and float(mine.out_proj.bias.abs().max()) == 0
    weight = mine.in_proj_weight if mine.in_proj_weight is not None else mine.q_proj_weight
    fan_out, fan_in = weight.shape[0] if mine.in_proj_weight is None else E * 3, weight.shape[1]
    bound = math.sqrt(6 / (fan_in + fan_out))  # xavier_uniform_
    assert float(weight.abs().max()) <= bound and float(weight.abs().max()) > 0.5 * bound
    assert mine.in_proj_weight is None or mine.q_proj_weight is None


def test_multihead_attention_gradients_by_finite_differences() -> None:
    microtorch.manual_seed(0)
    layer = microtorch.nn.MultiheadAttention(4, 2, kdim=3, vdim=2).double()
    q = microtorch.randn(2, 1, 4, dtype=microtorch.float64, requires_grad=True)
    k = microtorch.randn(3, 1, 3, dtype=microtorch.float64, requires_grad=True)
    v = microtorch.randn(3, 1, 2, dtype=microtorch.float64, requires_grad=True)
    mask = microtorch.tensor([[False, True, False], [False, False, True]])
    assert gradcheck(lambda *t: layer(*t, attn_mask=mask)[0], (q, k, v))
    assert gradcheck(lambda *t: layer(*t, need_weights=False)[0], (q, k, v))


@pytest.mark.torch
def test_multihead_attention_eval_fast_path_differs_by_rounding_only(
    torch_module: ModuleType,
) -> None:
    mine_layer, theirs_layer = _pair(torch_module, {"batch_first": True})
    mine_layer.eval(), theirs_layer.eval()
    x = np.random.default_rng(1).standard_normal((N, L, E))
    with torch_module.no_grad():  # PyTorch: _native_multi_head_attention
        t = torch_module.tensor(x)
        theirs = theirs_layer(t, t, t)
    with microtorch.no_grad():
        m = microtorch.tensor(x)
        mine = mine_layer(m, m, m)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


MHA_ERRORS: dict[str, Any] = {
    "embed_dim": lambda t: t.nn.MultiheadAttention(0, 2),
    "divisible": lambda t: t.nn.MultiheadAttention(6, 4),
    "4d_query": lambda t: t.nn.MultiheadAttention(4, 2)(*[t.ones(1, 2, 3, 4)] * 3),
    "key_dims": lambda t: t.nn.MultiheadAttention(4, 2)(
        t.ones(2, 1, 4), t.ones(2, 4), t.ones(2, 4)
    ),
    "wrong_embed": lambda t: t.nn.MultiheadAttention(4, 2)(*[t.ones(2, 1, 6)] * 3),
    "mask_shape": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[t.ones(2, 1, 4)] * 3, attn_mask=t.ones(3, 3, dtype=t.bool)
    ),
    "int_mask": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[t.ones(2, 1, 4)] * 3, attn_mask=t.ones(2, 2, dtype=t.int64)
    ),
    "causal_without_mask": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[t.ones(2, 1, 4)] * 3, is_causal=True
    ),
    "padding_shape": lambda t: t.nn.MultiheadAttention(4, 2)(
        *[t.ones(2, 1, 4)] * 3, key_padding_mask=t.ones(2, 2, dtype=t.bool)
    ),
}


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(MHA_ERRORS))
def test_multihead_attention_errors_match_torch(torch_module: ModuleType, case: str) -> None:
    with pytest.raises(Exception) as mine:
        MHA_ERRORS[case](microtorch)
    with pytest.raises(Exception) as theirs:
        MHA_ERRORS[case](torch_module)
    assert type(mine.value).__name__ == type(theirs.value).__name__
    first = str(theirs.value).split("\n")[0].replace("torch.Size", "microtorch.Size")
    assert str(mine.value).startswith(first), (str(mine.value), str(theirs.value))


@pytest.mark.torch
def test_multi_head_attention_forward_function(torch_module: ModuleType) -> None:
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal(s) for s in [(L, N, E), (S, N, E), (S, N, E), (3 * E, E),
                                                (3 * E,), (E, E), (E,)]]  # fmt: skip

    def run(lib: ModuleType) -> tuple[np.ndarray, np.ndarray]:
        q, k, v, w, b, ow, ob = (lib.tensor(a) for a in arrays)
        out, weights = lib.nn.functional.multi_head_attention_forward(
            q, k, v, E, 2, w, b, None, None, False, 0.0, ow, ob, training=False
        )
        return out.numpy(), weights.numpy()

    for a, b in zip(run(microtorch), run(torch_module)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


# --- Module.get_parameter / get_buffer -----------------------------------------------------
GET_CASES = [
    ("get_parameter", "0.weight"),
    ("get_parameter", "1.running_mean"),
    ("get_parameter", "0.nothing"),
    ("get_parameter", "5.weight"),
    ("get_parameter", "training"),
    ("get_buffer", "1.running_mean"),
    ("get_buffer", "1.weight"),
    ("get_buffer", "1.nothing"),
    ("get_buffer", "2.x"),
]


@pytest.mark.torch
@pytest.mark.parametrize(("method", "target"), GET_CASES)
def test_get_parameter_and_get_buffer(torch_module: ModuleType, method: str, target: str) -> None:
    def call(lib: ModuleType) -> Any:
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        try:
            found = getattr(model, method)(target)
        except AttributeError as error:
            return type(error).__name__, str(error)
        expected = model.get_submodule(target.rpartition(".")[0])
        assert found is getattr(expected, target.rpartition(".")[2])
        return tuple(found.shape)

    assert call(microtorch) == call(torch_module)
