"""A student's walk through every chapter, in JupyterLab in Chromium, from a fresh clone.

The tracked files of ``notebooks/`` are copied into a temporary folder (what a clone holds, with
this checkout's contents), JupyterLab serves it, and each student version
(``notebooks/exercises/``, what ``make lab`` opens) is opened at 1280x1000 with the file browser
open, run with Run → Run All Cells, and checked as a student would see it:

- no output is wider than its cell (pictures, tables, widgets: nothing cut off on the right);
- nothing is written to stderr (JupyterLab shows it in a pink box that looks like an error)
  but the warnings a chapter shows on purpose (PyTorch's own ``UserWarning``), and the only errors are the ones the chapter shows on purpose (cells tagged ``raises-exception``:
  chapter 09's errors, and the stubs and check cells of the unsolved exercises);
- chapter 10's backward stepper still steps after Run All: *next* is enabled and runs a node.
- no traceback shows a frame of microtorch's own files, only the student's lines and the message.

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

from .jupyterlab import CHROMIUM_ARGS, run_all, running_lab

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
RAISES = "raises-exception"
WARNING = re.compile(r"\S+:\d+: UserWarning: .*\n.*", re.DOTALL)  # file:line: UserWarning: ...

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every output element wider than the cell's output area, as [cell index, px over, element].
_OVERFLOW = """() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  const found = [];
  panel.querySelectorAll('.jp-Cell').forEach((cell, index) => {
    const area = cell.querySelector('.jp-OutputArea');
    if (!area) return;
    const right = area.getBoundingClientRect().right;
    for (const el of area.querySelectorAll('img, svg, table, pre, .jupyter-widgets, .mt-gv-viewport')) {
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
    with running_lab(clone, tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture(scope="module")
def page(chromium_path: str, lab: tuple[str, str]) -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS)
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


def _check_stepper_steps(page: object) -> None:
    stepper = page.locator(".mt-stepper").first  # type: ignore[attr-defined]
    stepper.scroll_into_view_if_needed()
    status = stepper.locator("b", has_text="steps run").first
    assert "0 of 14 steps run" in status.inner_text(), "Run All already ran the stepper's backward"
    next_button = stepper.locator("button", has_text="next")
    assert next_button.is_enabled(), "after Run All the stepper's next is disabled"
    next_button.click()
    stepper.locator("b", has_text="1 of 14 steps run").wait_for()


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
    try:
        run_all(page, len(code))
        overflow = page.evaluate(_OVERFLOW)  # type: ignore[attr-defined]
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
