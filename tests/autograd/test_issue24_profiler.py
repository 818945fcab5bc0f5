"""Issue 24: ``torch.autograd.profiler.profile`` and ``torch.profiler.profile`` with
``key_averages().table()``: PyTorch's table layout, a row per op named as PyTorch names it,
``record_function`` rows, sorting and row limits, and the profiling hook put back."""

from __future__ import annotations

import json
import sys
from types import ModuleType
from typing import Any

import pytest

import microtorch

pytestmark = pytest.mark.torch


def _model_step(L: ModuleType) -> None:
    x = L.ones(4, 3, requires_grad=True)
    w = L.ones(3, 2, requires_grad=True)
    with L.autograd.profiler.record_function("my_block"):
        y = (x @ w).sum()
    y.backward()


def _table(L: ModuleType, **kw: Any) -> tuple[str, Any]:
    with L.autograd.profiler.profile() as prof:
        _model_step(L)
    return prof.key_averages().table(**kw), prof


def _layout(table: str) -> list[str]:
    # each line with the name column cut off: the rest has fixed widths in PyTorch's format
    lines = table.splitlines()
    width = len(lines[0].split("  ")[0])
    return [line[width:] for line in lines]


def test_the_table_has_pytorchs_layout(torch_module: ModuleType) -> None:
    mt, _ = _table(microtorch, sort_by="self_cpu_time_total", row_limit=3)
    t, _ = _table(torch_module, sort_by="self_cpu_time_total", row_limit=3)
    m_lines, t_lines = _layout(mt), _layout(t)
    assert m_lines[:3] == t_lines[:3]  # rules and the column titles
    assert len(m_lines) == len(t_lines)  # three rows, the rule and the total
    assert mt.splitlines()[1].strip() == t.splitlines()[1].strip()
    assert mt.splitlines()[-1].startswith("Self CPU time total: ")
    assert t.splitlines()[-1].startswith("Self CPU time total: ")
    for m_row, t_row in zip(m_lines[3:6], t_lines[3:6]):  # (each cell 12 wide, 2 apart)
        assert len(m_row) == len(t_row) and len(m_row.split()) == len(t_row.split()) == 6


def test_ops_are_named_as_pytorch_names_them(torch_module: ModuleType) -> None:
    _, mt = _table(microtorch)
    _, t = _table(torch_module)
    m_keys = {e.key for e in mt.key_averages()}
    t_keys = {e.key for e in t.key_averages()}
    for key in ("aten::mm", "aten::sum", "MmBackward0", "SumBackward0", "my_block"):
        assert key in m_keys and key in t_keys
    assert m_keys <= t_keys  # (PyTorch has more: the kernels inside each op)


def test_times_add_up() -> None:
    _, prof = _table(microtorch)
    rows = prof.key_averages()
    block = next(e for e in rows if e.key == "my_block")
    inside = sum(e.cpu_time_total for e in rows if e.key in ("aten::mm", "aten::sum"))
    assert block.cpu_time_total >= block.self_cpu_time_total + inside * 0.999
    assert prof.self_cpu_time_total == pytest.approx(sum(e.self_cpu_time_total for e in rows))
    assert all(e.count >= 1 and e.cpu_time == e.cpu_time_total / e.count for e in rows)


def test_sorting_and_row_limit() -> None:
    _, prof = _table(microtorch)
    table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=2)
    rows = table.splitlines()[3:5]
    assert len(table.splitlines()) == 7 and rows[0].split()[0] == "my_block"
    with pytest.raises(AttributeError):
        prof.key_averages().table(sort_by="no_such_column")


def test_the_hook_is_put_back_and_profiles_do_not_nest() -> None:
    before = sys.getprofile()
    with (
        microtorch.autograd.profiler.profile() as prof,
        pytest.raises(RuntimeError, match="already enabled"),
    ):
        microtorch.autograd.profiler.profile().__enter__()
    assert sys.getprofile() is before
    with microtorch.autograd.profiler.profile(enabled=False) as off:
        _model_step(microtorch)
    assert list(off.key_averages()) == [] and str(prof)


def test_torch_profiler_api_and_chrome_trace(tmp_path) -> None:
    P = microtorch.profiler
    with P.profile(activities=[P.ProfilerActivity.CPU], record_shapes=True) as prof:
        _model_step(microtorch)
    assert "aten::mm" in prof.key_averages().table(sort_by="cpu_time_total")
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    names = {e["name"] for e in json.loads(path.read_text())["traceEvents"]}
    assert {"aten::mm", "my_block"} <= names
    with pytest.raises(NotImplementedError, match="CPU only"):
        P.profile(activities=[P.ProfilerActivity.CUDA])


def test_record_function_as_a_decorator() -> None:
    @microtorch.autograd.profiler.record_function("step")
    def step() -> Any:
        return microtorch.ones(2).exp()

    with microtorch.autograd.profiler.profile() as prof:
        step()
    assert [e.key for e in prof.key_averages()][-1] == "step"
