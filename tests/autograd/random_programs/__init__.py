"""Random programs, run statement by statement in microtorch and in PyTorch and compared.

A program is Python source over a pool of named tensors (``t0``, ``t1``, ...), a list ``log``
that tensor hooks append to, ``torch`` and ``F`` (``torch.nn.functional``). The same text runs
in both libraries (``torch`` is microtorch on one side), so any failure prints a program that
anyone can paste into either. After every statement the runner compares every live name: type,
shape, dtype, values, ``.grad``, ``requires_grad``, ``is_leaf``, ``grad_fn`` name, the change of
``_version`` since the name was bound, which names are the same object, the hook log, any
exception (type, and PyTorch's message as the start of microtorch's) and warnings (microtorch
must not let numpy warn; user warnings must be PyTorch's). A program stops at its first
mismatch, and ``shrink`` deletes statements while the mismatch stays of the same class.

- ``compare``: one namespace per library (``Side``) and the comparisons;
- ``deliberate``: the documented differences (README, "Where microtorch differs"), each matched
  by a precise predicate; any other difference is a mismatch;
- ``statements``: the statement *families*, switched on by name (``FAMILIES``):
  ``PASSING_FAMILIES`` run in CI today; ``PENDING_ISSUE_12`` and ``PENDING_OTHER`` still find
  mismatches, each with the reason, and join CI as they are fixed; ``RARELY_DIFFERENT`` ones
  stay out of CI, their rare mismatch pinned by an explicit test;
- ``programs``: generating, running, shrinking, describing, and the likely cause of a mismatch;
- ``__main__``: the command line.

Run thousands and print minimised failing programs::

    python -m tests.autograd.random_programs --programs 5000 --seed 1 --families all
    python -m tests.autograd.random_programs --families ci            # what CI runs
    python -m tests.autograd.random_programs --families ci,pending    # issue 12's families
    python -m tests.autograd.random_programs --families view,inplace_view --show 3
"""

from __future__ import annotations

from .compare import Mismatch, Outcome, Side, compare_outcomes, compare_state
from .deliberate import DELIBERATE, Deliberate, deliberate
from .programs import CAUSES, Result, cause, describe, generate, run_program, shrink, sweep
from .statements import (
    ATTENTION,
    COURSE,
    FAMILIES,
    GRADIENTS_OF_GRADIENTS,
    ISSUE_24_FUNCTIONS,
    LINALG_FUNCTIONS,
    PASSING_FAMILIES,
    PENDING_ISSUE_12,
    PENDING_OTHER,
    RARELY_DIFFERENT,
    families,
)

__all__ = [
    "ATTENTION",
    "CAUSES",
    "COURSE",
    "DELIBERATE",
    "FAMILIES",
    "GRADIENTS_OF_GRADIENTS",
    "ISSUE_24_FUNCTIONS",
    "LINALG_FUNCTIONS",
    "PASSING_FAMILIES",
    "PENDING_ISSUE_12",
    "PENDING_OTHER",
    "RARELY_DIFFERENT",
    "Deliberate",
    "Mismatch",
    "Outcome",
    "Result",
    "Side",
    "cause",
    "compare_outcomes",
    "compare_state",
    "deliberate",
    "describe",
    "families",
    "generate",
    "run_program",
    "shrink",
    "sweep",
]
