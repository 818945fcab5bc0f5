"""nn.Module: registration, walking the tree, modes, state_dict, printing, scopes."""

from __future__ import annotations

import copy
from types import ModuleType

import numpy as np
import pytest

import microtorch
import microtorch.nn as nn
from microtorch.autograd import function as autograd_function
from tests.nn.models import copy_weights, nested_net, two_layer_net

TWO_LAYER_REPR = """TwoLayerNet(
  (fc1): Linear(in_features=5, out_features=8, bias=True)
  (fc2): Linear(in_features=8, out_features=1, bias=True)
)"""


def test_two_layer_net_prints_as_in_the_issue() -> None:
    assert repr(two_layer_net(microtorch)) == TWO_LAYER_REPR


@pytest.mark.parametrize("build", [two_layer_net, nested_net])
def test_structure_matches_torch(torch_module: ModuleType, build) -> None:
    mine, theirs = build(microtorch), build(torch_module)
    assert repr(mine) == repr(theirs)
    assert [n for n, _ in mine.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in mine.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in mine.named_buffers()] == [n for n, _ in theirs.named_buffers()]
    assert [n for n, _ in mine.named_children()] == [n for n, _ in theirs.named_children()]
    shapes = [tuple(p.shape) for p in mine.parameters()]
    assert shapes == [tuple(p.shape) for p in theirs.parameters()]


def test_layer_reprs_match_torch(torch_module: ModuleType) -> None:
    def layers(lib: ModuleType) -> list:
        nn_ = lib.nn
        return [
            nn_.Linear(3, 2, bias=False), nn_.ReLU(), nn_.ReLU(inplace=True), nn_.LeakyReLU(0.2),
            nn_.Sigmoid(), nn_.Tanh(), nn_.Softmax(dim=1), nn_.LogSoftmax(dim=-1), nn_.Softmax(),
            nn_.Flatten(), nn_.Flatten(0, 2), nn_.Embedding(10, 3), nn_.Embedding(4, 2, max_norm=1),
            nn_.Dropout(), nn_.Dropout(0.2), nn_.Identity(), nn_.MSELoss(), nn_.L1Loss(),
            nn_.CrossEntropyLoss(label_smoothing=0.1), nn_.NLLLoss(), nn_.BCELoss(),
            nn_.BCEWithLogitsLoss(), nn_.ModuleList(), nn_.Sequential(), nn_.ModuleDict(),
        ]  # fmt: skip

    assert [repr(m) for m in layers(microtorch)] == [repr(m) for m in layers(torch_module)]


def test_parameter_prints_and_behaves_like_torch(torch_module: ModuleType) -> None:
    p = nn.Parameter(microtorch.ones(2, 2))
    assert repr(p) == repr(torch_module.nn.Parameter(torch_module.ones(2, 2)))
    frozen = nn.Parameter(microtorch.ones(2), requires_grad=False)
    assert repr(frozen) == "Parameter containing:\ntensor([1., 1.])"
    assert p.is_leaf and p.requires_grad
    y = p * 2
    assert type(y) is microtorch.Tensor and y.grad_fn.name() == "MulBackward0"


def test_parameter_shares_memory_with_its_tensor() -> None:
    t = microtorch.zeros(3)
    p = nn.Parameter(t)
    with microtorch.no_grad():
        p.add_(1)
    assert t.tolist() == [1.0, 1.0, 1.0] and t._version == p._version == 1


def test_registration_rules() -> None:
    net = two_layer_net(microtorch)
    assert net.fc1.weight is net._modules["fc1"]._parameters["weight"]
    net.extra = nn.Parameter(microtorch.zeros(1))  # a Parameter assigned later registers
    assert [n for n, _ in net.named_parameters()][:1] == ["extra"]
    net.plain = microtorch.zeros(1)  # a plain tensor does not
    assert "plain" not in dict(net.named_parameters())
    del net.extra
    assert "extra" not in dict(net.named_parameters()) and not hasattr(net, "extra")
    net.fc2 = None
    assert [n for n, _ in net.named_children()] == ["fc1"]
    with pytest.raises(TypeError, match="cannot assign 'microtorch.FloatTensor' as parameter"):
        net.fc1.weight = microtorch.zeros(8, 5)
    with pytest.raises(AttributeError, match="has no attribute 'fc3'"):
        net.fc3  # noqa: B018


def test_forgetting_super_init_is_explained() -> None:
    class Broken(nn.Module):
        def __init__(self) -> None:
            self.fc = nn.Linear(2, 2)

    with pytest.raises(AttributeError, match=r"before Module.__init__\(\) call.*super"):
        Broken()


def test_shared_parameters_are_listed_once() -> None:
    a = nn.Linear(2, 2)
    net = nn.Sequential(a, nn.ReLU(), a)
    assert [n for n, _ in net.named_parameters()] == ["0.weight", "0.bias"]
    assert len(list(net.named_parameters(remove_duplicate=False))) == 4


def test_modules_children_and_containers() -> None:
    net = nested_net(microtorch)
    kinds = [type(m).__name__ for m in net.modules()]
    assert kinds[:4] == ["Nested", "Sequential", "Linear", "ReLU"]
    assert [type(m).__name__ for m in net.children()] == ["Sequential", "ModuleList", "ModuleDict"]
    seq = net.encoder
    assert len(seq) == 3 and isinstance(seq[-1], nn.Sequential)
    assert list(seq[1:]._modules) == ["1", "2"]  # slices keep their keys, as in PyTorch
    seq.append(nn.Sigmoid())
    assert [type(m).__name__ for m in seq] == ["Linear", "ReLU", "Sequential", "Sigmoid"]
    del seq[1]
    assert list(seq._modules) == ["0", "1", "2"]
    heads = net.heads
    assert len(heads) == 4 and list(heads[1:3]._modules) == ["0", "1"]
    heads.append(nn.Linear(6, 2))
    assert "heads.4.weight" in dict(net.named_parameters())
    assert "a" in net.extra and list(net.extra.keys()) == ["b", "a"]
    assert net.get_submodule("encoder.1.1") is net.encoder[1][1]


def test_train_eval_and_requires_grad() -> None:
    net = nested_net(microtorch)
    assert net.training and net.heads[3].training
    assert net.eval() is net and not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    net.encoder.requires_grad_(False)
    assert [p.requires_grad for p in net.encoder.parameters()] == [False, False, False]
    assert net.scale.requires_grad


def test_zero_grad_sets_none_or_zeros() -> None:
    net = two_layer_net(microtorch)
    net(microtorch.randn(4, 5)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(np.all(p.grad.numpy() == 0) for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_state_dict_round_trip_shares_nothing_it_should_not() -> None:
    a, b = two_layer_net(microtorch), two_layer_net(microtorch)
    before = b.fc1.weight._version
    state = a.state_dict()
    assert not state["fc1.weight"].requires_grad
    assert state["fc1.weight"].data_ptr() == a.fc1.weight.data_ptr()  # a view, as in PyTorch
    assert repr(b.load_state_dict(state)) == "<All keys matched successfully>"
    assert np.array_equal(b.fc2.bias.detach().numpy(), a.fc2.bias.detach().numpy())
    assert b.fc1.weight.data_ptr() != a.fc1.weight.data_ptr()  # copied, not aliased
    assert b.fc1.weight._version == before + 1  # an in-place copy, as in PyTorch


def _error(net, state, strict: bool = True) -> str:
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(state, strict=strict)
    return str(info.value).replace("microtorch.Size", "torch.Size")


def test_load_state_dict_errors_match_torch(torch_module: ModuleType) -> None:
    results = []
    for lib in (microtorch, torch_module):
        net = nested_net(lib)
        good = net.state_dict()
        both = dict(good)
        del both["encoder.0.bias"]
        both["extra.zzz"] = lib.zeros(1)
        both["top"] = lib.zeros(1)
        both["encoder.0.weight"] = lib.zeros(5, 5)
        missing = dict(good)
        del missing["scale"]
        mismatch = dict(good, running=lib.zeros(3))
        results.append(
            [
                _error(net, both),
                _error(net, missing),
                _error(net, mismatch, strict=False),
                _error(net, {"scale": 3}, strict=False),
                repr(net.load_state_dict(missing, strict=False)),
            ]
        )
    assert results[0] == results[1]


def test_scope_names_are_dotted_paths_from_the_outermost_module() -> None:
    net = nested_net(microtorch)
    seen: list[str] = []

    def record(module, args, output) -> None:
        seen.append(autograd_function._scope_stack[-1])

    for m in net.modules():
        m.register_forward_hook(record)
    out = net(microtorch.randn(2, 4))
    assert seen == ["encoder.0", "encoder.1", "encoder.2.0", "encoder.2.1", "encoder.2",
                    "encoder", "heads.0", "heads.1", "heads.2", "extra.b", ""]  # fmt: skip
    assert out.grad_fn.name() == "MulBackward0" and out.grad_fn._scope == ""
    addmm = out.grad_fn.next_functions[0][0]
    assert addmm.name() == "AddmmBackward0" and addmm._scope == "extra.b"
    assert autograd_function._scope_stack == []
    # a layer called on its own is named from the model it belongs to (issue #14)
    assert net.encoder[0](microtorch.randn(1, 4)).grad_fn._scope == "encoder.0"


def test_scope_stack_is_popped_when_forward_raises() -> None:
    net = two_layer_net(microtorch)
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        net(microtorch.randn(2, 3))
    assert autograd_function._scope_stack == []


def test_forward_hooks_can_replace_values_and_be_removed() -> None:
    layer = nn.Linear(2, 2)
    handle = layer.register_forward_hook(lambda m, args, out: out * 0)
    assert layer(microtorch.ones(1, 2)).tolist() == [[0.0, 0.0]]
    handle.remove()
    assert layer(microtorch.ones(1, 2)).abs().sum().item() > 0


def test_missing_forward_is_explained() -> None:
    with pytest.raises(NotImplementedError, match='missing the required "forward"'):
        nn.Module()(1)


def test_deepcopy_and_dtype_conversion() -> None:
    net = two_layer_net(microtorch)
    twin = copy.deepcopy(net)
    assert twin.fc1.weight is not net.fc1.weight
    assert np.array_equal(twin.fc1.weight.detach().numpy(), net.fc1.weight.detach().numpy())
    assert isinstance(twin.fc1.weight, nn.Parameter) and twin.fc1.weight.requires_grad
    net.double()
    assert net.fc1.weight.dtype is microtorch.float64
    assert net(microtorch.randn(2, 5, dtype=microtorch.float64)).dtype is microtorch.float64
    assert net.to(microtorch.float32).fc2.bias.dtype is microtorch.float32
    assert net.to("cpu") is net
    nested = nested_net(microtorch)
    twin = copy.deepcopy(nested)  # buffers (plain tensors) copy too
    assert twin.running is not nested.running and twin.running.tolist() == [0.0, 0.0]


def test_module_copies_torch_weights_and_agrees(torch_module: ModuleType) -> None:
    theirs, mine = nested_net(torch_module), nested_net(microtorch)
    copy_weights(theirs, mine)
    x = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    expected = theirs(torch_module.tensor(x)).detach().numpy()
    np.testing.assert_allclose(mine(microtorch.tensor(x)).detach().numpy(), expected, atol=1e-6)


def test_a_layer_called_directly_records_its_scope_as_when_the_model_calls_it():
    # chapter 10 calls model.embed(x), model.hidden(flat), model.out(h) one line at a time;
    # its drawing boxes each layer's nodes exactly as for model(x)
    from microtorch.viz import walk

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = nn.Embedding(5, 3)
            self.block = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
            self.out = nn.Linear(4, 2)

        def forward(self, idx):
            return self.out(self.block(self.embed(idx)))

    microtorch.manual_seed(0)
    net, idx = Net(), microtorch.tensor([1, 3])

    def boxes(out) -> list[tuple[str, str | None]]:
        return [(n.title, n.cluster) for n in walk(out.sum()).nodes if n.kind == "op"]

    whole = boxes(net(idx))
    direct = boxes(net.out(net.block[1](net.block[0](net.embed(idx)))))
    assert direct == whole
    assert {cluster for _, cluster in whole} >= {"embed", "block.0", "out"}
    loose = nn.Linear(3, 2)  # registered nowhere: no box, as before
    assert {cluster for _, cluster in boxes(loose(microtorch.ones(1, 3)))} == {None}


def _reassigned(lib: ModuleType) -> list[list[str]]:
    # Each re-assignment of a registered name keeps its place in every listing.
    net = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
    seen = []
    net[0].weight = lib.nn.Parameter(lib.zeros(3, 2))  # weight stays before bias
    seen.append(list(net.state_dict()))
    net[0] = lib.nn.Linear(2, 3)  # a new first layer stays first
    seen.append([n for n, _ in net.named_parameters()])
    net[2].bias = None  # None keeps the slot; a Parameter later fills it in place
    seen.append(list(net[2].state_dict()))
    net[2].bias = lib.nn.Parameter(lib.zeros(1))
    net[2].weight = lib.nn.Parameter(lib.ones(1, 3))
    seen.append([n for n, _ in net.named_parameters()])
    bn = lib.nn.BatchNorm1d(2)
    bn.running_mean = lib.zeros(2)  # a buffer keeps its place too
    seen.append(list(bn.state_dict()))
    return seen


def test_reassigned_parameters_keep_their_place_as_in_torch(torch_module: ModuleType) -> None:
    assert _reassigned(microtorch) == _reassigned(torch_module)


@pytest.mark.parametrize("lib_name", ["microtorch", "torch"])
def test_registries_written_directly_are_read_back(lib_name: str, torch_module: ModuleType) -> None:
    # Values live in _parameters/_buffers/_modules only (no second copy in __dict__ that a
    # direct write would leave stale), so attribute reads see what was written there.
    lib = microtorch if lib_name == "microtorch" else torch_module
    layer = lib.nn.Linear(2, 3)
    new = lib.nn.Parameter(lib.zeros(3, 2))
    layer._parameters["weight"] = new
    layer._buffers["scale"] = lib.ones(3)
    layer._modules["act"] = lib.nn.Tanh()
    assert layer.weight is new
    assert layer.scale is layer._buffers["scale"]
    assert layer.act is layer._modules["act"]
    assert layer(lib.ones(1, 2)).tolist() == [layer.bias.tolist()]
    del layer._parameters["bias"]
    with pytest.raises(AttributeError):
        _ = layer.bias
