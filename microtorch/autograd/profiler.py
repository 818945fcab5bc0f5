"""``torch.autograd.profiler.profile``: how long each op took, as a table.

    with torch.autograd.profiler.profile() as prof:
        loss = model(x).sum(); loss.backward()
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10))

A small real profiler: while it is on, Python's profiling hook (``sys.setprofile``) times
every ``forward`` and ``backward`` of microtorch's op classes (``microtorch/ops/``) and every
``record_function("label")`` block. An op's forward is named as PyTorch's kernel would be
(``Mm`` -> ``aten::mm``), its backward by its node (``MmBackward0``). The table has PyTorch's
columns and layout; unlike PyTorch's it has no rows for the kernels an op calls inside
(``aten::mm`` under ``aten::matmul``) nor ``autograd::engine::evaluate_function`` rows, and its
times include the hook's own cost, so they are larger than the op's alone.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from microtorch.autograd.function import NumpyFunction

__all__ = ["profile", "record_function", "EventList"]

_OPS_DIR = str(Path(__file__).resolve().parents[1] / "ops")


class FunctionEventAvg:
    """One row of the table: every call of one op (times in microseconds)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0

    @property
    def cpu_time(self) -> float:  # the average
        return self.cpu_time_total / max(self.count, 1)


_SORT_KEYS = ("self_cpu_time_total", "cpu_time_total", "cpu_time", "count")


class EventList(list):
    """The rows ``key_averages()`` returns; ``table()`` prints them as PyTorch does."""

    def table(
        self, sort_by: str | None = None, row_limit: int = 100, max_name_column_width: int = 55,
        **kwargs: Any,
    ) -> str:  # fmt: skip
        """PyTorch's table: name, self CPU time and share, total CPU time and share, average
        and number of calls, then the total self CPU time."""
        rows = list(self)
        if sort_by is not None:
            if sort_by not in _SORT_KEYS:
                raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
            rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        rows = rows[:row_limit] if row_limit > 0 else rows
        total = sum(e.self_cpu_time_total for e in self)
        width = min(max([len(e.key) for e in self] + [4]) + 4, max_name_column_width)
        names = ["Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg"]
        line = "-" * width + "  " + ("-" * 12 + "  ") * 6
        out = [line, _row(width, [*names, "# of Calls"]), line]
        for e in rows:
            name = e.key if len(e.key) <= width else e.key[: width - 3] + "..."
            out.append(_row(width, [
                name, _percent(e.self_cpu_time_total, total), _time(e.self_cpu_time_total),
                _percent(e.cpu_time_total, total), _time(e.cpu_time_total), _time(e.cpu_time),
                str(e.count),
            ]))  # fmt: skip
        out += [line, f"Self CPU time total: {_time(total)}", ""]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.table()


def _row(width: int, cells: list[str]) -> str:
    return cells[0].rjust(width) + "  " + "".join(c.rjust(12) + "  " for c in cells[1:])


def _percent(part: float, total: float) -> str:
    return f"{100 * part / total if total else 0:.2f}%"


def _time(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    return f"{us / 1e3:.3f}ms" if us >= 1e3 else f"{us:.3f}us"


class _Range:
    def __init__(self, key: str, start: float) -> None:
        self.key, self.start = key, start
        self.children = 0.0  # time spent in ranges inside this one


class _Recorder:
    def __init__(self) -> None:
        self.stack: list[tuple[Any, _Range]] = []  # (frame or label, range)
        self.rows: dict[str, FunctionEventAvg] = {}
        self.trace: list[dict[str, Any]] = []

    def enter(self, owner: Any, key: str) -> None:
        self.stack.append((owner, _Range(key, time.perf_counter())))

    def leave(self, owner: Any) -> None:
        if not self.stack or self.stack[-1][0] is not owner:
            return
        _, r = self.stack.pop()
        now = time.perf_counter()
        total = (now - r.start) * 1e6
        row = self.rows.setdefault(r.key, FunctionEventAvg(r.key))
        row.count += 1
        row.cpu_time_total += total
        row.self_cpu_time_total += total - r.children
        if self.stack:
            self.stack[-1][1].children += total
        self.trace.append({"name": r.key, "ph": "X", "ts": r.start * 1e6, "dur": total})


_active: list[_Recorder] = []  # the recorder of the profile that is on (one at a time)


def _op_key(frame: FrameType) -> str | None:
    # the op whose forward or backward this frame runs, named as PyTorch names it
    code = frame.f_code
    if code.co_name not in ("forward", "backward") or not code.co_filename.startswith(_OPS_DIR):
        return None
    ctx: Any = frame.f_locals.get("ctx")
    function = getattr(ctx, "_function", None)  # (ctx is the graph node, if one is recorded)
    if code.co_name == "backward":
        return ctx.name() if hasattr(ctx, "name") else None
    op = function.__name__ if function is not None else _defined_by.get(code)
    return (
        None if op is None else "aten::" + re.sub(r"(?<!^)(?=[A-Z])", "_", op.lstrip("_")).lower()
    )


_defined_by: dict[Any, str] = {}  # forward's code -> the op class that defines it


def _learn_op_names() -> None:
    # (for forwards that run without a graph node, whose ctx does not name the op)
    classes = list(NumpyFunction.__subclasses__())
    while classes:
        cls = classes.pop()
        classes += cls.__subclasses__()
        if "forward" in cls.__dict__:
            _defined_by.setdefault(cls.forward.__code__, cls.__name__)


def _hook(frame: FrameType, event: str, arg: Any) -> None:
    if event == "call":
        key = _op_key(frame)
        if key is not None:
            _active[0].enter(frame, key)
    elif event == "return":
        _active[0].leave(frame)


class profile:  # noqa: N801 - PyTorch's name
    """Time microtorch's ops while the ``with`` block runs (CPU times only)."""

    def __init__(self, enabled: bool = True, *args: Any, **kwargs: Any) -> None:
        self.enabled = enabled
        self._recorder = _Recorder()
        self._previous: Any = None

    def __enter__(self) -> profile:
        if not self.enabled:
            return self
        if _active:
            raise RuntimeError("Profiler is already enabled on this thread")
        _active.append(self._recorder)
        _learn_op_names()
        self._previous = sys.getprofile()
        sys.setprofile(_hook)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.enabled and _active and _active[0] is self._recorder:
            sys.setprofile(self._previous)
            _active.clear()

    def key_averages(self, group_by_input_shape: bool = False, **kwargs: Any) -> EventList:
        """One row per op, in the order the ops first finished."""
        return EventList(self._recorder.rows.values())

    def table(self, *args: Any, **kwargs: Any) -> str:
        return self.key_averages().table(*args, **kwargs)

    @property
    def self_cpu_time_total(self) -> float:
        return sum(e.self_cpu_time_total for e in self._recorder.rows.values())

    def export_chrome_trace(self, path: str) -> None:
        """Write the ranges as a Chrome trace (open it at chrome://tracing or ui.perfetto.dev)."""
        Path(path).write_text(json.dumps({"traceEvents": self._recorder.trace}))

    def __str__(self) -> str:
        return self.table()


class record_function:  # noqa: N801 - PyTorch's name
    """Label a block of code: its time gets a row of its own in the profile's table."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name

    def __enter__(self) -> record_function:
        if _active:
            _active[0].enter(self, self.name)
        return self

    def __exit__(self, *exc: Any) -> None:
        if _active:
            _active[0].leave(self)

    def __call__(self, fn: Any) -> Any:  # as a decorator
        def wrapped(*a: Any, **k: Any) -> Any:
            with record_function(self.name):
                return fn(*a, **k)

        return wrapped
