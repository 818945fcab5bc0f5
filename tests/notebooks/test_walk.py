"""A student's walk through every chapter, in JupyterLab in Chromium, from a fresh clone.

The tracked files of ``notebooks/`` are copied into a temporary folder (what a clone holds, with
this checkout's contents), JupyterLab serves it, and each student version
(``notebooks/exercises/``, what ``make lab`` opens) is opened at 1280x1000 with the file browser
open, run with Run → Run All Cells, and checked as a student would see it:

- no output is wider than its cell (pictures, tables, widgets: nothing cut off on the right);
- nothing is written to stderr (JupyterLab shows it in a pink box that looks like an error)
  but the warnings a chapter shows on purpose (PyTorch's own ``UserWarning``), and the only
  errors are the ones the chapter shows on purpose (cells tagged ``raises-exception``:
  chapter 09's errors, and the stubs and check cells of the unsolved exercises);
- every graph view opens with its output node and as much of its graph as fits in view (the
  forward views of chapters 03 and 08 once opened on blank space);
- chapter 10's backward stepper still steps after Run All, and at each step its status line
  names exactly the leaves the engine has reached (their boxes marked done in the picture);
- each chapter's first widget cell's time to its picture is recorded (issue 22's goal: 1 s), and
  fails above 1.5 s;
- no traceback shows a frame of microtorch's own files, only the student's lines and the message;
- a chapter just opened, its kernel started, is not marked modified (JupyterLab copies the
  kernel's language_info into the notebook: tools/lab_config/common/jupyter_server_config.py);
- nbgrader's Validate, pressed on an unsolved exercise version, answers that cells failed.

A screenshot of each chapter is saved to ``artifacts/walk_NN.png``. Skips without Chromium
(fails in CI, see tests/conftest.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

from .jupyterlab import CHROMIUM_ARGS, run_all, run_all_timing, running_lab

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
RAISES = "raises-exception"
WARNING = re.compile(r"\S+:\d+: UserWarning: .*\n.*", re.DOTALL)  # file:line: UserWarning: ...
TIMINGS = ARTIFACTS / "walk_timings.json"
# Issue 22's goal: a chapter's first widget cell shows its picture at most 1 s after it starts.
# Measured 0.23-0.61 s (a fresh clone, load 4-8) but 1-2.5 s with the machine loaded by other
# work: every walk records the figure in artifacts/walk_timings.json, and this guard catches a
# regression towards the 3-6 s of before (matplotlib imported by every widget).
FIRST_PICTURE_GOAL_MS = 1000
FIRST_PICTURE_GUARD_MS = 1500
_SHOWS_WIDGET = re.compile(r"\bdraw\(|Stepper\(|Explorer\(|Explorer\.seed_example\(")

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every output element wider than the cell's output area, as [cell index, px over, element].
_OVERFLOW = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const found = [];
  panel.querySelectorAll('.jp-Cell').forEach((cell, index) => {
    const area = cell.querySelector('.jp-OutputArea');
    if (!area) return;
    const right = area.getBoundingClientRect().right;
    const shown = 'img, svg, table, pre, .jupyter-widgets, .mt-gv-viewport';
    for (const el of area.querySelectorAll(shown)) {
      // the graph view's picture zooms and pans inside its viewport, which must fit itself
      if (el.closest('.mt-gv-canvas')) continue;
      const box = el.getBoundingClientRect();
      // (a graph view's viewport clips what it pans: only its own box must fit)
      const clipped = el.classList.contains('mt-gv-viewport') ? 0 : el.scrollWidth - el.clientWidth;
      const over = Math.max(box.right - right, clipped);
      if (box.width > 0 && over > 2) {
        found.push([index, Math.round(over), el.tagName + '.' + el.className]);
        break;
      }
    }
  });
  return found;
}"""


def _first_widget_cells(code: list[nbformat.NotebookNode]) -> tuple[int, int] | None:
    """(first, shown): the code cells from the first that imports microtorch.widgets or shows a
    widget, to the first that shows one (a widget's output is tagged nbval-ignore-output)."""
    shown = next(
        (
            i
            for i, c in enumerate(code)
            if _SHOWS_WIDGET.search(c.source)
            and "nbval-ignore-output" in c.metadata.get("tags", [])
        ),
        None,
    )
    if shown is None:
        return None
    first = next(i for i, c in enumerate(code) if "microtorch.widgets" in c.source or i == shown)
    return min(first, shown), shown


def _record_timing(name: str, value: dict[str, float]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    data = json.loads(TIMINGS.read_text()) if TIMINGS.exists() else {}
    data[name] = {key: round(ms) for key, ms in value.items()}
    TIMINGS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def _student_versions() -> list[str]:
    return sorted(p.name for p in (ROOT / "notebooks" / "exercises").glob("*.ipynb"))


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The notebooks/ folder as a fresh clone has it (tracked files only)."""
    root = tmp_path_factory.mktemp("clone")
    tracked = subprocess.run(
        ["git", "ls-files", "notebooks"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in tracked:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, root / name)
    return root / "notebooks"


@pytest.fixture(scope="module")
def lab(clone: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    pytest.importorskip("jupyterlab", reason="pip install jupyterlab to run the browser walk")
    # as make lab serves the exercise versions: the student's config (no instructor tools)
    student = [ROOT / "tools" / "lab_config" / "student", ROOT / "tools" / "lab_config" / "common"]
    with running_lab(clone, tmp_path_factory.mktemp("lab"), student) as server:
        yield server


@pytest.fixture(scope="module")
def page(chromium_path: str, lab: tuple[str, str]) -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            yield page
        finally:
            browser.close()


def _stop_kernels(base: str, token: str) -> None:
    """Shut every kernel down, so twelve chapters never run side by side on two cores."""
    headers = {"Authorization": f"token {token}"}
    request = urllib.request.Request(f"{base}/api/sessions", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        sessions = json.load(response)
    for session in sessions:
        url = f"{base}/api/sessions/{session['id']}"
        urllib.request.urlopen(
            urllib.request.Request(url, method="DELETE", headers=headers), timeout=10
        ).close()


def _contents(base: str, token: str, name: str) -> dict[str, object]:
    url = f"{base}/api/contents/exercises/{name}?content=1"
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return dict(json.load(response))


_DIRTY = "() => document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty') !== null"


def _modified_on_opening(page: object) -> bool:
    """Whether the notebook just opened shows as modified once its kernel is up and idle."""
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first.wait_for()  # type: ignore[attr-defined]
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()  # type: ignore[attr-defined]
    page.wait_for_timeout(1000)  # type: ignore[attr-defined]  # (the kernel's info is in by now)
    return bool(page.evaluate(_DIRTY))  # type: ignore[attr-defined]


def _saved(page: object, base: str, token: str, name: str) -> nbformat.NotebookNode:
    """Save the notebook as the page shows it and read it back from the server."""
    dirty = "() => document.querySelector('.lm-TabBar-tab.jp-mod-current.jp-mod-dirty')"
    page.wait_for_function(f"() => ({dirty})() !== null")  # type: ignore[attr-defined]
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first.click(
        position={"x": 5, "y": 5}
    )  # type: ignore[attr-defined]
    page.keyboard.press("Control+s")  # type: ignore[attr-defined]
    page.wait_for_function(f"() => ({dirty})() === null")  # type: ignore[attr-defined]
    for _ in range(50):  # the server may still be writing the file
        try:
            return nbformat.from_dict(_contents(base, token, name)["content"])
        except urllib.error.HTTPError:
            page.wait_for_timeout(200)  # type: ignore[attr-defined]
    raise AssertionError(f"{name}: the server could not read the saved notebook")


# Every graph view in the notebook: its summary, whether its output node (n0) is inside the
# viewport, whether the whole drawing is, and the share of the viewport's height it fills.
_VIEWS = """() => [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .mt-gv-viewport')].map((viewport) => {
  const view = viewport.getBoundingClientRect();
  const out = viewport.querySelector('g.node[data-mt="n0"]')?.getBoundingClientRect();
  const svg = viewport.querySelector('svg')?.getBoundingClientRect();
  const inside = (b) => b && b.width > 0 && b.left >= view.left - 1 &&
    b.right <= view.right + 1 && b.top >= view.top - 1 && b.bottom <= view.bottom + 1;
  const high = svg ? Math.min(view.bottom, svg.bottom) - Math.max(view.top, svg.top) : 0;
  return { summary: viewport.getAttribute('aria-label'), output: inside(out),
           whole: inside(svg), filled: Math.max(0, high) / view.height };
})"""

# The stepper's leaves (parameter and leaf boxes) by name, and whether their step has run.
_LEAVES = """el => Object.fromEntries([...el.querySelectorAll(
    'g.node.mt-kind-param, g.node.mt-kind-leaf')].map((g) => [g.querySelector('text').textContent,
    g.classList.contains('mt-done') || g.classList.contains('mt-current')]))"""


def _check_views_open_on_the_graph(name: str, page: object) -> None:
    """Every graph view (forward ones especially) opens with its output and graph in view."""
    views = page.evaluate(_VIEWS)  # type: ignore[attr-defined]
    for view in views:
        assert view["output"], f"{name}: the output is outside the first view: {view}"
        assert view["whole"] or view["filled"] > 0.98, f"{name}: a blank band in view: {view}"
    if name[:2] in ("03", "08"):
        assert any(v["summary"].startswith("forward") for v in views), f"{name}: {views}"


def _check_stepper_steps(page: object) -> None:
    stepper = page.locator(".mt-stepper").first  # type: ignore[attr-defined]
    stepper.scroll_into_view_if_needed()
    status = stepper.locator("b", has_text="steps run").first
    assert "0 of 14 steps run" in status.inner_text(), "Run All already ran the stepper's backward"
    next_button = stepper.locator("button", has_text="next")
    assert next_button.is_enabled(), "after Run All the stepper's next is disabled"
    view = stepper.locator(".mt-gv").first
    for k in range(1, 14):  # at each step the status names the leaves the engine has reached
        next_button.click()
        text = stepper.locator("b", has_text=f"{k} of 14 steps run").inner_text()
        reached = view.evaluate(_LEAVES)
        named = re.search(r"received by ([^;]*)", text)
        named_leaves = set(named.group(1).split(", ")) if named else set()
        assert named_leaves == {leaf for leaf, ran in reached.items() if ran}, (k, text, reached)
        assert "partially" not in text
    next_button.click()
    stepper.locator("b", has_text="backward complete").wait_for()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", _student_versions())
def test_a_student_runs_the_chapter(
    name: str, clone: Path, lab: tuple[str, str], page: object
) -> None:
    base, token = lab
    path = clone / "exercises" / name
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    page.goto(f"{base}/lab/tree/exercises/{name}?reset&token={token}")  # no old tabs  # type: ignore[attr-defined]
    timed = _first_widget_cells(code)
    timing = None
    try:
        assert not _modified_on_opening(page), f"{name}: shows as modified right after opening"
        if timed is None:
            run_all(page, len(code))
        else:
            timing = run_all_timing(page, len(code), *timed)
            within_goal = timing["picture_ms"] <= FIRST_PICTURE_GOAL_MS
            _record_timing(
                name[:2], {**timing, "cells": timed[1] - timed[0] + 1, "within_1s": within_goal}
            )
        overflow = page.evaluate(_OVERFLOW)  # type: ignore[attr-defined]
        _check_views_open_on_the_graph(name, page)
        if name.startswith("10_"):
            _check_stepper_steps(page)
        ran = _saved(page, base, token, name)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"walk_{name[:2]}.png"))  # type: ignore[attr-defined]
        _stop_kernels(base, token)
    assert overflow == [], f"{name}: outputs wider than the cell [cell, px, element]: {overflow}"
    ran_code = [c for c in ran.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in ran_code), f"{name}: Run All stopped early"
    for cell in ran_code:
        stderr = [
            o.text
            for o in cell.outputs
            if o.get("name") == "stderr" and not WARNING.fullmatch(o.text.strip())
        ]
        assert not stderr, f"{name}: stderr (a pink box) in\n{cell.source}\n{stderr}"
        errors = [o.ename for o in cell.outputs if o.output_type == "error"]
        if RAISES not in cell.metadata.get("tags", []):
            assert not errors, f"{name}: {errors} in\n{cell.source}"
        # An error shows the student's lines and the message, as PyTorch's do: no frame of
        # microtorch's own files (microtorch/_traceback.py).
        for out in cell.outputs:
            if out.output_type == "error":
                shown = "\n".join(out.traceback)
                assert "microtorch/" not in shown, f"{name}: microtorch's frames shown:\n{shown}"
    if timing is not None:  # from Shift+Enter on its first cell to the picture on screen
        assert timing["picture_ms"] <= FIRST_PICTURE_GUARD_MS, f"{name}: first widget cell {timing}"


VALIDATED = "09_reading_error_messages.ipynb"  # Validate once said it passed untouched (issue 25)


@pytest.mark.timeout(300)
def test_validate_fails_on_an_unsolved_exercise(
    clone: Path, lab: tuple[str, str], page: object
) -> None:
    base, token = lab
    untouched = clone / "exercises" / f"validate_{VALIDATED}"
    shutil.copy(ROOT / "notebooks" / "exercises" / VALIDATED, untouched)
    page.goto(f"{base}/lab/tree/exercises/{untouched.name}?reset&token={token}")  # type: ignore[attr-defined]
    try:
        assert not _modified_on_opening(page)
        page.locator(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Toolbar-item", has_text="Validate"
        ).click()  # type: ignore[attr-defined]
        dialog = page.locator(".jp-Dialog", has_text="Validation Results")  # type: ignore[attr-defined]
        dialog.wait_for(timeout=180_000)  # nbgrader runs the whole notebook in its own kernel
        answer = dialog.inner_text()
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "walk_validate.png"))  # type: ignore[attr-defined]
        dialog.locator(".jp-Dialog-button", has_text="Ok").click()
    finally:
        _stop_kernels(base, token)
    assert "Success" not in answer, answer[:500]
    assert "The following cell failed" in answer and "NotImplementedError" in answer, answer[:500]
