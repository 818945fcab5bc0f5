"""``LBFGS``: a quasi-Newton method that needs a ``closure`` (it evaluates the loss several
times per ``step``).

From the last ``history_size`` steps ``s`` and gradient changes ``y`` it builds the direction
``d = -H g`` (``H`` an approximate inverse Hessian, never stored: the two-loop recursion), then
steps ``t d`` with ``t = lr`` or a strong Wolfe line search (``line_search_fn="strong_wolfe"``,
see ``line_search.py``). All parameters are treated as one flat vector.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from microtorch.autograd.versions import bump_version
from microtorch.optim.line_search import strong_wolfe
from microtorch.optim.optimizer import Optimizer
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["LBFGS"]

# The state kept between steps, as PyTorch keeps it (the arrays and 0-d values as tensors).
_CARRIED = ("d", "t", "old_dirs", "old_stps", "ro", "H_diag", "prev_flat_grad", "prev_loss")


class LBFGS(Optimizer):
    """L-BFGS (Nocedal) with PyTorch's exact iteration, for one group of parameters:
    ``opt.step(closure)`` where ``closure`` zeroes the gradients, computes the loss, calls
    ``backward()`` and returns the loss."""

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(
            lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
            tolerance_change=tolerance_change, history_size=history_size,
            line_search_fn=line_search_fn,
        )  # fmt: skip
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError(
                "LBFGS doesn't support per-parameter options (parameter groups) (Fix: pass "
                "one list of parameters)"
            )
        self._params: list[Tensor] = self.param_groups[0]["params"]

    def _flat_grad(self) -> np.ndarray:
        # every gradient as one vector (zeros for a parameter without one)
        parts = [
            np.zeros(p._data.size, p._data.dtype) if p._grad is None else p._grad._data.ravel()
            for p in self._params
        ]
        return np.concatenate(parts)

    def _add_grad(self, step_size: Any, update: np.ndarray) -> None:
        # p += step_size * (p's part of update), for every parameter
        offset = 0
        for p in self._params:
            n = p._data.size
            p._data += step_size * update[offset : offset + n].reshape(p._data.shape)
            bump_version(p)
            offset += n

    def _set_params(self, values: list[np.ndarray]) -> None:
        for p, value in zip(self._params, values):
            p._data[...] = value
            bump_version(p)

    def _evaluate(self, closure: Callable[[], Any], x: Any, t: Any, d: np.ndarray) -> Any:
        # loss and gradient at x + t d; the parameters are put back to x afterwards
        self._add_grad(t, d)
        loss = float(self._closure(closure))
        flat_grad = self._flat_grad()
        self._set_params(x)
        return loss, flat_grad

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Up to ``max_iter`` iterations; returns the loss the first call of ``closure`` gave."""
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn, history_size = group["line_search_fn"], group["history_size"]
        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._closure(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tolerance_grad:  # already optimal
            return orig_loss
        d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, prev_loss = (
            _unwrap(state.get(key)) for key in _CARRIED
        )
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            # 1. the direction: steepest descent at first, then -H g by the two-loop recursion
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro, H_diag = [], [], [], 1
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = y.dot(s)
                if ys > 1e-10:  # keep the pair only where the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)  # the scale of H's starting guess
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = _unwrap(state["al"])
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q += -al[i] * old_dirs[i]  # q.add_(old_dirs[i], alpha=-al[i])
                d = r = q * H_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r += (al[i] - be_i) * old_stps[i]
                state["al"] = _wrap(al)
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            # 2. the step length: lr (smaller at the very first iteration), or a line search
            t = min(1.0, 1.0 / np.abs(flat_grad).sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)  # the slope along d
            if gtd > -tolerance_change:  # d does not go downhill (enough)
                break
            evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError(
                        "only 'strong_wolfe' is supported (Fix: line_search_fn='strong_wolfe' "
                        "or None)"
                    )
                x_init = [p._data.copy() for p in self._params]

                def evaluate(x: Any, t: Any, d: np.ndarray) -> Any:
                    return self._evaluate(closure, x, t, d)

                loss, flat_grad, t, evals = strong_wolfe(
                    evaluate, x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - current_evals
                )
                self._add_grad(t, d)
                optimal = np.abs(flat_grad).max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                optimal = False
                if n_iter != max_iter:  # (the last iteration's loss is the next step's first)
                    loss = float(self._closure(closure))
                    flat_grad = self._flat_grad()
                    optimal = np.abs(flat_grad).max() <= tolerance_grad
                    evals = 1
            current_evals += evals
            state["func_evals"] += evals
            # 3. stop at max_iter or max_eval, or when nothing changes any more
            if n_iter == max_iter or current_evals >= max_eval or optimal:
                break
            if np.abs(d * t).max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break
        carried = (d, t, old_dirs, old_stps, ro, H_diag, prev_flat_grad, prev_loss)
        state.update({key: _wrap(value) for key, value in zip(_CARRIED, carried)})
        return orig_loss


def _wrap(value: Any) -> Any:
    """numpy arrays and scalars as the tensors PyTorch keeps; Python numbers as they are."""
    if isinstance(value, (np.ndarray, np.generic)):
        return plain_tensor(np.array(value))
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


def _unwrap(value: Any) -> Any:
    if isinstance(value, Tensor):
        return value._data.copy() if value._data.ndim else value._data[()]
    if isinstance(value, list):
        return [_unwrap(v) for v in value]
    return value
