"""``SyncBatchNorm``: batch norm whose statistics are shared across the processes of a
distributed run. microtorch runs in one process, which is what PyTorch does without an
initialized process group too: it falls back to plain batch norm (``F.batch_norm``)."""

from __future__ import annotations

from typing import Any

from microtorch.dtypes import dtype as dtype_
from microtorch.nn.module import Module
from microtorch.nn.normalization import _BatchNorm
from microtorch.tensor import Tensor

__all__ = ["SyncBatchNorm"]


class SyncBatchNorm(_BatchNorm):
    """Batch norm over ``(N, C, +)`` input; ``process_group`` is kept, never used (one
    process: nothing to synchronize)."""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any | None = None,
        device: Any = None,
        dtype: dtype_ | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias
        )
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group: Any | None = None) -> Module:
        """``module`` with each ``BatchNorm*d`` in it replaced by a ``SyncBatchNorm`` that
        shares its parameters and running statistics."""
        converted = module
        if isinstance(module, _BatchNorm):
            converted = cls(
                module.num_features, module.eps, module.momentum, module.affine,
                module.track_running_stats, process_group, bias=module.bias is not None,
            )  # fmt: skip
            if module.affine:
                converted.weight, converted.bias = module.weight, module.bias
            converted.running_mean = module.running_mean
            converted.running_var = module.running_var
            converted.num_batches_tracked = module.num_batches_tracked
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted
