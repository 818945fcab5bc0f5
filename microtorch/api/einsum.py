"""torch.einsum: products and sums named by letters, ``einsum("ij,jk->ik", a, b)``.

Made of other ops, in PyTorch's way: each operand has its repeated letters' diagonal taken,
gains a size-1 dimension for each letter it lacks and is permuted to one order of all the
letters (output letters first); operands are then multiplied pairwise, a pair whose letters
are summed going through ``bmm`` (the summed letters folded into one dimension), and the
result is reshaped to the output. So gradients are those of permute, mul, bmm and sum.
"""

from __future__ import annotations

import builtins
from typing import Any

from microtorch.api import diagonal as diagonal_ops
from microtorch.api import elementwise as ew
from microtorch.api import linalg
from microtorch.api import shape as shape_ops
from microtorch.api.reduction import sum as reduce_sum
from microtorch.autograd import node as _node

__all__ = ["einsum"]

_ELLIPSIS = "."  # (each dimension of "..." gets its own label: ".0", ".1" ...)


def einsum(equation: Any, *operands: Any) -> Any:
    """The sum over the letters that are not in the output of the product of the operands,
    each indexed by its letters: ``ij,jk->ik`` is a matrix product, ``ii->`` a trace,
    ``bij->bji`` a batched transpose, ``...ij->...i`` a row sum over any leading dims."""
    if not isinstance(equation, str):
        raise TypeError(
            "einsum(): the equation must be a string (microtorch does not take "
            "the sublist form: write the equation, e.g. 'ij,jk->ik')"
        )
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    for k, op in enumerate(operands):
        if not isinstance(op, _node.Tensor):
            raise TypeError(
                f"expected Tensor as element {k} in argument 1, but got {type(op).__name__}"
            )
    inputs, output = _parse(equation.replace(" ", ""), operands)
    sizes: dict[str, int] = {}
    for k, (labels, op) in enumerate(zip(inputs, operands)):
        own: dict[str, int] = {}
        for label, n in zip(labels, op._data.shape):
            if own.setdefault(label, n) != n:
                raise RuntimeError(
                    f"einsum(): subscript {label} is repeated for operand {k} but the sizes "
                    f"don't match, {n} != {own[label]}"
                )
        for label, n in zip(labels, op._data.shape):
            seen = sizes.get(label, 1)
            if n != seen and seen != 1 and n != 1:
                shown = "..." if label.startswith(_ELLIPSIS) else label
                raise RuntimeError(
                    f"einsum(): subscript {shown} has size {n} for operand {k} which does not "
                    f"broadcast with previously seen size {seen}"
                )
            sizes[label] = builtins.max(seen, n)
    summed = sorted({x for labels in inputs for x in labels} - set(output))
    order = list(output) + summed  # every operand is brought to this order
    aligned = [_align(op, labels, order) for op, labels in zip(operands, inputs)]
    if len(aligned) == 1:
        result = aligned[0]
        if summed:
            return reduce_sum(result, list(range(len(output), len(order))))
        return result
    result = aligned[0]
    for k in range(1, len(aligned)):
        later = {x for labels in inputs[k + 1 :] for x in labels}
        now = [d for d, x in enumerate(order) if x in summed and x not in later]
        result = _pair(result, aligned[k], now)
    if summed:
        return shape_ops.view(result, tuple(sizes[x] for x in output))  # (drops size-1 dims)
    return result


def _parse(equation: str, operands: tuple[Any, ...]) -> tuple[list[list[str]], list[str]]:
    left, arrow, right = equation.partition("->")
    terms = left.split(",")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    inputs: list[tuple[str, int]] = []
    width = 0  # the most dimensions any "..." stands for
    for term, op in zip(terms, operands):
        letters = term.replace("...", "")
        if not all(c.isalpha() for c in letters):
            raise RuntimeError(
                "einsum(): invalid subscript given at index "
                f"{equation.index(next(c for c in letters if not c.isalpha()))} in the equation "
                f"string, subscripts must be in [a-zA-Z]"
            )
        n = op._data.ndim - len(letters)
        if "..." not in term and n != 0 or n < 0:
            relation = "does not match" if "..." not in term else "is more than"
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({len(letters)}) "
                f"{relation} the number of dimensions ({op._data.ndim}) for operand "
                f"{len(inputs)}{' and no ellipsis was given' if '...' not in term else ''}"
            )
        width = builtins.max(width, n)
        inputs.append((term, n))
    dots = [f"{_ELLIPSIS}{i}" for i in range(width)]
    parsed = []
    for term, n in inputs:
        before, _, after = term.partition("...")
        parsed.append(list(before) + (dots[width - n :] if "..." in term else []) + list(after))
    if arrow:
        for c in right.replace("...", ""):
            if not any(c in labels for labels in parsed):
                raise RuntimeError(
                    f"einsum(): output subscript {c} does not appear in the equation for any "
                    "input operand"
                )
        before, _, after = right.partition("...")
        output = list(before) + (dots if "..." in right else []) + list(after)
    else:  # the letters seen once, in alphabetical order, after the "..." dimensions
        counts: dict[str, int] = {}
        for labels in parsed:
            for x in labels:
                counts[x] = counts.get(x, 0) + 1
        output = dots + sorted(x for x, c in counts.items() if c == 1 and x not in dots)
    return parsed, output


def _align(op: Any, labels: list[str], order: list[str]) -> Any:
    # op with one dimension per label of ``order`` (size 1 where it has no such letter)
    labels = list(labels)
    for x in list(dict.fromkeys(labels)):  # a repeated letter: its diagonal, in its place
        while labels.count(x) > 1:
            first = labels.index(x)
            second = labels.index(x, first + 1)
            op = diagonal_ops.diagonal(op, 0, first, second)
            n = op._data.ndim
            op = shape_ops.permute(op, [*range(first), n - 1, *range(first, n - 1)])
            del labels[second]
    missing = [x for x in order if x not in labels]
    for _ in missing:
        op = shape_ops.unsqueeze(op, -1)
    labels += missing
    perm = [labels.index(x) for x in order]
    return shape_ops.permute(op, perm)  # (even an identity permute, as PyTorch)


def _pair(a: Any, b: Any, summed: list[int]) -> Any:
    # the product of two aligned operands, summed over dimensions ``summed`` (kept as size 1)
    if not summed:
        return ew.mul(a, b)
    sa, sb = a._data.shape, b._data.shape
    for d in list(summed):  # a letter only one of them has: summed out of that one first
        if sa[d] == 1 or sb[d] == 1:
            if sa[d] != 1:
                a = reduce_sum(a, d, keepdim=True)
            if sb[d] != 1:
                b = reduce_sum(b, d, keepdim=True)
            summed.remove(d)
    if not summed:
        return ew.mul(a, b)
    sa, sb = a._data.shape, b._data.shape
    rest = [d for d in range(len(sa)) if d not in summed]
    batch = [d for d in rest if sa[d] != 1 and sb[d] != 1 or sa[d] == sb[d] == 1]
    left = [d for d in rest if sa[d] != 1 and sb[d] == 1]
    right = [d for d in rest if sa[d] == 1 and sb[d] != 1]

    def size(shape: tuple[int, ...], dims: list[int]) -> int:
        n = 1
        for d in dims:
            n *= shape[d]
        return n

    nb, nl, nr, nk = size(sa, batch), size(sa, left), size(sb, right), size(sa, summed)
    # (each has size 1 in the other's own dimensions: they go last and vanish in the reshape)
    a3 = shape_ops.reshape(shape_ops.permute(a, batch + left + summed + right), nb, nl, nk)
    b3 = shape_ops.reshape(shape_ops.permute(b, batch + summed + right + left), nb, nk, nr)
    out = linalg.bmm(a3, b3)
    dims = batch + left + right + summed
    out = shape_ops.reshape(
        out, *[sa[d] for d in batch + left], *[sb[d] for d in right], *[1] * len(summed)
    )
    back = [dims.index(d) for d in range(len(sa))]
    return shape_ops.permute(out, back)
