"""Datasets: ``Dataset`` (indexed samples), ``IterableDataset`` (a stream of samples),
``TensorDataset``, ``Subset``, ``ConcatDataset``, ``ChainDataset`` and ``random_split``.

A map-style dataset answers ``ds[i]`` (and ``len(ds)``); an iterable one only ``iter(ds)``,
for data that arrive in order (a file read line by line, samples made on the fly). The
``DataLoader`` (``data.py``) batches either kind.
"""

from __future__ import annotations

import abc
import bisect
import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from microtorch.creation import Generator, default_generator
from microtorch.tensor import Tensor

__all__ = [
    "Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "ChainDataset",
    "random_split", "StackDataset",
]  # fmt: skip


class Dataset:
    """Base class for map-style datasets: define ``__getitem__`` (and ``__len__``)."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Any) -> Dataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset, Iterable):
    """Base class for iterable-style datasets: define ``__iter__`` (yield one sample at a
    time); ``__len__`` is optional. ``a + b`` chains two of them (``ChainDataset``)."""

    @abc.abstractmethod
    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError

    def __add__(self, other: Any) -> ChainDataset:
        return ChainDataset([self, other])


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
        if any(isinstance(d, IterableDataset) for d in self.datasets):
            raise AssertionError(
                "ConcatDataset does not support IterableDataset (Fix: chain iterable datasets "
                "with ChainDataset, or a + b)"
            )
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


class ChainDataset(IterableDataset):
    """The samples of several iterable datasets, one stream after the other (read lazily)."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = datasets

    def __iter__(self) -> Iterator[Any]:
        for d in self.datasets:
            _check_iterable(d)
            yield from d

    def __len__(self) -> int:
        total = 0
        for d in self.datasets:
            _check_iterable(d)
            total += len(d)
        return total


class StackDataset(Dataset):
    """Several datasets of one length side by side: item i is ``(a[i], b[i])`` for
    ``StackDataset(a, b)``, ``{"x": a[i], "y": b[i]}`` for ``StackDataset(x=a, y=b)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args and kwargs:
            raise ValueError(
                "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like "
                "input/output, but both types are given."
            )
        if not args and not kwargs:
            raise ValueError("At least one dataset should be passed")
        parts = list(args or kwargs.values())
        self._length = len(parts[0])
        if any(len(d) != self._length for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets: tuple[Any, ...] | dict[str, Any] = args or kwargs

    def __getitem__(self, index: Any) -> Any:
        if isinstance(self.datasets, dict):
            return {key: d[index] for key, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self) -> int:
        return self._length


def _check_iterable(dataset: Any) -> None:
    if not isinstance(dataset, IterableDataset):
        raise AssertionError(
            "ChainDataset only supports IterableDataset (Fix: concatenate map-style datasets "
            "with ConcatDataset)"
        )


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
