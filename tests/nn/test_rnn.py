"""``RNN``, ``LSTM``, ``GRU`` and their cells against PyTorch 2.13: parameter names, order,
shapes and initial ranges, reprs, the recorded graph (node names all the way down), outputs
and final states, the gradients of the input, the initial state and every parameter (float32,
and float64 by finite differences), second derivatives, dropout between layers, errors.

PyTorch's CPU ``LSTM`` runs through oneDNN and records one ``MkldnnRnnLayerBackward0`` per
layer; microtorch records the steps, as PyTorch does with oneDNN off
(``torch.backends.mkldnn.flags(enabled=False)``), which these tests compare against; one
test checks that the oneDNN graph is still the only difference.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import error_of

pytestmark = pytest.mark.filterwarnings("ignore:TF32 acceleration on top of oneDNN")

RNG = np.random.default_rng(5)
X = RNG.standard_normal((4, 3, 5)).astype(np.float32)  # (T, B, input_size)


def _state(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


Make = Callable[[ModuleType], Any]
# name -> (make(lib), input, initial state or None)
LAYERS: dict[str, tuple[Make, np.ndarray, Any]] = {
    "rnn": (lambda L: L.nn.RNN(5, 4), X, None),
    "rnn_relu_two_layers": (lambda L: L.nn.RNN(5, 4, 2, nonlinearity="relu"), X, None),
    "rnn_h0": (lambda L: L.nn.RNN(5, 4), X, _state(1, 3, 4)),
    "rnn_bidirectional_batch_first": (
        lambda L: L.nn.RNN(5, 4, num_layers=2, batch_first=True, bidirectional=True),
        X,
        None,
    ),
    "rnn_no_bias": (lambda L: L.nn.RNN(5, 4, bias=False), X, None),
    "rnn_unbatched": (lambda L: L.nn.RNN(5, 4), X[:, 0], _state(1, 4)),
    "rnn_unbatched_batch_first": (lambda L: L.nn.RNN(5, 4, batch_first=True), X[0], None),
    "gru_two_layers": (lambda L: L.nn.GRU(5, 4, 2), X, None),
    "gru_bidirectional_batch_first_h0": (
        lambda L: L.nn.GRU(5, 4, batch_first=True, bidirectional=True),
        X,
        _state(2, 4, 4),
    ),
    "gru_dropout_eval": (lambda L: L.nn.GRU(5, 4, 2, dropout=0.5).eval(), X, None),
    "lstm": (lambda L: L.nn.LSTM(5, 4), X, None),
    "lstm_two_layers_bidirectional_h0_c0": (
        lambda L: L.nn.LSTM(5, 4, 2, bidirectional=True),
        X,
        (_state(4, 3, 4), _state(4, 3, 4)),
    ),
    "lstm_proj_size": (lambda L: L.nn.LSTM(5, 4, proj_size=2), X, None),
    "lstm_proj_size_h0_c0": (
        lambda L: L.nn.LSTM(5, 4, 2, proj_size=3),
        X,
        (_state(2, 3, 3), _state(2, 3, 4)),
    ),
    "lstm_unbatched_batch_first": (lambda L: L.nn.LSTM(5, 4, batch_first=True), X[0], None),
    "lstm_batch_first_no_bias": (lambda L: L.nn.LSTM(5, 4, bias=False, batch_first=True), X, None),
    "rnn_cell": (lambda L: L.nn.RNNCell(5, 4), X[0], None),
    "rnn_cell_relu_unbatched_h0": (
        lambda L: L.nn.RNNCell(5, 4, nonlinearity="relu"),
        X[0, 0],
        _state(4),
    ),
    "gru_cell_h0": (lambda L: L.nn.GRUCell(5, 4), X[0], _state(3, 4)),
    "gru_cell_unbatched": (lambda L: L.nn.GRUCell(5, 4, bias=False), X[0, 0], None),
    "lstm_cell_no_bias": (lambda L: L.nn.LSTMCell(5, 4, bias=False), X[0], None),
    "lstm_cell_unbatched_h0_c0": (lambda L: L.nn.LSTMCell(5, 4), X[0, 0], (_state(4), _state(4))),
}


def dag(tensor: Any) -> list[tuple[str, tuple[int | None, ...]]]:
    """Every node under ``tensor.grad_fn`` once, numbered in the order a depth-first walk
    meets it, with its children's numbers: the whole graph, in time linear in its size."""
    ids: dict[Any, int] = {}
    order: list[Any] = []
    stack = [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in ids:
            continue
        ids[node] = len(order)
        order.append(node)
        stack.extend(child for child, _ in reversed(node.next_functions))
    return [
        (n.name(), tuple(None if c is None else ids[c] for c, _ in n.next_functions)) for n in order
    ]


def _copy(src: Any, dst: Any) -> None:
    dst.load_state_dict(
        {k: microtorch.tensor(v.detach().numpy()) for k, v in src.state_dict().items()}
    )


def _flat(out: Any) -> list[Any]:
    if not isinstance(out, tuple):
        return [out]
    return [o for part in out for o in (part if isinstance(part, tuple) else (part,))]


def _forward_backward(lib: ModuleType, layer: Any, x_np: np.ndarray, hx: Any) -> dict[str, Any]:
    x = lib.tensor(x_np, requires_grad=True)
    given = [] if hx is None else list(hx) if isinstance(hx, tuple) else [hx]
    states = [lib.tensor(h, requires_grad=True) for h in given]
    args = [x] if hx is None else [x, tuple(states) if isinstance(hx, tuple) else states[0]]
    outs = _flat(layer(*args))
    graphs = [dag(o) for o in outs]
    loss = sum(
        (
            o
            * lib.tensor(
                np.random.default_rng(i).uniform(-1, 1.5, tuple(o.shape)).astype(np.float32)
            )
        ).sum()
        for i, o in enumerate(outs)
    )
    loss.backward()
    return {
        "graphs": graphs,
        "outs": [o.detach().numpy().copy() for o in outs],
        "grads": [x.grad.numpy()] + ([] if hx is None else [s.grad.numpy() for s in states]),
        "params": {n: p.grad.numpy() for n, p in layer.named_parameters()},
    }


def _pair(torch: ModuleType, name: str) -> tuple[Any, Any]:
    make = LAYERS[name][0]
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(microtorch)
    _copy(theirs, mine)
    return mine, theirs


@pytest.mark.parametrize("name", list(LAYERS))
def test_parameters_repr_graph_values_and_gradients_match_torch(
    torch_module: ModuleType, name: str
) -> None:
    mine_layer, theirs_layer = _pair(torch_module, name)
    assert repr(mine_layer) == repr(theirs_layer)
    mine_params = [(n, tuple(p.shape)) for n, p in mine_layer.named_parameters()]
    assert mine_params == [(n, tuple(p.shape)) for n, p in theirs_layer.named_parameters()]
    _, x, hx = LAYERS[name]
    mine = _forward_backward(microtorch, mine_layer, x, hx)
    with torch_module.backends.mkldnn.flags(enabled=False):  # (LSTM: PyTorch's own steps)
        theirs = _forward_backward(torch_module, theirs_layer, x, hx)
    assert mine["graphs"] == theirs["graphs"]
    for a, b in zip(mine["outs"] + mine["grads"], theirs["outs"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        assert a.dtype == b.dtype
    assert mine["params"].keys() == theirs["params"].keys()
    for n, g in theirs["params"].items():
        np.testing.assert_allclose(mine["params"][n], g, rtol=1e-5, atol=1e-6, err_msg=n)


def test_lstm_differs_from_torch_only_by_its_onednn_node(torch_module: ModuleType) -> None:
    mine_layer, theirs_layer = _pair(torch_module, "lstm")
    mine = _forward_backward(microtorch, mine_layer, X, None)
    theirs = _forward_backward(torch_module, theirs_layer, X, None)  # (oneDNN on: the default)
    assert theirs["graphs"][0][0][0] == "MkldnnRnnLayerBackward0" != mine["graphs"][0][0][0]
    for a, b in zip(mine["outs"] + mine["grads"], theirs["outs"] + theirs["grads"], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda L: L.nn.RNN(6, 16, 2, bidirectional=True),
        lambda L: L.nn.LSTM(6, 9, proj_size=4),
        lambda L: L.nn.GRUCell(6, 25),
    ],
)
def test_initialisation_is_torchs_uniform_range(torch_module: ModuleType, make: Make) -> None:
    microtorch.manual_seed(0)
    mine, theirs = make(microtorch), make(torch_module)
    for (name, p), (_, q) in zip(mine.named_parameters(), theirs.named_parameters(), strict=True):
        bound = 1 / math.sqrt(mine.hidden_size)
        values = p.detach().numpy()
        assert values.dtype == q.detach().numpy().dtype, name
        assert np.abs(values).max() <= bound and np.abs(q.detach().numpy()).max() <= bound
        assert np.abs(values).max() > 0.8 * bound, name  # spread over the whole range
        assert abs(values.mean()) < 0.5 * bound, name


def test_dropout_between_layers_in_training(torch_module: ModuleType) -> None:
    make = LAYERS["gru_dropout_eval"][0]
    microtorch.manual_seed(0)
    layer = make(microtorch).train()
    x = microtorch.tensor(X)
    first, second = layer(x)[0], layer(x)[0]
    evaluated = layer.eval()(x)[0]
    assert not np.allclose(first.detach().numpy(), evaluated.detach().numpy())
    assert not np.allclose(first.detach().numpy(), second.detach().numpy())  # a new mask
    # p = 1 zeroes the second layer's input: a value both libraries must agree on
    torch_module.manual_seed(0)
    theirs = torch_module.nn.LSTM(5, 4, 3, dropout=1.0)
    mine = microtorch.nn.LSTM(5, 4, 3, dropout=1.0)
    _copy(theirs, mine)
    values = []
    for lib, lstm in ((microtorch, mine), (torch_module, theirs)):
        out, (h, c) = lstm(lib.tensor(X))
        values.append([out.detach().numpy(), h.detach().numpy(), c.detach().numpy()])
    for a, b in zip(*values):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_dropout_graph_matches_torch(torch_module: ModuleType) -> None:
    graphs = []
    for lib in (microtorch, torch_module):
        layer = lib.nn.RNN(5, 4, 2, dropout=0.3)
        graphs.append(dag(layer(lib.tensor(X, requires_grad=True))[0]))
    assert graphs[0] == graphs[1]


def test_dropout_with_one_layer_warns_as_torch(torch_module: ModuleType) -> None:
    texts = []
    for lib in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.LSTM(5, 4, dropout=0.2)
        texts.append([(w.category, str(w.message)) for w in caught])
    assert texts[0] == texts[1] and texts[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda L: L.nn.RNN(3, 2, 2, bidirectional=True, dtype=L.float64),
        lambda L: L.nn.GRU(3, 2, batch_first=True, dtype=L.float64),
        lambda L: L.nn.LSTM(3, 3, proj_size=2, dtype=L.float64),
        lambda L: L.nn.LSTMCell(3, 2, dtype=L.float64),
    ],
)
def test_gradients_and_second_derivatives_by_finite_differences(make: Make) -> None:
    microtorch.manual_seed(3)
    layer = make(microtorch)
    params = list(layer.parameters())
    x = microtorch.tensor(RNG.standard_normal((3, 2, 3)), requires_grad=True)
    x = x[0] if isinstance(layer, microtorch.nn.LSTMCell) else x

    assert gradcheck(lambda x: _flat(layer(x))[0], (x,))
    assert gradgradcheck(lambda x: _flat(layer(x))[-1], (x,))
    first = params[0]
    assert gradcheck(
        lambda w: _flat(_with_weight(layer, first, w)(x))[0], (first.detach().requires_grad_(),)
    )


def _with_weight(layer: Any, param: Any, w: Any) -> Any:
    name = next(n for n, p in layer.named_parameters() if p is param)
    call = layer.forward

    def forward(*args: Any) -> Any:
        saved = layer._parameters[name]
        layer._parameters[name] = w  # (the weight as an input of the checked function)
        try:
            return call(*args)
        finally:
            layer._parameters[name] = saved

    return forward


@pytest.mark.parametrize(
    "name", ["gru_two_layers", "lstm_proj_size", "rnn_bidirectional_batch_first"]
)
def test_create_graph_second_derivative_matches_torch(torch_module: ModuleType, name: str) -> None:
    mine_layer, theirs_layer = _pair(torch_module, name)
    results = []
    for lib, layer in ((microtorch, mine_layer), (torch_module, theirs_layer)):
        x = lib.tensor(X, requires_grad=True)
        with torch_module.backends.mkldnn.flags(enabled=False):
            out = _flat(layer(x))
            w = lib.tensor(
                np.random.default_rng(2).standard_normal(tuple(out[0].shape)).astype(np.float32)
            )
            (g,) = lib.autograd.grad((out[0] * w).sum(), x, create_graph=True)
            (h,) = lib.autograd.grad((g * g).sum(), x)
        results.append((g.detach().numpy(), h.numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "dropout_out_of_range": lambda L: L.nn.GRU(3, 2, dropout=1.5),
    "bias_not_bool": lambda L: L.nn.RNN(3, 2, bias=1),
    "input_size_float": lambda L: L.nn.LSTM(3.0, 2),
    "hidden_size_zero": lambda L: L.nn.RNN(3, 0),
    "num_layers_zero": lambda L: L.nn.GRU(3, 2, 0),
    "proj_size_too_big": lambda L: L.nn.LSTM(3, 2, proj_size=2),
    "proj_size_for_gru": lambda L: L.nn.GRU(3, 2, proj_size=1),
    "bad_nonlinearity": lambda L: L.nn.RNN(3, 2, nonlinearity="sigmoid"),
    "input_4d": lambda L: L.nn.RNN(3, 2)(L.zeros(1, 2, 3, 3)),
    "lstm_input_1d": lambda L: L.nn.LSTM(3, 2)(L.zeros(3)),
    "gru_input_4d": lambda L: L.nn.GRU(3, 2)(L.zeros(1, 2, 3, 3)),
    "input_size_mismatch": lambda L: L.nn.GRU(3, 2)(L.zeros(4, 2, 5)),
    "dtype_mismatch": lambda L: L.nn.RNN(3, 2)(L.zeros(4, 2, 3, dtype=L.float64)),
    "hidden_size_mismatch": lambda L: L.nn.RNN(3, 2)(L.zeros(4, 2, 3), L.zeros(1, 3, 2)),
    "hidden_2d_for_batch": lambda L: L.nn.GRU(3, 2)(L.zeros(4, 2, 3), L.zeros(2, 2)),
    "hidden_3d_unbatched": lambda L: L.nn.GRU(3, 2)(L.zeros(4, 3), L.zeros(1, 1, 2)),
    "lstm_cell_state_mismatch": lambda L: L.nn.LSTM(3, 2)(
        L.zeros(4, 2, 3), (L.zeros(1, 2, 2), L.zeros(1, 2, 3))
    ),
    "lstm_states_dims": lambda L: L.nn.LSTM(3, 2)(L.zeros(4, 2, 3), (L.zeros(2, 2), L.zeros(2, 2))),
    "empty_sequence": lambda L: L.nn.RNN(3, 2)(L.zeros(0, 2, 3)),
    "cell_input_size": lambda L: L.nn.GRUCell(3, 2)(L.zeros(2, 4)),
    "cell_hidden_size": lambda L: L.nn.RNNCell(3, 2)(L.zeros(2, 3), L.zeros(2, 3)),
    "cell_batch_size": lambda L: L.nn.LSTMCell(3, 2)(L.zeros(2, 3), (L.zeros(3, 2), L.zeros(3, 2))),
    "cell_c_size": lambda L: L.nn.LSTMCell(3, 2)(L.zeros(2, 3), (L.zeros(2, 2), L.zeros(2, 3))),
    "cell_input_3d": lambda L: L.nn.GRUCell(3, 2)(L.zeros(1, 2, 3)),
    "cell_hidden_3d": lambda L: L.nn.RNNCell(3, 2)(L.zeros(2, 3), L.zeros(1, 2, 2)),
    "lstm_cell_hx_3d": lambda L: L.nn.LSTMCell(3, 2)(
        L.zeros(2, 3), (L.zeros(2, 2), L.zeros(1, 2, 2))
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = error_of(lambda: ERRORS[name](torch_module))
        mine = error_of(lambda: ERRORS[name](microtorch))
    assert theirs[0] != "no error"
    assert mine == theirs


def test_unbind_of_a_size_one_dim_back_propagates_as_torch(torch_module: ModuleType) -> None:
    # (a one-output unbind, as a one-step sequence makes, then an op that broadcasts)
    grads = []
    for lib in (microtorch, torch_module):
        x = lib.tensor(X[:1], requires_grad=True)
        (step,) = x.unbind(0)
        (step - lib.ones(5)).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_array_equal(*grads)
