"""Names loaded on first use (microtorch/_lazy.py) stay what they are whatever is read first."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("first", ["gradgradcheck", "gradcheck"])
def test_gradcheck_is_the_function_after_either_is_read(first: str) -> None:
    # importing microtorch.autograd.gradcheck for gradgradcheck set autograd's gradcheck to
    # that module (Python's import does): gradcheck(...) then raised "'module' object is not
    # callable". A fresh interpreter, so that nothing was loaded before.
    code = (
        "import microtorch; from microtorch import autograd; "
        f"autograd.{first}; print(callable(autograd.gradcheck), callable(autograd.gradgradcheck))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


def _fresh(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_importing_the_gradcheck_module_leaves_the_function() -> None:
    # import torch.autograd.gradcheck sets the package's gradcheck to the module; PyTorch's
    # stays the function, and so does microtorch's, whichever is read or imported first
    for first in ("import microtorch.autograd.gradcheck", "from microtorch.autograd.gradcheck "
                  "import gradgradcheck", "import microtorch.autograd.functional"):  # fmt: skip
        code = (
            f"import microtorch; {first}; from microtorch import autograd; "
            "print(callable(autograd.gradcheck), callable(autograd.gradgradcheck), "
            "type(autograd.functional).__name__)"
        )
        assert _fresh(code) == ["True", "True", "module"], first


def test_nn_and_optim_load_on_first_use_as_the_same_objects() -> None:
    # issue 22: import microtorch leaves nn and optim to their first use; torch.conv2d, torch.celu
    # (written with nn.functional) work before nn was read, and are F's
    code = (
        "import sys, microtorch as torch; print('microtorch.nn' in sys.modules); "
        "print(torch.celu(torch.tensor([-1.0])).item() < 0, 'microtorch.nn' in sys.modules); "
        "import microtorch.nn.functional as F; from microtorch import nn, optim; "
        "print(torch.conv2d is F.conv2d, torch.prelu is F.prelu, torch.pdist is F.pdist, "
        "torch.nn is nn, optim.SGD.__module__, 'nn' in dir(torch), 'optim' in dir(torch))"
    )
    assert _fresh(code) == ["False", "True", "True"] + ["True"] * 4 + ["microtorch.optim.sgd"] + [
        "True",
        "True",
    ]


def test_lazy_names_pickle_by_name_in_a_fresh_interpreter() -> None:
    # pickle finds a class or function by module and name: a name loaded on first use (a table
    # entry, a return type made on first read) must be found in an interpreter that read none
    made = (
        "import pickle, microtorch as torch; x = torch.tensor([[1.0, 3.0], [2.0, 0.0]]); "
        "print(pickle.dumps([torch.OutOfMemoryError, torch.FloatTensor, torch.get_rng_state, "
        "x.max(1), torch.nn.Linear(2, 1), torch.optim.SGD]).hex())"
    )
    data = _fresh(made)[0]
    code = (
        "import pickle, microtorch as torch; "
        f"e, ft, rng, r, lin, sgd = pickle.loads(bytes.fromhex('{data}')); "
        "print(e is torch.OutOfMemoryError, ft is torch.FloatTensor, rng is torch.get_rng_state, "
        "type(r) is torch.return_types.max, r.values.tolist() == [3.0, 2.0], "
        "type(lin) is torch.nn.Linear, sgd is torch.optim.SGD)"
    )
    assert _fresh(code) == ["True"] * 7


def test_lazy_tensor_methods_each_load_their_own_function() -> None:
    # transpose_ and swapdims_ are two Methods (one Method object under two names would put the
    # function on the class under one of them only); x <<= 1 goes through a lazy dunder
    code = (
        "import microtorch as torch; a = torch.zeros(2, 3); b = torch.zeros(2, 3); "
        "print(tuple(a.swapdims_(0, 1).shape), tuple(b.transpose_(0, 1).shape)); "
        "y = torch.tensor([1, 2]); y <<= 1; print(y.tolist(), (y << 1).tolist()); "
        "x = torch.tensor([[1.0, 2.0]]); print(x.gather(1, torch.tensor([[1]])).item(), "
        "x.type(torch.LongTensor).dtype)"
    )
    assert _fresh(code) == [
        "(3,",
        "2)",
        "(3,",
        "2)",
        "[2,",
        "4]",
        "[4,",
        "8]",
        "2.0",
        "microtorch.int64",
    ]


def test_double_backward_nodes_load_on_a_first_gradient_of_a_gradient() -> None:
    # autograd/double_backward.py is imported by the first formula recorded with
    # create_graph=True, which then gets PyTorch's node (TanhBackwardBackward0) and gradient
    torch = pytest.importorskip("torch")
    code = (
        "import sys, microtorch as torch; x = torch.tensor([0.5, 1.0], requires_grad=True); "
        "(g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True); "
        "print(g.grad_fn.name(), 'microtorch.autograd.double_backward' in sys.modules); "
        "g.sum().backward(); print(*x.grad.tolist())"
    )
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    (g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
    g.sum().backward()
    name, loaded, *grad = _fresh(code)
    assert (name, loaded) == (g.grad_fn.name(), "True")
    assert [float(v) for v in grad] == pytest.approx(x.grad.tolist(), rel=1e-6)
