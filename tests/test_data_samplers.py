"""ConcatDataset and the samplers against PyTorch 2.13: the deterministic ones index by
index, the random ones by what they must satisfy (their draws come from microtorch's
generator), their lengths, errors, and use with DataLoader."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.utils import data
from tests.nn.test_losses import _message


def _concat(lib: ModuleType) -> list[Any]:
    d = lib.utils.data
    a = d.TensorDataset(lib.arange(3), lib.arange(3) * 10)
    b = d.TensorDataset(lib.arange(100, 102), lib.arange(2))
    both = d.ConcatDataset([a, b])
    plus = a + b + a
    loader = d.DataLoader(both, batch_size=2)
    return [
        len(both), both.cumulative_sizes, [tuple(t.tolist() for t in both[i]) for i in range(5)],
        [tuple(t.tolist() for t in both[-i]) for i in range(1, 6)], len(plus), type(plus).__name__,
        [[t.tolist() for t in batch] for batch in loader], len(loader),
    ]  # fmt: skip


def test_concat_dataset_matches_torch(torch_module: ModuleType) -> None:
    assert _concat(microtorch) == _concat(torch_module)


def _deterministic(lib: ModuleType) -> list[Any]:
    d = lib.utils.data
    seq = d.SequentialSampler(range(5))
    out = [list(seq), len(seq)]
    for size, drop in [(2, False), (2, True), (5, False), (7, True)]:
        batches = d.BatchSampler(seq, size, drop)
        out += [list(batches), len(batches)]
    loader = d.DataLoader(d.TensorDataset(lib.arange(6) * 2), batch_sampler=d.BatchSampler(
        d.SequentialSampler(range(6)), 4, False))  # fmt: skip
    return out + [[b[0].tolist() for b in loader], len(loader)]


def test_sequential_and_batch_samplers_match_torch(torch_module: ModuleType) -> None:
    assert _deterministic(microtorch) == _deterministic(torch_module)


def test_random_samplers_draw_what_they_must() -> None:
    microtorch.manual_seed(0)
    order = list(data.RandomSampler(range(10)))
    assert sorted(order) == list(range(10)) and all(type(i) is int for i in order)
    many = list(data.RandomSampler(range(4), num_samples=10))  # several whole permutations
    assert sorted(many[:4]) == sorted(many[4:8]) == list(range(4)) and len(many) == 10
    drawn = list(data.RandomSampler(range(3), replacement=True, num_samples=200))
    assert len(drawn) == 200 and set(drawn) == {0, 1, 2}
    subset = list(data.SubsetRandomSampler([7, 3, 9]))
    assert sorted(subset) == [3, 7, 9]
    weights = microtorch.tensor([0.1, 0.0, 0.9])
    picks = np.array(list(data.WeightedRandomSampler(weights, 20_000)))
    assert 1 not in picks and abs((picks == 2).mean() - 0.9) < 0.01
    once = list(data.WeightedRandomSampler([1.0, 1.0, 5.0], 3, replacement=False))
    assert sorted(once) == [0, 1, 2]
    g = microtorch.Generator().manual_seed(3)
    first = list(data.RandomSampler(range(6), generator=g))
    g.manual_seed(3)
    assert list(data.RandomSampler(range(6), generator=g)) == first


def _lengths(lib: ModuleType) -> list[int]:
    d = lib.utils.data
    return [
        len(d.RandomSampler(range(5))), len(d.RandomSampler(range(5), True, 12)),
        len(d.SubsetRandomSampler([1, 2])), len(d.WeightedRandomSampler([1, 2], 9)),
        len(d.DataLoader(range(10), batch_size=3, sampler=d.WeightedRandomSampler([1] * 10, 7))),
    ]  # fmt: skip


def test_lengths_match_torch(torch_module: ModuleType) -> None:
    assert _lengths(microtorch) == _lengths(torch_module)


def test_errors_match_torch(torch_module: ModuleType) -> None:
    def calls(lib: ModuleType) -> list:
        d = lib.utils.data
        return [
            lambda: d.RandomSampler(range(3), num_samples=0),
            lambda: d.RandomSampler(range(3), replacement=1),
            lambda: d.WeightedRandomSampler([1.0, 2.0], 0),
            lambda: d.WeightedRandomSampler([1.0, 2.0], 2, replacement=1),
            lambda: d.WeightedRandomSampler([[1.0]], 2),
            lambda: list(d.WeightedRandomSampler([1.0, 2.0], 3, replacement=False)),
            lambda: d.BatchSampler(range(3), 0, False),
            lambda: d.BatchSampler(range(3), 2, 1),
            lambda: d.ConcatDataset([]),
            lambda: d.ConcatDataset([range(2), range(3)])[-6],
            lambda: d.ConcatDataset([range(2), range(3)])[5],
        ]

    assert [_message(c) for c in calls(microtorch)] == [_message(c) for c in calls(torch_module)]


@pytest.mark.parametrize("name", ["RandomSampler", "WeightedRandomSampler"])
def test_loader_with_a_sampler_visits_valid_indices(name: str) -> None:
    ds = data.TensorDataset(microtorch.arange(8))
    sampler = data.RandomSampler(ds) if name == "RandomSampler" else (
        data.WeightedRandomSampler([1.0] * 8, 8))  # fmt: skip
    seen = [int(v) for (batch,) in data.DataLoader(ds, batch_size=3, sampler=sampler)
            for v in batch]  # fmt: skip
    assert len(seen) == 8 and set(seen) <= set(range(8))
