"""Programs: generating, running, shrinking and describing them, and their likely causes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

import microtorch

from .compare import NAME, STATEMENT_KINDS, Mismatch, Side, compare_outcomes, compare_state
from .deliberate import INPLACE, deliberate
from .statements import FAMILIES, Gen

HEADER = "import torch\nimport torch.nn.functional as F\nlog = []\n"


@dataclass
class Result:
    """A program as run: where the two libraries first differ, how, and whether on purpose."""

    program: list[str]
    index: int | None = None  # the statement where the sides first differ
    mismatches: list[Mismatch] = field(default_factory=list)
    deliberate: str | None = None  # set when the difference is a documented one
    family: str = ""  # the family of the statement that differs

    @property
    def failed(self) -> bool:
        return self.index is not None and self.deliberate is None

    def signature(self) -> str:
        """What kind of mismatch at what kind of statement; shrinking keeps it the same."""
        if self.index is None:
            return ""
        kinds = {m.kind for m in self.mismatches}
        own = kinds & {*STATEMENT_KINDS, "warning", "warning-location", "numpy-warning", "hooks"}
        return f"{','.join(sorted(own or kinds))} @ {statement_class(self.program[self.index])}"


def statement_class(source: str) -> str:
    """``source`` with names, numbers and the particular in-place op made generic."""
    if source.startswith("with torch.no_grad():"):
        return "no_grad: " + statement_class(source.split(":", 1)[1].strip())
    if source.startswith("for e in"):
        return "for e in t: e.mul_(k)"
    if "**=" in source:
        return "t **= k"
    if INPLACE.match(source):
        target = "t[k]" if re.match(r"t\d+\[", source) else "t"
        return f"{target} <in-place op>"
    if ".backward(" in source:
        return "backward(inputs=...)" if "inputs=" in source else "backward()"
    if "autograd.grad(" in source:
        return "autograd.grad(...)"
    source = NAME.sub("t", source)
    return re.sub(r"(?<![\w.])-?\d+(\.\d+)?", "k", source)


def load_torch() -> ModuleType:
    import torch

    torch.set_num_threads(1)
    return torch


def _step(t: Side, m: Side, source: str) -> list[Mismatch]:
    mm = compare_outcomes(t.run(source), m.run(source))
    return mm + compare_state(t, m)


def run_program(program: Sequence[str], torch: ModuleType | None = None) -> Result:
    """Run ``program`` on both sides, comparing after each statement; stop at the first mismatch."""
    t, m = Side(torch or load_torch()), Side(microtorch)
    for i, source in enumerate(program):
        mm = _step(t, m, source)
        if mm:
            return Result(list(program), i, mm, deliberate(program, i, mm, t))
    return Result(list(program))


def generate(
    seed: int,
    chosen: Sequence[str],
    length: int = 25,
    torch: ModuleType | None = None,
    boost: str | None = None,
) -> Result:
    """Write and run one program of ``length`` statements, stopping at the first mismatch;
    statements of the family ``boost`` are drawn five times as often as its weight says."""
    rng = np.random.default_rng(seed)
    t, m = Side(torch or load_torch()), Side(microtorch)
    gen = Gen(rng, t)
    weights = np.array([FAMILIES[f][0] * (5 if f == boost else 1) for f in chosen])
    program: list[str] = []
    tries = 0
    while len(program) < length and tries < 4 * length:
        tries += 1
        if len(program) < 3:  # start with a few leaves
            family = "leaf"
        else:
            family = chosen[int(rng.choice(len(chosen), p=weights / weights.sum()))]
        source = FAMILIES[family][1](gen)
        if source is None:
            continue
        program.append(source)
        before = set(t.tensors())
        mm = _step(t, m, source)
        gen.note(source, before)
        if mm:
            i = len(program) - 1
            return Result(program, i, mm, deliberate(program, i, mm, t), family)
    return Result(program)


def shrink(result: Result, torch: ModuleType | None = None) -> Result:
    """Delete statements while the first mismatch keeps its signature; the smallest program."""
    assert result.index is not None
    best = Result(
        result.program[: result.index + 1], result.index, result.mismatches, None, result.family
    )
    goal = result.signature()
    chunk = max(1, len(best.program) // 2)
    while chunk >= 1:
        i = 0
        while i < len(best.program) - 1:  # never the failing (last) statement
            candidate = best.program[:i] + best.program[i + chunk :]
            trial = run_program(candidate, torch)
            if trial.failed and trial.signature() == goal:
                best = Result(
                    candidate[: trial.index + 1], trial.index, trial.mismatches, None, best.family
                )
            else:
                i += chunk
        chunk //= 2
    return best


CAUSES = (
    "saved tensors not versioned",
    "views that are copies",
    "`**=` is not in place",
    "in-place through views and bases (CopySlices, AsStridedBackward0)",
    "outputs of unbind/split/iteration (multi-output views)",
    "partial backward",
    "numpy warnings",
    "NaN and signed-zero results",
    "memory layout",
    "error texts and warnings",
    "missing API",
    "other",
)


def cause(result: Result) -> str:
    """The likely cause of a mismatch, one of ``CAUSES``: the report's grouping."""
    mm = result.mismatches
    kinds = {m.kind for m in mm}
    statement = result.program[result.index or 0]
    torch_text = " ".join(m.torch for m in mm)
    ours = " ".join(m.microtorch for m in mm)
    if "numpy-warning" in kinds:
        return "numpy warnings"
    if "object has no attribute" in ours:
        return "missing API"
    if "**=" in statement:
        return "`**=` is not in place"
    if "error-missing" in kinds and (
        "modified by an inplace operation" in torch_text or "second time" in torch_text
    ):
        return "saved tensors not versioned"
    if "CopySlices" in torch_text or "AsStridedBackward0" in torch_text:
        return "in-place through views and bases (CopySlices, AsStridedBackward0)"
    if re.search(r"Output \d+ of (Unbind|Split)", torch_text) or result.family == "hooks_multi":
        return "outputs of unbind/split/iteration (multi-output views)"
    if "view size is not compatible" in torch_text + ours or result.family == "view_layout":
        return "memory layout"
    if (
        result.family in ("partial", "hooks")
        or "inputs=" in statement
        or ("second time" in ours and "error-extra" in kinds)
    ):
        return "partial backward"
    if result.family == "index0d" or (
        kinds & {"value", "_version"} and result.family.startswith("inplace")
    ):
        return "views that are copies"
    if kinds & {"error-text", "error-type", "warning", "warning-location"}:
        return "error texts and warnings"
    if kinds & {"value", "grad"} and re.search(r"nan|inf", ours + torch_text):
        return "NaN and signed-zero results"
    return "other"


def describe(result: Result) -> str:
    lines = ["# program (paste into either library; `import microtorch as torch` for ours)"]
    lines += [HEADER.rstrip()] + result.program
    if result.index is not None:
        lines.append(f"# statement {result.index + 1} differs:")
        lines += ["#   " + line for m in result.mismatches for line in str(m).split("\n")]
    return "\n".join(lines)


def sweep(
    seed: int, count: int, chosen: Sequence[str], length: int = 25, boost: str | None = None
) -> Iterator[Result]:
    """``count`` programs, each from its own seed derived from ``seed``."""
    torch = load_torch()
    for k in range(count):
        yield generate(seed * 1_000_003 + k, chosen, length, torch, boost)
