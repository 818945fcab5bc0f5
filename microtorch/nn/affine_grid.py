"""``affine_grid``: the sampling grid of a batch of affine transforms (spatial transformer
networks), ``AffineGridGeneratorBackward0`` (issue 24)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from microtorch._warn import warn
from microtorch.api._checks import expect_tensor
from microtorch.autograd.function import NumpyFunction
from microtorch.tensor import Tensor

__all__ = ["affine_grid"]


def _steps(n: int, align_corners: bool, dtype: np.dtype) -> np.ndarray:
    # n points from -1 to 1 (pixel corners), pulled in to the pixel centres without
    # align_corners; one point is 0
    if n <= 1:
        return np.zeros(n, dtype)
    line = np.linspace(-1.0, 1.0, n)
    return (line if align_corners else line * (n - 1) / n).astype(dtype)


def _base_grid(spatial: Sequence[int], align_corners: bool, dtype: np.dtype) -> np.ndarray:
    # (*spatial, k + 1): each position's coordinates x (last dim first), y, (z), then 1
    axes = [_steps(n, align_corners, dtype) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")  # one per spatial dim, in (D,) H, W order
    return np.stack([*mesh[::-1], np.ones(tuple(spatial), dtype)], axis=-1)


class AffineGridGenerator(NumpyFunction):
    """grid[n, p] = theta[n] @ base[p] (base[p] = (x, y, 1) at position p), so
    dL/dtheta[n] = sum over p of dL/dgrid[n, p] base[p]^T."""

    node_name = "AffineGridGeneratorBackward0"
    ctx_fields = ("base",)

    @staticmethod
    def forward(ctx, theta, base):
        ctx.base = base
        return np.einsum("...k,nik->n...i", base, theta)

    @staticmethod
    def backward(ctx, grad_output):
        k = ctx.base.shape[-1]
        n = grad_output.shape[0]
        rows = grad_output.reshape(n, -1, k - 1)  # (N, P, k - 1)
        base = np.broadcast_to(ctx.base.reshape(1, -1, k), (n, rows.shape[1], k))  # (N, P, k)
        return np.swapaxes(np.swapaxes(base, 1, 2) @ rows, 1, 2)  # (N, k - 1, k)


def affine_grid(theta: Tensor, size: Sequence[int], align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) grid (N, D, H, W, 3 for 5-d ``size``) of the points each affine
    matrix theta[n] (N, 2, 3) or (N, 3, 4) maps the output's normalised coordinates to."""
    if align_corners is None:
        warn(
            "Default grid_sample and affine_grid behavior has changed to align_corners=False "
            "since 1.3.0. Please specify align_corners=True if the old behavior is desired. "
            "See the documentation of grid_sample for details.",
        )
        align_corners = False
    expect_tensor(theta, "affine_grid", "theta")
    if not theta._dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shape = tuple(theta._data.shape)
    if len(size) in (4, 5):
        k = len(size) - 2
        if len(shape) != 3 or shape[-2:] != (k, k + 1):
            raise ValueError(
                f"Expected a batch of {k}D affine matrices of shape Nx{k}x{k + 1} for size "
                f"{size}. Got {theta.shape}."
            )
        spatial = list(size)[2:]
    else:
        raise NotImplementedError(
            "affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
            f"respectively. Got size {size}."
        )
    if align_corners and min(spatial) == 1:
        warn(
            "Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
            "align_corners=True. This is not an intended use case of affine_grid. See the "
            "documentation of affine_grid for details.",
        )
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    base = _base_grid(spatial, align_corners, theta._data.dtype)
    return AffineGridGenerator.apply(theta, base)
