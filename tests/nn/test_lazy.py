"""Lazy layers against PyTorch: reprs, parameters() and state_dict before and after the first
call, the class they become, load_state_dict sizing them, and the same forward and backward
as the plain layer once PyTorch's weights are copied in."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.layer_parity import assert_same, copy_state, run
from tests.nn.test_losses import _message

# (builder, input shape)
LAYERS = {
    "linear": (lambda nn: nn.LazyLinear(3), (2, 5)),
    "linear_no_bias_3d": (lambda nn: nn.LazyLinear(4, bias=False), (2, 3, 5)),
    "conv1d": (lambda nn: nn.LazyConv1d(4, 3, padding=1), (2, 3, 7)),
    "conv2d": (lambda nn: nn.LazyConv2d(6, 3, stride=2), (2, 3, 7, 7)),
    "conv2d_groups_unbatched": (lambda nn: nn.LazyConv2d(4, 2, groups=2, bias=False), (4, 5, 5)),
    "batchnorm1d": (lambda nn: nn.LazyBatchNorm1d(), (6, 4)),
    "batchnorm1d_plain": (lambda nn: nn.LazyBatchNorm1d(affine=False, momentum=None), (5, 3)),
    "batchnorm2d": (lambda nn: nn.LazyBatchNorm2d(eps=1e-3), (3, 2, 4, 4)),
}


def _life(lib: ModuleType, name: str) -> list[Any]:
    # What a student sees of the layer before and after its first call.
    make, shape = LAYERS[name]
    layer = make(lib.nn)
    seen: list[Any] = [repr(layer), type(layer).__name__, layer.has_uninitialized_params()]
    seen.append([repr(p) for p in layer.parameters()])
    seen.append([(k, repr(v) if "Uninit" in type(v).__name__ else "tensor") for k, v in
                 layer.state_dict().items()])  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer(lib.ones(*shape))
    seen.append([str(w.message) for w in caught])
    seen += [repr(layer), type(layer).__name__, [type(p).__name__ for p in layer.parameters()]]
    seen.append([(k, tuple(v.shape), str(v.dtype).split(".")[-1])
                 for k, v in layer.state_dict().items()])  # fmt: skip
    seen.append(hasattr(layer, "_initialize_hook"))
    return seen


@pytest.mark.parametrize("name", list(LAYERS))
def test_life_of_a_lazy_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    mine = _life(microtorch, name)
    theirs = _life(torch_module, name)
    assert [str(x).replace("microtorch.", "torch.") for x in mine] == [str(x) for x in theirs]


@pytest.mark.parametrize("name", list(LAYERS))
def test_forward_and_backward_match_the_plain_layer(torch_module: ModuleType, name: str) -> None:
    make, shape = LAYERS[name]
    x = np.random.default_rng(0).standard_normal(shape)
    mine, theirs = make(microtorch.nn).double(), make(torch_module.nn).double()
    theirs(torch_module.ones(*shape, dtype=torch_module.float64))  # sizes and draws the weights
    copy_state(theirs, mine)  # load_state_dict sizes microtorch's placeholders
    assert_same(run(microtorch, mine, x), run(torch_module, theirs, x), rtol=1e-12, atol=1e-12)


def test_load_state_dict_sizes_a_lazy_model_as_torch(torch_module: ModuleType) -> None:
    def build(lib: ModuleType) -> Any:
        return lib.nn.Sequential(lib.nn.LazyLinear(8), lib.nn.ReLU(), lib.nn.LazyLinear(2))

    trained = build(torch_module)
    trained(torch_module.ones(1, 5))
    results = []
    for lib in (microtorch, torch_module):
        clone = build(lib)
        state = {k: lib.tensor(v.numpy()) for k, v in trained.state_dict().items()}
        keys = repr(clone.load_state_dict(state))
        before = repr(clone)
        out = clone(lib.ones(3, 5)).detach().numpy()
        results.append((keys, before, repr(clone), out))
    (k1, b1, a1, o1), (k2, b2, a2, o2) = results
    assert (k1, b1, a1) == (k2, b2, a2)
    np.testing.assert_allclose(o1, o2, rtol=1e-6)


def test_lazy_weights_are_the_same_objects_an_optimizer_holds() -> None:
    layer = microtorch.nn.LazyLinear(2)
    opt = microtorch.optim.SGD(layer.parameters(), lr=0.1)
    layer(microtorch.ones(4, 3)).sum().backward()
    before = layer.weight.detach().clone()
    opt.step()
    assert opt.param_groups[0]["params"][0] is layer.weight
    assert not microtorch.equal(before, layer.weight.detach())


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        nn = lib.nn
        return [
            lambda: nn.LazyLinear(3).weight.shape,
            lambda: nn.LazyLinear(3).weight.numel(),
            lambda: nn.LazyLinear(3).weight + 1,
            lambda: nn.LazyLinear(3).weight.dim(),
            lambda: nn.LazyLinear(3)(lib.tensor(2.0)),
            lambda: nn.LazyBatchNorm1d()(lib.ones(3)),
            lambda: nn.LazyConv2d(4, 3, groups=2)(lib.ones(1, 3, 5, 5)),
            lambda: nn.LazyLinear(3)(lib.ones(2, 4, dtype=lib.float64)),
        ]

    mine = [_message(c) for c in calls(microtorch)]
    theirs = [_message(c) for c in calls(torch_module)]
    assert mine == theirs
