"""ctx_fields: what a Function's forward keeps on ctx lives in slots of its node class."""

from __future__ import annotations

import microtorch as torch


def test_a_node_with_ctx_fields_has_no_dict_of_its_own() -> None:
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = x + b  # Add keeps alpha on ctx
    node = y.grad_fn
    assert type(node).__slots__ == ("alpha",)
    assert node.alpha == 1
    assert node.__dict__ == {}  # alpha went to a slot, not to a dict
    assert node.input_shape(0) == (1, 2) and node.input_shape(1) == (2,)  # read off the edges
    y.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0]] and b.grad.tolist() == [1.0, 1.0]


def test_a_function_without_ctx_fields_still_keeps_anything_on_ctx() -> None:
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.k = k  # not declared anywhere: the node's own dict takes it
            return x * k

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.k, None

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Scale.apply(x, 3.0)
    assert y.grad_fn.k == 3.0
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
