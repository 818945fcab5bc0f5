"""Recurrent layers over a whole sequence: ``RNN``, ``LSTM`` and ``GRU``.

The input is (T, B, input_size) (``batch_first=True``: (B, T, input_size); unbatched:
(T, input_size)). Each layer first multiplies every time step by ``weight_ih`` at once, then
runs the step of ``rnn_cells.py`` along time; its outputs, stacked, are the next layer's
input (with dropout in between while training). A bidirectional layer runs a second set of
weights (``..._reverse``) from the last step to the first and concatenates the two outputs.
As in PyTorch's CPU kernel, so the graph carries PyTorch's node names (``StackBackward0``,
``TanhBackward0`` ...), except that PyTorch runs ``LSTM`` through a oneDNN kernel
(``MkldnnRnnLayerBackward0``); microtorch records LSTM's steps as PyTorch does without it.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any, cast

from microtorch._warn import warn
from microtorch.api import join
from microtorch.dtypes import dtype as dtype_
from microtorch.nn import functional as F
from microtorch.nn import init, layer_ops
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.nn.rnn_cells import gru_step, lstm_step, rnn_step, zeros_like_hidden
from microtorch.tensor import Tensor

__all__ = ["RNNBase", "RNN", "LSTM", "GRU"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


class RNNBase(Module):
    """The weights of every layer and direction, PyTorch's names and order:
    ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (and
    ``weight_hr_l{k}`` with ``proj_size``), then the same with ``_reverse``; all
    ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        _check_arguments(
            mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size
        )
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        directions = 2 if bidirectional else 1
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(directions):
                inputs = input_size if layer == 0 else real_hidden * directions
                shapes: dict[str, tuple[int, ...]] = {
                    "weight_ih": (gate_size, inputs),
                    "weight_hh": (gate_size, real_hidden),
                }
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                for name, shape in shapes.items():
                    setattr(self, name + suffix, Parameter(_empty(shape, dtype, device)))
                self._all_weights.append([name + suffix for name in shapes])
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction, in order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # --- the forward pass, shared by the three layers -------------------------------------
    def _step(self) -> Callable[..., Any]:
        raise NotImplementedError

    def _check_input(self, input: Tensor) -> None:  # noqa: A002
        weight = self.weight_ih_l0
        if input.dtype is not weight.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight.dtype}). "
                f"Convert input: input.to({weight.dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        if self.input_size != input.size(-1):
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.size(-1)}"
            )

    def _expected_hidden(self, x: Tensor, size: int) -> tuple[int, int, int]:
        batch = x.shape[0] if self.batch_first else x.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    def _run(self, x: Tensor, states: list[Any]) -> tuple[Tensor, list[Any]]:
        """All layers over the sequence ``x`` (T, B, features), from one state per layer and
        direction; the last layer's outputs and every final state."""
        directions = 2 if self.bidirectional else 1
        finals: list[Any] = []
        for layer in range(self.num_layers):
            outputs = []
            for d in range(directions):
                names = self._all_weights[layer * directions + d]
                params = [getattr(self, name) for name in names]
                out, final = self._layer(x, states[layer * directions + d], params, d == 1)
                outputs.append(out)
                finals.append(final)
            x = outputs[0] if directions == 1 else join.cat(outputs, outputs[0].dim() - 1)
            if self.dropout != 0 and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        return x, finals

    def _layer(self, x: Tensor, state: Any, params: list[Tensor], reverse: bool) -> Any:
        """One layer in one direction: the input projection of every step, then the loop."""
        w_ih, w_hh = params[0], params[1]
        b_ih, b_hh = (params[2], params[3]) if self.bias else (None, None)
        extra = (params[-1],) if self.proj_size > 0 else ()  # LSTM's weight_hr
        steps = list(F.linear(x, w_ih, b_ih).unbind(0))  # T tensors (B, gates)
        if not steps:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        step = self._step()
        outputs = []
        for x_proj in reversed(steps) if reverse else steps:
            state = step(x_proj, state, w_hh, b_hh, *extra)
            outputs.append(state[0] if isinstance(state, tuple) else state)
        if reverse:
            outputs.reverse()
        return join.stack(outputs, 0), state

    def _forward_hidden(self, input: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor]:  # noqa: A002
        """``RNN`` and ``GRU``'s forward: one hidden state per layer and direction."""
        x, batched = self._sequence(input)
        hx = _hidden_dims(hx, batched)
        if hx is None:
            hx = zeros_like_hidden(x, self._expected_hidden(x, self.hidden_size))
        self._check_input(x)
        _check_size(hx, self._expected_hidden(x, self.hidden_size), "Expected hidden size")
        x = x.transpose(0, 1) if self.batch_first else x
        output, finals = self._run(x, list(hx.unbind(0)))
        output = _batch_first(output) if self.batch_first else output
        h_n = join.stack(finals, 0)
        if not batched:
            return output.squeeze(0 if self.batch_first else 1), h_n.squeeze(1)
        return output, h_n

    def _sequence(self, input: Tensor) -> tuple[Tensor, bool]:  # noqa: A002
        name = self.mode if self.mode in ("LSTM", "GRU") else "RNN"
        if input.dim() not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""  # (PyTorch's three texts)
            raise ValueError(
                f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tensor} instead"
            )
        batched = input.dim() == 3
        return (input if batched else input.unsqueeze(0 if self.batch_first else 1)), batched


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh) (or ``relu``),
    layer after layer. ``rnn(x, h0)`` returns (output, h_n): every step's h of the last
    layer, and every layer's last h."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if self.nonlinearity not in modes:
            raise ValueError(
                f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(modes[self.nonlinearity], *args, **kwargs)

    def _step(self) -> Callable[..., Any]:
        relu = self.mode == "RNN_RELU"
        return lambda x, h, w, b: rnn_step(x, h, w, b, "relu" if relu else "tanh")

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        return self._forward_hidden(input, hx)


class GRU(RNNBase):
    """Gated recurrent unit (see ``rnn_cells.gru_step``), layer after layer; returns
    (output, h_n) as ``RNN`` does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def _step(self) -> Callable[..., Any]:
        return gru_step

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:  # noqa: A002
        return self._forward_hidden(input, hx)


class LSTM(RNNBase):
    """Long short-term memory (see ``rnn_cells.lstm_step``), layer after layer.
    ``lstm(x, (h0, c0))`` returns (output, (h_n, c_n))."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def _step(self) -> Callable[..., Any]:
        return lstm_step

    def forward(
        self,
        input: Tensor,  # noqa: A002
        hx: tuple[Tensor, Tensor] | None = None,
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        x, batched = self._sequence(input)
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        h_size = self._expected_hidden(x, real_hidden)
        c_size = self._expected_hidden(x, self.hidden_size)
        if hx is None:
            hx = (zeros_like_hidden(x, h_size), zeros_like_hidden(x, c_size))
        else:
            dims = (hx[0].dim(), hx[1].dim())
            want = 3 if batched else 2
            if dims != (want, want):
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise RuntimeError(
                    f"For {kind} input, hx and cx should also be {want}-D but got "
                    f"({dims[0]}-D, {dims[1]}-D) tensors"
                )
            if not batched:
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self._check_input(x)
        _check_size(hx[0], h_size, "Expected hidden[0] size")
        _check_size(hx[1], c_size, "Expected hidden[1] size")
        x = x.transpose(0, 1) if self.batch_first else x
        output, finals = self._run(x, list(zip(hx[0].unbind(0), hx[1].unbind(0))))
        output = output.transpose(0, 1) if self.batch_first else output  # (not in place)
        h_n = join.stack([h for h, _ in finals], 0)
        c_n = join.stack([c for _, c in finals], 0)
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            return output, (h_n.squeeze(1), c_n.squeeze(1))
        return output, (h_n, c_n)


def _batch_first(output: Tensor) -> Tensor:
    """(T, B, ...) back to (B, T, ...), in place as PyTorch's RNN and GRU do
    (``TransposeBackward1``; its LSTM transposes out of place)."""
    return layer_ops.TransposeInPlace.apply(output, (1, 0, 2))


def _hidden_dims(hx: Tensor | None, batched: bool) -> Tensor | None:
    if hx is None:
        return None
    if batched and hx.dim() != 3:
        raise RuntimeError(
            f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor"
        )
    if not batched:
        if hx.dim() != 2:
            raise RuntimeError(
                f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor"
            )
        return hx.unsqueeze(1)
    return hx


def _check_size(hx: Tensor, expected: tuple[int, int, int], what: str) -> None:
    if tuple(hx.shape) != expected:
        raise RuntimeError(f"{what} {expected}, got {list(hx.shape)}")


def _check_arguments(
    mode: str,
    input_size: Any,
    hidden_size: Any,
    num_layers: int,
    bias: Any,
    batch_first: Any,
    dropout: Any,
    proj_size: int,
) -> None:
    """PyTorch's checks of the constructor's arguments, in its order."""
    p = cast(float, dropout)
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= p <= 1:
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the probability of an "
            "element being zeroed"
        )
    if p > 0 and num_layers == 1:
        warn(
            "dropout option adds dropout after all but last recurrent layer, so non-zero "
            "dropout expects num_layers greater than 1, but got "
            f"dropout={dropout} and num_layers={num_layers}",
        )
    for name, value, kind in (
        ("bias", bias, bool), ("batch_first", batch_first, bool),
        ("input_size", input_size, int),
    ):  # fmt: skip
        if not isinstance(value, kind):
            raise TypeError(
                f"{name} should be of type {kind.__name__}, got: {type(value).__name__}"
            )
    if input_size <= 0:
        raise ValueError("input_size must be greater than zero")
    if not isinstance(hidden_size, int):
        raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
    if hidden_size <= 0:
        raise ValueError("hidden_size must be greater than zero")
    if num_layers <= 0:
        raise ValueError("num_layers must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")
    if mode not in _GATES:
        raise ValueError("Unrecognized RNN mode: " + mode)
