"""The backward engine: order, reuse, accumulation, retain_graph, hooks, freeing, deep graphs."""

from __future__ import annotations

import gc
import weakref
from types import ModuleType

import numpy as np
import pytest

import microtorch as torch
from microtorch.autograd import iter_backward


def test_seed_example_gradient_is_7_2() -> None:
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    y.backward()
    assert x.grad.tolist() == [7.0, 2.0]
    assert repr(x.grad) == "tensor([7., 2.])"
    assert y.grad_fn.name() == "MulBackward0"
    names = [fn.name() for fn, _ in y.grad_fn.next_functions]
    assert names == ["AddBackward0", "SelectBackward0"]


def test_grad_fn_none_for_leaf_and_mul_for_product() -> None:
    x = torch.tensor([2.0], requires_grad=True)
    y = x * 3
    assert x.grad_fn is None and x.is_leaf
    assert type(y.grad_fn).__name__ == "MulBackward0" and not y.is_leaf
    (acc, nr), (const, _) = y.grad_fn.next_functions
    assert type(acc).__name__ == "AccumulateGrad" and acc.variable is x and nr == 0
    assert const is None  # the 3 is a constant: no gradient goes to it


def test_reused_value_sums_both_gradients() -> None:
    x = torch.tensor(3.0, requires_grad=True)
    y = x * x  # x used twice: dy/dx = 2x
    y.backward()
    assert x.grad.item() == 6.0


def test_diamond_runs_each_node_once_after_all_its_gradients_arrived() -> None:
    a = torch.tensor(2.0, requires_grad=True)
    b = a * 3
    c = a + b
    d = b * c  # d = 3a * 4a = 12 a^2, dd/da = 24 a = 48
    names = [step.name for step in iter_backward(d)]
    assert d is not None and a.grad.item() == 48.0
    assert names.count("MulBackward0") == 2 and names.count("AddBackward0") == 1
    assert names[-1] == "AccumulateGrad"
    assert names.count("AccumulateGrad") == 1  # both paths summed before the leaf is reached


def test_gradients_accumulate_across_backward_calls() -> None:
    w = torch.tensor([[0.4, 0.3]], requires_grad=True)
    x = torch.tensor([[0.5, 0.5]])
    loss = (w * x).sum()
    loss.backward(retain_graph=True)
    first = w.grad
    assert w.grad.tolist() == [[0.5, 0.5]]
    loss.backward()
    assert w.grad.tolist() == [[1.0, 1.0]]
    assert w.grad is first  # accumulated in place, as PyTorch does


def test_second_backward_without_retain_graph_raises_pytorch_text() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x * x).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.backward()


def test_ops_that_save_nothing_can_backward_twice() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x + 1).sum()
    z.backward()
    z.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_non_scalar_backward_needs_gradient() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar"):
        y.backward()
    y.backward(torch.tensor([1.0, 0.5]))
    assert x.grad.tolist() == [2.0, 1.0]


def test_backward_on_tensor_without_grad_raises() -> None:
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.tensor([1.0]).sum().backward()


def test_tensor_hooks_and_retain_grad() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    y.retain_grad()
    (y * y).sum().backward()
    assert y.grad.tolist() == [40.0, 80.0]  # retain_grad sees the hooked gradient
    assert x.grad.tolist() == [80.0, 160.0]


def test_leaf_hook_and_handle_remove() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g + 1)
    (x * 3).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]
    handle.remove()
    x.grad = None
    (x * 3).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_non_leaf_grad_warns_with_pytorch_text() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert y.grad is None


def test_autograd_grad_returns_without_accumulating() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x**3).sum()
    (g,) = torch.autograd.grad(y, x)
    assert g.tolist() == [3.0, 12.0]
    assert x.grad is None


def test_autograd_grad_unused_input() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    unused = torch.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad((x * 2).sum(), [x, unused])
    gx, gu = torch.autograd.grad((x * 2).sum(), [x, unused], allow_unused=True)
    assert gx.tolist() == [2.0] and gu is None


def test_backward_inputs_accumulates_only_there() -> None:
    a = torch.tensor([1.0], requires_grad=True)
    w = torch.tensor([2.0], requires_grad=True)
    (a * w).sum().backward(inputs=[w])
    assert a.grad is None and w.grad.tolist() == [1.0]


def test_in_place_change_of_saved_value_is_detected() -> None:
    a = torch.tensor([1.0], requires_grad=True)
    b = a.sigmoid()  # saves its output b
    b.mul_(2)
    desc = r"\[microtorch.FloatTensor \[1\]\], which is output 0 of Sigmoid, is at version 1"
    with pytest.raises(RuntimeError, match=desc + "; expected version 0"):
        b.sum().backward()


def test_in_place_on_leaf_requiring_grad_is_refused_and_changes_nothing() -> None:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used"):
        x.add_(1)
    assert x.tolist() == [1.0, 2.0] and x._version == 0
    with torch.no_grad():
        x.add_(1)
    assert x.tolist() == [2.0, 3.0] and x._version == 1


def test_in_place_on_non_leaf_rebases_the_graph() -> None:
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    b.add_(1)
    b.mul_(3)
    assert b.grad_fn.name() == "MulBackward0"
    b.sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]


def test_no_grad_enable_grad_and_decorators() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
        with torch.enable_grad():
            z = x * 2
    assert not y.requires_grad and y.grad_fn is None
    assert z.requires_grad

    @torch.no_grad()
    def f(t: torch.Tensor) -> torch.Tensor:
        return t * 2

    assert not f(x).requires_grad
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    with torch.inference_mode():
        w = x * 2
    assert w.is_inference() and not w.requires_grad


def test_custom_function_runs_unchanged_pytorch_code() -> None:
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 2 * x * grad_output

    x = torch.tensor([3.0], requires_grad=True)
    y = Square.apply(x)
    y.backward()
    assert x.grad.tolist() == [6.0]
    assert y.grad_fn.name() == "SquareBackward"
    assert y.grad_fn.next_functions[0][0].variable is x


def test_custom_function_wrong_gradient_shape_is_explained() -> None:
    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return torch.ones(5)

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"returned an invalid gradient at index 0 - got \[5\]"):
        Bad.apply(x).sum().backward()


def test_100000_op_chain_backpropagates_without_recursion() -> None:
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    assert x.grad.tolist() == [1.0]


def test_saved_values_are_freed_by_backward_without_gc() -> None:
    gc.disable()
    try:
        x = torch.tensor(np.ones(1000, dtype=np.float32), requires_grad=True)
        y = x.exp()
        z = y.sum()
        exp_node = z.grad_fn.next_functions[0][0]
        saved = weakref.ref(exp_node.saved_tensors[0])
        del y
        z.backward()
        assert saved() is None  # the exp() output array is gone once backward ran
        node_ref = weakref.ref(exp_node)
        del exp_node, z
        assert node_ref() is None  # no reference cycles keep the graph alive
    finally:
        gc.enable()


def test_iter_backward_matches_backward_and_records_leaf_before_after() -> None:
    def build():
        w = torch.tensor([[0.5, -1.0]], requires_grad=True)
        x = torch.tensor([[2.0, 3.0]])
        return w, ((w * x).sum() * (w * x).sum())

    w1, loss1 = build()
    loss1.backward()
    w2, loss2 = build()
    steps = list(iter_backward(loss2))
    assert np.allclose(w2.grad.numpy(), w1.grad.numpy())
    leaf = [s for s in steps if s.name == "AccumulateGrad"]
    assert len(leaf) == 1 and leaf[0].variable is w2
    assert leaf[0].grad_before is None
    assert np.allclose(leaf[0].grad_after.numpy(), w1.grad.numpy())
    assert [s.index for s in steps] == list(range(len(steps)))
    root = steps[0]
    assert root.name == "MulBackward0" and root.grad_outputs[0].item() == 1.0
    assert len(root.grad_inputs) == len(root.node.next_functions)


def test_anomaly_detection_names_the_operation() -> None:
    x = torch.tensor([0.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = torch.autograd.detect_anomaly()
    with mode:
        y = x.sqrt() * 0  # d sqrt(0) = inf, times 0 = nan
        with (
            pytest.raises(RuntimeError, match="returned nan values"),
            pytest.warns(UserWarning, match="Error detected in SqrtBackward0"),
        ):
            y.sum().backward()


def test_gradcheck_accepts_right_and_rejects_wrong_gradients() -> None:
    x = torch.tensor([0.3, -0.7, 1.2], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: (t.tanh() * t).sum(), (x,))

    class Wrong(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t * t

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output  # should be 2 t * grad_output

    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        torch.autograd.gradcheck(lambda t: Wrong.apply(t).sum(), (x,))


def test_gradcheck_error_and_warning_read_as_pytorchs(torch_module: ModuleType) -> None:
    errors = []
    for lib in (torch, torch_module):
        x = lib.tensor([0.5, -1.5], dtype=lib.float64, requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            lib.autograd.gradcheck(lambda t: t * t.detach(), (x,))  # misses half of d(t*t)
        errors.append(info.value)
        with pytest.warns(UserWarning, match=r"Input #1 requires gradient and is not a double"):
            lib.autograd.gradcheck(lib.mul, (x, x.float()), raise_exception=False)
    ours, theirs = errors
    assert type(ours).__name__ == type(theirs).__name__ == "GradcheckError"
    # "numerical:tensor([[ 1.0000, ...]], dtype=torch.float64)\nanalytical:tensor(...)"
    assert str(ours).replace("microtorch.", "torch.") == str(theirs)


def test_inference_tensors_cannot_be_saved_for_backward() -> None:
    with torch.inference_mode():
        x = torch.ones(2)
    w = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        w * x  # noqa: B018 - the multiplication itself must raise
    assert (w + x).grad_fn.name() == "AddBackward0"  # add saves nothing: allowed, as in PyTorch


def test_inference_tensors_cannot_require_grad_outside_inference_mode() -> None:
    with torch.inference_mode():
        x = torch.ones(2)
    text = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
    for make_it_require_grad in (x.requires_grad_, lambda: setattr(x, "requires_grad", True)):
        with pytest.raises(RuntimeError, match=text):
            make_it_require_grad()
    assert not x.requires_grad
    x.requires_grad_(False)  # switching it off is allowed, as in PyTorch
    with torch.inference_mode():
        assert x.requires_grad_().requires_grad  # inside the mode it is allowed


def test_is_inference_mode_enabled_at_top_level() -> None:
    assert not torch.is_inference_mode_enabled() and torch.is_grad_enabled()
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
    with torch.no_grad():
        assert not torch.is_inference_mode_enabled()


def test_no_grad_as_bare_decorator() -> None:
    w = torch.ones(2, requires_grad=True)

    @torch.no_grad
    def double(t: torch.Tensor) -> torch.Tensor:
        return t * 2

    assert not double(w).requires_grad
    assert (w * 2).requires_grad  # the mode is restored afterwards


def test_leaf_grads_never_share_memory() -> None:
    # .grad may take over the engine's array, but only one nobody else holds.
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([3.0, 4.0], requires_grad=True)
    out = a + c  # AddBackward0 hands the same gradient array to both inputs
    out.backward(torch.tensor([1.0, 1.0]))
    a.grad.add_(10)
    assert c.grad.tolist() == [1.0, 1.0]
    g = torch.tensor([5.0, 6.0])
    w = torch.tensor([1.0, 1.0], requires_grad=True)
    (w * 1).backward(g)
    w.grad.mul_(0)
    assert g.tolist() == [5.0, 6.0]  # the gradient the user passed in is untouched
