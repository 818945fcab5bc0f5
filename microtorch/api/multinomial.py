"""multinomial (``torch.multinomial``, ``x.multinomial``): indices drawn from microtorch's
seeded generator (or ``generator=``) with PyTorch's checks of the weights."""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import random_fill
from microtorch.api.arguments import parsed
from microtorch.api.operands import wrap

__all__ = ["multinomial"]


@parsed(
    "multinomial",
    (
        "Tensor input, int num_samples, bool replacement=False, *, torch.Generator generator=None, "
        "Tensor out=None"
    ),
)
def multinomial(
    input: Any,
    num_samples: int,
    replacement: bool = False,
    *,
    generator: Any = None,
) -> Any:
    """Indices drawn with probability proportional to ``input``'s weights (per row if 2-d)."""
    if not input._dtype.is_floating_point:
        kind = input._dtype._legacy.removesuffix("Tensor")
        raise RuntimeError(
            f"multinomial only supports floating-point dtypes for input, got: {kind}"
        )
    if input._data.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    p = np.atleast_2d(input._data).astype(np.float64)  # (rows, categories)
    if not replacement and num_samples > p.shape[-1]:
        raise RuntimeError(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
        )
    if not np.isfinite(p).all() or (p < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (p.sum(-1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rng = random_fill.generator_rng(generator)
    if replacement:  # inverse CDF: the last entry is exactly 1, so every draw lands somewhere
        cdf = p.cumsum(-1)
        cdf /= cdf[:, -1:]
        u = rng.random((p.shape[0], num_samples))
        out = np.stack([np.searchsorted(c, row, side="right") for c, row in zip(cdf, u)])
    else:  # the k smallest exponential(1) / p: k draws without replacement (zero weights last)
        with np.errstate(divide="ignore"):
            keys = rng.standard_exponential(p.shape) / p
        out = np.argsort(keys, axis=-1, kind="stable")[:, :num_samples]
    out = out if input._data.ndim == 2 else out[0]
    return wrap(out.astype(np.int64), input._device)
