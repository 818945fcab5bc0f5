"""``torch.backends.cuda`` on a machine without CUDA: nanoGPT's
``torch.backends.cuda.matmul.allow_tf32 = True`` is kept and changes nothing."""

from __future__ import annotations

from types import SimpleNamespace

__all__ = ["is_built", "matmul"]

matmul = SimpleNamespace(allow_tf32=False, allow_fp16_reduced_precision_reduction=True)


def is_built() -> bool:
    """False: microtorch is built without CUDA."""
    return False
