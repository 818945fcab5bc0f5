"""utils.data's iterable-style datasets against PyTorch 2.13: IterableDataset, ChainDataset,
get_worker_info, and the DataLoader reading a stream (batching, drop_last, len, collate_fn,
and PyTorch's errors for shuffle, sampler and batch_sampler)."""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.nn.test_losses import _message


def _datasets(lib: ModuleType) -> dict[str, Any]:
    data = lib.utils.data

    class Count(data.IterableDataset):
        """start, start + 1, ..., stop - 1 as 0-d tensors, with a length."""

        def __init__(self, start: int, stop: int) -> None:
            self.start, self.stop = start, stop

        def __iter__(self) -> Any:
            for i in range(self.start, self.stop):
                yield lib.tensor(float(i))

        def __len__(self) -> int:
            return self.stop - self.start

    class Pairs(data.IterableDataset):
        """(features, label) samples and no __len__, as a stream read from a file would be."""

        def __iter__(self) -> Any:
            for i in range(7):
                yield lib.tensor([i, -i], dtype=lib.float64), i % 3

    class Records(data.IterableDataset):
        def __iter__(self) -> Any:
            for i in range(5):
                yield {"x": lib.arange(3) * i, "name": f"r{i}", "w": i / 2}

    class Seen(data.IterableDataset):
        """Records what get_worker_info() said while the loader was reading it."""

        def __init__(self) -> None:
            self.info: list[Any] = []

        def __iter__(self) -> Any:
            self.info.append(data.get_worker_info())
            yield from range(3)

    return {"Count": Count, "Pairs": Pairs, "Records": Records, "Seen": Seen}


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return (str(value.dtype).split(".")[-1], tuple(value.shape), value.tolist())
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_plain(v) for v in value]
    return value


def _loaded(lib: ModuleType) -> list[Any]:
    data, ds = lib.utils.data, _datasets(lib)
    Count, Pairs, Records = ds["Count"], ds["Pairs"], ds["Records"]
    loaders = [
        data.DataLoader(Count(0, 7), batch_size=3),
        data.DataLoader(Count(0, 7), batch_size=3, drop_last=True),
        data.DataLoader(Count(0, 6), batch_size=3, drop_last=True, shuffle=False),
        data.DataLoader(Count(2, 5)),  # batch_size=1
        data.DataLoader(Count(2, 5), batch_size=None),  # no batching: the samples themselves
        data.DataLoader(Count(0, 4), batch_size=None, collate_fn=lambda s: s * 2),
        data.DataLoader(Count(0, 5), batch_size=2, collate_fn=lambda b: [t.item() for t in b]),
        data.DataLoader(Count(0, 3), batch_size=8),  # one short batch
        data.DataLoader(Count(0, 3), batch_size=8, drop_last=True),  # nothing at all
        data.DataLoader(Count(0, 0), batch_size=2),  # an empty stream
        data.DataLoader(Pairs(), batch_size=3),
        data.DataLoader(Pairs(), batch_size=4, drop_last=True),
        data.DataLoader(Records(), batch_size=2),
        data.DataLoader(Count(0, 3) + Count(10, 12), batch_size=2),  # a ChainDataset
        data.DataLoader(data.ChainDataset([Count(0, 2), Pairs()]), batch_size=None),
    ]
    seen = []
    for loader in loaders:
        seen.append([_plain(b) for b in loader])
        seen.append([_plain(b) for b in loader])  # a second epoch reads the stream again
    return seen


@pytest.mark.torch
def test_batches_match_torch(torch_module: ModuleType) -> None:
    import torch.utils.data  # noqa: F401 - the loaders use lib.utils.data

    assert _loaded(microtorch) == _loaded(torch_module)


def _lengths(lib: ModuleType) -> list[Any]:
    data, ds = lib.utils.data, _datasets(lib)
    Count = ds["Count"]
    chain = data.ChainDataset([Count(0, 3), Count(5, 9)])
    return [
        len(data.DataLoader(Count(0, 7), batch_size=3)),
        len(data.DataLoader(Count(0, 7), batch_size=3, drop_last=True)),
        len(data.DataLoader(Count(0, 7), batch_size=None)),
        len(data.DataLoader(Count(0, 7))),
        len(chain), len(Count(0, 2) + Count(0, 3)), type(Count(0, 1) + Count(0, 1)).__name__,
        len(list(chain)),
        [isinstance(Count(0, 1), c) for c in (data.Dataset, data.IterableDataset)],
        isinstance(chain, data.IterableDataset),
    ]  # fmt: skip


@pytest.mark.torch
def test_lengths_and_chaining_match_torch(torch_module: ModuleType) -> None:
    import torch.utils.data  # noqa: F401

    assert _lengths(microtorch) == _lengths(torch_module)


def test_get_worker_info_is_none_in_the_main_process() -> None:
    data = microtorch.utils.data
    seen = _datasets(microtorch)["Seen"]()
    assert data.get_worker_info() is None
    assert [b.tolist() for b in data.DataLoader(seen, batch_size=2, num_workers=0)] == [
        [0, 1],
        [2],
    ]
    assert seen.info == [None]


def _errors(lib: ModuleType) -> list[Any]:
    data, ds = lib.utils.data, _datasets(lib)
    Count, Pairs = ds["Count"], ds["Pairs"]
    tensors = data.TensorDataset(lib.arange(4.0))
    return [
        _message(lambda: data.DataLoader(Count(0, 4), shuffle=True)),
        _message(lambda: data.DataLoader(Count(0, 4), shuffle=1, batch_size=2)),
        _message(lambda: data.DataLoader(Count(0, 4), sampler=[0, 1])),
        _message(lambda: data.DataLoader(Count(0, 4), batch_sampler=[[0, 1]])),
        _message(lambda: data.DataLoader(Count(0, 4), shuffle=True, sampler=[0])),  # shuffle first
        _message(lambda: data.DataLoader(Count(0, 4), batch_size=None, drop_last=True)),
        _message(lambda: data.DataLoader(tensors, batch_size=None, drop_last=True)),
        _message(lambda: len(data.DataLoader(Pairs(), batch_size=2))),
        _message(lambda: len(Pairs())),
        _message(lambda: data.IterableDataset()),
        _message(lambda: list(data.ChainDataset([Count(0, 2), tensors]))),
        _message(lambda: len(data.ChainDataset([tensors]))),
        _message(lambda: data.ConcatDataset([tensors, Count(0, 2)])),
        _message(lambda: tensors + Count(0, 2)),
        _message(lambda: data.get_worker_info(0)),
    ]


@pytest.mark.torch
def test_errors_match_torch(torch_module: ModuleType) -> None:
    import torch.utils.data  # noqa: F401

    mine, theirs = _errors(microtorch), _errors(torch_module)
    assert mine == theirs


def test_errors_name_the_fix() -> None:
    data = microtorch.utils.data
    Count = _datasets(microtorch)["Count"]
    with pytest.raises(ValueError, match=r"\(Fix: shuffle or sample inside the dataset"):
        data.DataLoader(Count(0, 4), shuffle=True)
    with pytest.raises(AssertionError, match=r"\(Fix: chain iterable datasets with ChainDataset"):
        data.ConcatDataset([Count(0, 2)])


def test_a_training_loop_over_a_stream() -> None:
    # Fit y = 2x + 1 from a stream of noisy samples, as a course exercise would.
    data = microtorch.utils.data

    class Line(data.IterableDataset):
        def __iter__(self) -> Any:
            rng = np.random.default_rng(0)
            for x in rng.uniform(-1, 1, 64):
                yield microtorch.tensor([float(x)]), microtorch.tensor([2 * float(x) + 1])

    model = microtorch.nn.Linear(1, 1)
    opt = microtorch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(30):
        for xb, yb in data.DataLoader(Line(), batch_size=16):
            assert xb.shape == (16, 1)
            opt.zero_grad()
            microtorch.nn.functional.mse_loss(model(xb), yb).backward()
            opt.step()
    assert model.weight.item() == pytest.approx(2.0, abs=1e-3)
    assert model.bias.item() == pytest.approx(1.0, abs=1e-3)


def _overlong(lib: ModuleType) -> list[Any]:
    # a dataset whose __len__ says fewer samples than it yields: after len(loader), PyTorch
    # warns at each batch past that length
    data = lib.utils.data

    class Liar(data.IterableDataset):
        def __iter__(self) -> Any:
            yield from range(5)

        def __len__(self) -> int:
            return 2

        def __repr__(self) -> str:
            return "Liar()"

    seen = []
    for ask_len in (False, True):
        loader = data.DataLoader(Liar(), batch_size=None)
        if ask_len:
            seen.append(len(loader))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            seen.append([_plain(b) for b in loader])
        seen.append([(w.category.__name__, str(w.message)) for w in caught])
    return seen


@pytest.mark.torch
def test_a_dataset_longer_than_its_len_warns_as_torch(torch_module: ModuleType) -> None:
    import torch.utils.data  # noqa: F401

    mine = _overlong(microtorch)
    assert mine == _overlong(torch_module)
    assert len(mine[-1]) == 3
