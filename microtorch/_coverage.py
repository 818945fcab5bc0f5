"""The PyTorch names microtorch does not cover, each with what to use instead.

``docs/api_coverage.md`` lists these and everything microtorch does implement. Asking a module
or a tensor for a name below raises ``NotCoveredError``: a ``NotImplementedError`` whose message
says what to use instead. It is an ``AttributeError`` as well, so ``hasattr(torch, "compile")``
and ``getattr(x, name, None)`` answer "absent" as for any missing name, and feature checks such
as nanoGPT's ``hasattr(F, "scaled_dot_product_attention")`` take their fallback path. (Python
turns an ``AttributeError`` inside ``from microtorch.nn import Transformer`` into a plain
``ImportError``; ``nn.Transformer`` written out gives the advice.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["NOT_COVERED", "NotCoveredError", "missing", "module_getattr"]

_CPU = "microtorch runs on the CPU only: use device='cpu'"
_NUMPY = "compute it with numpy on x.detach().numpy(), without gradients"
_FLOAT = "microtorch has real dtypes only; use torch.float32"
_LOOP = "write it with tensor operations in a Python loop"
_RNN = "write the cell with nn.Linear, torch.tanh and torch.sigmoid and loop over time steps"
_ATTENTION = "write attention with matmul, masked_fill and softmax, as in the nanoGPT lecture"
_INDEX = "index with an integer tensor instead, e.g. x[idx] or x[torch.arange(n), idx]"
_SCATTER = "assign through indexing instead, e.g. out[torch.arange(n), idx] = src"
_REPEAT = "use torch.cat([x] * k, dim) or x.expand(...)"
_TRIL = "multiply by a mask: x * (torch.arange(n)[:, None] >= torch.arange(n))"
_TRIU = "multiply by a mask: x * (torch.arange(n)[:, None] <= torch.arange(n))"
_SCHEDULE = "use LambdaLR(optimizer, f) with the schedule written as f(epoch)"
_INPLACE = "assign the out-of-place result, e.g. x = x.{0}() or x.copy_(x.{0}())"
_POOL1D = "add a dimension and use the 2-d layer, e.g. x.unsqueeze(2) with kernel_size=(1, k)"
_HOOK = "register a hook on the output tensor: out.register_hook(fn)"
_PLAIN = "write it with tensor operations: {0}"
_DENSITY = "write its log_prob with tensor operations; draw samples with torch.rand or torch.randn"

# functions and methods both, each a line of the operations microtorch has
_SHORTHANDS = {
    "clamp_min": _PLAIN.format("x.clamp(min=m)"),
    "clamp_max": _PLAIN.format("x.clamp(max=m)"),
    "isposinf": _PLAIN.format("x.isinf() & (x > 0)"),
    "isneginf": _PLAIN.format("x.isinf() & (x < 0)"),
    "signbit": _PLAIN.format("x < 0 (for -0.0: (1 / x) < 0)"),
    "frac": _PLAIN.format("x - x.trunc()"),
}

NOT_COVERED: dict[str, dict[str, str]] = {
    "torch": {
        "fft": _NUMPY, "linalg": _NUMPY + "; x.norm() gives vector norms", "special": _NUMPY,
        "jit": "run the model as plain Python", "compile": "run the model as plain Python",
        "sparse": "use dense tensors", "backends": _CPU, "mps": _CPU, "amp": "train in float32",
        "autocast": "train in float32", "onnx": "export the model from PyTorch",
        "profiler": "time the code with time.perf_counter", "hub": "load weights with PyTorch",
        "quantization": "train in float32", "func": _LOOP, "vmap": _LOOP,
        "einsum": "write it with matmul, permute, unsqueeze and sum",
        "tensordot": "reshape both to 2-d and use matmul", "tril": _TRIL, "triu": _TRIU,
        **_SHORTHANDS,
        "outer": _PLAIN.format("a[:, None] * b[None, :]"),
        "diag": _PLAIN.format("torch.eye(n) * v, or x[torch.arange(n), torch.arange(n)]"),
        "trace": _PLAIN.format("x[torch.arange(n), torch.arange(n)].sum()"),
        "cdist": _PLAIN.format("((a[:, None] - b[None]) ** 2).sum(-1).sqrt()"),
        "inverse": _NUMPY, "det": _NUMPY, "svd": _NUMPY, "unique": _NUMPY,
        "bincount": _PLAIN.format("(x[:, None] == torch.arange(k)).sum(0)"),
        "gather": _INDEX, "index_select": _INDEX, "masked_select": "index with the mask, x[mask]",
        "scatter": _SCATTER, "scatter_add": _SCATTER, "repeat_interleave": _REPEAT,
        "tile": _REPEAT, "flip": _INDEX, "roll": "use torch.cat of two slices",
        "meshgrid": "broadcast instead, e.g. x[:, None] + y[None, :]",
        "diff": _PLAIN.format("x[1:] - x[:-1]"), "narrow": _PLAIN.format("x[:, start:stop]"),
        "movedim": "use permute", "moveaxis": "use permute", "broadcast_to": "use x.expand(shape)",
        "as_strided": "use view, reshape or expand", "hstack": "use torch.cat or torch.stack",
        "vstack": "use torch.cat or torch.stack", "column_stack": "use torch.stack(xs, dim=1)",
        "median": _PLAIN.format("x.sort().values[(n - 1) // 2]"), "quantile": "sort and index",
        "mode": _NUMPY, "kthvalue": "sort and index", "std_mean": "call torch.std and torch.mean",
        "var_mean": "call torch.var and torch.mean",
        "count_nonzero": _PLAIN.format("(x != 0).sum()"),
        "argwhere": "use torch.nonzero",
        "nan_to_num": _PLAIN.format("torch.where(x.isnan(), 0, x)"),
        "rsqrt": _PLAIN.format("1 / x.sqrt()"),
        "erf": _NUMPY, "tan": _PLAIN.format("x.sin() / x.cos()"),
        "sinh": _PLAIN.format("(x.exp() - (-x).exp()) / 2"),
        "cosh": _PLAIN.format("(x.exp() + (-x).exp()) / 2"), "expm1": _PLAIN.format("x.exp() - 1"),
        "lerp": _PLAIN.format("a + w * (b - a)"),
        "normal": _PLAIN.format("mean + std * torch.randn(shape)"),
        "bernoulli": _PLAIN.format("(torch.rand(shape) < p).float()"),
        "logspace": _PLAIN.format("10 ** torch.linspace(start, end, steps)"),
        "is_tensor": "use isinstance(x, torch.Tensor)",
        "is_floating_point": "use x.is_floating_point()",
        "finfo": "use numpy.finfo(numpy.float32)", "iinfo": "use numpy.iinfo(numpy.int64)",
        "set_num_threads": "nothing to set: numpy chooses its threads",
        "get_num_threads": "nothing to ask: numpy chooses its threads",
        "use_deterministic_algorithms": "nothing to set: microtorch is deterministic already",
        "bfloat16": "use torch.float32", "complex64": _FLOAT, "cfloat": _FLOAT,
        "LongTensor": "use torch.tensor(data, dtype=torch.long)",
        "DoubleTensor": "use torch.tensor(data, dtype=torch.float64)",
        "IntTensor": "use torch.tensor(data, dtype=torch.int32)",
        "BoolTensor": "use torch.tensor(data, dtype=torch.bool)",
        "ByteTensor": "use torch.tensor(data, dtype=torch.uint8)",
    },
    "torch.Tensor": {
        "to_sparse": "use dense tensors", "pin_memory": "drop the call: nothing to pin on the CPU",
        "share_memory_": "use a single process", "storage": "use x.numpy() to reach the memory",
        "untyped_storage": "use x.numpy() to reach the memory", "apply_": _LOOP,
        "get_device": "use x.device", "nbytes": _PLAIN.format("x.numel() * x.element_size()"),
        "byte": "use x.to(torch.uint8)", "char": "use x.to(torch.int8)",
        "short": "use x.to(torch.int16)", "bfloat16": "use x.float()",
        "gather": _INDEX, "index_select": _INDEX, "masked_select": "index with the mask, x[mask]",
        "scatter": _SCATTER, "scatter_": _SCATTER, "scatter_add_": _SCATTER,
        "index_add_": _SCATTER, "repeat": _REPEAT, "repeat_interleave": _REPEAT, "tile": _REPEAT,
        "flip": _INDEX, "roll": "use torch.cat of two slices", "unfold": "slice and stack",
        "diag": _PLAIN.format("x[torch.arange(n), torch.arange(n)]"),
        "trace": _PLAIN.format("x[torch.arange(n), torch.arange(n)].sum()"), "tril": _TRIL,
        "triu": _TRIU, "tril_": _TRIL, "triu_": _TRIU, "outer": _PLAIN.format("a[:, None] * b"),
        "unique": _NUMPY, "bincount": _PLAIN.format("(x[:, None] == torch.arange(k)).sum(0)"),
        "median": _PLAIN.format("x.sort().values[(n - 1) // 2]"), "mode": _NUMPY,
        "quantile": "sort and index", "kthvalue": "sort and index",
        "count_nonzero": _PLAIN.format("(x != 0).sum()"), "argwhere": "use x.nonzero()",
        "nan_to_num": _PLAIN.format("torch.where(x.isnan(), 0, x)"),
        "nansum": _PLAIN.format("x[~x.isnan()].sum()"),
        "nanmean": _PLAIN.format("x[~x.isnan()].mean()"),
        **_SHORTHANDS,
        "clamp_min_": _PLAIN.format("x.clamp_(min=m)"),
        "clamp_max_": _PLAIN.format("x.clamp_(max=m)"),
        "narrow": _PLAIN.format("x[:, start:stop]"), "movedim": "use permute",
        "moveaxis": "use permute", "as_strided": "use view, reshape or expand",
        "rsqrt": _PLAIN.format("1 / x.sqrt()"),
        "erf": _NUMPY, "tan": _PLAIN.format("x.sin() / x.cos()"),
        "expm1": _PLAIN.format("x.exp() - 1"), "lerp": _PLAIN.format("a + w * (b - a)"),
        "addcmul": _PLAIN.format("x + value * a * b"),
        "addcdiv": _PLAIN.format("x + value * a / b"),
        "bernoulli": _PLAIN.format("(torch.rand(shape) < p).float()"),
        "normal_": "use torch.nn.init.normal_(x, mean, std)",
        "uniform_": "use torch.nn.init.uniform_(x, a, b)", "random_": "use torch.randint",
        "bernoulli_": _PLAIN.format("x.copy_((torch.rand(x.shape) < p).float())"),
        "exp_": _INPLACE.format("exp"), "log_": _INPLACE.format("log"),
        "sqrt_": _INPLACE.format("sqrt"), "abs_": _INPLACE.format("abs"),
        "neg_": _INPLACE.format("neg"), "sigmoid_": _INPLACE.format("sigmoid"),
        "tanh_": _INPLACE.format("tanh"), "squeeze_": _INPLACE.format("squeeze"),
        "unsqueeze_": "assign the out-of-place result, e.g. x = x.unsqueeze(0)",
        "t_": _INPLACE.format("t"), "transpose_": "assign the result, e.g. x = x.transpose(0, 1)",
    },
    "torch.nn": {
        "Conv3d": "use nn.Conv2d", "ConvTranspose2d": "upsample with indexing and use nn.Conv2d",
        "MaxPool1d": _POOL1D, "AvgPool1d": _POOL1D, "AdaptiveAvgPool1d": _POOL1D,
        "AdaptiveMaxPool2d": "use nn.MaxPool2d with the kernel size that fits",
        "GroupNorm": "use nn.BatchNorm2d or nn.LayerNorm", "InstanceNorm2d": "use nn.BatchNorm2d",
        "RMSNorm": _PLAIN.format("x / (x ** 2).mean(-1, keepdim=True).sqrt()"),
        "RNN": _RNN, "LSTM": _RNN, "GRU": _RNN, "RNNCell": _RNN, "LSTMCell": _RNN, "GRUCell": _RNN,
        "Transformer": _ATTENTION, "TransformerEncoder": _ATTENTION,
        "TransformerEncoderLayer": _ATTENTION, "TransformerDecoder": _ATTENTION,
        "TransformerDecoderLayer": _ATTENTION, "MultiheadAttention": _ATTENTION,
        "CTCLoss": "use PyTorch",
        "TripletMarginLoss": _PLAIN.format("(d(a, p) - d(a, n) + margin).clamp(min=0).mean()"),
        "CosineEmbeddingLoss": "write it with tensor operations",
        "Bilinear": "use nn.Linear on torch.cat([a, b], 1)",
        "EmbeddingBag": "use nn.Embedding followed by .sum(1) or .mean(1)",
        "DataParallel": "use a single process on the CPU",
        "Fold": "slice and stack", "Unfold": "slice and stack", "Dropout1d": "use nn.Dropout",
    },
    "torch.nn.Module": {
        "half": "keep the model in float32 (model.float())", "bfloat16": "keep it in float32",
        "type": "use model.float() or model.double()", "compile": "run the model as plain Python",
        "register_full_backward_hook": _HOOK, "register_backward_hook": _HOOK,
        "register_full_backward_pre_hook": _HOOK, "share_memory": "use a single process",
        "to_empty": "build the model on the CPU",
        "get_parameter": "use dict(model.named_parameters())",
        "get_buffer": "use dict(model.named_buffers())",
    },
    "torch.nn.utils": {
        "rnn": _RNN, "weight_norm": "use the plain layer", "spectral_norm": "use the plain layer",
    },
    "torch.nn.functional": {
        "grid_sample": "use PyTorch",
        "scaled_dot_product_attention": _ATTENTION, "multi_head_attention_forward": _ATTENTION,
        "gumbel_softmax": _PLAIN.format("F.softmax(logits - (-torch.rand(shape).log()).log(), -1)"),
        "ctc_loss": "use PyTorch", "conv_transpose2d": "upsample with indexing and use F.conv2d",
        "max_pool1d": _POOL1D, "avg_pool1d": _POOL1D,
        "adaptive_max_pool2d": "use F.max_pool2d with the kernel size that fits",
        "unfold": "slice and stack", "fold": "slice and stack",
        "group_norm": "use F.batch_norm or F.layer_norm",
    },
    "torch.nn.init": {
        "sparse_": "use dense weights",
    },
    "torch.optim": {
        "Adadelta": "use optim.Adam", "Adamax": "use optim.Adam", "NAdam": "use optim.Adam",
        "RAdam": "use optim.Adam", "LBFGS": "use optim.Adam or optim.SGD",
    },
    "torch.optim.lr_scheduler": {
        "CyclicLR": _SCHEDULE, "SequentialLR": _SCHEDULE,
    },
    "torch.autograd": {
        "forward_ad": "use reverse mode: y.backward() or torch.autograd.grad",
        "profiler": "time the code with time.perf_counter",
    },
    "torch.distributions": {
        "Beta": _DENSITY, "Binomial": _DENSITY, "Cauchy": _DENSITY, "Dirichlet": _DENSITY,
        "Exponential": _DENSITY, "Gamma": _DENSITY, "Geometric": _DENSITY, "Gumbel": _DENSITY,
        "HalfNormal": _DENSITY, "Laplace": _DENSITY, "LogNormal": _DENSITY,
        "Multinomial": _DENSITY, "Poisson": _DENSITY, "StudentT": _DENSITY,
        "MultivariateNormal": "use Normal with one scale per dimension and sum its log_prob "
        "over the last dimension",
        "Independent": "sum the log_prob of the base distribution over the event dimensions",
        "OneHotCategorical": "use Categorical and F.one_hot",
        "RelaxedOneHotCategorical": "use F.softmax of noisy logits",
        "TransformedDistribution": "transform Normal or Uniform samples with tensor operations",
    },
    "torch.utils.data": {
        "IterableDataset": "subclass Dataset with __len__ and __getitem__",
        "get_worker_info": "microtorch loads in one process: num_workers=0",
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
