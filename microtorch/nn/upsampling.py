"""``F.interpolate`` (``mode='nearest'``, ``'linear'``, ``'bilinear'``) and the layers
``Upsample`` and ``UpsamplingNearest2d``: grow feature maps (U-Nets, GAN generators) by
repeating or mixing neighbouring values."""

from __future__ import annotations

import math
from typing import Any

from microtorch._warn import warn
from microtorch.api._checks import expect_tensor
from microtorch.nn import layer_ops, upsample_ops
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = [
    "interpolate", "Upsample", "UpsamplingNearest2d",
    # --- walkc
    "UpsamplingBilinear2d", "upsample", "upsample_nearest", "upsample_bilinear",
]  # fmt: skip

_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def interpolate(
    input: Tensor,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the last one or two dimensions of ``(N, C, L)`` or ``(N, C, H, W)`` to ``size``
    (or by ``scale_factor``): ``mode='nearest'`` copies the nearest value
    (``UpsampleNearest2DBackward0``), ``'linear'`` (3-D input) and ``'bilinear'`` (4-D) mix
    the two nearest along each dim (``align_corners`` as in PyTorch). Other modes (bicubic
    ...) are not covered: they raise."""
    expect_tensor(input, "interpolate")
    if mode not in ("nearest", "linear", "bilinear"):
        raise NotImplementedError(
            f"microtorch does not cover F.interpolate(mode='{mode}') (use mode='nearest', "
            "'linear' or 'bilinear')"
        )
    if align_corners is not None and mode == "nearest":
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: linear | "
            "bilinear | bicubic | trilinear"
        )
    ndim = input._data.ndim
    if mode != "nearest" and ndim != (3 if mode == "linear" else 4):
        need = 3 if mode == "linear" else 4
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {need}D input")
    if ndim not in (3, 4):
        if ndim == 5:
            raise NotImplementedError(
                "microtorch does not cover 3-d (5D input) interpolation (resize each depth "
                "slice with a 4D interpolate)"
            )
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the "
            f"modes: {_MODES} (got {mode})"
        )
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    spatial = input._data.shape[2:]
    n = len(spatial)
    if size is not None:
        sizes = list(size) if isinstance(size, (list, tuple)) else [size] * n
        scales: list[float | None] = [None] * n
    else:
        factors = scale_factor if isinstance(scale_factor, (list, tuple)) else [scale_factor] * n
        sizes = [math.floor(float(s * f)) for s, f in zip(spatial, factors)]
        scales = [None if recompute_scale_factor else float(f) for f in factors]
    if not input._dtype.is_floating_point:
        kind = "nearest" if mode == "nearest" else "linear"
        raise NotImplementedError(
            f'"compute_indices_weights_{kind}" not implemented for '
            f"'{input._dtype._legacy[:-6]}' (Fix: x.float())"
        )
    if mode != "nearest":
        corners = bool(align_corners)
        weights = tuple(
            upsample_ops.linear_weights(a, b, corners, s) for a, b, s in zip(spatial, sizes, scales)
        )
        linear = upsample_ops.UpsampleLinear1D if n == 1 else upsample_ops.UpsampleBilinear2D
        return linear.apply(input, weights)
    index = tuple(layer_ops.nearest_indices(a, b, s) for a, b, s in zip(spatial, sizes, scales))
    op = layer_ops.UpsampleNearest2d if n == 2 else layer_ops.UpsampleNearest1d
    return op.apply(input, index)


class Upsample(Module):
    """``F.interpolate`` as a layer: ``nn.Upsample(scale_factor=2)`` doubles H and W."""

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return interpolate(
            input, self.size, self.scale_factor, self.mode, self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )  # fmt: skip

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` (PyTorch's older name)."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)`` (PyTorch's older name)."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


def _deprecated(name: str) -> None:
    warn(
        f"`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` instead.",
    )


def upsample(
    input: Tensor,  # noqa: A002
    size: Any = None,
    scale_factor: Any = None,
    mode: str = "nearest",
    align_corners: bool | None = None,
) -> Tensor:
    """Deprecated: ``interpolate``, with PyTorch's warning."""
    _deprecated("upsample")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """Deprecated: ``interpolate(mode='nearest')``, with PyTorch's warning."""
    _deprecated("upsample_nearest")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size: Any = None, scale_factor: Any = None) -> Tensor:  # noqa: A002
    """Deprecated: ``interpolate(mode='bilinear', align_corners=True)``, with PyTorch's
    warning."""
    _deprecated("upsample_bilinear")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
