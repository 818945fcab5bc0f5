"""Samplers: which dataset indices a ``DataLoader`` visits, in which order.

``DataLoader(ds, sampler=WeightedRandomSampler(weights, n))`` draws by weight (for classes
of very different sizes), ``BatchSampler`` groups indices into batches. Random ones draw
from microtorch's seeded generator (or the ``generator`` given), not PyTorch's: the same
seed gives another order than PyTorch, with the same distribution.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any

import numpy as np

from microtorch.creation import Generator, default_generator
from microtorch.tensor import Tensor

__all__ = [
    "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler",
    "WeightedRandomSampler", "BatchSampler",
]  # fmt: skip


def _rng(generator: Generator | None) -> np.random.Generator:
    return (generator or default_generator)._rng


def _positive(name: str, value: Any) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _boolean(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} should be a boolean value, but got {name}={value}")


class Sampler:
    """Base class: ``__iter__`` yields indices (and ``__len__`` says how many, if known)."""

    def __init__(self, data_source: Any = None) -> None:
        pass

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of all indices (each once), or ``num_samples`` draws with
    ``replacement=True``."""

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: Generator | None = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        if not isinstance(replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        _positive("num_samples", self.num_samples)

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n, rng = len(self.data_source), _rng(self.generator)
        if self.replacement:
            return iter(rng.integers(0, n, self.num_samples).tolist())
        whole, rest = divmod(self.num_samples, n)  # (num_samples > n: several permutations)
        orders = [rng.permutation(n) for _ in range(whole)] + [rng.permutation(n)[:rest]]
        return iter(np.concatenate(orders).tolist())

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices``, in a random order."""

    def __init__(self, indices: Sequence[int], generator: Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in _rng(self.generator).permutation(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices, index ``i`` drawn with probability ``weights[i] / sum``."""

    def __init__(
        self,
        weights: Sequence[float] | Tensor,
        num_samples: int,
        replacement: bool = True,
        generator: Generator | None = None,
    ) -> None:
        _positive("num_samples", num_samples)
        _boolean("replacement", replacement)
        values = weights._data if isinstance(weights, Tensor) else np.asarray(weights)
        if values.ndim != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape "
                f"{tuple(values.shape)}"
            )
        self.weights = values.astype(np.float64)
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        n = len(self.weights)
        if not self.replacement and self.num_samples > n:
            raise RuntimeError(
                "cannot sample n_sample > prob_dist.size(-1) samples without replacement"
            )
        p = self.weights / self.weights.sum()
        drawn = _rng(self.generator).choice(n, self.num_samples, self.replacement, p)
        return iter(drawn.tolist())

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Lists of ``batch_size`` indices from ``sampler`` (the last one shorter, unless
    ``drop_last``)."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        _positive("batch_size", batch_size)
        _boolean("drop_last", drop_last)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
