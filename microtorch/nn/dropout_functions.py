"""``dropout`` (of elements) and ``dropout1d``, ``dropout2d``, ``dropout3d``: dropout of whole
channels (PyTorch's ``feature_dropout``), with PyTorch 2.13's checks and warnings.

A channel ``input[n, c]`` is zeroed with probability ``p`` and kept scaled by 1 / (1 - p):
one draw per (sample, channel) from the seeded generator, recorded as ``MulBackward0``. An
unbatched input is unsqueezed to a batch of one first and squeezed back after, as PyTorch
does (``SqueezeBackward1``).
"""

from __future__ import annotations

import numpy as np

from microtorch._warn import warn
from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.creation import default_generator
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["dropout", "dropout1d", "dropout2d", "dropout3d"]


def _check_p(p: float) -> None:
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:  # noqa: A002
    """Zero whole channels (``input[n, c]``) with probability ``p``, scale the rest."""
    expect_tensor(input, "feature_dropout_" if inplace else "feature_dropout")
    if not training or p == 0 or input._data.size == 0:
        return input
    dtype = input._data.dtype
    if p == 1:
        mask = plain_tensor(np.zeros((), dtype), input._device)
    else:
        ndim = input._data.ndim
        if ndim < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = input._data.shape[:2] + (1,) * (ndim - 2)  # one draw per (sample, channel)
        keep = default_generator._rng.random(shape) >= p  # the seeded generator
        mask = plain_tensor(keep.astype(dtype) * np.asarray(1 / (1 - p), dtype), input._device)
    return input.mul_(mask) if inplace else ew.mul(input, mask)  # MulBackward0, as in PyTorch


def _batch_of_one(
    input: Tensor,
    batched: bool,
    p: float,
    training: bool,
    inplace: bool,  # noqa: A002
) -> Tensor:
    # PyTorch's dropout1d/3d: an unbatched sample is unsqueezed (in place with inplace=True).
    if batched:
        return feature_dropout(input, p, training, inplace)
    x = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    out = feature_dropout(x, p, training, inplace)
    return out.squeeze_(0) if inplace else out.squeeze(0)


def dropout1d(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = True,
    inplace: bool = False,
) -> Tensor:
    """Zero whole channels of ``(N, C, L)`` or ``(C, L)`` input with probability ``p`` and
    scale the rest by 1 / (1 - p) (training only)."""
    _check_p(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    return _batch_of_one(input, ndim == 3, p, training, inplace)


def dropout2d(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = True,
    inplace: bool = False,
) -> Tensor:
    """Zero whole channels (``input[n, c]``) with probability ``p`` and scale the rest by
    1 / (1 - p) (training only): one draw per (sample, channel) from the seeded generator."""
    _check_p(p)
    expect_tensor(input, "feature_dropout_" if inplace else "feature_dropout")
    ndim = input._data.ndim
    if ndim not in (3, 4):
        warn(
            f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 3D or 4D inputs).",
        )
    if ndim == 3:
        warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
        )
    return feature_dropout(input, p, training, inplace)


def dropout3d(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = True,
    inplace: bool = False,
) -> Tensor:
    """Zero whole channels of ``(N, C, D, H, W)`` or ``(C, D, H, W)`` input with probability
    ``p`` and scale the rest by 1 / (1 - p) (training only)."""
    _check_p(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        warn(
            f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
            "an optional batch dimension (i.e. 4D or 5D inputs).",
        )
    return _batch_of_one(input, ndim == 5, p, training, inplace)


def dropout(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = True,
    inplace: bool = False,
) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p) (training)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input._data.size == 0:
        return input
    if p < 1 and not input._dtype.is_floating_point:  # (scaling by 1 / (1 - p) makes floats)
        raise RuntimeError(
            f"result type Float can't be cast to the desired output type "
            f"{input._dtype._legacy[:-6]} (Fix: dropout needs floats, e.g. x.float())"
        )
    dtype = input._data.dtype
    keep = default_generator._rng.random(input._data.shape) >= p  # the seeded generator
    scale = keep.astype(dtype) * np.asarray(0.0 if p == 1 else 1 / (1 - p), dtype)
    mask = plain_tensor(scale, input._device)
    return input.mul_(mask) if inplace else ew.mul(input, mask)  # MulBackward0, as in PyTorch
