"""Mini-batches: ``Dataset``, ``TensorDataset``, ``Subset``, ``ConcatDataset``, ``random_split``,
``DataLoader``; the samplers (``WeightedRandomSampler`` ...) are in ``samplers.py``.

``for xb, yb in DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True):`` works as in
PyTorch. Shuffling draws from microtorch's seeded generator (or the ``generator`` given), so a
seeded run sees the same batches every time.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from microtorch import _coverage
from microtorch.api.join import stack
from microtorch.creation import Generator, default_generator
from microtorch.tensor import Tensor, plain_tensor
from microtorch.utils.samplers import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "Dataset", "TensorDataset", "Subset", "ConcatDataset", "random_split", "DataLoader",
    "default_collate", "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
    "WeightedRandomSampler", "BatchSampler",
]  # fmt: skip


class Dataset:
    """Base class for map-style datasets: define ``__getitem__`` (and ``__len__``)."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Any) -> ConcatDataset:
        return ConcatDataset([self, other])


class TensorDataset(Dataset):
    """Sample ``i`` is ``(t[i] for t in tensors)``: inputs and targets side by side."""

    def __init__(self, *tensors: Tensor) -> None:
        if any(t._data.shape[:1] != tensors[0]._data.shape[:1] for t in tensors):
            raise AssertionError(
                "Size mismatch between tensors (every tensor needs the same first dimension, "
                f"got {[t._data.shape[0] if t._data.ndim else None for t in tensors]})"
            )
        self.tensors = tensors

    def __getitem__(self, index: int) -> tuple[Tensor, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0]._data.shape[0]


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, index: int) -> Any:
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """The samples of several datasets, one after the other."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        if len(self.datasets) == 0:
            raise AssertionError("datasets should not be an empty iterable")
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)  # the dataset idx falls in
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


def random_split(
    dataset: Any, lengths: Sequence[float], generator: Generator | None = None
) -> list[Subset]:
    """Split into non-overlapping random subsets of the given sizes (or fractions)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(sizes)):  # the remainder goes round-robin, as in PyTorch
            sizes[i % len(sizes)] += 1
    else:
        sizes = [int(s) for s in lengths]
    if sum(sizes) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    order = (generator or default_generator)._rng.permutation(n).tolist()
    ends = list(itertools.accumulate(sizes))
    return [Subset(dataset, order[end - size : end]) for end, size in zip(ends, sizes)]


def default_collate(batch: Sequence[Any]) -> Any:
    """Merge a list of samples into a batch: tensors are stacked along a new first dim."""
    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch)
    if isinstance(elem, np.ndarray):
        return plain_tensor(np.stack(batch))
    if isinstance(elem, float):
        return plain_tensor(np.array(batch, np.float64))
    if isinstance(elem, bool):
        return plain_tensor(np.array(batch, np.bool_))
    if isinstance(elem, int):
        return plain_tensor(np.array(batch, np.int64))
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(s) for s in zip(*batch)))
    if isinstance(elem, Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(s) for s in zip(*batch)]
    raise TypeError(
        "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
        f"found {type(elem)}"
    )


class DataLoader:
    """Iterate over a dataset in mini-batches, optionally shuffled each epoch.

    ``num_workers`` and ``pin_memory`` are accepted for compatibility; loading runs in the
    main process.
    """

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Iterable[int] | None = None,
        batch_sampler: Iterable[list[int]] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        generator: Generator | None = None,
        **kwargs: Any,
    ) -> None:
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if shuffle and sampler is not None:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.generator = generator

    def _indices(self) -> Iterable[int]:
        if self.sampler is not None:
            return self.sampler
        n = len(self.dataset)
        if self.shuffle:
            return (self.generator or default_generator)._rng.permutation(n)
        return range(n)

    def _batches(self) -> Iterator[Any]:
        if self.batch_sampler is not None:
            yield from self.batch_sampler
            return
        indices = np.fromiter(self._indices(), dtype=np.int64)
        size = self.batch_size or 1
        stop = len(indices) - len(indices) % size if self.drop_last else len(indices)
        for start in range(0, stop, size):
            yield indices[start : start + size]

    def __iter__(self) -> Iterator[Any]:
        if self.batch_size is None and self.batch_sampler is None:
            for i in self._indices():  # no batching: one sample at a time, as in PyTorch
                yield self.dataset[int(i)]
            return
        rows = _tensor_rows(self.dataset) if self.collate_fn is None else None
        collate = self.collate_fn or default_collate
        for idx in self._batches():
            batch = None if rows is None else _pick_rows(*rows, idx)
            yield collate([self.dataset[int(i)] for i in idx]) if batch is None else batch

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)  # type: ignore[arg-type]
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)  # type: ignore[arg-type]
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)


def _tensor_rows(dataset: Any) -> tuple[tuple[Tensor, ...], np.ndarray | None] | None:
    """For a TensorDataset, or a Subset of one (``random_split``'s parts), its tensors and
    which of their rows sample ``i`` is (``None``: row ``i``); ``None`` for any other dataset,
    or if a tensor requires grad (then stacking records the graph, as in PyTorch)."""
    where = None
    while type(dataset) is Subset:
        indices = np.asarray(dataset.indices)
        if indices.dtype.kind not in "iu":
            return None
        where = indices if where is None else indices[where]  # (an outer Subset picks first)
        dataset = dataset.dataset
    if type(dataset) is not TensorDataset or any(t._rg for t in dataset.tensors):
        return None
    return dataset.tensors, where


def _pick_rows(tensors: tuple[Tensor, ...], where: np.ndarray | None, idx: Any) -> Any:
    # The samples idx, collated as default_collate would stack them, by one fancy index per
    # tensor; None if an index is out of range (item by item then raises PyTorch's error).
    try:
        rows = np.asarray(idx, np.int64) if where is None else where[idx]
        return [plain_tensor(t._data[rows]) for t in tensors]
    except IndexError:
        return None


# PyTorch names microtorch does not cover raise an error that says what to use instead.
if not TYPE_CHECKING:  # (to mypy, a module __getattr__ would make every name exist)
    __getattr__ = _coverage.module_getattr("torch.utils.data", __name__)
