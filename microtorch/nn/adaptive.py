"""``nn.AdaptiveLogSoftmaxWithLoss``: the adaptive softmax of Grave et al. (2016) for many
classes sorted by frequency (issue 24).

The first ``cutoffs[0]`` classes (the shortlist) get a column each in the head, a Linear layer
that also has one column per cluster of rarer classes. A class in cluster i has the
log-probability head(x)[cluster i] + its own log-probability inside the cluster, from a
two-layer tail whose hidden size shrinks by ``div_value`` per cluster. Only the clusters that
some target falls in are evaluated. The layers are built in PyTorch's order (head, then each
cluster's two Linear layers), so they draw from the generator in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from microtorch.api.rearrange import index_select
from microtorch.api.reduction import argmax
from microtorch.api.scatter import gather
from microtorch.nn import functional as F
from microtorch.nn.container import ModuleList, Sequential
from microtorch.nn.linear import Linear
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["AdaptiveLogSoftmaxWithLoss"]


class _ASMoutput(NamedTuple):
    """What ``AdaptiveLogSoftmaxWithLoss`` returns: each target's log-probability, and the
    mean negative log-likelihood."""

    output: Tensor
    loss: Tensor


class AdaptiveLogSoftmaxWithLoss(Module):
    """Log-probabilities of ``n_classes`` classes, frequent first, split at ``cutoffs`` into a
    head and clusters of rarer classes with smaller projections."""

    def __init__(
        self, in_features: int, n_classes: int, cutoffs: Sequence[int], div_value: float = 4.0,
        head_bias: bool = False, device: Any = None, dtype: Any = None,
    ) -> None:  # fmt: skip
        super().__init__()
        cutoffs = list(cutoffs)
        _check_cutoffs(cutoffs, n_classes)
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = [*cutoffs, n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        kwargs = {"device": device, "dtype": dtype}
        self.head = Linear(in_features, self.head_size, bias=head_bias, **kwargs)
        self.tail = ModuleList()
        for i in range(self.n_clusters):
            hidden = int(in_features // (div_value ** (i + 1)))  # smaller for rarer clusters
            size = self.cutoffs[i + 1] - self.cutoffs[i]
            self.tail.append(
                Sequential(
                    Linear(in_features, hidden, bias=False, **kwargs),
                    Linear(hidden, size, bias=False, **kwargs),
                )
            )

    def reset_parameters(self) -> None:
        """Draws every weight again, in the order ``__init__`` drew them."""
        self.head.reset_parameters()
        for i in range(self.n_clusters):
            for layer in self._cluster(i):
                layer.reset_parameters()

    def _cluster(self, i: int) -> Sequential:
        return cast(Sequential, self.tail[i])  # (to mypy a ModuleList holds Modules)

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        _check_shapes(input_, target_)
        batched = target_.dim() > 0
        x = input_ if batched else input_.unsqueeze(0)  # (N, in_features)
        target = target_ if batched else target_.unsqueeze(0)  # (N,)
        output = x.new_zeros(target.size(0))  # log p(target | cluster), 0 in the shortlist
        head_column = target.new_empty(target.size(0))  # the head's column of each target
        bounds = [0, *self.cutoffs]
        used = 0
        for i, (low, high) in enumerate(zip(bounds[:-1], bounds[1:])):
            in_cluster = (target >= low) & (target < high)
            rows = in_cluster.nonzero().squeeze()
            if rows.numel() == 0:
                continue  # (a cluster no target falls in is not evaluated)
            if i == 0:
                head_column.index_copy_(0, rows, target[in_cluster])
            else:
                logp = F.log_softmax(self._cluster(i - 1)(index_select(x, 0, rows)), dim=1)
                picked = gather(logp, 1, (target[in_cluster] - low).unsqueeze(1))
                head_column.index_fill_(0, rows, self.shortlist_size + i - 1)
                output.index_copy_(0, rows, picked.squeeze(1))
            used += rows.numel()
        if used != target.size(0):
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], but values in range "
                f"[{target.min().item()}, {target.max().item()}] were found. "
            )
        head_logp = F.log_softmax(self.head(x), dim=1)
        output += gather(head_logp, 1, head_column.unsqueeze(1)).squeeze()
        loss = (-output).mean()
        return _ASMoutput(output if batched else output.squeeze(0), loss)

    def _full_log_prob(self, x: Tensor, head_output: Tensor) -> Tensor:
        # (N, n_classes): the shortlist's from the head, each cluster's as head + tail
        out = x.new_empty((head_output.size(0), self.n_classes))
        head_logp = F.log_softmax(head_output, dim=1)
        out[:, : self.shortlist_size] = head_logp[:, : self.shortlist_size]
        for i, (start, stop) in enumerate(zip(self.cutoffs[:-1], self.cutoffs[1:])):
            cluster_logp = F.log_softmax(self._cluster(i)(x), dim=1)
            out[:, start:stop] = cluster_logp + head_logp[:, self.shortlist_size + i].unsqueeze(1)
        return out

    def log_prob(self, input: Tensor) -> Tensor:  # noqa: A002
        """(N, n_classes): the log-probability of every class."""
        return self._full_log_prob(input, self.head(input))

    def predict(self, input: Tensor) -> Tensor:  # noqa: A002
        """(N,): the most probable class, ``log_prob(input).argmax(1)``; the tails are run
        only for rows whose best head column is a cluster."""
        head_output = self.head(input)
        best = argmax(head_output, dim=1)
        in_cluster = best >= self.shortlist_size
        if not in_cluster.any():
            return best
        if in_cluster.all():
            return argmax(self._full_log_prob(input, head_output), dim=1)
        log_prob = self._full_log_prob(input[in_cluster], head_output[in_cluster])
        best[in_cluster] = argmax(log_prob, dim=1)
        return best


def _check_cutoffs(cutoffs: list[Any], n_classes: int) -> None:
    if not cutoffs:
        raise ValueError("cutoffs should be a sequence of length larger than 0")
    if (
        cutoffs != sorted(cutoffs)
        or min(cutoffs) <= 0
        or max(cutoffs) > n_classes - 1
        or len(set(cutoffs)) != len(cutoffs)
        or any(int(c) != c for c in cutoffs)
    ):
        raise ValueError(
            "cutoffs should be a sequence of unique, positive integers sorted in an increasing "
            "order, where each value is between 1 and n_classes-1"
        )


def _check_shapes(input_: Tensor, target_: Tensor) -> None:
    if target_.dim() == 1:
        if input_.size(0) != target_.size(0):
            raise RuntimeError("Input and target should have the same size in the batch dimension.")
        if input_.dim() != 2:
            raise RuntimeError(
                "1D target tensor expects 2D input tensors, but found inputs with size "
                f"{input_.size()}"
            )
    elif target_.dim() == 0:
        if input_.dim() != 1:
            raise RuntimeError(
                "0D target tensor expects 1D input tensors, but found inputs with size "
                f"{input_.size()}"
            )
    else:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
