"""``rms_norm`` and ``instance_norm``, written with the ops PyTorch 2.13's C++ uses for them on
the CPU, so they record the same nodes: ``rms_norm`` is x * rsqrt(mean(x^2) + eps) (a
``MulBackward0`` over ``RsqrtBackward0``), ``instance_norm`` a batch norm of the input viewed
as one sample of N * C channels (``ViewBackward0`` over ``NativeBatchNormBackward0``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from microtorch.api import reduction as red
from microtorch.api._checks import expect_tensor, type_name
from microtorch.autograd.grad_mode import no_grad
from microtorch.nn.norm_functions import batch_norm
from microtorch.ops.scalar import AddScalar
from microtorch.tensor import Tensor

__all__ = ["rms_norm", "instance_norm"]


def rms_norm(
    input: Tensor,  # noqa: A002
    normalized_shape: Sequence[int],
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """x / sqrt(mean(x^2) + eps) over the last ``len(normalized_shape)`` dims, times
    ``weight``; ``eps`` defaults to the dtype's machine epsilon (``torch.finfo(x.dtype).eps``).

    >>> import microtorch as torch
    >>> torch.nn.functional.rms_norm(torch.tensor([3.0, 4.0]), (2,), eps=0.0)
    tensor([0.8485, 1.1314])
    """
    expect_tensor(input, "rms_norm")
    if not isinstance(normalized_shape, Sequence) or isinstance(normalized_shape, str):
        raise TypeError(
            "rms_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
            f"{type_name(normalized_shape)} (Fix: pass a tuple, e.g. ({normalized_shape},))"
        )
    norm = [int(n) for n in normalized_shape]
    if not norm:
        raise RuntimeError(
            "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
            "one element, but got normalized_shape = []"
        )
    if weight is not None and list(weight._data.shape) != norm:
        raise RuntimeError(
            "Expected weight to be of same shape as normalized_shape, but got weight of shape "
            f"{list(weight._data.shape)} and normalized_shape = {norm}"
        )
    shape = list(input._data.shape)
    if len(shape) < len(norm) or shape[len(shape) - len(norm) :] != norm:
        expected = ", ".join(map(str, norm))
        raise RuntimeError(
            f"Given normalized_shape={norm}, expected input with shape [*{expected}], but got "
            f"input of size{shape}"
        )
    if not input._dtype.is_floating_point:
        raise NotImplementedError(
            f"microtorch does not cover rms_norm of a {input._dtype} input (PyTorch's result "
            "is not defined for integers; use x.float())"
        )
    eps = float(np.finfo(input._data.dtype).eps) if eps is None else eps
    dims = tuple(range(-len(norm), 0))
    out = input * AddScalar.apply(red.mean(input.pow(2), dims, keepdim=True), eps).rsqrt()
    return out if weight is None else out * weight


def instance_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel of each sample over its spatial dims (mean 0, variance 1), then
    scale by ``weight`` and shift by ``bias``. With running statistics and
    ``use_input_stats``, they move towards the batch's, averaged over the samples."""
    expect_tensor(input, "instance_norm")
    shape = tuple(input._data.shape)
    if use_input_stats:
        size = int(np.prod(shape[2:], dtype=np.int64))
        if size == 1:
            raise ValueError(
                f"Expected more than 1 spatial element when training, got input size {input.size()}"
            )
    n, c = shape[0], shape[1]
    x = input.reshape(1, n * c, *shape[2:])  # (1, N C, *spatial): one sample of N C channels

    def repeated(t: Tensor | None) -> Tensor | None:
        return None if t is None else t.repeat(n)

    mean, var = repeated(running_mean), repeated(running_var)
    out = batch_norm(x, mean, var, repeated(weight), repeated(bias), use_input_stats,
                     momentum, eps)  # fmt: skip
    with no_grad():  # each running statistic: its N samples' new values, averaged
        for stat, rep in ((running_mean, mean), (running_var, var)):
            if stat is not None and rep is not None and use_input_stats:
                stat.copy_(rep.view(n, c).mean(0))
    return out.view(*shape)
