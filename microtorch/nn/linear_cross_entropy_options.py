"""``nn.LinearCrossEntropyOptions``: how ``F.linear_cross_entropy`` splits the batch into
chunks when it runs its chunked path (issue 24).

PyTorch's chunked path keeps only one chunk's (rows, classes) logits at a time, to save
memory for big vocabularies. microtorch computes the same loss and gradients in one piece; it
keeps the options' checks and their resolution against a call (``_adjust``), whose errors a
call can raise.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from microtorch import dtypes

__all__ = ["LinearCrossEntropyOptions"]

_POLICIES = ("auto", "accurate", "balanced", "compact")
_AUTO_FALLBACK = ("compact", "aspect_ratio:2")  # PyTorch's pick for float32/float64 on a CPU


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """The chunked path's settings: ``batch_chunk_size`` rows a chunk, or a size picked by
    ``chunking_method`` (``"aspect_ratio[:N]"``, ``"auto"``, None); ``acc_policy`` and
    ``acc_dtype`` for the precision of the sums; ``allow_retain_graph`` to let backward run
    twice (mean and sum: the gradients are computed in forward and used up by backward)."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: str = "auto"
    acc_dtype: Any = None

    def __post_init__(self) -> None:
        if self.acc_policy not in _POLICIES:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            factor = factor if sep else "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        size = self.batch_chunk_size
        if not (size is None or (isinstance(size, int) and size > 0)):
            raise ValueError(f"batch_chunk_size must be positive int or None, got {size!r}")
        floats = (dtypes.float16, dtypes.float32, dtypes.float64)  # (microtorch: no bfloat16)
        if self.acc_dtype is not None and self.acc_dtype not in floats:
            raise ValueError(
                "acc_dtype must be one of {None, torch.float16, torch.bfloat16, torch.float32, "
                f"torch.float64}}, got {self.acc_dtype!r}. Pass acc_dtype=None to let the op "
                "pick automatically."
            )

    def _adjust(self, num_batches: int, in_features: int, num_classes: int, dtype: Any) -> Any:
        """These options with "auto" and None resolved for one call (PyTorch's picks for a
        CPU); the ValueError when batch_chunk_size and chunking_method disagree."""
        method = self.chunking_method
        if method == "auto" and self.batch_chunk_size is not None:
            method = None  # (an explicit size turns the heuristic off)
        policy = _AUTO_FALLBACK[0] if self.acc_policy == "auto" else self.acc_policy
        method = _AUTO_FALLBACK[1] if method == "auto" else method
        size = min(self.batch_chunk_size or num_batches, num_batches)
        if method is not None:
            size = _aspect_ratio_size(method, num_batches, in_features, num_classes)
            if self.batch_chunk_size is not None and self.batch_chunk_size != size:
                raise ValueError(
                    f"batch_chunk_size (={self.batch_chunk_size}) and chunking_method "
                    f"('{method}') give different chunk sizes ({self.batch_chunk_size} vs "
                    f"{size}); pass only one."
                )
        return dataclasses.replace(
            self, acc_policy=policy, chunking_method=method, batch_chunk_size=max(1, size),
            acc_dtype=dtype if self.acc_dtype is None else self.acc_dtype,
        )  # fmt: skip


def _aspect_ratio_size(method: str, num_batches: int, in_features: int, num_classes: int) -> int:
    # rows whose (rows, classes) logits take as much memory as the (batch, in_features) input,
    # rounded up to a power of 2, divided by N for "aspect_ratio:N"
    factor = int(method.split(":", 1)[1]) if ":" in method else 1
    rows = -(-num_batches // -(-num_classes // in_features))
    return min((1 << (rows - 1).bit_length()) // factor, num_batches)
