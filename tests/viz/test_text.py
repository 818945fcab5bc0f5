"""text_graph(): the seed's arrow drawing, in plain text that needs no Graphviz."""

from __future__ import annotations

from types import ModuleType

from microtorch.viz import text_graph

from .fakes import chain


def test_chain_is_a_column_of_arrows(lib: ModuleType) -> None:
    x = lib.tensor([2.0], requires_grad=True)
    loss = (x * 3).exp().sum()
    assert text_graph(loss, names={"x": x, "loss": loss}) == (
        "loss (SumBackward0)\n ↑\nExpBackward0\n ↑\nMulBackward0\n ↑\nx (AccumulateGrad)"
    )


def test_branches_draw_as_a_tree(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    y = (x[0] + x[1]) * x[0]
    assert text_graph(y, names=locals()) == (
        "y (MulBackward0)\n"
        "├─↑ AddBackward0\n"
        "│   ├─↑ SelectBackward0\n"
        "│   │    ↑\n"
        "│   │   x (AccumulateGrad)\n"
        "│   └─↑ SelectBackward0\n"
        "│        ↑\n"
        "│       x (AccumulateGrad)\n"
        "└─↑ SelectBackward0\n"
        "     ↑\n"
        "    x (AccumulateGrad)"
    )


def test_reuse_names_and_shared_ops(lib: ModuleType) -> None:
    x = lib.tensor([2.0, 3.0], requires_grad=True)
    h = x * x
    y = (h + h).sum()
    assert text_graph(y, names={"x": x, "h": h, "y": y}) == (
        "y (SumBackward0)\n"
        " ↑\n"
        "AddBackward0\n"
        "├─↑ h (MulBackward0)\n"
        "│   ├─↑ x (AccumulateGrad)\n"
        "│   └─↑ x (AccumulateGrad)\n"
        "└─↑ h (MulBackward0) (see above)"
    )


def test_unnamed_leaf_list_of_outputs_and_plain_tensors(lib: ModuleType) -> None:
    w = lib.ones(2, 3, requires_grad=True)
    a, b = w.sum(), lib.tensor([1.0])
    assert text_graph([a, b, w]) == (
        "tensor () (SumBackward0)\n ↑\ntensor (2, 3) (AccumulateGrad)\n\ntensor (1,)\n\n"
        "tensor (2, 3) (leaf)"
    )


def test_hundred_thousand_chain_as_text() -> None:
    x, y = chain(100_000)
    lines = text_graph(y, names={"x": x, "y": y}).splitlines()
    assert len(lines) == 100_001 + 100_000  # node lines (y shares one) and arrow lines
    assert lines[0] == "y (MulBackward0)"
    assert lines[-1] == "x (AccumulateGrad)"
