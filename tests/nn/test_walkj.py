"""walkj (issue 24): fractional max pooling (``F.fractional_max_pool2d/3d``, their
``*_with_indices`` forms, ``nn.FractionalMaxPool2d/3d``) against PyTorch 2.13: with the same
``_random_samples``, outputs, indices and gradients are PyTorch's exactly (float64, float32,
float16, ties, NaN); graphs, double backward, reprs, buffers and errors too. Without
samples, microtorch draws them from its own generator (not PyTorch's stream)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import assert_same_error, compare_call, compare_layer, error_of

_RNG = np.random.default_rng(24)
X4 = _RNG.standard_normal((2, 3, 9, 11))
X5 = _RNG.standard_normal((2, 2, 7, 8, 9))
S2 = _RNG.random((2, 3, 2))
S3 = _RNG.random((2, 2, 3))
X4[0, 0, 0, :3] = 2.5  # a tie: the first position wins


def _F(lib: ModuleType) -> Any:  # noqa: N802
    return lib.nn.functional


def _pool(n: int, s: np.ndarray, *args: Any, **kwargs: Any) -> Any:
    """``fractional_max_poolNd(x, *args, _random_samples=s, **kwargs)`` in either library."""

    def call(t: ModuleType, x: Any) -> Any:
        samples = t.tensor(s, dtype=x.dtype)
        return getattr(_F(t), f"fractional_max_pool{n}d")(
            x, *args, _random_samples=samples, **kwargs
        )

    return call


CALLS = {
    "2d": (_pool(2, S2, 2, (4, 5)), X4),
    "2d_int_size": (_pool(2, S2, 3, 5), X4),
    "2d_rect_kernel": (_pool(2, S2, (2, 3), (6, 4)), X4),
    "2d_overlap": (_pool(2, S2, 3, (7, 9)), X4),  # (windows share winners)
    "2d_ratio": (_pool(2, S2, 2, output_ratio=(0.5, 0.6)), X4),
    "2d_one": (_pool(2, S2, 2, 1), X4),
    "2d_unbatched": (lambda t, x: _pool(2, S2[:1], 2, (3, 4))(t, x[1]), X4),
    "2d_with_indices": (lambda t, x: _F(t).fractional_max_pool2d_with_indices(
        x, 2, (5, 5), _random_samples=t.tensor(S2))[0], X4),
    "3d": (_pool(3, S3, 2, (3, 4, 5)), X5),
    "3d_int_size": (_pool(3, S3, 3, 2), X5),
    "3d_rect_kernel": (_pool(3, S3, (1, 2, 3), (5, 4, 3)), X5),
    "3d_ratio": (_pool(3, S3, 2, output_ratio=0.5), X5),
    "3d_unbatched": (lambda t, x: _pool(3, S3[1:], 2, (2, 3, 4))(t, x[0]), X5),
    "3d_with_indices": (lambda t, x: _F(t).fractional_max_pool3d_with_indices(
        x, 2, (4, 4, 4), _random_samples=t.tensor(S3))[0], X5),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CALLS))
def test_matches_torch(torch_module: ModuleType, name: str) -> None:
    call, x = CALLS[name]
    compare_call(torch_module, call, x, rtol=0, atol=0)


def _case(rng: np.random.Generator, dims: int, dtype: Any) -> tuple[Any, ...]:
    batched = rng.random() < 0.7
    size = [int(rng.integers(2, 12)) for _ in range(dims)]
    kernel = [int(rng.integers(1, min(4, s) + 1)) for s in size]
    room = [s - k + 1 - (dims == 3) for s, k in zip(size, kernel)]  # (3-d wants out+k-1 < in)
    if min(room) < 1:
        return _case(rng, dims, dtype)
    out = [int(rng.integers(1, r + 1)) for r in room]
    n, c = int(rng.integers(1, 3)), int(rng.integers(1, 4))
    x = rng.standard_normal(([n] if batched else []) + [c] + size).astype(dtype)
    if rng.random() < 0.3:
        x = np.round(x)  # ties
    if rng.random() < 0.15:
        x.flat[rng.integers(x.size)] = np.nan
    samples = rng.random((n + int(rng.integers(0, 2)), c, dims)).astype(dtype)
    return x, kernel, out, samples


@pytest.mark.parametrize("dims", [2, 3])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_random_cases_equal_torch_exactly(torch_module: ModuleType, dims: int, dtype: Any) -> None:
    # Window starts are computed in the input's dtype, as PyTorch computes them: float32 and
    # float16 rounding decide some starts, so every index must be equal, not close.
    rng = np.random.default_rng(dims * 10 + np.dtype(dtype).itemsize)
    for _ in range(60):
        x, kernel, out, samples = _case(rng, dims, dtype)
        got = {}
        for lib in (microtorch, torch_module):
            t = lib.tensor(x, requires_grad=True)
            fn = getattr(_F(lib), f"fractional_max_pool{dims}d")
            y, idx = fn(t, kernel, out, return_indices=True, _random_samples=lib.tensor(samples))
            y.backward(lib.tensor(np.linspace(-1, 2, y.numel()).reshape(y.shape).astype(dtype)))
            got[lib] = (y.detach().numpy(), idx.numpy(), t.grad.numpy(), str(idx.dtype))
        mine, theirs = got[microtorch], got[torch_module]
        np.testing.assert_array_equal(mine[1], theirs[1], err_msg=f"{x.shape} {kernel} {out}")
        np.testing.assert_array_equal(mine[0], theirs[0])
        np.testing.assert_array_equal(mine[2], theirs[2])
        assert mine[0].dtype == theirs[0].dtype
        assert mine[3].split(".")[1] == theirs[3].split(".")[1] == "int64"


@pytest.mark.parametrize("dims", [2, 3])
def test_window_starts_follow_the_sample(torch_module: ModuleType, dims: int) -> None:
    # One row of 12 and a kernel of 2 (or 1): each index is a window's start + 1 (or start),
    # for samples in [0, 1), at its edges, outside it, and NaN or inf (PyTorch's int cast
    # gives INT_MIN for both terms: every start but the last is 0)
    values = [0.0, 0.3, 0.5, 0.999, 1.0, 3.0, 7.5, -0.3, -2.0, np.nan, np.inf]
    for u in values:
        got = []
        for lib in (microtorch, torch_module):
            if dims == 2:
                x = lib.arange(12.0, dtype=lib.float64).reshape(1, 1, 1, 12)
                s = lib.tensor([[[u, 0.5]]], dtype=lib.float64)
                idx = _F(lib).fractional_max_pool2d(x, (1, 2), (1, 5), None, True, s)[1]
            else:
                x = lib.arange(48.0, dtype=lib.float64).reshape(1, 1, 2, 2, 12)
                s = lib.tensor([[[0.5, 0.5, u]]], dtype=lib.float64)
                idx = _F(lib).fractional_max_pool3d(x, (1, 1, 2), (1, 1, 5), None, True, s)[1]
            got.append(idx.numpy())
        np.testing.assert_array_equal(got[0], got[1], err_msg=str(u))


def test_samples_order_in_2d_and_3d(torch_module: ModuleType) -> None:
    # 2-d samples are (u_W, u_H), 3-d ones (u_T, u_H, u_W): PyTorch's layout
    for lib in (microtorch, torch_module):
        x = lib.arange(4.0 * 5 * 6, dtype=lib.float64).reshape(1, 1, 4, 5, 6)
        s = lib.tensor([[[0.1, 0.5, 0.9]]], dtype=lib.float64)
        idx = _F(lib).fractional_max_pool3d(x, 1, 3, return_indices=True, _random_samples=s)[1]
        assert idx.reshape(-1)[:3].tolist() == [0, 2, 5]
        assert idx[0, 0, :, 0, 0].tolist() == [0, 30, 90]
        y = lib.arange(30.0, dtype=lib.float64).reshape(1, 1, 5, 6)
        s2 = lib.tensor([[[0.9, 0.1]]], dtype=lib.float64)
        idx2 = _F(lib).fractional_max_pool2d(y, 1, 3, return_indices=True, _random_samples=s2)[1]
        assert idx2.reshape(-1).tolist() == [0, 2, 5, 12, 14, 17, 24, 26, 29]


def test_double_backward_matches_torch(torch_module: ModuleType) -> None:
    for n, x_np, s in ((2, X4, S2), (3, X5, S3)):
        got = []
        for lib in (microtorch, torch_module):
            x = lib.tensor(x_np, requires_grad=True)
            y = getattr(_F(lib), f"fractional_max_pool{n}d")(x, 2, 3, _random_samples=lib.tensor(s))
            up = lib.tensor(np.linspace(-1, 1, y.numel()).reshape(y.shape), requires_grad=True)
            (g,) = lib.autograd.grad(y, x, up, create_graph=True)
            names = [type(g.grad_fn).__name__] + [
                "None" if f is None else type(f).__name__ for f, _ in g.grad_fn.next_functions
            ]
            (gg,) = lib.autograd.grad((g * x.detach()).sum(), up)
            got.append((names, gg.numpy()))
        assert (
            got[0][0]
            == got[1][0]
            == [f"FractionalMaxPool{n}DBackwardBackward0", "AccumulateGrad", "AccumulateGrad"]
        )
        np.testing.assert_array_equal(got[0][1], got[1][1])


def test_finite_differences() -> None:
    x2 = microtorch.tensor(_RNG.standard_normal((2, 2, 6, 7)), requires_grad=True)
    x3 = microtorch.tensor(_RNG.standard_normal((1, 2, 5, 6, 5)), requires_grad=True)
    s2, s3 = microtorch.tensor(_RNG.random((2, 2, 2))), microtorch.tensor(_RNG.random((1, 2, 3)))
    F = _F(microtorch)
    for fn, x in (
        (lambda v: F.fractional_max_pool2d(v, 2, (4, 3), _random_samples=s2), x2),
        (lambda v: F.fractional_max_pool2d(v, 3, (3, 5), _random_samples=s2), x2),
        (lambda v: F.fractional_max_pool3d(v, 2, (3, 2, 3), _random_samples=s3), x3),
    ):
        assert gradcheck(fn, (x,))
        assert gradgradcheck(fn, (x,))


def _module(name: str, *args: Any, **kwargs: Any) -> Any:
    return lambda lib: getattr(lib.nn, name)(*args, **kwargs)


LAYERS = {
    "FractionalMaxPool2d": (
        lambda t: t.nn.FractionalMaxPool2d(2, (4, 5), _random_samples=t.tensor(S2)), X4),
    "FractionalMaxPool2d_ratio": (
        lambda t: t.nn.FractionalMaxPool2d(3, output_ratio=0.5, _random_samples=t.tensor(S2)),
        X4),
    "FractionalMaxPool3d": (
        lambda t: t.nn.FractionalMaxPool3d((2, 1, 2), 3, _random_samples=t.tensor(S3)), X5),
}  # fmt: skip


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]
    compare_layer(torch_module, make, x, rtol=0, atol=0)


@pytest.mark.parametrize(
    "make",
    [
        _module("FractionalMaxPool2d", 2, 3), _module("FractionalMaxPool2d", (2, 1), None, 0.5),
        _module("FractionalMaxPool2d", [2, 3], output_ratio=[0.3, 0.7], return_indices=True),
        _module("FractionalMaxPool3d", 2, (1, 2, 3)), _module("FractionalMaxPool3d", 3, None, 0.4),
        _module("FractionalMaxPool3d", (2, 2, 1), output_size=2, return_indices=True),
    ],
)  # fmt: skip
def test_reprs_attributes_and_buffers(torch_module: ModuleType, make: Any) -> None:
    mine, theirs = make(microtorch), make(torch_module)
    assert repr(mine) == repr(theirs)
    for name in ("kernel_size", "output_size", "output_ratio", "return_indices"):
        assert getattr(mine, name) == getattr(theirs, name), name
    assert list(mine.state_dict()) == list(theirs.state_dict()) == []
    assert list(mine._buffers) == list(theirs._buffers) == ["_random_samples"]


def test_module_keeps_given_samples_as_a_buffer(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        m = lib.nn.FractionalMaxPool2d(
            2, 3, return_indices=True, _random_samples=lib.rand(4, 3, 2).double()
        )
        assert list(m.state_dict()) == ["_random_samples"]
        out, idx = m(lib.tensor(X4))  # (a batch of 2 reads the first 2 rows)
        assert tuple(out.shape) == tuple(idx.shape) == (2, 3, 3, 3)


def test_with_indices_return_a_tuple_and_return_indices_dispatch(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        x, s = lib.tensor(X4), lib.tensor(S2)
        both = _F(lib).fractional_max_pool2d_with_indices(x, 2, 3, _random_samples=s)
        assert type(both) is tuple and len(both) == 2
        assert isinstance(_F(lib).fractional_max_pool2d(x, 2, 3, _random_samples=s), lib.Tensor)
        assert type(_F(lib).fractional_max_pool3d(lib.tensor(X5), 2, 2, None, True)) is tuple


def test_edge_cases_match_torch(torch_module: ModuleType) -> None:
    cases = {
        "kernel_0": lambda t: _F(t).fractional_max_pool2d(
            t.tensor(X4[:1, :1, :3, :4]), 0, (2, 3), None, True, t.tensor(S2[:1, :1])),
        "kernel_1_0": lambda t: _F(t).fractional_max_pool2d(
            t.tensor(X4[:1, :1, :3, :4]), (1, 0), (2, 3), None, True, t.tensor(S2[:1, :1])),
        "kernel_0_3d": lambda t: _F(t).fractional_max_pool3d(
            t.tensor(X5[:1, :1, :3, :4, :4]), 0, 2, None, True, t.tensor(S3[:1, :1])),
        "empty_output": lambda t: _F(t).fractional_max_pool2d(
            t.tensor(X4), 2, (0, 3), None, True, t.tensor(S2)),
        "empty_batch": lambda t: _F(t).fractional_max_pool3d(t.ones(0, 2, 3, 3, 3), 2, 1, None,
                                                              True),
        "int_empty_output": lambda t: _F(t).fractional_max_pool2d(
            t.ones(1, 2, 3, 3, dtype=t.int32), 2, (0, 1), None, True, t.ones(1, 2, 2,
                                                                             dtype=t.int32)),
        "samples_outside_0_1": lambda t: _F(t).fractional_max_pool2d(
            t.tensor(X4), 2, (4, 5), None, True, t.tensor(S2 * 7 - 3)),
        "nan_samples": lambda t: _F(t).fractional_max_pool2d(
            t.tensor(X4), 2, (4, 5), None, True, t.tensor(S2 * np.nan)),
    }  # fmt: skip
    for name, call in cases.items():
        (y1, i1), (y2, i2) = call(microtorch), call(torch_module)
        assert tuple(y1.shape) == tuple(y2.shape), name
        np.testing.assert_array_equal(y1.numpy(), y2.numpy(), err_msg=name)
        np.testing.assert_array_equal(i1.numpy(), i2.numpy(), err_msg=name)


def test_kernel_0_backward_raises_as_torch(torch_module: ModuleType) -> None:
    def call(t: ModuleType, n: int) -> Any:
        x = t.tensor(X5[:1, :1, :3, :4, :4] if n == 3 else X4[:1, :1, :3, :4], requires_grad=True)
        s = t.tensor(S3[:1, :1] if n == 3 else S2[:1, :1])
        y = getattr(_F(t), f"fractional_max_pool{n}d")(x, 0, 2, _random_samples=s)
        y.sum().backward()

    for n in (2, 3):
        mine = error_of(lambda n=n: call(microtorch, n))
        assert mine == error_of(lambda n=n: call(torch_module, n))


def test_without_samples_microtorch_draws_from_its_generator() -> None:
    # PyTorch draws torch.rand(N, C, 2) in the input's dtype; microtorch draws the same shape
    # from its own generator (numpy's PCG64), so after manual_seed both are repeatable and
    # each equals passing those draws, but the numbers are not PyTorch's.
    x = microtorch.tensor(X4.astype(np.float32))
    F = _F(microtorch)
    microtorch.manual_seed(3)
    y, idx = F.fractional_max_pool2d(x, 2, (4, 5), return_indices=True)
    microtorch.manual_seed(3)
    s = microtorch.rand(2, 3, 2)
    y2, idx2 = F.fractional_max_pool2d(x, 2, (4, 5), return_indices=True, _random_samples=s)
    assert microtorch.equal(idx, idx2) and microtorch.equal(y, y2)
    microtorch.manual_seed(3)
    assert microtorch.equal(F.fractional_max_pool2d(x, 2, (4, 5), return_indices=True)[1], idx)
    starts = {tuple(F.fractional_max_pool2d(x, 1, (4, 5), return_indices=True)[1][0, 0, 0])
              for _ in range(30)}  # fmt: skip
    assert len(starts) > 1  # (the samples change from call to call)
    microtorch.manual_seed(4)
    y3 = F.fractional_max_pool3d(microtorch.tensor(X5), 2, 3)
    microtorch.manual_seed(4)
    s3 = microtorch.rand(2, 2, 3, dtype=microtorch.float64)
    assert microtorch.equal(y3, F.fractional_max_pool3d(microtorch.tensor(X5), 2, 3, None,
                                                        False, s3))  # fmt: skip


ERRORS = {
    "no_size": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2),
    "no_size_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 4, 4, 4), 2),
    "float_ratio_2d": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2,
                                                            output_ratio=0.5),
    "long_ratio": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2,
                                                        output_ratio=(0.5, 0.5, 0.5)),
    "short_ratio": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2,
                                                         output_ratio=(0.5,)),
    "short_ratio_3d_list": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 4, 4, 4), 2,
                                                                 output_ratio=[0.5, 0.5]),
    "too_large_h": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 7, 9), 2, (7, 8)),
    "too_large_w": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 7, 9), 2, (6, 9)),
    "too_large_t": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 6, 7, 8), 2, (5, 5, 5)),
    "too_large_w_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 6, 7, 8), 2,
                                                            (4, 6, 7)),
    "too_large_h_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 6, 7, 8), 2,
                                                            (4, 6, 6)),
    "negative_size": lambda t: _F(t).fractional_max_pool2d(t.ones(2, 3, 7, 9), 2, (-1, 3)),
    "negative_size_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 4, 4, 4), 2,
                                                              (1, -2, 1)),
    "kernel_3": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 7, 9), (2, 3, 4), 2),
    "kernel_list_1": lambda t: _F(t).fractional_max_pool2d(t.ones(2, 7, 7), [2], 3),
    "output_3": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 7, 9), 2, (2, 3, 4)),
    "kernel_2_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 4, 4, 4), (2, 2), 1),
    "output_2_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 1, 4, 4, 4), 2, (1, 1)),
    "kernel_float": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2.5, 2),
    "output_float": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2, 2.0),
    "output_float_item": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2, (2.5, 2)),
    "input_2d": lambda t: _F(t).fractional_max_pool2d(t.ones(4, 4), 2, 2),
    "input_2d_samples": lambda t: _F(t).fractional_max_pool2d(t.ones(4, 4), 2, 2, None, False,
                                                              t.rand(1, 1, 2)),
    "input_5d": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 2, 3, 7, 9), 2, 2),
    "input_3d_for_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(3, 4, 4), 2, 1, None,
                                                             False, t.rand(1, 3, 3)),
    "input_list": lambda t: _F(t).fractional_max_pool2d([1.0], 2, 2),
    "input_list_samples": lambda t: _F(t).fractional_max_pool2d([1.0], 2, 2, None, False,
                                                                t.rand(1, 1, 2)),
    "empty_channels": lambda t: _F(t).fractional_max_pool2d(t.ones(2, 0, 3, 3), 2, 1),
    "empty_height_3d": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 2, 0, 3, 3), 2, 1),
    "int_input": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 2, 5, 5, dtype=t.int32), 2, 2),
    "int_input_samples": lambda t: _F(t).fractional_max_pool2d(
        t.ones(1, 2, 5, 5, dtype=t.int32), 2, 2, None, False, t.ones(1, 2, 2, dtype=t.int32)),
    "int_input_3d": lambda t: _F(t).fractional_max_pool3d(
        t.ones(1, 2, 5, 5, 5, dtype=t.int64), 2, 2, None, False, t.ones(1, 2, 3, dtype=t.int64)),
    "samples_dtype": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 2, 5, 5), 2, 2, None,
                                                           False, t.rand(1, 2, 2).double()),
    "samples_2d": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 2, 5, 5), 2, 2, None, False,
                                                        t.rand(2, 2)),
    "samples_batch": lambda t: _F(t).fractional_max_pool2d(t.ones(3, 2, 5, 5), 2, 2, None,
                                                           False, t.rand(2, 2, 2)),
    "samples_channels": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 2, 5, 5, 5), 2, 2, None,
                                                              False, t.rand(1, 3, 3)),
    "samples_last": lambda t: _F(t).fractional_max_pool3d(t.ones(1, 2, 5, 5, 5), 2, 2, None,
                                                          False, t.rand(1, 2, 2)),
    "samples_before_empty_output": lambda t: _F(t).fractional_max_pool2d(
        t.ones(2, 2, 3, 3), 2, (0, 1), None, False, t.rand(1, 2, 2)),
    "samples_list": lambda t: _F(t).fractional_max_pool2d(t.ones(1, 1, 4, 4), 2, 2, None, False,
                                                          [[0.1, 0.2]]),
    "samples_requires_grad": lambda t: _F(t).fractional_max_pool3d(
        t.ones(1, 1, 4, 4, 4), 2, 1, None, False, t.rand(1, 1, 3, requires_grad=True)),
    "module_no_size": lambda t: t.nn.FractionalMaxPool2d(2),
    "module_both": lambda t: t.nn.FractionalMaxPool3d(2, 3, 0.5),
    "module_ratio": lambda t: t.nn.FractionalMaxPool2d(2, output_ratio=1.5),
    "module_ratio_tuple": lambda t: t.nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.5, 1)),
    "module_kernel_0_3d": lambda t: t.nn.FractionalMaxPool3d(0, output_ratio=0.5),
    "module_kernel_tuple_3d": lambda t: t.nn.FractionalMaxPool3d((2, 0, 1), output_ratio=0.5),
    "module_forward_long_ratio": lambda t: t.nn.FractionalMaxPool2d(
        2, output_ratio=(0.5, 0.5, 0.5))(t.ones(1, 1, 4, 4)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    assert_same_error(torch_module, ERRORS[name])


def test_no_samples_requires_grad_check_without_grad_mode(torch_module: ModuleType) -> None:
    for lib in (microtorch, torch_module):
        with lib.no_grad():
            s = lib.rand(1, 1, 3, requires_grad=True)
            out = _F(lib).fractional_max_pool3d(lib.ones(1, 1, 4, 4, 4), 2, 1, _random_samples=s)
        assert tuple(out.shape) == (1, 1, 1, 1, 1)
