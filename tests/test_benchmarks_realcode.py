"""The real-code benchmark's programs (benchmarks/realcode.py) run, at a tiny size, on microtorch
and agree with PyTorch: so `make bench` never times a program that has rotted."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import microtorch

# The benchmark scripts import each other as top-level modules, as `python benchmarks/run.py` does.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import realcode  # noqa: E402
import realcode_bench  # noqa: E402

NAMES = list(realcode.PROGRAMS)


@pytest.fixture(scope="module")
def tiny_data() -> dict[str, realcode.Data]:
    return {name: p.make_data(True) for name, p in realcode.PROGRAMS.items()}


@pytest.mark.parametrize("name", NAMES)
def test_program_runs_on_microtorch(name: str, tiny_data: dict[str, realcode.Data]) -> None:
    results = realcode.PROGRAMS[name].run(microtorch, tiny_data[name])
    assert results and all(isinstance(v, float) and math.isfinite(v) for v in results)


@pytest.mark.torch
@pytest.mark.parametrize("name", NAMES)
def test_program_agrees_with_torch(
    name: str, tiny_data: dict[str, realcode.Data], torch_module: ModuleType
) -> None:
    program = realcode.PROGRAMS[name]
    results = {
        "torch": program.run(torch_module, tiny_data[name]),
        "microtorch": program.run(microtorch, tiny_data[name]),
    }
    realcode.check(name, results, program.rtol)


def test_check_refuses_results_that_differ() -> None:
    with pytest.raises(AssertionError, match="poly_nn: microtorch computed"):
        realcode.check("poly_nn", {"torch": (1.0, 2.0), "microtorch": (1.0, 2.1)}, 1e-4)
    with pytest.raises(AssertionError):
        realcode.check("poly_nn", {"torch": (1.0, 2.0), "microtorch": (1.0,)}, 1e-4)
    realcode.check("poly_nn", {"torch": (1.0, 2.0), "microtorch": (1.0, 2.00001)}, 1e-4)


@pytest.mark.torch
def broken(torch: Any, data: realcode.Data) -> tuple[float, ...]:
    """A program microtorch cannot run (it has no such function): the harness must say so."""
    if torch.__name__ == "microtorch":
        raise RuntimeError("not covered here")
    return (1.0,)


def test_the_timing_table_reports_a_broken_program_untimed(
    torch_module: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    programs = {**realcode.PROGRAMS, "broken": realcode.Program(broken, lambda tiny: {})}
    monkeypatch.setattr(realcode, "PROGRAMS", programs)
    monkeypatch.setattr(realcode_bench, "PROGRAMS", programs, raising=False)
    libs = {"microtorch": microtorch, "torch": torch_module}
    timings = realcode_bench.time_programs(libs, 1, ["poly_nn", "broken"], tiny=True)
    realcode_bench.print_table(timings, 1)
    out = capsys.readouterr().out
    timed = [t for t in timings if not t.error]
    assert [t.name for t in timed] == ["poly_nn"] and timed[0].ratio() > 0
    assert f"1 of {len(timings)} programs timed" in out
