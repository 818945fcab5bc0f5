"""Issue 24: PyTorch's errors (class and first line), its refusals, and the silent differences
the random programs found; each case runs in both libraries and torch's answer is the expected.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

pytestmark = pytest.mark.torch


def outcome(lib: ModuleType, source: str) -> tuple[str, Any, list[str]]:
    """Run ``source`` (it sets ``r``) with ``torch``/``F``/``x`` bound; what happened."""
    ns: dict[str, Any] = {"torch": lib, "F": lib.nn.functional, "x": lib.ones(2, 3)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # (an unclosed socket or file of an earlier test, collected meanwhile, is not the op's)
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            exec(source, ns)  # noqa: S102
        except Exception as error:
            first = str(error).split("\n")[0].split(" (Triggered internally at")[0]
            return type(error).__name__, first, []
    shown = [str(w.message).split(" (Triggered internally at")[0] for w in caught]
    return "ok", ns.get("r"), shown


def described(value: Any) -> Any:
    """Values as comparable plain data: tensors by dtype, shape, autograd flags and values
    (floats rounded to 6 significant digits: the libraries' last bits may differ)."""
    if isinstance(value, (tuple, list)):
        return [described(v) for v in value]
    if type(value).__name__ in ("Tensor", "Parameter"):
        data = np.asarray(value.detach().numpy())
        return (
            [f"{v:.6g}" for v in data.ravel()] if data.dtype.kind == "f" else data.tolist(),
            str(value.dtype).split(".")[-1],
            tuple(value.shape),
            # signed zeros too (not the sign of a NaN)
            (np.signbit(data) & ~np.isnan(data)).tolist() if data.dtype.kind == "f" else None,
            value.requires_grad,
            value.is_leaf,
            None if value.grad_fn is None else value.grad_fn.name(),
        )
    if type(value).__name__ == "dtype":
        return str(value).split(".")[-1]
    if hasattr(value, "next_functions"):  # a graph node: by its name
        return value.name()
    return value


def assert_same(torch: ModuleType, source: str) -> None:
    kind, theirs, their_warnings = outcome(torch, source)
    our_kind, ours, our_warnings = outcome(microtorch, source)
    assert our_kind == kind, (source, theirs, ours)
    if kind == "ok":
        assert described(ours) == described(theirs), source
        assert len(our_warnings) == len(their_warnings), (their_warnings, our_warnings)
        for a, b in zip(their_warnings, our_warnings):
            assert b.startswith(a), (a, b)
    else:
        assert ours.replace("microtorch.", "torch.").startswith(theirs), (theirs, ours)


ARGUMENT_PARSER = [
    "x.chunk([1, 2])",
    "x.chunk(1.5)",
    "x.chunk(2, 1.5)",
    "x.chunk()",
    "x.chunk(1, 2, 3)",
    "x.chunk(2, dim='a')",
    "x.chunk(2, foo=1)",
    "x.chunk(True)",
    "x.chunk(2, 0, dim=1)",
    "torch.chunk(x, 1.5)",
    "torch.chunk([1], 2)",
    "torch.chunk(x)",
    "x.permute()",
    "x.permute(1.5, 0)",
    "x.permute((1.5, 0))",
    "x.permute([0], 1)",
    "torch.permute(x)",
    "torch.permute(x, 1.5)",
    "x.reshape((2.0, -1))",
    "x.reshape(2.0, -1)",
    "x.reshape(2, 3.5)",
    "x.reshape([2, 3.5])",
    "x.reshape((2, None))",
    "x.reshape()",
    "x.reshape(None)",
    "x.reshape('a')",
    "torch.reshape(x, (2.0, -1))",
    "x.view(2.0, -1)",
    "x.view((2.0, -1))",
    "x.view()",
    "x.view('a')",
    "x.unsqueeze(1.5)",
    "x.unsqueeze(None)",
    "x.unsqueeze(True)",
    "x.unsqueeze()",
    "x.transpose(0, 1.5)",
    "x.transpose(0)",
    "x.transpose(0, 1, 2)",
    "x.squeeze(1.5)",
    "x.sum(1.5)",
    "x.sum('a')",
    "x.sum(dim=1.5)",
    "x.sum(1, keepdim='a')",
    "x.sum(dim=(0, 1.5))",
    "torch.sum(x, 1.5)",
    "x.mean(1.5)",
    "x.std(1.5)",
    "x.var(1.5)",
    "x.flatten(1.5)",
    "x.flatten(0, 1.5)",
    "x.cumsum(1.5)",
    "x.argmax(1.5)",
    "x.expand(2.0, 3)",
    "x.expand(2.5)",
    "x.expand()",
    "torch.cat([x, x], 1.5)",
    "torch.cat([x], dim=None)",
    "torch.stack([x, x], 1.5)",
    "x.topk(1.5)",
    "x.topk()",
    "torch.ones((2, 1.5))",
    "torch.zeros(2.0)",
]


@pytest.mark.parametrize("source", ARGUMENT_PARSER)
def test_wrong_arguments_get_the_argument_parsers_type_error(
    source: str, torch_module: ModuleType
) -> None:
    assert_same(torch_module, f"r = {source}")


def test_a_correct_call_is_not_touched_by_the_parser(torch_module: ModuleType) -> None:
    for source in ["x.reshape(3, 2)", "x.reshape((3, 2))", "x.sum(axis=1, keepdims=True)"]:
        assert_same(torch_module, f"r = {source}")
    # an error of the op itself (not of the argument types) stays the op's
    assert_same(torch_module, "r = x.sum(axis=5)")
    assert_same(torch_module, "r = x.chunk(0)")


ARANGE = [(0, 3, 0.5), (-1.5, 2.5, 0.5), (0, 3, 1.5), (0.5, 3, 1.5), (2.5, -1.5, -0.5)]
ARANGE += [(0.9, 3.9), (0, 3, -1), (0, 0.5, 0.3), (-0.5, 2.7, 0.9), (1.7,), (2, 2), (0, 300, 100)]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "bool", "float16"])
@pytest.mark.parametrize("args", ARANGE, ids=str)
def test_arange_of_float_arguments_in_an_integer_dtype(
    args: tuple[float, ...], dtype: str, torch_module: ModuleType
) -> None:
    assert_same(torch_module, f"r = torch.arange(*{args!r}, dtype=torch.{dtype})")


SILENT = [
    "r = torch.tensor([]).chunk(3)",
    "r = torch.ones(2, 0).chunk(3, 1)",
    "r = torch.ones(0, requires_grad=True).chunk(2)",
    "r = torch.ones(3).chunk(5)",
    "r = torch.tensor([True, False]) ** True",
    "r = torch.tensor([True, False]) ** False",
    "r = torch.tensor([True, False]).pow(True)",
    "r = torch.tensor([True, False]) ** 2",
    "r = torch.tensor([1, 2]) ** True",
    "r = torch.linspace(0, 1, 5, dtype=torch.bool)",
    "r = torch.linspace(0, 10, 5, dtype=torch.int64)",
]


@pytest.mark.parametrize("source", SILENT)
def test_what_was_silently_different(source: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, source)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("dtypes", [("float64", "float32"), ("float32", "float64")])
def test_bce_with_logits_has_the_targets_dtype(
    dtypes: tuple[str, str], reduction: str, torch_module: ModuleType
) -> None:
    a, b = dtypes
    source = (
        f"x = torch.tensor([0.5, -1.0, 3.0], dtype=torch.{a}, requires_grad=True)\n"
        f"y = torch.tensor([1.0, 0.0, 0.5], dtype=torch.{b})\n"
        f"loss = F.binary_cross_entropy_with_logits(x, y, reduction={reduction!r})\n"
        "loss.sum().backward()\n"
        "r = (loss, x.grad)"
    )
    assert_same(torch_module, source)


REFUSALS = [
    "r = torch.ones(3) - False",
    "r = True - torch.ones(3)",
    "r = torch.tensor([1, 2]) - True",
    "r = torch.tensor([True]) - True",
    "r = torch.sub(torch.ones(2), True)",
    "r = torch.ones(2).sub(True)",
    "x = torch.ones(2)\nx -= True",
    "x = torch.ones(2)\nx.sub_(False)",
    "r = F.leaky_relu(torch.tensor([1, -2]))",
    "r = F.leaky_relu(torch.tensor([True, False]))",
    "r = F.leaky_relu(torch.tensor([1, -2], dtype=torch.int32), 0.1, inplace=True)",
    "r = torch.nn.LeakyReLU()(torch.tensor([1, -2]))",
    "r = F.dropout(torch.tensor([1, -2]))",
    "r = F.dropout(torch.tensor([True]), 0.3)",
    "r = F.dropout(torch.tensor([1, -2]), training=False)",
    "r = F.dropout(torch.tensor([1, -2]), p=1.0)",
    "r = torch.tensor([torch.tensor(1.5), torch.tensor(2.5)], dtype=torch.int32)",
    "r = torch.tensor([torch.tensor(1.5), torch.tensor(2.5)], dtype=torch.int64)",
    "r = torch.tensor([torch.tensor([1.5]), torch.tensor([2.5])], dtype=torch.int32)",
    "r = torch.tensor([torch.tensor([1, 2]), torch.tensor([3, 4])], dtype=torch.int32)",
    "r = torch.tensor([torch.tensor(1.5), 2], dtype=torch.uint8)",
    "r = torch.tensor([[torch.tensor(1.5)], [torch.tensor(2.5)]], dtype=torch.bool)",
    "r = torch.tensor([torch.tensor(1), torch.tensor(2)], dtype=torch.int32)",
    "r = torch.tensor([torch.tensor(True)], dtype=torch.int64)",
    "r = torch.tensor([torch.tensor(1), torch.tensor(2)], dtype=torch.float32)",
    "r = torch.tensor([1.0], dtype='float32')",
    "r = torch.zeros(2, dtype='float32')",
    "r = torch.ones(2, dtype='float64')",
    "r = torch.arange(3, dtype='int64')",
    "r = torch.tensor([[1, 2], 3])",
    "r = torch.tensor([1, [2, 3]])",
    "r = torch.tensor([1.0, [2, 3]])",
    "r = torch.tensor([[[1]], [2]])",
    "r = torch.tensor([[1], [[2]]])",
    "r = torch.tensor([[1, 2], [3, [4]]])",
    "r = torch.tensor([[1, 2], 3], dtype=torch.int32)",
    "r = torch.tensor([[1, 2], [3]])",
    "r = torch.tensor([[1, 2], [3, 4, 5]])",
]


@pytest.mark.parametrize("source", REFUSALS)
def test_what_pytorch_refuses(source: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, source)


def _flags(name: str) -> str:
    return f"({name}.requires_grad, {name}.is_leaf, {name}.grad_fn, {name})"


WRITES = [
    "m = torch.zeros(2, 3, dtype=torch.bool)\nm[0] = x[0] * 2\nr = " + _flags("m"),
    "m = torch.zeros(2, 3, dtype=torch.int64)\nm[0] = x[0] * 2\nr = " + _flags("m"),
    "m = torch.zeros(2, 3, dtype=torch.bool)\nm.copy_(x)\nr = " + _flags("m"),
    "m = torch.zeros(2, 3, dtype=torch.int32)\nm.add_(x)\nr = " + _flags("m"),
    "m = torch.zeros(2, 3, dtype=torch.int32)\nv = m[0]\nv.copy_(x[1])\nr = ("
    + _flags("m")
    + ", "
    + _flags("v")
    + ")",
    "m = torch.zeros(2, 3)\nm[0] = x[0] * 2\nr = " + _flags("m"),
    "m = torch.zeros(3, dtype=torch.int64)\nm[torch.tensor([0])] = torch.tensor(1.5)",
    "m = torch.zeros(3, dtype=torch.int64)\nm[torch.tensor([0])] = torch.tensor([1.5])",
    "m = torch.zeros(3)\nm[[0, 1]] = torch.tensor([1, 2])",
    "m = torch.zeros(2, 3)\nm[0, [0, 1]] = torch.tensor([1, 2])",
    "m = torch.zeros(2, 3)\nm[:, [0, 1]] = torch.tensor(2)",
    "m = torch.zeros(3, dtype=torch.float64)\nm[torch.tensor([0])] = torch.tensor([1.5])",
    "m = torch.zeros(3, dtype=torch.bool)\nm[torch.tensor([0])] = torch.tensor([1])",
    "m = torch.zeros(3, dtype=torch.int64)\nm[torch.tensor([True, False, False])] = "
    "torch.tensor(1.5)\nr = m",
    "m = torch.zeros(3)\nm[torch.tensor([True, False, False])] = torch.tensor([1.5], "
    "dtype=torch.float64)\nr = m",
    "m = torch.zeros(3)\nm[torch.tensor([0])] = 2\nr = m",
]


@pytest.mark.parametrize("source", WRITES)
def test_writes_into_int_and_bool_tensors(source: str, torch_module: ModuleType) -> None:
    x = "x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)\n"
    assert_same(torch_module, x + source)


LEAF_WRITES = [
    "x[5] = 1",
    "x[0, 0] = 1",
    "x[-4] = 1",
    "x[torch.tensor([5])] = 1",
    "x[torch.tensor([0])] = 1",
    "x[[0, 1]] = 1",
    "x[0] = 1",
    "x[1:] = 1",
    "x[:] = 1",
    "x[...] = 1",
    "x[0:3] = 1",
    "x[::1] = 1",
    "x[None] = 1",
    "x[..., None] = 1",
    "x[:] = torch.ones(4)",
    "x[:] = torch.ones(1, 3)",
    "x[1:] = torch.ones(3)",
]


@pytest.mark.parametrize("write", LEAF_WRITES)
def test_which_error_speaks_first_for_a_write_into_a_leaf(
    write: str, torch_module: ModuleType
) -> None:
    assert_same(torch_module, f"x = torch.ones(3, requires_grad=True)\n{write}")


def test_whole_slices_of_a_matrix_write_into_the_leaf_itself(torch_module: ModuleType) -> None:
    for write in ["x[:, :] = 1", "x[:, 0] = 1", "x[..., 1:] = 1", "x[0:2, ...] = 1"]:
        assert_same(torch_module, f"x = torch.ones(2, 3, requires_grad=True)\n{write}")


TEXTS = [
    "r = f'{torch.ones(3):.3f}'",
    "r = f'{torch.ones(1):.3f}'",
    "r = f'{torch.ones(3):>10}'",
    "r = f'{torch.ones(3)}'",
    "r = f'{torch.tensor(2.5):.3f}'",
    "r = torch.ones(3, 4)[0, 0, 0]",
    "r = torch.ones(3, 4)[0, :, 0]",
    "r = torch.ones(3, 4)[None, 0, 0, 0]",
    "x = torch.ones(3, 4)\nx[0, 0, 0] = 1",
    "r = torch.ones(0)[-1]",
    "r = torch.ones(0, 2)[0]",
    "r = torch.ones(0, 3).amax(-2)",
    "r = torch.ones(0, 3).amin([-2])",
    "r = torch.ones(0, 3).amax((1, -2))",
    "r = torch.ones(3, 0).amax((0, -1))",
    "r = torch.ones(0, 3).max(-2)",
    "r = torch.ones(0, 3).argmax(-2)",
    "r = torch.ones(2, 3).select(-1, 5)",
    "r = torch.ones(2, 3).select(-2, -5)",
    "r = torch.ones(2, 3).select(1, -1)",
    "r = torch.ones(()).select(0, 0)",
    "r = torch.ones(2, 3).softmax(-3)",
    "r = torch.cat([torch.ones(2, 3), torch.ones(2, 4)], -2)",
]


@pytest.mark.parametrize("source", TEXTS)
def test_pytorchs_texts_and_the_dimension_as_written(source: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, source)


STRIDES = [
    "torch.ones(3).expand(1, 3)",
    "torch.ones(3).expand(1, 1, 3)",
    "torch.ones(3).expand(2, 1, 3)",
    "torch.ones(1).expand(1, 1)",
    "torch.ones(2, 1).expand(1, 2, 4)",
    "torch.ones(2, 1, 3)[:, :, 1:]",
    "torch.ones(3, 1).t()",
    "torch.ones(1, 3).t()",
    "torch.ones(2, 3)[0:1]",
    "torch.ones(2, 3)[:, 0:1]",
    "torch.ones(4)[::2].unsqueeze(0)",
    "torch.ones(1, 3).t().contiguous()",
    "torch.ones(2, 1).squeeze(1).unsqueeze(0)",
    "torch.ones(3).view(1, 3)",
]


@pytest.mark.parametrize("made", STRIDES)
def test_strides_of_size_one_dimensions(made: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, f"r = {made}.stride()")


SIGNED_ZEROS = [
    "a = torch.tensor([[-1.0, 0.0], [0.0, -0.0], [2.0, 0.0]])\n"
    "r = a @ torch.tensor([[0.0, -1.0], [-0.0, 0.0]])",
    "r = torch.tensor([[-1.0, 0.0]]) @ torch.tensor([0.0, -0.0])",
    "r = F.linear(torch.tensor([[0.0, -0.0], [-1.0, 0.0]]),"
    " torch.tensor([[0.0, -1.0], [1.0, 0.0]]), torch.tensor([-0.0, 0.0]))",
    "r = F.binary_cross_entropy(torch.tensor([1.0, 0.0, 0.5]), torch.tensor([1.0, 0.0, 1.0]),"
    " reduction='none')",
    "r = F.binary_cross_entropy(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 0.0]))",
    "r = F.binary_cross_entropy(torch.tensor([1.0, 0.0]), torch.tensor([1.0, 0.0]),"
    " weight=torch.tensor([2.0, -1.0]), reduction='none')",
    "r = F.binary_cross_entropy_with_logits(torch.tensor([-100.0, 0.0]), torch.tensor([0.0, 0.5]),"
    " reduction='none')",
    "r = F.mse_loss(torch.tensor([1.0]), torch.tensor([1.0]))",
]


@pytest.mark.parametrize("source", SIGNED_ZEROS)
def test_signed_zeros_of_products_and_losses(source: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, source)


DEGREES_OF_FREEDOM = [
    "r = torch.tensor([1.0]).std()",
    "r = torch.tensor([1.0]).var(0)",
    "r = torch.ones(2, 1).std(1)",
    "r = torch.ones(3).var(correction=5)",
    "r = torch.ones(1, 3).std(0, keepdim=True)",
    "r = torch.ones(0).var()",
]


@pytest.mark.parametrize("source", DEGREES_OF_FREEDOM)
def test_the_degrees_of_freedom_warnings_of_std_and_var(
    source: str, torch_module: ModuleType
) -> None:
    assert_same(torch_module, source)


FOUND_BY_THE_RANDOM_PROGRAMS = [
    "r = torch.tensor(2.0)[-1]",
    "r = torch.tensor(2.0)[1]",
    "r = torch.tensor(2.0)[0]",
    "r = torch.tensor(2.0)[..., 0]",
    "r = torch.tensor(2.0)[None, 0]",
    "r = torch.tensor(2.0)[0, 0]",
    "r = torch.tensor(2.0).chunk(2)",
    "x = torch.zeros(0, 3, dtype=torch.bool)\nx += 1",
    "x = torch.zeros(0, 3)\nx[...] = 0\nr = x",
    "r = torch.zeros(0, 3).stride()",
    "r = torch.ones(3, 0).stride()",
    "r = torch.ones(2, 0, 3).stride()",
    "r = torch.tensor([]).stride()",
    "r = torch.tensor(2.0).any(-1)",
    "r = torch.tensor(2.0).all(0)",
    "r = torch.tensor(0.0).nonzero()",
    "r = torch.tensor(2.0).nonzero()",
    "r = torch.tensor(2.0).expand()",
    "r = torch.tensor(2.0).reshape()",
    "r = torch.tensor(2.0).view()",
    "r = torch.tensor(2.0).permute()",
    "r = torch.tensor([True]).topk(1)",
    "r = torch.tensor(2.0).sort(-2)",
    "r = torch.tensor(2.0).argsort(1)",
    "r = torch.tensor(2.0).topk(1, 1)",
    "r = F.log_softmax(torch.tensor(2.0), -2)",
    "r = F.log_softmax(torch.zeros(0, dtype=torch.int64), 0)",
    "r = torch.zeros(0, dtype=torch.bool).softmax(0)",
    "b = torch.tensor([True, False])\nr = b.matmul(b)",
    "b = torch.tensor([[True, False], [False, True]])\nr = b @ b",
    "b = torch.tensor([[True, False], [False, True]])\nr = b @ b[0]",
    "b = torch.tensor([True, False])\nr = b.clamp_(min=0)",
    "r = torch.tensor([1, 2]).clamp_(min=0.5)",
    "x = torch.ones(3, requires_grad=True)\nx[True] = 2",
    "x = torch.ones(3, requires_grad=True)\nx[torch.tensor(True)] = 2",
    "x = torch.tensor(2.0, requires_grad=True)\nx[x > 0] = 2",
    "x = torch.tensor([[0.5], [-3.0]], requires_grad=True)\nv = x[1, 0]\nv[0] = 1",
    "x = torch.tensor([[0.5], [-3.0]], requires_grad=True)\nv = x[1]\nv[5] = 1",
    "x = torch.tensor([[0.5], [-3.0]], requires_grad=True)\nv = x[1]\nv[0] = 1",
]


@pytest.mark.parametrize("source", FOUND_BY_THE_RANDOM_PROGRAMS)
def test_what_the_random_programs_found(source: str, torch_module: ModuleType) -> None:
    assert_same(torch_module, source)
