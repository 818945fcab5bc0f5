"""Mini-batches: the ``DataLoader`` and ``default_collate``; the datasets (``TensorDataset``,
``IterableDataset`` ...) are in ``datasets.py``, the samplers (``WeightedRandomSampler`` ...)
in ``samplers.py``.

``for xb, yb in DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True):`` works as in
PyTorch. Shuffling draws from microtorch's seeded generator (or the ``generator`` given), so a
seeded run sees the same batches every time.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from microtorch import _coverage
from microtorch._warn import warn
from microtorch.api.join import stack
from microtorch.creation import Generator, default_generator
from microtorch.tensor import Tensor, plain_tensor
from microtorch.utils.datasets import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from microtorch.utils.samplers import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset", "ChainDataset",
    "random_split", "DataLoader", "default_collate", "get_worker_info", "Sampler",
    "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "WeightedRandomSampler",
    "BatchSampler", "StackDataset", "default_convert",
]  # fmt: skip


def get_worker_info() -> None:
    """Which loading worker runs this code: always ``None``, the main process (microtorch loads
    in one process, as PyTorch does with ``num_workers=0``)."""
    return None


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


def default_convert(data: Any) -> Any:
    """What a loader without batching applies to each sample: numpy arrays become tensors,
    tuples lists, containers are converted item by item."""
    if isinstance(data, (np.ndarray, np.generic)) and data.dtype.kind not in "SUOa":
        return plain_tensor(np.asarray(data))
    if isinstance(data, Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(s) for s in data))
    if isinstance(data, (tuple, list)):
        return [default_convert(s) for s in data]
    return data


class DataLoader:
    """Iterate over a dataset in mini-batches, optionally shuffled each epoch.

    ``num_workers`` and ``pin_memory`` are accepted for compatibility; loading runs in the
    main process. An ``IterableDataset`` is read in its own order: batches of ``batch_size``
    consecutive samples (no shuffle, no sampler).
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
        if isinstance(dataset, IterableDataset):
            _check_iterable_options(shuffle, sampler, batch_sampler)
        if batch_size is not None and (not isinstance(batch_size, int) or batch_size <= 0):
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if shuffle and sampler is not None:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_size is None and drop_last and batch_sampler is None:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        self.dataset = dataset
        self.batch_size = batch_size
        self.shuffle = bool(shuffle)
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.num_workers = num_workers
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.generator = generator
        self._reported_len: int | None = None  # an IterableDataset's len, once len(loader) ran

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
        if isinstance(self.dataset, IterableDataset):
            reported = self._reported_len
            for count, batch in enumerate(self._stream(), 1):
                if reported is not None and count > reported:  # PyTorch's warning, its text
                    warn(
                        f"Length of IterableDataset {self.dataset} was reported to be "
                        f"{reported}(when accessing len(dataloader)), but {count} samples have "
                        "been fetched. ",
                    )
                yield batch
            return
        if self.batch_size is None and self.batch_sampler is None:
            for i in self._indices():  # no batching: one sample at a time, as in PyTorch
                yield (self.collate_fn or default_convert)(self.dataset[int(i)])
            return
        rows = _tensor_rows(self.dataset) if self.collate_fn is None else None
        collate = self.collate_fn or default_collate
        for idx in self._batches():
            batch = None if rows is None else _pick_rows(*rows, idx)
            yield collate([self.dataset[int(i)] for i in idx]) if batch is None else batch

    def _stream(self) -> Iterator[Any]:
        # An IterableDataset's samples in its order, batch_size at a time (PyTorch's fetcher)
        samples = iter(self.dataset)
        if self.batch_size is None:
            yield from map(self.collate_fn or default_convert, samples)
            return
        collate = self.collate_fn or default_collate
        while True:
            batch = list(itertools.islice(samples, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return  # (a short batch means the stream has ended)
            yield collate(batch)

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):  # (TypeError if it has no __len__)
            n = self._reported_len = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)  # type: ignore[arg-type]
        n = len(self.sampler) if self.sampler is not None else len(self.dataset)  # type: ignore[arg-type]
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)


def _check_iterable_options(shuffle: Any, sampler: Any, batch_sampler: Any) -> None:
    # An IterableDataset decides its own order: PyTorch refuses what would choose another.
    hint = " (Fix: shuffle or sample inside the dataset's __iter__, or use a map-style Dataset)"
    if shuffle not in {False, None}:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified shuffle option, but got "
            f"shuffle={shuffle}" + hint
        )
    if sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified sampler option, but got "
            f"sampler={sampler}" + hint
        )
    if batch_sampler is not None:
        raise ValueError(
            "DataLoader with IterableDataset: expected unspecified batch_sampler option, but "
            f"got batch_sampler={batch_sampler}" + hint
        )


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
