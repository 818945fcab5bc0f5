"""Module backward hooks: ``register_full_backward_hook``, ``register_full_backward_pre_hook``
and the deprecated ``register_backward_hook``, with PyTorch's semantics.

A full backward hook sees the gradients of the module's own inputs and outputs:
``hook(module, grad_input, grad_output)``, one entry per positional argument (``None`` for one
that is not a tensor or needs no gradient) and per output; what it returns replaces
``grad_input``. A pre-hook ``hook(module, grad_output)`` runs first and may replace
``grad_output``. As in PyTorch, a call of a module that has such hooks passes its tensor inputs
and outputs through an identity ``Function``, ``BackwardHookFunction``, so the graph shows a
``BackwardHookFunctionBackward`` node on each side of the module; the hooks hang on them.

The old ``register_backward_hook`` hangs on the ``grad_fn`` of the output instead, so it sees
that one node's gradients (for ``nn.Linear``: bias, input and weight of ``addmm``), and PyTorch
warns when that is not the whole module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microtorch._warn import warn
from microtorch.autograd import grad_mode
from microtorch.autograd.function import Function
from microtorch.tensor import Tensor

__all__ = ["BackwardHookFunction", "BackwardHook", "register_old_hooks"]

_NO_INPUT_WARNING = (
    "Full backward hook is firing when gradients are computed with respect to module outputs "
    "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
    "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details."
)


class BackwardHookFunction(Function):
    """The identity on the tensors it gets: a node in the graph for the module's hooks."""

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        return args

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        return grad_outputs


def _through_identity(values: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[int], Any]:
    # values with their tensors that need a gradient passed through BackwardHookFunction;
    # the positions of those tensors, and the node (None: nothing needed a gradient)
    where = [i for i, v in enumerate(values) if isinstance(v, Tensor) and v.requires_grad]
    if not where or not grad_mode.is_grad_enabled():
        return values, [], None
    passed = BackwardHookFunction.apply(*(values[i] for i in where))
    out = list(values)
    for i, t in zip(where, passed):
        out[i] = t
    return tuple(out), where, passed[0].grad_fn


def _spread(where: list[int], grads: tuple[Any, ...], n: int) -> tuple[Any, ...]:
    # the gradients of the tensors at ``where``, as one entry per value (None elsewhere)
    out: list[Any] = [None] * n
    for i, g in zip(where, grads):
        out[i] = g
    return tuple(out)


def _zeros_for_constants(grads: tuple[Any, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
    # PyTorch passes a tensor input that needs no gradient through its node too (marked non-
    # differentiable): the hook sees zeros for it, None for a value that is not a tensor
    return tuple(
        v.detach() * 0 if g is None and isinstance(v, Tensor) else g for g, v in zip(grads, values)
    )


class BackwardHook:
    """One call of a module with full backward hooks (or pre-hooks): the nodes on either side
    of it, and the gradient of its outputs, kept between the two."""

    def __init__(
        self, module: Any, hooks: list[Callable[..., Any]], pre_hooks: list[Callable[..., Any]]
    ) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs: tuple[Any, ...] | None = None
        self.n_inputs, self.input_where = 0, [0]
        self.inputs_tracked = False
        self.constants: tuple[Any, ...] = ()
        self.n_outputs, self.output_where = 0, [0]

    def setup_input_hook(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """``args`` with their tensors passed through the input-side node."""
        args, self.input_where, node = _through_identity(args)
        self.n_inputs, self.inputs_tracked = len(args), node is not None
        self.constants = tuple(None if i in self.input_where else a for i, a in enumerate(args))
        if node is not None:
            node.register_hook(self._input_hook)
        return args

    def setup_output_hook(self, result: Any) -> Any:
        """``result`` (a tensor or a tuple) with its tensors passed through the output-side
        node."""
        single = isinstance(result, Tensor)
        values = (result,) if single else result
        if not isinstance(values, tuple):
            return result
        values, self.output_where, node = _through_identity(values)
        self.n_outputs = len(values)
        if node is not None:
            node.register_prehook(self._output_hook)
        return values[0] if single else values

    def _output_hook(self, grad_outputs: tuple[Any, ...]) -> Any:
        grads = _spread(self.output_where, grad_outputs, self.n_outputs)
        for hook in self.pre_hooks:
            new = hook(self.module, grads)
            if new is None:
                continue
            new = new if isinstance(new, tuple) else (new,)
            if len(new) != len(grads):
                raise RuntimeError(
                    "Backward pre hook returned an invalid number of grad_output, got "
                    f"{len(new)}, but expected {len(grads)}"
                )
            grads = new
        self.grad_outputs = grads
        if not self.inputs_tracked:  # no input needs a gradient: the hooks run here
            if self.hooks:
                warn(_NO_INPUT_WARNING)
            none = (None,) * self.n_inputs
            for hook in self.hooks:
                res = hook(self.module, none, grads)
                if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should "
                        "always return None or None for all gradients."
                    )
            self.grad_outputs = None
        return tuple(grads[i] for i in self.output_where)

    def _input_hook(self, grad_inputs: tuple[Any, ...], _: tuple[Any, ...]) -> Any:
        if self.grad_outputs is None:  # (a gradient that did not come through the outputs)
            return None
        grads = _zeros_for_constants(
            _spread(self.input_where, grad_inputs, self.n_inputs), self.constants
        )
        for hook in self.hooks:
            new = hook(self.module, grads, self.grad_outputs)
            if new is None:
                continue
            new = new if isinstance(new, tuple) else (new,)
            if len(new) != len(grads):
                raise RuntimeError(
                    "Backward hook returned an invalid number of grad_input, got "
                    f"{len(new)}, but expected {len(grads)}"
                )
            grads = new
        self.grad_outputs = None
        return tuple(grads[i] for i in self.input_where)


def register_old_hooks(
    module: Any, hooks: list[Callable[..., Any]], args: tuple[Any, ...], result: Any
) -> None:
    """``register_backward_hook``'s hooks: on the ``grad_fn`` of the (first) output tensor,
    called ``hook(module, grad_input, grad_output)`` with that node's gradients."""
    var = result
    while not isinstance(var, Tensor):
        if isinstance(var, dict):
            var = next(v for v in var.values() if isinstance(v, Tensor))
        else:
            var = var[0]
    node = var.grad_fn
    if node is None:
        return
    for hook in hooks:
        node.register_hook(lambda gi, go, hook=hook: hook(module, gi, go))
    _warn_if_partial(args, result, node)


def _warn_if_partial(args: tuple[Any, ...], result: Any, node: Any) -> None:
    # PyTorch's warnings where the output's node is not the whole module
    outputs = (result,) if isinstance(result, Tensor) else result
    on = "Using non-full backward hooks on a Module that does not {0}"
    if not (isinstance(outputs, tuple) and all(isinstance(r, Tensor) for r in outputs)):
        _warn(on.format("return a single Tensor or a tuple of Tensors"), "of the grad_output")
        return
    if not all(isinstance(a, Tensor) for a in args):
        _warn(on.format("take as input a single Tensor or a tuple of Tensors"), "of the grad_input")
        return
    when = "Using a non-full backward hook when {0}"
    out_nodes = {r.grad_fn for r in outputs if r.grad_fn is not None}
    if not out_nodes or (len(out_nodes) == 1 and node not in out_nodes):
        _warn(when.format("outputs are nested in python data structure"), "grad_output")
    elif len(out_nodes) > 1:
        _warn(when.format("outputs are generated by different autograd Nodes"), "grad_output")
    elif {a.grad_fn for a in args if a.grad_fn is not None} != {n for n, _ in node.next_functions}:
        _warn(when.format("the forward contains multiple autograd Nodes"), "grad_input")


def _warn(start: str, missing: str) -> None:
    warn(
        f"{start} is deprecated and will be removed in future versions. This hook will be "
        f"missing some {missing}. Please use register_full_backward_hook to get the "
        "documented behavior.",
        FutureWarning,
    )
