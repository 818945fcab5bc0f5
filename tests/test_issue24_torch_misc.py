"""Issue 24, the everyday names of ``torch`` and ``Tensor`` course code calls: legacy tensor
types (``torch.LongTensor(...)``, ``x.type(torch.LongTensor)``), ``is_tensor``, ``range``,
``torch.random``, ``torch.backends``, ``torch.cuda.Event``, ``out=`` on factories,
``storage()``, ``random_()``, ``resize_()``, the shape-changing in-place twins
(``unsqueeze_``), ``byte()`` and ``short()``, against PyTorch 2.13.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import outcome, same

pytestmark = pytest.mark.torch


def agree(mt: Any, t: Any) -> None:
    """Results agree: tensors as ``same`` checks them, sizes, lists, dtypes and numbers."""
    if isinstance(t, (list, tuple)):  # (a Size is a tuple)
        assert type(mt).__name__ == type(t).__name__ and len(mt) == len(t), (mt, t)
        for m_item, t_item in zip(mt, t):
            agree(m_item, t_item)
    elif t is None or type(t).__name__ == "dtype":
        assert repr(mt).replace("microtorch", "torch") == repr(t)
    else:
        same(mt, t)


def compare(fn: Callable[[ModuleType], Any], torch: ModuleType) -> None:
    """Run ``fn`` on both libraries: the same result, or the same error class and text."""
    mt, t = outcome(fn, microtorch), outcome(fn, torch)
    assert mt[0] == t[0], (mt, t)
    if t[0] == "error":
        assert mt[1] == t[1] and mt[2].startswith(t[2]), (mt, t)
    else:
        agree(mt[1], t[1])


LEGACY = ["FloatTensor", "DoubleTensor", "HalfTensor", "ByteTensor", "CharTensor"]
LEGACY += ["ShortTensor", "IntTensor", "LongTensor", "BoolTensor"]

CASES: dict[str, Callable[[ModuleType], Any]] = {}
for _name in LEGACY:
    CASES[_name + "(list)"] = lambda L, n=_name: getattr(L, n)([1, 0, 2])
    CASES[_name + "(sizes)"] = lambda L, n=_name: getattr(L, n)(2, 3).shape
    CASES[_name + " isinstance"] = lambda L, n=_name: [
        isinstance(L.ones(1, dtype=d), getattr(L, n)) for d in (L.float32, L.int64, L.bool)
    ]
    CASES["type(" + _name + ")"] = lambda L, n=_name: L.tensor([1.5, -2.0]).type(getattr(L, n))
    CASES["type('torch." + _name + "')"] = lambda L, n=_name: L.tensor([1.5]).type(f"torch.{n}")
CASES |= {
    "LongTensor(floats)": lambda L: L.LongTensor([1.5, -2.7]),
    "FloatTensor(itself)": lambda L: L.FloatTensor(L.ones(2)),
    "FloatTensor(long tensor)": lambda L: L.FloatTensor(L.ones(2, dtype=L.long)),
    "FloatTensor()": lambda L: L.FloatTensor(),
    "type('float')": lambda L: L.ones(2).type("float"),
    "type(3)": lambda L: L.ones(2).type(3),
    "type(dtype=)": lambda L: L.ones(2).type(dtype=L.int32),
    "type(float64)": lambda L: L.ones(2).type(L.float64),
    "type('torch.cuda.FloatTensor')": lambda L: L.ones(2).type("torch.cuda.FloatTensor"),
    "type() name": lambda L: L.ones(2, dtype=L.int16).type().split(".")[1],
    "is_tensor": lambda L: [L.is_tensor(L.ones(1)), L.is_tensor([1]), L.is_tensor(1.0)],
    "byte": lambda L: L.tensor([1.7, 255.0, 3.0]).byte(),
    "short": lambda L: L.tensor([1.7, -3.2]).short(),
    "byte grad": lambda L: L.tensor([1.5], requires_grad=True).byte(),
    "range": lambda L: L.range(1, 4),
    "range step": lambda L: L.range(0, 1, 0.3),
    "range down": lambda L: L.range(3, 1, -1),
    "range dtype": lambda L: L.range(1, 4, dtype=L.int64),
    "range float64": lambda L: L.range(0.5, 2, 0.5, dtype=L.float64),
    "range step 0": lambda L: L.range(0, 1, 0),
    "range inconsistent": lambda L: L.range(1, 0),
    "range one argument": lambda L: L.range(5),
    "mps": lambda L: [L.backends.mps.is_available(), L.backends.mps.is_built()],
    "cudnn": lambda L: [L.backends.cudnn.is_available(), L.backends.cudnn.version()],
    "cudnn flags": lambda L: (
        [L.backends.cudnn.deterministic, L.backends.cudnn.benchmark]
        + [L.backends.cudnn.enabled, L.backends.cudnn.allow_tf32]
    ),
    "cuda matmul": lambda L: [
        L.backends.cuda.matmul.allow_tf32,
        L.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        L.backends.cuda.is_built(),
    ],
    "cuda.Event": lambda L: L.cuda.Event(),
    "cuda.Event timing": lambda L: L.cuda.Event(enable_timing=True),
    "cuda.Stream": lambda L: L.cuda.Stream(),
    "set_rng_state list": lambda L: L.set_rng_state([1]),
    "set_rng_state float": lambda L: L.random.set_rng_state(L.ones(2)),
    "rng state dtype": lambda L: L.get_rng_state().dtype,
    "initial_seed": lambda L: (L.manual_seed(5), L.random.initial_seed(), L.initial_seed())[1:],
}
# --- what the complex, sparse and quantized API answers for real dense tensors ---------------
CASES |= {
    "conj is self": lambda L: (lambda x: [x.conj() is x, L.conj(x) is x])(L.ones(2)),
    "real is self": lambda L: (lambda x: [x.real is x, L.real(x) is x])(L.ones(2)),
    "resolve_conj": lambda L: (lambda x: [x.resolve_conj() is x, L.resolve_conj(x) is x])(
        L.ones(2)
    ),
    "is_complex": lambda L: [L.ones(1).is_complex(), L.is_complex(L.ones(1, dtype=L.long))],
    "is_conj": lambda L: [L.ones(1).is_conj(), L.is_conj(L.ones(1))],
    "imag": lambda L: L.ones(2).imag,
    "torch.imag": lambda L: L.imag(L.ones(2)),
    "is_sparse is_quantized": lambda L: [L.ones(1).is_sparse, L.ones(1).is_quantized],
    "conj grad_fn": lambda L: L.ones(2, requires_grad=True).conj(),
    "is_complex list": lambda L: L.is_complex([1]),
}
# --- out= on the factories: out's dtype, resized to fit -----------------------------------
CASES |= {
    "zeros out long": lambda L: L.zeros(2, out=L.empty(3, dtype=L.long)),
    "ones out float64": lambda L: L.ones(2, 2, out=L.empty(4, dtype=L.float64)),
    "empty out": lambda L: L.empty(2, out=L.ones(2)).shape,
    "full out": lambda L: L.full((2,), 3, out=L.empty(2)),
    "full out long": lambda L: L.full((2,), 1.5, out=L.empty(2, dtype=L.long)),
    "arange out int32": lambda L: L.arange(5, out=L.empty(0, dtype=L.int32)),
    "arange out float": lambda L: L.arange(0, 1, 0.25, out=L.empty(0)),
    "linspace out": lambda L: L.linspace(0, 1, 3, out=L.empty(3)),
    "eye out": lambda L: L.eye(2, out=L.empty(1)),
    "rand out shape": lambda L: L.rand(2, 2, out=L.empty(3)).shape,
    "randn out long": lambda L: L.randn(2, out=L.empty(2, dtype=L.long)),
    "randint out float": lambda L: L.randint(0, 5, (3,), out=L.empty(3)).dtype,
    "out dtype mismatch": lambda L: L.ones(2, dtype=L.float64, out=L.empty(2)),
    "out requires grad": lambda L: L.zeros(2, out=L.empty(2, requires_grad=True)),
    "out not a tensor": lambda L: L.zeros(2, out=[1]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (range's deprecation: tested below)
        compare(CASES[case], torch_module)


def test_out_is_the_tensor_returned_and_counts_a_version(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        t = L.empty(3)
        assert L.rand(2, out=t) is t and t.shape == (2,) and t._version == 1
        same = L.empty(2, dtype=L.long)
        memory = same.data_ptr()
        assert L.zeros(2, out=same) is same and same.data_ptr() == memory


def test_rand_out_draws_what_rand_draws() -> None:
    microtorch.manual_seed(0)
    drawn = microtorch.rand(2, 3)
    microtorch.manual_seed(0)
    t = microtorch.rand(2, 3, out=microtorch.empty(0))
    assert t.tolist() == drawn.tolist()


def test_range_warns_as_pytorch(torch_module: ModuleType) -> None:
    texts = []
    for L in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.range(0, 2)
        assert [w.category for w in caught] == [UserWarning]
        assert caught[0].filename == __file__  # (points at the caller's line)
        texts.append(str(caught[0].message))
    assert texts[0] == texts[1]


def test_random_module_is_the_global_generator(torch_module: ModuleType) -> None:
    assert microtorch.random.manual_seed is microtorch.manual_seed
    assert microtorch.random.default_generator is microtorch.default_generator
    assert isinstance(torch_module.random.manual_seed(0), torch_module.Generator)
    assert isinstance(microtorch.random.manual_seed(0), microtorch.Generator)
    state = microtorch.random.get_rng_state()
    first = microtorch.rand(4).tolist()
    microtorch.set_rng_state(state)
    assert microtorch.rand(4).tolist() == first


def test_backend_flags_can_be_set() -> None:
    import microtorch.backends.cudnn as cudnn

    before = cudnn.deterministic, cudnn.benchmark
    try:
        microtorch.backends.cudnn.deterministic = True
        microtorch.backends.cudnn.benchmark = False
        assert cudnn.deterministic is True
    finally:
        cudnn.deterministic, cudnn.benchmark = before


def test_a_tensor_is_no_legacy_type_subclass(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        assert not issubclass(L.FloatTensor, L.Tensor)
        assert L.FloatTensor.dtype is L.float32 and L.LongTensor.dtype is L.int64
    assert repr(microtorch.LongTensor) == repr(torch_module.LongTensor).replace(
        "torch", "microtorch"
    )


# --- storage() ------------------------------------------------------------------------------
STORAGE_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "view of a row": lambda L: L.arange(6.0).view(2, 3)[1].storage(),
    "bool": lambda L: L.tensor([True, False]).storage(),
    "empty long": lambda L: L.tensor([], dtype=L.long).storage(),
    "0-d": lambda L: L.tensor(1.5).storage(),
    "int32": lambda L: L.tensor([[1, 2], [3, 4]], dtype=L.int32).t().storage(),
}


@pytest.mark.parametrize("case", list(STORAGE_CASES))
def test_storage_prints_and_reads_as_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mt, t = STORAGE_CASES[case](microtorch), STORAGE_CASES[case](torch_module)
    assert repr(mt) == repr(t).replace("torch", "microtorch")
    assert len(mt) == len(t) and mt.size() == t.size() and mt.tolist() == t.tolist()
    assert list(mt) == list(t) and mt.element_size() == t.element_size()
    assert mt.nbytes() == t.nbytes() and str(mt.dtype).split(".")[1] == str(t.dtype).split(".")[1]
    if len(t):
        assert mt[0] == t[0] and type(mt[0]) is type(t[0])


def test_storage_is_shared_with_views() -> None:
    x = microtorch.arange(6.0).view(2, 3)
    assert x[1].storage().data_ptr() == x.storage().data_ptr() == x.data_ptr()
    assert x.t().storage().tolist() == x.storage().tolist()


# --- random_() ------------------------------------------------------------------------------
RANDOM_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "to": lambda L: L.zeros(200, dtype=L.long).random_(10),
    "from to": lambda L: L.zeros(200).random_(2, 5),
    "negative": lambda L: L.zeros(200).random_(-3, 0),
    "no bounds uint8": lambda L: L.zeros(500, dtype=L.uint8).random_(),
    "no bounds bool": lambda L: L.zeros(200, dtype=L.bool).random_(),
    "no bounds float32": lambda L: L.zeros(200).random_(),
    "no bounds int16": lambda L: L.zeros(500, dtype=L.int16).random_(),
}
RANDOM_ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "from >= to": lambda L: L.zeros(2).random_(5, 2),
    "leaf": lambda L: L.zeros(2, requires_grad=True).random_(),
    "uint8 to": lambda L: L.zeros(2, dtype=L.uint8).random_(300),
    "uint8 from": lambda L: L.zeros(2, dtype=L.uint8).random_(-3, 0),
    "int8 from": lambda L: L.zeros(2, dtype=L.int8).random_(-200, 3),
    "int32 to": lambda L: L.zeros(2, dtype=L.int32).random_(2**40),
    "bool to": lambda L: L.zeros(2, dtype=L.bool).random_(3),
    "float bound": lambda L: L.zeros(2).random_(1.5),
}


@pytest.mark.parametrize("case", list(RANDOM_CASES))
def test_random_draws_in_pytorchs_range(case: str, torch_module: ModuleType) -> None:
    microtorch.manual_seed(0)
    torch_module.manual_seed(0)
    x = microtorch.zeros(1)
    before = x._version
    assert x.random_(3) is x and x._version == before + 1
    mt, t = RANDOM_CASES[case](microtorch), RANDOM_CASES[case](torch_module)
    assert str(mt.dtype).split(".")[1] == str(t.dtype).split(".")[1] and mt.shape == t.shape
    m, tv = mt.numpy().astype(np.float64), t.numpy().astype(np.float64)
    assert m.min() >= tv.min() - 0.1 * (tv.max() - tv.min())  # both fill the same range
    assert m.max() <= tv.max() + 0.1 * (tv.max() - tv.min())
    assert m.min() >= 0 or tv.min() < 0
    if tv.max() - tv.min() < 10:  # small ranges: every value, in both
        assert set(m.tolist()) == set(tv.tolist())
    assert np.array_equal(m, np.round(m))


@pytest.mark.parametrize("case", list(RANDOM_ERRORS))
def test_random_errors_match_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(RANDOM_ERRORS[case], torch_module)


def test_random_of_a_graph_tensor_records_pytorch_node(torch_module: ModuleType) -> None:
    def run(L: ModuleType, *args: int) -> Any:
        w = L.ones(2, requires_grad=True)
        x = w * 2
        x.random_(*args)
        x.sum().backward()
        return x.grad_fn.name(), x.requires_grad, w.grad.tolist()

    for args in ((), (5,), (1, 5)):
        assert run(microtorch, *args) == run(torch_module, *args)


# --- resize_() and the shape-changing in-place twins ------------------------------------------
SHAPE_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "resize_ smaller": lambda L: L.arange(6.0).resize_(2, 2),
    "resize_ larger": lambda L: L.arange(6.0).resize_(2, 3),
    "resize_ tuple": lambda L: L.arange(6.0).resize_((3, 2)),
    "resize_ 0": lambda L: L.ones(3).resize_(0),
    "resize_ negative": lambda L: L.ones(3).resize_(-1),
    "resize_ requires grad": lambda L: L.ones(3, requires_grad=True).resize_(2),
    "resize_ graph": lambda L: (L.ones(3, requires_grad=True) * 1).resize_(2),
    "unsqueeze_": lambda L: L.arange(6.0).view(2, 3).clone().unsqueeze_(1),
    "unsqueeze_ -1": lambda L: L.arange(3).unsqueeze_(-1),
    "squeeze_": lambda L: L.zeros(2, 1, 3).squeeze_(),
    "squeeze_ dim": lambda L: L.zeros(1, 2, 1).squeeze_(0),
    "t_": lambda L: L.arange(6.0).reshape(2, 3).clone().t_(),
    "transpose_": lambda L: L.arange(24.0).reshape(2, 3, 4).clone().transpose_(0, 2),
    "swapaxes_": lambda L: L.arange(6.0).reshape(2, 3).clone().swapaxes_(0, 1),
    "swapdims_": lambda L: L.arange(6.0).reshape(2, 3).clone().swapdims_(1, 0),
    "unsqueeze_ leaf": lambda L: L.ones(2, requires_grad=True).unsqueeze_(0),
    "unsqueeze_ bad dim": lambda L: L.ones(2).unsqueeze_(3),
    "t_ 3-d": lambda L: L.ones(2, 2, 2).t_(),
}


@pytest.mark.parametrize("case", list(SHAPE_CASES))
def test_shape_in_place_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        out = SHAPE_CASES[case](L)
        return out, out.stride(), out._version, out.is_contiguous()

    mt, t = outcome(run, microtorch), outcome(run, torch_module)
    if t[0] == "error" or mt[0] == "error":
        compare(SHAPE_CASES[case], torch_module)
        return
    compare(lambda L: SHAPE_CASES[case](L), torch_module)
    assert mt[1][1:] == t[1][1:]


def test_shape_in_place_keeps_the_memory_and_views_see_it() -> None:
    x = microtorch.arange(6.0).reshape(2, 3).clone()
    memory = x.data_ptr()
    x.t_()
    x[0, 1] = 100.0
    assert x.data_ptr() == memory and x.shape == (3, 2)
    assert x.t().tolist() == [[0.0, 1.0, 2.0], [100.0, 4.0, 5.0]]


def test_shape_in_place_of_a_graph_tensor_or_a_view_is_refused() -> None:
    graph = microtorch.ones(2, requires_grad=True) * 2
    with pytest.raises(NotImplementedError, match="unsqueeze_"):
        graph.unsqueeze_(0)
    view = microtorch.zeros(4)[:2]
    with pytest.raises(NotImplementedError, match="view"):
        view.unsqueeze_(0)
