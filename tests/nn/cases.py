"""One table of layer and loss calls, run on both libraries by the parity tests.

Each case is ``call(lib, x)`` where ``lib`` is ``microtorch`` or ``torch`` and ``x`` a
(4, 5) float32 input requiring grad; constants come from fixed numpy arrays, so both
libraries see identical values.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np

_RNG = np.random.default_rng(7)
X = (_RNG.standard_normal((4, 5)) * 2).astype(np.float32)
TARGET = np.array([1, 0, 4, 2])
PROBS = _RNG.dirichlet(np.ones(5), size=4).astype(np.float32)
HALF = _RNG.random((4, 5)).astype(np.float32)
DENSE = _RNG.standard_normal((4, 5)).astype(np.float32)
CLASS_WEIGHT = np.array([1.0, 2.0, 0.5, 1.0, 3.0], np.float32)


def _c(lib: ModuleType, array: np.ndarray) -> Any:
    return lib.tensor(array)


def _linear(lib: ModuleType, bias: bool) -> Any:
    layer = lib.nn.Linear(5, 3, bias=bias)
    with lib.no_grad():
        layer.weight.copy_(lib.tensor(np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5)))
        if bias:
            layer.bias.copy_(lib.tensor(np.array([0.1, -0.2, 0.3], np.float32)))
    return layer


def _recurrent(lib: ModuleType, name: str, *args: Any, **kwargs: Any) -> Any:
    """``lib.nn.<name>(5, 3, ...)`` with every weight set to fixed values (both libraries)."""
    layer = getattr(lib.nn, name)(5, 3, *args, **kwargs)
    with lib.no_grad():
        for i, p in enumerate(layer.parameters()):
            values = np.sin(np.arange(p.numel(), dtype=np.float32) * 0.7 + i) * 0.5
            p.copy_(lib.tensor(values.reshape(tuple(p.shape))))
    return layer


def _F(lib: ModuleType) -> Any:  # noqa: N802
    return lib.nn.functional


Case = Callable[[ModuleType, Any], Any]

CASES: dict[str, Case] = {
    "linear_2d": lambda lib, x: _linear(lib, True)(x),
    "linear_1d": lambda lib, x: _linear(lib, True)(x[0]),
    "linear_3d": lambda lib, x: _linear(lib, True)(x.view(2, 2, 5)),
    "linear_2d_no_bias": lambda lib, x: _linear(lib, False)(x),
    "linear_1d_no_bias": lambda lib, x: _linear(lib, False)(x[1]),
    "linear_3d_no_bias": lambda lib, x: _linear(lib, False)(x.view(2, 2, 5)),
    "relu": lambda lib, x: lib.nn.ReLU()(x),
    "leaky_relu": lambda lib, x: lib.nn.LeakyReLU(0.2)(x),
    "leaky_relu_inplace": lambda lib, x: lib.nn.LeakyReLU(0.2, inplace=True)(x * 1),
    "relu_inplace": lambda lib, x: _F(lib).relu(x * 1, inplace=True),
    "dropout_inplace_eval": lambda lib, x: _F(lib).dropout(x * 1, training=False, inplace=True),
    "sigmoid": lambda lib, x: lib.nn.Sigmoid()(x),
    "tanh": lambda lib, x: lib.nn.Tanh()(x),
    "softmax": lambda lib, x: lib.nn.Softmax(dim=1)(x),
    "log_softmax": lambda lib, x: lib.nn.LogSoftmax(dim=0)(x),
    "flatten": lambda lib, x: lib.nn.Flatten()(x.view(4, 5, 1)),
    "identity_then_mul": lambda lib, x: lib.nn.Identity()(x) * 2,
    "sequential": lambda lib, x: lib.nn.Sequential(_linear(lib, True), lib.nn.Tanh())(x),
    "cross_entropy": lambda lib, x: _F(lib).cross_entropy(x, _c(lib, TARGET)),
    "cross_entropy_sum": lambda lib, x: _F(lib).cross_entropy(x, _c(lib, TARGET), reduction="sum"),
    "cross_entropy_none": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), reduction="none"
    ),
    "cross_entropy_ignore": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), ignore_index=0
    ),
    "cross_entropy_weight": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), weight=_c(lib, CLASS_WEIGHT)
    ),
    "cross_entropy_smooth": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), label_smoothing=0.2
    ),
    "cross_entropy_smooth_ignore_sum": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), label_smoothing=0.1, ignore_index=4, reduction="sum"
    ),
    "cross_entropy_smooth_none": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), label_smoothing=0.1, reduction="none"
    ),
    "cross_entropy_smooth_weight": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, TARGET), weight=_c(lib, CLASS_WEIGHT), label_smoothing=0.3
    ),
    "cross_entropy_probs": lambda lib, x: _F(lib).cross_entropy(x, _c(lib, PROBS)),
    "cross_entropy_probs_smooth_none": lambda lib, x: _F(lib).cross_entropy(
        x, _c(lib, PROBS), label_smoothing=0.1, reduction="none"
    ),
    "cross_entropy_1d": lambda lib, x: _F(lib).cross_entropy(x[0], _c(lib, TARGET)[0]),
    "cross_entropy_3d": lambda lib, x: _F(lib).cross_entropy(
        x.view(2, 5, 2), _c(lib, TARGET.reshape(2, 2))
    ),
    "cross_entropy_3d_none": lambda lib, x: _F(lib).cross_entropy(
        x.view(2, 5, 2), _c(lib, TARGET.reshape(2, 2)), reduction="none"
    ),
    "cross_entropy_4d": lambda lib, x: _F(lib).cross_entropy(
        x.view(2, 5, 2, 1), _c(lib, TARGET.reshape(2, 2, 1))
    ),
    "cross_entropy_module": lambda lib, x: lib.nn.CrossEntropyLoss()(x, _c(lib, TARGET)),
    "nll_loss": lambda lib, x: lib.nn.NLLLoss()(lib.log_softmax(x, 1), _c(lib, TARGET)),
    "nll_loss_weight_none": lambda lib, x: _F(lib).nll_loss(
        x, _c(lib, TARGET), weight=_c(lib, CLASS_WEIGHT), reduction="none"
    ),
    "mse_loss": lambda lib, x: lib.nn.MSELoss()(x, _c(lib, DENSE)),
    "mse_loss_sum": lambda lib, x: _F(lib).mse_loss(x, _c(lib, DENSE), reduction="sum"),
    "mse_loss_none": lambda lib, x: _F(lib).mse_loss(x, _c(lib, DENSE), reduction="none"),
    "mse_loss_target_grad": lambda lib, x: _F(lib).mse_loss(_c(lib, DENSE), x),
    "l1_loss": lambda lib, x: lib.nn.L1Loss()(x, _c(lib, DENSE)),
    "l1_loss_sum": lambda lib, x: _F(lib).l1_loss(x, _c(lib, DENSE), reduction="sum"),
    "bce": lambda lib, x: lib.nn.BCELoss()(lib.sigmoid(x), _c(lib, HALF)),
    "bce_weight_none": lambda lib, x: _F(lib).binary_cross_entropy(
        lib.sigmoid(x), _c(lib, HALF), weight=_c(lib, CLASS_WEIGHT), reduction="none"
    ),
    "bce_target_grad": lambda lib, x: _F(lib).binary_cross_entropy(
        _c(lib, HALF * 0.8 + 0.1), lib.sigmoid(x)
    ),
    "bce_with_logits": lambda lib, x: lib.nn.BCEWithLogitsLoss()(x, _c(lib, HALF)),
    "bce_with_logits_pos_weight": lambda lib, x: lib.nn.BCEWithLogitsLoss(
        pos_weight=_c(lib, CLASS_WEIGHT)
    )(x, _c(lib, HALF)),
    "bce_with_logits_weight_sum": lambda lib, x: _F(lib).binary_cross_entropy_with_logits(
        x, _c(lib, HALF), weight=_c(lib, CLASS_WEIGHT), reduction="sum"
    ),
    "bce_with_logits_target_grad": lambda lib, x: _F(lib).binary_cross_entropy_with_logits(
        _c(lib, DENSE), lib.sigmoid(x), pos_weight=_c(lib, CLASS_WEIGHT)
    ),
    "embedding": lambda lib, x: _F(lib).embedding(
        _c(lib, np.array([[1, 2, 1], [0, 3, 3]])), x, padding_idx=3
    ),
    "dropout_eval": lambda lib, x: _F(lib).dropout(x, 0.5, training=False) * 1,
    "group_norm": lambda lib, x: _F(lib).group_norm(x.view(2, 2, 5), 2),
    "group_norm_affine": lambda lib, x: _F(lib).group_norm(
        x.t().unsqueeze(0), 5, _c(lib, CLASS_WEIGHT), _c(lib, DENSE[0])
    ),
    "pad_reflect": lambda lib, x: _F(lib).pad(x.view(1, 4, 5), (2, 3, 1, 0), mode="reflect"),
    "pad_replicate": lambda lib, x: _F(lib).pad(x, (3, 1), mode="replicate"),
    "interpolate_linear": lambda lib, x: _F(lib).interpolate(
        x.view(1, 4, 5), scale_factor=1.6, mode="linear"
    ),
    "interpolate_bilinear_corners": lambda lib, x: _F(lib).interpolate(
        x.view(1, 1, 4, 5), size=(3, 7), mode="bilinear", align_corners=True
    ),
    "rnn_cell": lambda lib, x: _recurrent(lib, "RNNCell")(x),
    "rnn_cell_relu_h0": lambda lib, x: _recurrent(lib, "RNNCell", nonlinearity="relu")(
        x[1:], x[:3, :3]
    ),
    "gru_cell": lambda lib, x: _recurrent(lib, "GRUCell")(x, x[:, 1:4] * 0.5),
    "lstm_cell_h": lambda lib, x: _recurrent(lib, "LSTMCell")(x)[0],
    "lstm_cell_c_unbatched": lambda lib, x: _recurrent(lib, "LSTMCell", bias=False)(
        x[0], (x[1, :3], x[2, :3])
    )[1],
    "rnn": lambda lib, x: _recurrent(lib, "RNN")(x.view(4, 1, 5))[0],
    "rnn_h_n_two_layers": lambda lib, x: _recurrent(lib, "RNN", 2)(x.view(2, 2, 5))[1],
    "rnn_bidirectional_batch_first": lambda lib, x: _recurrent(
        lib, "RNN", batch_first=True, bidirectional=True
    )(x.view(2, 2, 5))[0],
    "gru": lambda lib, x: _recurrent(lib, "GRU")(x.view(2, 2, 5), x[:2, :3].reshape(1, 2, 3))[0],
    "gru_unbatched_h_n": lambda lib, x: _recurrent(lib, "GRU", bias=False)(x)[1],
}


def graph(tensor: Any, depth: int = 8) -> list[str]:
    """The node names under ``tensor.grad_fn``, depth first, indented by depth."""
    lines: list[str] = []
    stack = [(tensor.grad_fn, 0)]
    while stack:
        node, d = stack.pop()
        if node is None:
            lines.append("  " * d + "None")
            continue
        lines.append("  " * d + node.name())
        if d < depth:
            stack.extend((child, d + 1) for child, _ in reversed(node.next_functions))
    return lines
