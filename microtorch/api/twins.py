"""The in-place twins of element-wise functions: ``x.sin_()``, ``torch.sin_(x)``, ``x.asin_()``.

Each twin computes its function's result and writes it into the tensor's own memory through
``apply_inplace`` (``api/inplace.py``: version counter, leaf checks, graph rebasing), so
``x.sin_()`` gets ``grad_fn`` ``SinBackward0`` as in PyTorch. One line per twin; the Tensor
methods (``api/tensor_methods.py``) and the ``torch.xxx_`` functions are these objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch.api import (
    bitwise,
    cumulative,
    division,
    pointwise,
    trigonometry,
    unary,
)
from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.api.inplace import apply_inplace
from microtorch.api.keywords import by_fn_names, by_position
from microtorch.autograd import grad_mode
from microtorch.autograd import node as _node

__all__ = [
    "twin", "abs_", "neg_", "exp_", "log_", "log1p_", "sqrt_", "sin_", "cos_", "sigmoid_",
    "tanh_", "reciprocal_", "square_", "bitwise_not_", "cumsum_", "cumprod_", "tan_", "sinh_",
    "cosh_", "asin_", "acos_", "atan_", "asinh_", "acosh_", "atanh_", "fmod_", "atan2_",
    "clamp_", "relu_", "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "logical_and_",
    "logical_or_", "logical_xor_", "logical_not_", "true_divide_", "deg2rad_", "rad2deg_",
    "hypot_", "copysign_", "sgn_", "gcd_", "lcm_",
]  # fmt: skip


def twin(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """The in-place twin ``name`` (e.g. ``"sin_"``) of ``function``: ``x.sin_()`` is
    ``x.copy_(x.sin())`` with PyTorch's checks, and returns ``x``."""
    plain = getattr(function, "__wrapped__", function)  # (the function under torch_keywords)
    torch_names, numpy_aliases = getattr(function, "torch_names", (("input", "other"), False))

    def in_place(*args: Any, **kwargs: Any) -> Any:
        if kwargs:  # torch.sin_(input=x), x.atan2_(other=y): PyTorch's names, by position
            if not args and "input" in kwargs:
                args = (kwargs.pop("input"),)
            renamed = by_fn_names(plain, torch_names, numpy_aliases, args, kwargs)
            args, kwargs = by_position(plain, *renamed)
        if not args:
            raise TypeError(f'{name}() missing 1 required positional arguments: "input"')
        self, *rest = args
        expect_tensor(self, name)  # (torch.sin_([0.0]) gets PyTorch's TypeError)
        return apply_inplace(self, name, plain, *rest, **kwargs)

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
square_ = twin("square_", _square)
# (log10_, log2_, ceil_, floor_, round_, trunc_, sign_: Tensor Methods, made from their module
# on first use by api/tensor_methods.py's _twins)
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


def truth_twin(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """The in-place twin of a comparison: ``x.lt_(y)`` writes ``x < y`` into ``x`` as 1s and 0s
    of x's dtype. Into a tensor that requires grad it raises: PyTorch records such a write as a
    node whose gradient is zero (``EqBackward0``), which microtorch does not."""
    in_place = twin(name, function)

    def truth_in_place(self: Any, *args: Any, **kwargs: Any) -> Any:
        recorded = isinstance(self, _node.Tensor) and self.grad_fn is not None
        if recorded and grad_mode.is_grad_enabled():  # (a leaf gets PyTorch's leaf error)
            raise RuntimeError(
                f"microtorch does not record {name} on a tensor that requires grad (PyTorch "
                f"records a node with zero gradient). Fix: compare out of place, "
                f"x.{name[:-1]}(...), or write into x.detach()"
            )
        return in_place(self, *args, **kwargs)

    truth_in_place.__name__ = truth_in_place.__qualname__ = name
    truth_in_place.__doc__ = in_place.__doc__
    return truth_in_place


# comparisons and logical functions: x.lt_(y) writes x < y as 1s and 0s of x's dtype
eq_, ne_, lt_, le_, gt_, ge_ = (
    truth_twin("eq_", ew.eq), truth_twin("ne_", ew.ne), truth_twin("lt_", ew.lt),
    truth_twin("le_", ew.le), truth_twin("gt_", ew.gt), truth_twin("ge_", ew.ge),
)  # fmt: skip
logical_and_, logical_or_, logical_xor_, logical_not_ = (
    truth_twin("logical_and_", ew.logical_and), truth_twin("logical_or_", ew.logical_or),
    truth_twin("logical_xor_", ew.logical_xor), truth_twin("logical_not_", ew.logical_not),
)  # fmt: skip
true_divide_ = twin("true_divide_", ew.div)
deg2rad_, rad2deg_, hypot_, copysign_, sgn_, gcd_, lcm_ = (
    twin("deg2rad_", pointwise.deg2rad), twin("rad2deg_", pointwise.rad2deg),
    twin("hypot_", pointwise.hypot), twin("copysign_", pointwise.copysign),
    twin("sgn_", pointwise.sgn), twin("gcd_", pointwise.gcd), twin("lcm_", pointwise.lcm),
)  # fmt: skip
