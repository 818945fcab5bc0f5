"""One time step of a recurrent network: the formulas of ``RNNCell``, ``LSTMCell`` and
``GRUCell``, and the modules themselves.

Each step is written with ops that record their own backward (``linear``, ``+``, ``*``,
``sigmoid``, ``tanh``), so autograd and ``create_graph=True`` need nothing new; the order of
the ops is PyTorch's CPU kernel's, so the recorded graph has PyTorch's node names. The
``x_proj`` a step takes is the input already multiplied by ``weight_ih`` (plus ``bias_ih``):
``nn.RNN`` computes it for every time step at once, before the loop.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.dtypes import dtype as dtype_
from microtorch.nn import functional as F
from microtorch.nn import init
from microtorch.nn.layer_ops import UnsafeSplit
from microtorch.nn.linear import _empty
from microtorch.nn.module import Module
from microtorch.nn.parameter import Parameter
from microtorch.tensor import Tensor, plain_tensor

__all__ = [
    "rnn_step", "lstm_step", "gru_step", "unsafe_chunk", "zeros_like_hidden", "RNNCellBase",
    "RNNCell", "LSTMCell", "GRUCell",
]  # fmt: skip


def unsafe_chunk(x: Tensor, chunks: int) -> tuple[Tensor, ...]:
    """``x.unsafe_chunk(chunks, 1)``: equal pieces along dim 1 (``UnsafeSplitBackward0``)."""
    size = x._data.shape[1] // chunks
    return UnsafeSplit.apply(x, [size * i for i in range(1, chunks)], 1)


def rnn_step(
    x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None, nonlinearity: str
) -> Tensor:
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""
    pre = F.linear(h, w_hh, b_hh) + x_proj
    return F.relu(pre) if nonlinearity == "relu" else pre.tanh()


def lstm_step(
    x_proj: Tensor,
    hc: tuple[Tensor, Tensor],
    w_hh: Tensor,
    b_hh: Tensor | None,
    w_hr: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    """Gates i, f, g, o from x W_ih^T + b_ih + h W_hh^T + b_hh (four equal pieces), then
    c' = sigmoid(f) c + sigmoid(i) tanh(g) and h' = sigmoid(o) tanh(c') (times W_hr^T with
    ``proj_size``)."""
    h, c = hc
    gates = F.linear(h, w_hh, b_hh) + x_proj  # (B, 4 H)
    i, f, g, o = unsafe_chunk(gates, 4)
    c_next = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h_next = o.sigmoid() * c_next.tanh()
    if w_hr is not None:
        h_next = h_next.matmul(w_hr.t())
    return h_next, c_next


def gru_step(x_proj: Tensor, h: Tensor, w_hh: Tensor, b_hh: Tensor | None) -> Tensor:
    """Reset r = sigmoid(x_r + h_r), update z = sigmoid(x_z + h_z), new n = tanh(x_n + r h_n)
    (x_* the pieces of x W_ih^T + b_ih, h_* of h W_hh^T + b_hh); h' = (h - n) z + n,
    that is (1 - z) n + z h."""
    x_r, x_z, x_n = unsafe_chunk(x_proj, 3)
    h_r, h_z, h_n = unsafe_chunk(F.linear(h, w_hh, b_hh), 3)
    reset = (h_r + x_r).sigmoid()
    update = (h_z + x_z).sigmoid()
    new = (x_n + h_n * reset).tanh()
    return (h - new) * update + new


def zeros_like_hidden(x: Tensor, shape: tuple[int, ...]) -> Tensor:
    """The state a sequence starts from when none is given: zeros of ``x``'s dtype."""
    return plain_tensor(np.zeros(shape, x._data.dtype), x.device)


class RNNCellBase(Module):
    """The parameters of one step: ``weight_ih`` (chunks H, input_size), ``weight_hh``
    (chunks H, H), ``bias_ih`` and ``bias_hh`` (chunks H), all ~ U(-1/sqrt(H), 1/sqrt(H))."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(_empty((rows, input_size), dtype, device))
        self.weight_hh = Parameter(_empty((rows, hidden_size), dtype, device))
        if bias:
            self.bias_ih = Parameter(_empty((rows,), dtype, device))
            self.bias_hh = Parameter(_empty((rows,), dtype, device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every weight and bias ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _batched(self, input: Tensor, hx: Any) -> bool:  # noqa: A002
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        states = hx if isinstance(hx, tuple) else () if hx is None else (hx,)
        for idx, value in enumerate(states):
            if value.dim() not in (1, 2):
                what = f"hx[{idx}]" if isinstance(hx, tuple) else "hidden"
                raise ValueError(
                    f"{name}: Expected {what} to be 1D or 2D, got {value.dim()}D instead"
                )
        return input.dim() == 2

    def _batch_of_one(self, input: Tensor, hx: Tensor | None) -> tuple[Tensor, Tensor, bool]:  # noqa: A002
        """The input and hidden state as a batch (zeros where ``hx`` is None), and whether
        they came batched."""
        batched = self._batched(input, hx)
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            return x, zeros_like_hidden(x, (x.shape[0], self.hidden_size)), batched
        return x, hx if batched else hx.unsqueeze(0), batched

    def _check_sizes(self, x: Tensor, states: tuple[Tensor, ...]) -> None:
        """PyTorch's checks of the (batched) input and states against the cell's sizes."""
        if x.shape[1] != self.input_size:
            raise RuntimeError(
                f"input has inconsistent input_size: got {x.shape[1]} expected {self.input_size}"
            )
        for label, h in enumerate(states):
            if x.shape[0] != h.shape[0]:
                raise RuntimeError(
                    f"Input batch size {x.shape[0]} doesn't match hidden{label} batch size "
                    f"{h.shape[0]}"
                )
            if h.shape[1] != self.hidden_size:
                raise RuntimeError(
                    f"hidden{label} has inconsistent hidden_size: got {h.shape[1]}, expected "
                    f"{self.hidden_size}"
                )


class RNNCell(RNNCellBase):
    """One Elman step: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or ``relu``)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._batch_of_one(input, hx)
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        self._check_sizes(x, (h,))
        x_proj = F.linear(x, self.weight_ih, self.bias_ih)
        out = rnn_step(x_proj, h, self.weight_hh, self.bias_hh, self.nonlinearity)
        return out if batched else out.squeeze(0)


class _GatedCell(RNNCellBase):
    """A cell whose only options are PyTorch's defaults: ``LSTMCell`` (4 chunks) and
    ``GRUCell`` (3)."""

    _chunks = 0

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: dtype_ | None = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, self._chunks, device, dtype)


class LSTMCell(_GatedCell):
    """One LSTM step; ``hx`` is the pair (h, c), and so is the result."""

    _chunks = 4

    def forward(
        self,
        input: Tensor,  # noqa: A002
        hx: tuple[Tensor, Tensor] | None = None,
    ) -> tuple[Tensor, Tensor]:
        batched = self._batched(input, hx)
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            zeros = zeros_like_hidden(x, (x.shape[0], self.hidden_size))
            hc = (zeros, zeros)
        else:
            hc = hx if batched else (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        self._check_sizes(x, hc)
        x_proj = F.linear(x, self.weight_ih, self.bias_ih)
        h, c = lstm_step(x_proj, hc, self.weight_hh, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(_GatedCell):
    """One GRU step: h' = (1 - z) n + z h (see ``gru_step``)."""

    _chunks = 3

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, h, batched = self._batch_of_one(input, hx)
        self._check_sizes(x, (h,))
        out = gru_step(F.linear(x, self.weight_ih, self.bias_ih), h, self.weight_hh, self.bias_hh)
        return out if batched else out.squeeze(0)
