"""Tests for tensor printing: literal expected strings, then parity with PyTorch if installed."""

import doctest

import numpy as np
import pytest

import microtorch._tensor_str as tensor_str_module
from microtorch._tensor_str import format_tensor, get_printoptions, set_printoptions

DEFAULTS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None}


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with PyTorch's default print options."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


f32, f64 = np.float32, np.float64
NAN, INF = float("nan"), float("inf")

# (id, data, format_tensor keyword arguments, print options, expected repr)
CASES = [
    ("0-d float", np.array(3.5, f32), {}, {}, "tensor(3.5000)"),
    ("0-d int64", np.array(3), {}, {}, "tensor(3)"),
    ("0-d int32", np.array(3, np.int32), {}, {}, "tensor(3, dtype=microtorch.int32)"),
    ("int mode", np.array([1.0, 2.0], f32), {}, {}, "tensor([1., 2.])"),
    ("sci: tiny and huge", np.array([1e-5, 1e5], f32), {}, {}, "tensor([1.0000e-05, 1.0000e+05])"),
    ("sci: ratio > 1000", np.array([1.0, 2000.0], f32), {}, {}, "tensor([1.0000e+00, 2.0000e+03])"),
    ("fixed: ratio < 1000", np.array([1.0, 999.5], f32), {}, {}, "tensor([  1.0000, 999.5000])"),
    ("sci: above 1e8", np.array([1e9, 1.5], f32), {}, {}, "tensor([1.0000e+09, 1.5000e+00])"),
    ("fixed", np.array([0.1, -0.25], f32), {}, {}, "tensor([ 0.1000, -0.2500])"),
    ("nan and inf", np.array([NAN, INF, -INF], f32), {}, {}, "tensor([nan, inf, -inf])"),
    ("nan padded", np.array([NAN, 1.5, -INF], f32), {}, {}, "tensor([   nan, 1.5000,   -inf])"),
    ("negative zero", np.array([-0.0, 1.0], f32), {}, {}, "tensor([-0., 1.])"),
    ("all zeros", np.array([0.0, 0.0], f32), {}, {}, "tensor([0., 0.])"),
    ("bool", np.array([True, False]), {}, {}, "tensor([ True, False])"),
    (
        "dtype before grad_fn",
        np.array([2.0, 4.0]),
        {"suffixes": ["grad_fn=<MulBackward0>"]},
        {},
        "tensor([2., 4.], dtype=microtorch.float64, grad_fn=<MulBackward0>)",
    ),
    (
        "requires_grad",
        np.array([2.0, 3.0], f32),
        {"suffixes": ["requires_grad=True"]},
        {},
        "tensor([2., 3.], requires_grad=True)",
    ),
    ("empty 2-D", np.zeros((0, 3), f32), {}, {}, "tensor([], size=(0, 3))"),
    ("empty int64", np.zeros(0, np.int64), {}, {}, "tensor([], dtype=microtorch.int64)"),
    ("empty bool", np.zeros(0, bool), {}, {}, "tensor([], dtype=microtorch.bool)"),
    (
        "empty float64",
        np.zeros((0, 3)),
        {"suffixes": ["requires_grad=True"]},
        {},
        "tensor([], size=(0, 3), dtype=microtorch.float64, requires_grad=True)",
    ),
    (
        "meta",
        np.zeros((2, 3), f32),
        {"suffixes": ["device='meta'"]},
        {},
        "tensor(..., device='meta', size=(2, 3))",
    ),
    (
        "meta int64",
        np.zeros((2, 3), np.int64),
        {"suffixes": ["device='meta'"]},
        {},
        "tensor(..., device='meta', size=(2, 3), dtype=microtorch.int64)",
    ),
    (
        "float16",
        np.array([1.5, 2.25], np.float16),
        {},
        {},
        "tensor([1.5000, 2.2500], dtype=microtorch.float16)",
    ),
    ("uint8", np.array([0, 255], np.uint8), {}, {}, "tensor([  0, 255], dtype=microtorch.uint8)"),
    ("int8", np.array([-128, 7], np.int8), {}, {}, "tensor([-128,    7], dtype=microtorch.int8)"),
    (
        "int16",
        np.array([-300, 7], np.int16),
        {},
        {},
        "tensor([-300,    7], dtype=microtorch.int16)",
    ),
    (
        "large ints",
        np.array([2**63 - 1, -(2**63)]),
        {},
        {},
        "tensor([ 9223372036854775807, -9223372036854775808])",
    ),
    ("matrix", np.array([[1, -2], [30, 4]]), {}, {}, "tensor([[ 1, -2],\n        [30,  4]])"),
    (
        "3-D: blank line between matrices",
        np.arange(8.0, dtype=f32).reshape(2, 2, 2),
        {},
        {},
        "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])",
    ),
    (
        "4-D: two blank lines",
        np.arange(16).reshape(2, 2, 2, 2),
        {},
        {},
        "tensor([[[[ 0,  1],\n          [ 2,  3]],\n\n"
        "         [[ 4,  5],\n          [ 6,  7]]],\n\n\n"
        "        [[[ 8,  9],\n          [10, 11]],\n\n"
        "         [[12, 13],\n          [14, 15]]]])",
    ),
    (
        "summarized 1-D",
        np.arange(2000),
        {},
        {},
        "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])",
    ),
    (
        "summarized 3-D",
        np.arange(2000).reshape(2, 10, 100),
        {},
        {},
        "tensor([[[   0,    1,    2,  ...,   97,   98,   99],\n"
        "         [ 100,  101,  102,  ...,  197,  198,  199],\n"
        "         [ 200,  201,  202,  ...,  297,  298,  299],\n"
        "         ...,\n"
        "         [ 700,  701,  702,  ...,  797,  798,  799],\n"
        "         [ 800,  801,  802,  ...,  897,  898,  899],\n"
        "         [ 900,  901,  902,  ...,  997,  998,  999]],\n\n"
        "        [[1000, 1001, 1002,  ..., 1097, 1098, 1099],\n"
        "         [1100, 1101, 1102,  ..., 1197, 1198, 1199],\n"
        "         [1200, 1201, 1202,  ..., 1297, 1298, 1299],\n"
        "         ...,\n"
        "         [1700, 1701, 1702,  ..., 1797, 1798, 1799],\n"
        "         [1800, 1801, 1802,  ..., 1897, 1898, 1899],\n"
        "         [1900, 1901, 1902,  ..., 1997, 1998, 1999]]])",
    ),
    (
        "wrapped rows",
        np.arange(12.0, dtype=f32) / 3,
        {},
        {},
        "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
        "        3.0000, 3.3333, 3.6667])",
    ),
    (
        "suffix moves to a new line",
        np.arange(9.0) / 3,
        {},
        {},
        "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],\n"
        "       dtype=microtorch.float64)",
    ),
    (
        "suffix fits after wrapped rows",
        np.arange(12.0) / 3,
        {},
        {},
        "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
        "        3.0000, 3.3333, 3.6667], dtype=microtorch.float64)",
    ),
    (
        "second suffix wraps too",
        np.arange(17.0) / 3,
        {"suffixes": ["requires_grad=True"]},
        {},
        "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
        "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333],\n"
        "       dtype=microtorch.float64, requires_grad=True)",
    ),
    # PyTorch keeps two characters of slack: a 38-character repr already wraps at width 38.
    (
        "suffix at the width limit",
        np.array([0, 1], np.int32),
        {},
        {"linewidth": 38},
        "tensor([0, 1],\n       dtype=microtorch.int32)",
    ),
    (
        "suffix just inside the width",
        np.array([0, 1], np.int32),
        {},
        {"linewidth": 39},
        "tensor([0, 1], dtype=microtorch.int32)",
    ),
    ("precision 2", np.array([1 / 3, 2 / 3], f32), {}, {"precision": 2}, "tensor([0.33, 0.67])"),
    (
        "profile short",
        np.array([1 / 3, 2 / 3], f32),
        {},
        {"profile": "short"},
        "tensor([0.33, 0.67])",
    ),
    (
        "sci_mode off",
        np.array([1e-5, 1e5], f32),
        {},
        {"sci_mode": False},
        "tensor([     0.0000, 100000.0000])",
    ),
    (
        "sci_mode on",
        np.array([1.0, 2.0], f32),
        {},
        {"sci_mode": True},
        "tensor([1.0000e+00, 2.0000e+00])",
    ),
    ("edgeitems 0", np.arange(5), {}, {"edgeitems": 0}, "tensor([0, 1, 2, 3, 4], size=(5,))"),
    (
        "edgeitems 0 summarized",
        np.arange(5),
        {},
        {"edgeitems": 0, "threshold": 3},
        "tensor([...], size=(5,))",
    ),
    (
        "edgeitems 1",
        np.arange(10).reshape(5, 2),
        {},
        {"edgeitems": 1, "threshold": 5},
        "tensor([[0, 1],\n        ...,\n        [8, 9]])",
    ),
    (
        "narrow lines",
        np.arange(10),
        {},
        {"linewidth": 20},
        "tensor([0, 1, 2, 3,\n        4, 5, 6, 7,\n        8, 9])",
    ),
    ("default float64", np.array([1.5]), {"default_dtype_name": "float64"}, {}, "tensor([1.5000])"),
    (
        "float32 under float64 default",
        np.array([1.5], f32),
        {"default_dtype_name": "float64"},
        {},
        "tensor([1.5000], dtype=microtorch.float32)",
    ),
]


@pytest.mark.parametrize(
    ("data", "kwargs", "options", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_format_tensor_literal(data, kwargs, options, expected):
    set_printoptions(**options)
    assert format_tensor(data, dtype_name=data.dtype.name, **kwargs) == expected


def test_docstring_examples_run():
    assert doctest.testmod(tensor_str_module).failed == 0


def test_printoptions_round_trip():
    assert get_printoptions() == DEFAULTS
    set_printoptions(precision=2, threshold=10, edgeitems=1, linewidth=40, sci_mode=True)
    changed = get_printoptions()
    assert changed == {
        "precision": 2,
        "threshold": 10,
        "edgeitems": 1,
        "linewidth": 40,
        "sci_mode": True,
    }
    set_printoptions(profile="full")
    assert get_printoptions()["threshold"] == float("inf")
    set_printoptions(**changed)
    assert get_printoptions() == changed
    set_printoptions(profile="default")
    assert get_printoptions() == DEFAULTS


def test_sci_mode_resets_when_left_out():
    # Same as PyTorch: every call sets sci_mode, so omitting it means "automatic" again.
    set_printoptions(sci_mode=False)
    set_printoptions(precision=3)
    assert get_printoptions()["sci_mode"] is None


def test_complex_is_an_error():
    with pytest.raises(TypeError, match="complex tensors are not supported"):
        format_tensor(np.array([1j]), dtype_name="complex128")


def test_unknown_profile_is_an_error():
    with pytest.raises(ValueError, match="use one of default, short, full"):
        set_printoptions(profile="long")


# ---- parity with PyTorch -------------------------------------------------------------------

SEED = 20240613
N_PARITY_CASES = 600
FLOAT_DTYPES = ("float32", "float64", "float16")
OTHER_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool")
OPTION_SETS = [
    {},
    {},
    {"precision": 2, "linewidth": 60},
    {"edgeitems": 1, "threshold": 50},
    {"sci_mode": False},
    {"sci_mode": True, "linewidth": 100},
    {"edgeitems": 0, "threshold": 100},
    {"profile": "short"},
]


def random_shape(rng: np.random.Generator) -> tuple[int, ...]:
    ndim = int(rng.integers(0, 5))
    # Upper bounds chosen so that about a third of the arrays exceed the 1000-element threshold.
    high = {0: 1, 1: 2500, 2: 70, 3: 18, 4: 9}[ndim]
    shape = [int(rng.integers(1, high + 1)) for _ in range(ndim)]
    if ndim and rng.random() < 0.06:  # a few empty tensors
        shape[int(rng.integers(ndim))] = 0
    return tuple(shape)


def random_floats(rng: np.random.Generator, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    top = 4 if dtype == "float16" else 8  # float16 overflows just above 6.5e4
    style = rng.integers(0, 4)
    if style == 0:  # one scale, normal values
        values = rng.standard_normal(shape) * 10.0 ** rng.uniform(-8, top)
    elif style == 1:  # mixed magnitudes 1e-8 .. 1e8 with random signs
        values = 10.0 ** rng.uniform(-8, top, shape) * rng.choice([-1, 1], shape)
    elif style == 2:  # whole numbers, to exercise int mode
        values = rng.integers(-(10 ** int(rng.integers(1, top))), 10**top, shape).astype(float)
    else:  # few distinct values, many zeros
        values = rng.choice([0.0, -0.0, 0.5, 1.0, -2.25, 1e-3], shape)
    if rng.random() < 0.3:  # sprinkle non-finite values and negative zeros
        special = rng.choice([np.nan, np.inf, -np.inf, -0.0], shape)
        values = np.where(rng.random(shape) < 0.1, special, values)
    return values.astype(dtype)


def random_array(rng: np.random.Generator) -> np.ndarray:
    # Floats are where the formatting rules live, so they get most of the cases.
    dtype = str(rng.choice(FLOAT_DTYPES if rng.random() < 0.6 else OTHER_DTYPES))
    shape = random_shape(rng)
    if dtype == "bool":
        data = rng.random(shape) < 0.5
    elif dtype.startswith("float"):
        data = random_floats(rng, shape, dtype)
    else:
        info = np.iinfo(dtype)
        # Sometimes the full range (large ints), sometimes small values.
        high = info.max if rng.random() < 0.3 else min(info.max, 100)
        low = info.min if rng.random() < 0.3 else max(info.min, -100)
        data = rng.integers(low, high, shape, dtype=dtype, endpoint=True)
    return np.asarray(data)  # shape () would otherwise give a numpy scalar


@pytest.mark.parametrize("case", range(N_PARITY_CASES))
def test_parity_with_torch(case):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng([SEED, case])
    data = random_array(rng)
    options = OPTION_SETS[case % len(OPTION_SETS)]
    reference = torch.from_numpy(data)
    suffixes = []
    if data.dtype.kind == "f" and rng.random() < 0.3:
        if rng.random() < 0.5:
            reference, suffixes = reference.requires_grad_(), ["requires_grad=True"]
        else:
            reference, suffixes = reference.requires_grad_() * 1, ["grad_fn=<MulBackward0>"]
    default_float64 = rng.random() < 0.1
    try:
        torch.set_printoptions(**options)
        set_printoptions(**options)
        if default_float64:
            torch.set_default_dtype(torch.float64)
        expected = repr(reference)
    finally:
        torch.set_default_dtype(torch.float32)
        torch.set_printoptions(profile="default")
    # module="torch": the name changes line lengths, hence where suffixes wrap.
    actual = format_tensor(
        data,
        dtype_name=data.dtype.name,
        default_dtype_name="float64" if default_float64 else "float32",
        suffixes=suffixes,
        module="torch",
    )
    assert actual == expected


@pytest.mark.parametrize("linewidth", range(50, 100))
def test_parity_suffix_wrapping(linewidth):
    torch = pytest.importorskip("torch")
    data = np.arange(13, dtype=np.int32) * 1000
    try:
        torch.set_printoptions(linewidth=linewidth)
        expected = repr(torch.from_numpy(data).float().requires_grad_().double() * 2)
    finally:
        torch.set_printoptions(profile="default")
    set_printoptions(linewidth=linewidth)
    actual = format_tensor(
        data.astype(np.float64) * 2,
        dtype_name="float64",
        suffixes=["grad_fn=<MulBackward0>"],
        module="torch",
    )
    assert actual == expected
