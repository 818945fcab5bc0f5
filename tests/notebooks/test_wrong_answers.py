"""Wrong answers a student types get the check cell's own message, never a crash elsewhere.

Each case swaps one solution of a chapter for a plausible mistake, runs the chapter up to and
including that exercise's check cell, and reads the error the check cell shows.
"""

from __future__ import annotations

import re
from types import ModuleType

import nbformat
import pytest

from .loader import load_tool

CHAPTERS = {p.name[:2]: p for p in load_tool("make_exercises").chapters()}

ZERO_GRAD_LAST = """def train_step(model, optimizer, X, y):
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()"""
NO_ZERO_GRAD = """def train_step(model, optimizer, X, y):
    loss = ((model(X) - y) ** 2).mean()
    loss.backward()
    optimizer.step()
    return loss.item()"""
NEW_DATA = """def sgd_step(params, lr):
    for p in params:
        if p.grad is not None:
            p.data = p.data - lr * p.grad"""
NO_CLONE = """def gradients_of(weight, loss_fns):
    grads = []
    for loss_fn in loss_fns:
        weight.grad = None
        loss_fn().backward()
        grads.append(weight.grad)
    return grads"""

IN_PLACE = """def loss_of(x):
    y = x.exp()
    y *= 2
    return y.sum()"""
ITEM = """def loss_of(x):
    return (2 * x.exp()).sum().item()"""


# Chapter 11, exercise 3: a walk that passes each gradient on as soon as it pops a value, with
# no topological order. It is right on trees and on a * a + a, and wrong once an intermediate
# value is used more than once (h = a * b; h * h + h gives a.grad = 81, not 39).
STACK_WALK = """def backward(output):
    output.grad = 1.0
    stack = [output]
    while stack:
        v = stack.pop()
        for parent, local in v.parents:
            parent.grad += local * v.grad
            stack.append(parent)"""
SEEN_ONCE = """def backward(output):
    output.grad = 1.0
    stack, seen = [output], {output}
    while stack:
        v = stack.pop()
        for parent, local in v.parents:
            parent.grad += local * v.grad
            if parent not in seen:
                seen.add(parent)
                stack.append(parent)"""
RECURSIVE_TOPO = """def backward(output):
    order, seen = [], set()
    def visit(v):
        if v not in seen:
            seen.add(v)
            for parent, _ in v.parents:
                visit(parent)
            order.append(v)
    visit(output)
    output.grad = 1.0
    for v in reversed(order):
        for parent, local in v.parents:
            parent.grad += local * v.grad"""
VALUE_SWAPPED = """class Value:
    def __init__(self, data, parents=()):
        self.data = float(data)
        self.grad = 0.0
        self.parents = parents

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, ((self, self.data), (other, other.data)))

    def tanh(self):
        t = math.tanh(self.data)
        return Value(t, ((self, 1.0 - t * t),))

    __radd__ = __add__
    __rmul__ = __mul__"""
CLAMP_PASS_THROUGH = """class Clamp01(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(0.0, 1.0)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output"""
PREDICTIONS_R_LEAF = """def my_predictions():
    is_leaf = {"p": True, "q": True, "r": True, "s": False}
    grad_fn_name = {"p": None, "q": None, "r": "MulBackward0", "s": "SumBackward0"}
    return is_leaf, grad_fn_name"""
NO_SCALING = """def accumulate_gradients(model, loss_fn, X, Y, sizes):
    for p in model.parameters():
        p.grad = None
    for X_part, Y_part in zip(X.split(sizes), Y.split(sizes)):
        loss_fn(model(X_part), Y_part).backward()"""
NEW_ZEROS = """def clear_grads(params, set_to_none=True):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad = torch.zeros_like(p)"""
TRAILING_RELU = """def make_mlp(sizes):
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(n_in, n_out), nn.ReLU()]
    return nn.Sequential(*layers)"""
PLAIN_LIST = """class DeepNet(nn.Module):
    def __init__(self, n_layers, width):
        super().__init__()
        self.layers = [nn.Linear(width, width) for _ in range(n_layers)]

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x"""
SAME_INPUT = """def first_bad_layer(model, x):
    for i, layer in enumerate(model):
        try:
            layer(x)
        except RuntimeError:
            return i
    return None"""


# Chapter 12: second derivatives, Hessian-vector products and Newton steps
NO_CREATE_GRAPH = """def second_derivative(f, x):
    (d,) = torch.autograd.grad(f(x), x)
    (d2,) = torch.autograd.grad(d, x)
    return d2"""
FIRST_DERIVATIVE = """def second_derivative(f, x):
    (d,) = torch.autograd.grad(f(x), x, create_graph=True)
    return d"""
BACKWARD_TWICE = """def second_derivative(f, x):
    f(x).backward(create_graph=True)
    x.grad.backward()
    return x.grad"""
HVP_ELEMENTWISE = """def hessian_vector_product(f, w, v):
    (g,) = torch.autograd.grad(f(w), w, create_graph=True)
    return g * v"""
HVP_OF_SUM = """def hessian_vector_product(f, w, v):
    (g,) = torch.autograd.grad(f(w), w, create_graph=True)
    (hv,) = torch.autograd.grad(g.sum(), w)
    return hv"""
HVP_BY_HESSIAN = """def hessian_vector_product(f, w, v):
    return torch.autograd.functional.hessian(f, w) @ v"""
GRADIENT_STEP = """def newton_step(f, x):
    (d,) = torch.autograd.grad(f(x), x)
    with torch.no_grad():
        return x - d"""
NEWTON_SIGN = """def newton_step(f, x):
    (d,) = torch.autograd.grad(f(x), x, create_graph=True)
    (d2,) = torch.autograd.grad(d, x)
    with torch.no_grad():
        return x + d / d2"""
NEWTON_RECORDED = """def newton_step(f, x):
    (d,) = torch.autograd.grad(f(x), x, create_graph=True)
    (d2,) = torch.autograd.grad(d, x, create_graph=True)
    return x - d / d2"""


def _f(signature: str, line: str) -> str:
    """A one-line solution: ``def signature:`` with ``line`` as its body."""
    return f"def {signature}:\n    {line}"


# case -> (chapter, how the solution cell starts, the wrong answer, what the check must say
# [, what it must not say: the answer of a "predict it" exercise])
CASES = {
    "00 no + 1": ("00", "def double_and_add_one", _f("double_and_add_one(t)", "return 2 * t"),
                  "expected [1.0, 3.0, -3.0]"),
    "01 no requires_grad": ("01", "def make_weights", _f(
        "make_weights()", "return torch.tensor([[0.52, -0.18], [1.31, 0.74]])"),
        "pass requires_grad=True"),
    "01 float64": ("01", "def make_weights", _f("make_weights()", (
        "return torch.tensor([[0.52, -0.18], [1.31, 0.74]], dtype=torch.float64, "
        "requires_grad=True)")), "the dtype should be float32"),
    "01 a list": ("01", "def to_numpy", _f("to_numpy(t)", "return t.tolist()"),
                  "return a numpy array"),
    "01 rows, not columns": ("01", "def flatten_columns", _f(
        "flatten_columns(m)", "return m.reshape(-1)"), "expected [0.0, 3.0, 1.0"),
    "01 devices mixed": ("01", "def add_on_device_of", _f("add_on_device_of(a, b)", "return a + b"),
                         "Expected all tensors to be on the same device"),
    "02 r is a leaf": ("02", "def my_predictions", PREDICTIONS_R_LEAF, "r.is_leaf is False"),
    "02 the node, not the leaf": ("02", "def leaf_of", (
        "def leaf_of(t):\n    node = t.grad_fn\n    while node.next_functions:\n"
        "        node = node.next_functions[0][0]\n    return node"),
        "should return the tensor leaf"),
    "02 no 2 / n": ("02", "def gradient_by_hand", _f(
        "gradient_by_hand(X, W, Y)", "return X.T @ (X @ W.detach() - Y)"), "yours is tensor"),
    "02 W.grad": ("02", "def gradient_by_hand", _f("gradient_by_hand(X, W, Y)",
                  "return W.grad"), "for a (3, 2) X and a (2, 1) W"),
    "03 nodes, not tensors": ("03", "def leaves_of", _f("leaves_of(t)", (
        "return [n for n in graph_nodes(t) if type(n).__name__ == 'AccumulateGrad']")),
        "should be the tensor of shape"),
    "03 inputs swapped": ("03", "def make_graph", _f("make_graph(x)", "return (x.exp() * x).sum()"),
                          "MulBackward0's two inputs are the other way round"),
    "03 no sum": ("03", "def make_graph", _f("make_graph(x)", "return x * x.exp()"),
                  "your graph has the nodes ['MulBackward0'"),
    "04 dy/dx1 without + 1": ("04", "def hand_grad", (
        "def hand_grad(x0, x1):\n    u = x0 * x1 + x1\n    return [2 * u * x1, 2 * u * x0]"),
        "autograd says"),
    "04 grad_weight transposed": ("04", "def linear_backward", (
        "def linear_backward(grad_output, inputs, weight):\n"
        "    return grad_output @ weight, inputs.T @ grad_output, grad_output.sum(dim=0)"),
        "grad_weight: shape (2, 3), not (3, 2)"),
    "04 grad_bias a mean": ("04", "def linear_backward", (
        "def linear_backward(grad_output, inputs, weight):\n"
        "    return grad_output @ weight, grad_output.T @ inputs, grad_output.mean(dim=0)"),
        "grad_bias is tensor"),
    "05 one pass only": ("05", "def my_prediction", _f("my_prediction()", "return [3.0, 3.0]"),
                         "one backward pass's gradient", "8."),
    "05 one element off": ("05", "def my_prediction", _f("my_prediction()", "return [8.0, -2.0]"),
                           "element 1 is off", "tensor([8"),
    "05 not scaled": ("05", "def accumulate_gradients", NO_SCALING, "sizes [4, 4, 2]: weight.grad"),
    "05 no clone": ("05", "def gradients_of", NO_CLONE, "loss 2: its gradient is tensor([[0.2000"),
    "06 a new zeros tensor": ("06", "def clear_grads", NEW_ZEROS, "fill the existing tensor"),
    "06 zero_grad at the end": ("06", "def train_step", ZERO_GRAD_LAST, "first, not last"),
    "06 no zero_grad": ("06", "def train_step", NO_ZERO_GRAD, "at the start of the iteration"),
    "06 p.data = ...": ("06", "def sgd_step", NEW_DATA, "update p in place"),
    "07 recorded": ("07", "def evaluate(", _f("evaluate(model, inputs, targets)",
                    "return ((model(inputs) - targets) ** 2).mean().item()"),
                    "run it under torch.no_grad()"),
    "07 no detach": ("07", "def head_only_loss", _f("head_only_loss(body, head, inputs, targets)",
                     "return ((head(body(inputs)) - targets) ** 2).mean()"),
                     "body's parameters got a gradient"),
    "07 no retain_grad": ("07", "def hidden_gradient", (
        "def hidden_gradient(net, inputs):\n    hidden = net[1](net[0](inputs))\n"
        "    (net[2](hidden) ** 2).sum().backward()\n    return hidden.grad"),
        "call retain_grad() on it before backward()"),
    "08 tensors counted": ("08", "def count_parameters", _f(
        "count_parameters(model)", "return len(list(model.parameters()))"),
        "has 57 numbers to learn, not 4"),
    "08 a ReLU at the end": ("08", "def make_mlp", TRAILING_RELU, "the layers are"),
    "08 a plain list": ("08", "class DeepNet", PLAIN_LIST, "still in a plain list"),
    "09 the example's shapes": ("09", "def matmul_shapes", _f(
        "matmul_shapes(message)", "return (32, 10), (20, 5)"), "expected ((4, 3), (7, 2))"),
    "09 x not passed on": ("09", "def first_bad_layer", SAME_INPUT, "expected 3, got 2"),
    "09 in place": ("09", "def loss_of", IN_PLACE, "RuntimeError: one of the variables needed"),
    "09 a number": ("09", "def loss_of", ITEM, "AssertionError: return the loss as a tensor"),
    "10 counts, not frequencies": ("10", "def unigram_loss", (
        "def unigram_loss(targets):\n    count = Counter(targets)\n"
        "    return -sum(math.log(count[t]) for t in targets) / len(targets)"), "your loss"),
    "11 clamp passes everything": ("11", "class Clamp01", CLAMP_PASS_THROUGH, "backward gave"),
    "11 mul's derivatives swapped": ("11", "class Value", VALUE_SWAPPED, "d(a*b)/da = b = -3"),
    "11 stack walk": ("11", "def backward", STACK_WALK, "yours 81.0 and 54.0"),
    "11 each value once": ("11", "def backward", SEEN_ONCE, "Pass h's gradient on only once"),
    "11 recursive": ("11", "def backward", RECURSIVE_TOPO, "recursed too deep"),
    "12 no create_graph": ("12", "def second_derivative", NO_CREATE_GRAPH,
                           "the first grad needs create_graph=True"),
    "12 the first derivative": ("12", "def second_derivative", FIRST_DERIVATIVE,
                                "at x = 1.5: f'' = 9.0, yours 6.75"),
    "12 backward twice": ("12", "def second_derivative", BACKWARD_TWICE, "x.grad was filled"),
    "12 g * v": ("12", "def hessian_vector_product", HVP_ELEMENTWISE, "H v is"),
    "12 H times ones": ("12", "def hessian_vector_product", HVP_OF_SUM, "H v is"),
    "12 the whole Hessian": ("12", "def hessian_vector_product", HVP_BY_HESSIAN,
                             "without torch.autograd.functional"),
    "12 a gradient step": ("12", "def newton_step", GRADIENT_STEP, "yours on -13.0"),
    "12 the step's sign": ("12", "def newton_step", NEWTON_SIGN, "yours on 8.0"),
    "12 still recorded": ("12", "def newton_step", NEWTON_RECORDED, "should not require grad"),
}  # fmt: skip


def _check_error(execute_notebooks: ModuleType, chapter: str, starts: str, answer: str) -> str:
    path = CHAPTERS[chapter]
    nb = nbformat.read(path, as_version=4)
    (index,) = [i for i, c in enumerate(nb.cells) if c.source.startswith(starts)]
    check = nb.cells[index + 1]
    assert "exercise-check" in check.metadata.get("tags", [])
    nb.cells = nb.cells[: index + 2]
    nb.cells[index].source = answer
    check.metadata.setdefault("tags", []).append("raises-exception")
    execute_notebooks.execute(nb, path.parent)
    errors = [o for o in check.outputs if o.output_type == "error"]
    assert errors, f"the check cell accepted the wrong answer:\n{answer}"
    return f"{errors[0].ename}: {errors[0].evalue}"


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_wrong_answer_gets_the_check_cells_message(case: str, execute_notebooks: ModuleType):
    chapter, starts, answer, message, *never = CASES[case]
    error = _check_error(execute_notebooks, chapter, starts, answer)
    assert message in error and error.startswith(("AssertionError", "RuntimeError")), error
    assert not any(text in error for text in never), f"the message gives the answer: {error}"
    assert not re.search(r"\d\.\d{7,}", error), f"float32 noise in the message: {error}"
