"""The in-place twins of element-wise functions: ``x.sin_()``, ``torch.sin_(x)``, ``x.asin_()``.

Each twin computes its function's result and writes it into the tensor's own memory through
``apply_inplace`` (``api/inplace.py``: version counter, leaf checks, graph rebasing), so
``x.sin_()`` gets ``grad_fn`` ``SinBackward0`` as in PyTorch. One line per twin; the Tensor
methods (``api/tensor_methods.py``) and the ``torch.xxx_`` functions are these objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch.api import bitwise, cumulative, division, logarithms, rounding, trigonometry, unary
from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import without_torch_keywords

__all__ = [
    "twin", "abs_", "neg_", "exp_", "log_", "log1p_", "sqrt_", "sin_", "cos_", "sigmoid_",
    "tanh_", "reciprocal_", "log10_", "log2_", "square_", "ceil_", "floor_", "round_",
    "trunc_", "sign_", "bitwise_not_", "cumsum_", "cumprod_", "tan_", "sinh_", "cosh_",
    "asin_", "acos_", "atan_", "asinh_", "acosh_", "atanh_", "fmod_", "atan2_",
    "clamp_", "relu_",
]  # fmt: skip


def twin(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """The in-place twin ``name`` (e.g. ``"sin_"``) of ``function``: ``x.sin_()`` is
    ``x.copy_(x.sin())`` with PyTorch's checks, and returns ``x``."""
    function = without_torch_keywords(function)

    def in_place(self: Any, *args: Any, **kwargs: Any) -> Any:
        expect_tensor(self, name)  # (torch.sin_([0.0]) gets PyTorch's TypeError)
        return apply_inplace(self, name, function, *args, **kwargs)

    in_place.__name__ = in_place.__qualname__ = name
    in_place.__doc__ = f"``{name[:-1]}``, written into this tensor; returns it."
    return in_place


def _square(a: Any) -> Any:
    return ew.pow(a, 2)  # (PyTorch's square is pow(a, 2): PowBackward0)


# one-input functions
abs_, neg_, exp_, log_, log1p_, sqrt_ = (
    twin("abs_", unary.abs), twin("neg_", unary.neg), twin("exp_", unary.exp),
    twin("log_", unary.log), twin("log1p_", unary.log1p), twin("sqrt_", unary.sqrt),
)  # fmt: skip
sin_, cos_, sigmoid_, tanh_, reciprocal_ = (
    twin("sin_", unary.sin), twin("cos_", unary.cos), twin("sigmoid_", unary.sigmoid),
    twin("tanh_", unary.tanh), twin("reciprocal_", unary.reciprocal),
)  # fmt: skip
log10_, log2_, square_ = (
    twin("log10_", logarithms.log10), twin("log2_", logarithms.log2), twin("square_", _square),
)  # fmt: skip
ceil_, floor_, round_, trunc_, sign_ = (
    twin("ceil_", rounding.ceil), twin("floor_", rounding.floor), twin("round_", rounding.round),
    twin("trunc_", rounding.trunc), twin("sign_", rounding.sign),
)  # fmt: skip
bitwise_not_, cumsum_, cumprod_ = (
    twin("bitwise_not_", bitwise.bitwise_not), twin("cumsum_", cumulative.cumsum),
    twin("cumprod_", cumulative.cumprod),
)  # fmt: skip
tan_, sinh_, cosh_ = (
    twin("tan_", trigonometry.tan), twin("sinh_", trigonometry.sinh),
    twin("cosh_", trigonometry.cosh),
)  # fmt: skip
asin_, acos_, atan_, asinh_, acosh_, atanh_ = (
    twin("asin_", trigonometry.asin), twin("acos_", trigonometry.acos),
    twin("atan_", trigonometry.atan), twin("asinh_", trigonometry.asinh),
    twin("acosh_", trigonometry.acosh), twin("atanh_", trigonometry.atanh),
)  # fmt: skip
clamp_, relu_ = twin("clamp_", unary.clamp), twin("relu_", unary.relu)  # (torch.clamp_(x))
# two-input functions
fmod_, atan2_ = twin("fmod_", division.fmod), twin("atan2_", trigonometry.atan2)
