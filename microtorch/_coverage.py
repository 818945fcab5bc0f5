"""The PyTorch names microtorch does not cover, each with what to use instead.

``docs/api_coverage.md`` lists these and everything microtorch does implement. Asking a module
or a tensor for a name below raises ``NotCoveredError``: a ``NotImplementedError`` whose message
says what to use instead. It is an ``AttributeError`` as well, so ``hasattr(torch, "compile")``
and ``getattr(x, name, None)`` answer "absent" as for any missing name, and feature checks such
as ``hasattr(F, "grid_sample")`` take their fallback path. (Python turns an ``AttributeError``
inside ``from microtorch.nn import Bilinear`` into a plain ``ImportError``; ``nn.Bilinear``
written out gives the advice.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["NOT_COVERED", "NotCoveredError", "missing", "module_getattr"]

_CPU = "microtorch runs on the CPU only: use device='cpu'"
_NUMPY = "compute it with numpy on x.detach().numpy(), without gradients"
_SCIPY = "compute it with scipy.special on x.detach().numpy(), without gradients"
_EIG = (
    "microtorch has no complex dtypes and its results are complex; for a symmetric matrix "
    "use torch.linalg.eigh (real)"
)
_FLOAT = "microtorch has real dtypes only; use torch.float32"
_LOOP = "write it with tensor operations in a Python loop"
_RNN = "pad the sequences to one length with torch.stack or F.pad and run the padded batch"
_SCATTER = "assign through indexing instead, e.g. out[torch.arange(n), idx] = src"
_DENSITY = "write its log_prob with tensor operations; draw samples with torch.rand or torch.randn"
# whole categories microtorch does not cover, each with its reason and what to do instead
_SPARSE = "microtorch has dense tensors only: use dense tensors (torch.zeros, then index)"
_QUANTIZED = "microtorch has no quantized tensors: train and run in float32"
_COMPLEX = "microtorch has real dtypes only: keep real and imaginary parts as two tensors"
_ONE_PROCESS = "microtorch runs in one process on one machine: train without it"
_TRACING = "run the model as plain Python: microtorch has no graph capture or compiler"
_STFT = (  # (walkh)
    "microtorch has no complex dtypes; PyTorch 2.13's stft of real input needs "
    "return_complex=True (complex output; return_complex=False is deprecated) and istft takes "
    "complex input only: "
    "compute it with numpy on x.detach().numpy() (frames times a window, then np.fft.rfft), "
    "without gradients"
)
_NORM = "use x.norm(p, dim) or x.abs().pow(p).sum(dim).pow(1 / p)"

NOT_COVERED: dict[str, dict[str, str]] = {
    "torch": {
        "distributed": _ONE_PROCESS, "multiprocessing": _ONE_PROCESS, "fx": _TRACING,
        "export": _TRACING, "package": _TRACING, "library": _TRACING, "nested": _SPARSE,
        "sparse_coo_tensor": _SPARSE, "sparse_csr_tensor": _SPARSE, "ao": _QUANTIZED,
        "quantize_per_tensor": _QUANTIZED, "qint8": _QUANTIZED, "quint8": _QUANTIZED,
        "complex128": _COMPLEX, "cdouble": _COMPLEX, "complex": _COMPLEX, "polar": _COMPLEX,
        "view_as_real": _COMPLEX, "view_as_complex": _COMPLEX, "angle": _COMPLEX,
        "xpu": _CPU,
        "fft": _NUMPY,
        "jit": "run the model as plain Python", "compile": "run the model as plain Python",
        "sparse": "use dense tensors", "mps": _CPU, "amp": "train in float32",
        "autocast": "train in float32", "onnx": "export the model from PyTorch",
        "hub": "load weights with PyTorch",
        "quantization": "train in float32", "func": _LOOP, "vmap": _LOOP,
        "as_strided": "use view, reshape or expand", "as_strided_": "use view, reshape or expand",
        "bfloat16": "use torch.float32", "complex64": _FLOAT, "cfloat": _FLOAT,
        "stft": _STFT, "istft": _STFT,
    },
    "torch.special": {
    },
    "torch.Tensor": {
        "to_dense": _SPARSE, "coalesce": _SPARSE, "sparse_mask": _SPARSE,
        "dequantize": _QUANTIZED, "q_scale": _QUANTIZED, "angle": _COMPLEX,
        "to_mkldnn": _CPU,
        "to_sparse": "use dense tensors",
        "share_memory_": "use a single process",
        "untyped_storage": "use x.numpy() to reach the memory", "apply_": _LOOP,
        "bfloat16": "use x.float()",
        "as_strided": "use view, reshape or expand", "as_strided_": "use view, reshape or expand",
        "stft": _STFT, "istft": _STFT,
    },
    "torch.linalg": {
        "eig": _EIG, "eigvals": _EIG,
    },
    "torch.profiler": {
        "schedule": "profile the steps you want inside one with torch.profiler.profile() block",
        "tensorboard_trace_handler": "use prof.export_chrome_trace(path)",
    },
    "torch.functional": {
        "stft": _NUMPY,
    },
    "torch.nn": {
        "DataParallel": "use a single process on the CPU",
    },
    "torch.nn.Module": {
        "half": "its layers run in float32 or float64, not float16 (torch.half): keep the model "
        "in float32 (model.float())",
        "bfloat16": "microtorch has no bfloat16 dtype: keep the model in float32 (model.float())",
        "compile": "run the model as plain Python", "share_memory": "use a single process",
        "to_empty": "build the model on the CPU",
    },
    "torch.nn.utils": {
        "rnn": _RNN, "weight_norm": "use the plain layer", "spectral_norm": "use the plain layer",
    },
    "torch.nn.functional": {
        "grid_sample": "use PyTorch",
    },
    "torch.nn.init": {
        "sparse_": "use dense weights",
    },
    "torch.optim": {
    },
    "torch.optim.lr_scheduler": {
    },
    "torch.autograd": {
        "forward_ad": "use reverse mode: y.backward() or torch.autograd.grad",
    },
    "torch.distributions": {},
    "torch.utils.data": {
    },
}  # fmt: skip


class NotCoveredError(NotImplementedError, AttributeError):
    """A PyTorch name microtorch does not implement; the message says what to use instead."""


def missing(namespace: str, name: str, obj: object, owner: str) -> AttributeError:
    """The error for ``owner.name``: ``NotCoveredError`` if the table lists it, else the usual."""
    advice = NOT_COVERED[namespace].get(name)
    if advice is None:  # (name and obj let Python suggest a near miss: "Did you mean ...?")
        return AttributeError(f"{owner} has no attribute '{name}'", name=name, obj=obj)
    return NotCoveredError(
        f"microtorch does not cover {namespace}.{name} ({advice}); see docs/api_coverage.md"
    )


class NotCovered:
    """A class attribute standing for a PyTorch name microtorch does not cover: reading it, on
    the class or an instance, raises ``NotCoveredError`` (so ``hasattr`` answers False)."""

    def __init__(self, namespace: str, name: str) -> None:
        self.namespace, self.name = namespace, name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        raise missing(self.namespace, self.name, obj, "")


def module_getattr(namespace: str, module: str) -> Callable[[str], Any]:
    """A module's ``__getattr__`` (PEP 562): called only for names the module lacks."""

    def __getattr__(name: str) -> Any:
        raise missing(namespace, name, sys.modules[module], f"module '{module}'")

    return __getattr__
