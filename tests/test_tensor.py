"""The Tensor's fields as the seed chapter lists them, its layout, conversions, devices, reprs."""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch

DONE_WHEN = """
import microtorch as torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
y = (x[0] + x[1]) * x[0]
y.backward()
print(x.grad, y.grad_fn)
"""


def test_the_issues_done_when_program_prints_what_pytorch_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    exec(DONE_WHEN, {})
    out = capsys.readouterr().out
    assert re.fullmatch(r"tensor\(\[7\., 2\.\]\) <MulBackward0 object at 0x[0-9a-f]+>\n", out)


@pytest.mark.torch
def test_the_done_when_program_prints_the_same_with_torch(
    torch_module: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    exec(DONE_WHEN.replace("microtorch", "torch"), {})
    theirs = capsys.readouterr().out
    exec(DONE_WHEN, {})
    ours = capsys.readouterr().out
    assert re.sub("0x[0-9a-f]+", "0x", ours) == re.sub("0x[0-9a-f]+", "0x", theirs)


def test_the_seed_fields_of_a_leaf() -> None:
    w = microtorch.tensor([[0.52, -0.18], [1.31, 0.74]], requires_grad=True)
    assert w.shape == (2, 2) and repr(w.shape) == "microtorch.Size([2, 2])"
    assert isinstance(w.shape, microtorch.Size) and w.shape.numel() == 4
    assert w.dtype is microtorch.float32 and repr(w.dtype) == "microtorch.float32"
    assert w.device == microtorch.device("cpu") and str(w.device) == "cpu"
    assert repr(w.device) == "device(type='cpu')"
    assert w.requires_grad and w.grad is None and w.grad_fn is None and w.is_leaf
    assert (
        repr(w) == "tensor([[ 0.5200, -0.1800],\n        [ 1.3100,  0.7400]], requires_grad=True)"
    )
    assert np.allclose(w.tolist(), [[0.52, -0.18], [1.31, 0.74]])


def test_grad_fn_of_the_seeds_y_equals_x_times_3() -> None:
    x = microtorch.tensor([2.0], requires_grad=True)
    y = x * 3
    assert x.grad_fn is None and x.is_leaf
    assert y.grad_fn.name() == "MulBackward0" and not y.is_leaf
    assert re.fullmatch(r"<MulBackward0 object at 0x[0-9a-f]+>", repr(y.grad_fn))
    acc, const = y.grad_fn.next_functions
    assert acc[0].name() == "torch::autograd::AccumulateGrad" and acc[0].variable is x
    assert const == (None, 0)


def test_gradients_accumulate_until_cleared_as_the_seed_says() -> None:
    w = microtorch.tensor([[0.1, 0.2]], requires_grad=True)
    (w * microtorch.tensor([[2.0, 1.5]])).sum().backward()
    assert w.grad.tolist() == [[2.0, 1.5]]
    (w * microtorch.tensor([[2.0, 1.5]])).sum().backward()
    assert w.grad.tolist() == [[4.0, 3.0]]  # added, not replaced
    assert w.grad.shape == w.shape
    w.grad = None
    (w * 2).sum().backward()
    assert w.grad.tolist() == [[2.0, 2.0]]


def test_reprs_of_the_seeds_examples() -> None:
    x = microtorch.tensor([2.0, 3.0], requires_grad=True)
    assert repr(x) == "tensor([2., 3.], requires_grad=True)"
    assert repr(x[0] * x[1]) == "tensor(6., grad_fn=<MulBackward0>)"
    assert repr(microtorch.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(microtorch.tensor([1.0, 2.0], dtype=microtorch.float64)) == (
        "tensor([1., 2.], dtype=microtorch.float64)"
    )
    assert repr(x.detach()) == "tensor([2., 3.])"


def test_reading_grad_of_a_non_leaf_warns_with_pytorchs_text() -> None:
    x = microtorch.tensor([1.0], requires_grad=True)
    y = x * 2
    with pytest.warns(UserWarning, match=r"The \.grad attribute of a Tensor that is not a leaf"):
        assert y.grad is None
    y.retain_grad()
    y.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad.tolist() == [1.0]


# --- layout --------------------------------------------------------------------------------
VIEWS: dict[str, Callable[[Any], Any]] = {
    "select": lambda x: x[1],
    "column": lambda x: x[:, 1],
    "step": lambda x: x[..., ::2],
    "slice": lambda x: x[1:, 1:],
    "view": lambda x: x.view(6, 4),
    "reshape": lambda x: x.reshape(4, 6),
    "transpose": lambda x: x.transpose(0, 2),
    "permute": lambda x: x.permute(2, 0, 1),
    "unsqueeze": lambda x: x.unsqueeze(1),
    "expand": lambda x: x[:, :1].expand(2, 5, 4),
    "t_of_select": lambda x: x[0].t(),
    "detach": lambda x: x.detach(),
    "squeeze": lambda x: x[:1].squeeze(0),
    "flatten_of_t": lambda x: x[0].t().flatten(),  # a copy: no longer a view
}


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_share_memory_and_the_version_counter(name: str) -> None:
    x = microtorch.arange(24.0).view(2, 3, 4)
    v = VIEWS[name](x)
    shares = np.shares_memory(v.numpy(), x.numpy())
    assert shares == (name != "flatten_of_t")
    before = v.tolist()
    x.add_(100)  # x does not require grad, so in place is allowed
    if shares:
        assert v._version == x._version == 1
        assert (np.asarray(v.tolist()) == np.asarray(before) + 100).all()
    else:
        assert v._version == 0 and v.tolist() == before


@pytest.mark.torch
@pytest.mark.parametrize("name", list(VIEWS))
def test_layout_matches_torch(name: str, torch_module: ModuleType) -> None:
    results = []
    for lib in (microtorch, torch_module):
        v = VIEWS[name](lib.arange(24.0).view(2, 3, 4))
        results.append((tuple(v.shape), v.stride(), v.is_contiguous(), v.storage_offset()))
    assert results[0] == results[1]


def test_t_is_a_non_contiguous_view_and_contiguous_copies() -> None:
    x = microtorch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.stride() == (3, 1) and x.is_contiguous() and x.storage_offset() == 0
    y = x.t()
    assert y.stride() == (1, 3) and not y.is_contiguous()
    assert np.shares_memory(y.numpy(), x.numpy())
    c = y.contiguous()
    assert c.is_contiguous() and c.stride() == (2, 1) and c.tolist() == y.tolist()
    assert not np.shares_memory(c.numpy(), x.numpy())
    assert x.contiguous() is x
    assert x[1, 1:].storage_offset() == 4 and x.stride(1) == 1
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        y.view(6)


# --- values and conversions ---------------------------------------------------------------
def test_item_tolist_and_numpy() -> None:
    assert microtorch.tensor(5).item() == 5 and isinstance(microtorch.tensor(5).item(), int)
    assert microtorch.tensor([[2.5]]).item() == 2.5
    assert microtorch.tensor(True).item() is True
    assert microtorch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert microtorch.tensor(2.0).tolist() == 2.0
    x = microtorch.zeros(3)
    a = x.numpy()
    a[0] = 7  # numpy() shares memory
    assert x.tolist() == [7.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        microtorch.zeros(2, requires_grad=True).numpy()
    with pytest.raises(
        RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"
    ):
        microtorch.zeros(2).item()


def test_clone_detach_and_requires_grad_() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    assert c.grad_fn.name() == "CloneBackward0" and not np.shares_memory(
        c.detach().numpy(), x.detach().numpy()
    )
    d = x.detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf
    assert np.shares_memory(d.numpy(), x.detach().numpy())
    (c * c).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    z = microtorch.zeros(2)
    assert z.requires_grad_() is z and z.requires_grad and z.is_leaf
    assert z.requires_grad_(False) is z and not z.requires_grad


def test_to_float_double_long_size_dim_numel() -> None:
    x = microtorch.tensor([[1.5, 2.5, 3.5]])
    assert x.to(microtorch.float64).dtype is microtorch.float64
    assert x.to("cpu") is x and x.to(microtorch.float32) is x and x.float() is x
    assert x.double().dtype is microtorch.float64
    assert x.long().tolist() == [[1, 2, 3]] and x.long().dtype is microtorch.int64
    assert x.to(microtorch.tensor([1], dtype=microtorch.int32)).dtype is microtorch.int32
    assert x.size() == microtorch.Size([1, 3]) and x.size(1) == 3 and x.size(-2) == 1
    assert x.dim() == x.ndim == 2 and x.numel() == 3 and len(x) == 1
    w = microtorch.tensor([1.0], requires_grad=True)
    assert w.double().grad_fn.name() == "ToCopyBackward0"


# --- devices ------------------------------------------------------------------------------
def test_mixing_cpu_and_meta_raises_the_device_mismatch_error() -> None:
    cpu, meta = microtorch.ones(2), microtorch.ones(2, device="meta")
    assert str(meta.device) == "meta" and meta.device != cpu.device
    assert repr(meta) == "tensor(..., device='meta', size=(2,))"
    for op in (lambda: cpu + meta, lambda: meta * cpu, lambda: cpu.view(1, 2) @ meta.view(2, 1)):
        with pytest.raises(RuntimeError) as info:
            op()
        assert str(info.value).startswith(
            "Expected all tensors to be on the same device, but found at least two devices, "
        )
    assert (meta + 1).device == "meta" and (2 * meta).device == "meta"  # numbers follow
    assert repr(cpu.to("meta") + meta) == "tensor(..., device='meta', size=(2,))"


@pytest.mark.torch
def test_torch_also_refuses_to_mix_cpu_and_meta(torch_module: ModuleType) -> None:
    # PyTorch's meta text differs ("Tensor on device meta is not on the expected device
    # cpu!"); ours is the one students meet with cuda and cpu, which the seed teaches.
    cpu, meta = torch_module.ones(2), torch_module.ones(2, device="meta")
    with pytest.raises(RuntimeError, match="device"):
        cpu + meta
    assert repr(meta + 1) == "tensor(..., device='meta', size=(2,))"


def test_cuda_raises_a_clear_error_when_a_tensor_is_put_there() -> None:
    assert repr(microtorch.device("cuda")) == "device(type='cuda')"  # as in PyTorch
    for make in (
        lambda: microtorch.zeros(2, device="cuda"),
        lambda: microtorch.tensor([1.0]).to("cuda"),
        lambda: microtorch.tensor([1.0]).to(microtorch.device("cuda:0")),
        lambda: microtorch.tensor([1.0]).cuda(),
        lambda: microtorch.nn.Linear(2, 2).cuda(),
    ):
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled") as info:
            make()
        assert "device='cpu'" in str(info.value)  # and it says what to do instead


# --- in-place fills and copies keep the graph; norm is one node, as in PyTorch -------------
@pytest.mark.parametrize(
    ("method", "node"), [("zero_", "ZeroBackward0"), ("fill_", "FillBackward2")]
)
def test_zero_and_fill_on_a_non_leaf_keep_the_graph(method: str, node: str) -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    getattr(y, method)(*(() if method == "zero_" else (3.0,)))
    assert y.grad_fn.name() == node
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_copy_into_a_non_leaf_records_copy_backwards() -> None:
    x = microtorch.tensor([1.0, 2.0], requires_grad=True)
    src = microtorch.tensor([3.0, 4.0], requires_grad=True)
    y = x * 1
    y.copy_(src)
    assert y.grad_fn.name() == "torch::autograd::CopyBackwards"
    y.sum().backward()
    assert src.grad.tolist() == [1.0, 1.0]
    assert x.grad is not None and x.grad.tolist() == [0.0, 0.0]


def test_norm_records_linalg_vector_norm_backward() -> None:
    x = microtorch.tensor([3.0, -4.0], requires_grad=True)
    n = x.norm()
    assert n.item() == 5.0
    assert n.grad_fn.name() == "LinalgVectorNormBackward0"
