"""microtorch.utils.data: datasets, collation, batching, seeded shuffling."""

from __future__ import annotations

from collections import namedtuple
from types import ModuleType

import numpy as np
import pytest

import microtorch
from microtorch.utils.data import (
    DataLoader,
    Dataset,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)


def _dataset(n: int = 10) -> TensorDataset:
    return TensorDataset(microtorch.arange(n * 2.0).view(n, 2), microtorch.arange(n))


def test_tensor_dataset_items_and_length() -> None:
    ds = _dataset()
    x, y = ds[3]
    assert len(ds) == 10 and x.tolist() == [6.0, 7.0] and y.item() == 3
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(microtorch.zeros(3), microtorch.zeros(4))


def test_batches_in_order_with_and_without_drop_last() -> None:
    loader = DataLoader(_dataset(), batch_size=4)
    batches = list(loader)
    assert len(loader) == 3 and [b[1].tolist() for b in batches] == [
        [0, 1, 2, 3],
        [4, 5, 6, 7],
        [8, 9],
    ]
    xb, yb = batches[0]
    assert xb.shape == (4, 2) and xb.dtype is microtorch.float32 and yb.dtype is microtorch.int64
    dropped = DataLoader(_dataset(), batch_size=4, drop_last=True)
    assert len(dropped) == 2 and [len(b[1]) for b in dropped] == [4, 4]


def test_shuffle_is_a_seeded_permutation_each_epoch() -> None:
    microtorch.manual_seed(0)
    loader = DataLoader(_dataset(), batch_size=3, shuffle=True)
    epoch1 = np.concatenate([yb.numpy() for _, yb in loader])
    epoch2 = np.concatenate([yb.numpy() for _, yb in loader])
    assert sorted(epoch1.tolist()) == list(range(10)) and epoch1.tolist() != epoch2.tolist()
    microtorch.manual_seed(0)
    again = np.concatenate([yb.numpy() for _, yb in loader])
    assert again.tolist() == epoch1.tolist()
    g = microtorch.Generator().manual_seed(1)
    own = DataLoader(_dataset(), batch_size=10, shuffle=True, generator=g)
    first = next(iter(own))[1].tolist()
    g.manual_seed(1)
    assert next(iter(own))[1].tolist() == first


def test_fast_path_equals_item_by_item_collation() -> None:
    ds = _dataset(7)
    fast = list(DataLoader(ds, batch_size=3))
    slow = list(DataLoader(ds, batch_size=3, collate_fn=default_collate))
    for (fx, fy), (sx, sy) in zip(fast, slow):
        assert fx.tolist() == sx.tolist() and fy.tolist() == sy.tolist()
        assert sx.grad_fn is None and fx.dtype is sx.dtype


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("drop_last", [False, True])
def test_subsets_batch_by_one_index_as_item_by_item(shuffle: bool, drop_last: bool) -> None:
    # random_split's parts (Subsets, also of Subsets) take the one-index path too: the same
    # batches, in the same seeded order, as collating sample by sample.
    parts = random_split(_dataset(23), [15, 8], generator=microtorch.Generator().manual_seed(3))
    nested = Subset(parts[0], [4, 0, 14, 7, 7, 2, 9])
    for ds in (*parts, nested):
        kwargs = dict(batch_size=4, shuffle=shuffle, drop_last=drop_last)
        g1, g2 = microtorch.Generator().manual_seed(5), microtorch.Generator().manual_seed(5)
        fast = list(DataLoader(ds, generator=g1, **kwargs))
        slow = list(DataLoader(ds, generator=g2, collate_fn=default_collate, **kwargs))
        assert len(fast) == len(slow) == len(DataLoader(ds, **kwargs))
        for (fx, fy), (sx, sy) in zip(fast, slow):
            assert fx.tolist() == sx.tolist() and fy.tolist() == sy.tolist()
            assert fx.dtype is sx.dtype and fy.dtype is sy.dtype and fx.shape == sx.shape


def test_one_index_batches_keep_pytorchs_errors_and_graph(torch_module: ModuleType) -> None:
    bad = [0, 1, 12]  # a sampler that goes past the end: the item-by-item error, as torch's
    for lib in (microtorch, torch_module):
        ds = lib.utils.data.TensorDataset(lib.arange(20.0).view(10, 2), lib.arange(10))
        with pytest.raises(IndexError) as info:
            list(lib.utils.data.DataLoader(ds, batch_size=3, sampler=bad))
        assert "index 12 is out of bounds for dimension 0 with size 10" in str(info.value)
        x = lib.ones(4, 2, requires_grad=True)  # stacking records the graph, as in torch
        (xb,) = next(iter(lib.utils.data.DataLoader(lib.utils.data.TensorDataset(x), 2)))
        assert type(xb.grad_fn).__name__ == "StackBackward0"
        parts = lib.utils.data.random_split(ds, [7, 3])
        xb, yb = next(iter(lib.utils.data.DataLoader(parts[0], batch_size=7)))
        assert sorted(yb.tolist()) == sorted(parts[0].indices) and xb.shape == (7, 2)
        assert xb.grad_fn is None and xb.is_contiguous()


class Squares(Dataset):
    """A beginner's own dataset: ``__getitem__`` returns a dict."""

    def __len__(self) -> int:
        return 5

    def __getitem__(self, i: int) -> dict:
        return {"x": float(i), "y": i * i, "name": f"n{i}"}


def test_custom_dataset_and_default_collate_types(torch_module: ModuleType) -> None:
    batch = next(iter(DataLoader(Squares(), batch_size=5)))
    assert batch["x"].dtype is microtorch.float64 and batch["y"].tolist() == [0, 1, 4, 9, 16]
    assert batch["name"] == ["n0", "n1", "n2", "n3", "n4"]
    assert torch_module.utils.data.default_collate([Squares()[0]])["name"] == ["n0"]
    samples = [(1, 2.0, True, [3, 4], "s"), (5, 6.0, False, [7, 8], "t")]
    mine = default_collate(samples)
    theirs = torch_module.utils.data.default_collate(samples)
    assert type(mine) is type(theirs) and len(mine) == len(theirs)
    for m, t in zip(mine[:3], theirs[:3]):
        assert m.tolist() == t.tolist() and m.dtype.name == str(t.dtype).split(".")[1]
    assert [m.tolist() for m in mine[3]] == [t.tolist() for t in theirs[3]]
    assert mine[4] == theirs[4] == ("s", "t")
    Point = namedtuple("Point", "a b")
    assert default_collate([Point(1, 2), Point(3, 4)]).b.tolist() == [2, 4]
    arrays = default_collate([np.ones(2), np.zeros(2)])
    assert arrays.shape == (2, 2) and arrays.dtype is microtorch.float64


def test_unbatched_loader_and_subsets() -> None:
    assert [y.item() for _, y in DataLoader(_dataset(3), batch_size=None)] == [0, 1, 2]
    sub = Subset(_dataset(), [9, 0])
    assert len(sub) == 2 and sub[0][1].item() == 9
    microtorch.manual_seed(0)
    train, test = random_split(_dataset(), [0.8, 0.2])
    assert (len(train), len(test)) == (8, 2)
    assert sorted(train.indices + test.indices) == list(range(10))
    parts = random_split(_dataset(), [3, 3, 4], generator=microtorch.Generator().manual_seed(2))
    assert [len(p) for p in parts] == [3, 3, 4]
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(_dataset(), [3, 3])


def test_loader_errors() -> None:
    with pytest.raises(ValueError, match="batch_size should be a positive integer value"):
        DataLoader(_dataset(), batch_size=0)
    with pytest.raises(ValueError, match="mutually exclusive"):
        DataLoader(_dataset(), shuffle=True, sampler=[0, 1])
    with pytest.raises(NotImplementedError):
        Dataset()[0]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [3]])


def test_sampler_and_batch_sampler() -> None:
    assert [b[1].tolist() for b in DataLoader(_dataset(), batch_size=2, sampler=[5, 1, 7])] == [
        [5, 1],
        [7],
    ]
    loader = DataLoader(_dataset(), batch_sampler=[[0, 9], [4]])
    assert len(loader) == 2 and [b[1].tolist() for b in loader] == [[0, 9], [4]]
