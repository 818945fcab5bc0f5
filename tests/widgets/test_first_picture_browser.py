"""Issue 22: a chapter's first widget cell shows its picture in JupyterLab at most 1 s after the
cell starts (chapters 04, 05 and 06, in Chromium, each in a fresh browser context).

The clock starts when the page sends the cell's ``execute_request`` on the kernel's websocket
and stops when the picture is in the cell's output: the graph view's SVG (04, 05) or the loaded
chart image (06). The cells above it run first, as a student's would; the timed cells are then
run with Shift+Enter. Figures are printed and written to ``artifacts/first_picture.json``.

Medians of 3 runs, alone on the shared 2-core machine (ms, 04 / 05 / 06): 848 / 790 / 455 when
the page fetched the 831 KB bundle and laid the graph out with WebAssembly; 558 / 640 / 427 with
the kernel's SVG and the 18 KB view (06 shows a chart image, no graph view).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.notebooks.jupyterlab import CHROMIUM_ARGS, running_lab

from .test_browser import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]
NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
CHAPTERS = ["04", "05", "06"]
GOAL_MS = 1000
RECORD = ARTIFACTS / "first_picture.json"

# Notes the page's time of every execute_request it sends (JSON text, or the binary frames of
# the v1 kernel websocket protocol, whose header is JSON inside the buffer).
_WATCH_EXECUTE = """
(() => {
  window.__mtExecute = [];
  const send = WebSocket.prototype.send;
  const decoder = new TextDecoder();
  WebSocket.prototype.send = function (data) {
    try {
      let text = typeof data === "string" ? data : "";
      if (data instanceof ArrayBuffer) text = decoder.decode(new Uint8Array(data, 0,
        Math.min(data.byteLength, 4096)));
      else if (ArrayBuffer.isView(data)) text = decoder.decode(data.subarray(0, 4096));
      if (text.includes('"msg_type":"execute_request"')) window.__mtExecute.push(performance.now());
    } catch (error) {}
    return send.call(this, data);
  };
})();
"""

# ms from the timed cell's execute_request to the picture in code cell i, else false.
_PICTURE = """([i, k]) => {
  const cell = document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')[i];
  const sent = window.__mtExecute[k];
  if (!cell || sent === undefined) return false;
  const images = [...cell.querySelectorAll('.jupyter-widgets img')];
  const shown = cell.querySelector('.mt-gv-canvas svg g.node') ||
    images.find((im) => im.complete && im.naturalWidth > 0);
  return shown ? performance.now() - sent : false;
}"""

_CELLS = "() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')"


def _timed_cells(name: str) -> tuple[int, int]:
    """(first, shown), code cell indexes, as tests/notebooks/test_walk.py picks them."""
    from tests.notebooks.test_walk import _first_widget_cells

    code = [c for c in nbformat.read(NOTEBOOKS / name, as_version=4).cells if c.cell_type == "code"]
    found = _first_widget_cells(code)
    assert found is not None, name
    return found


def _chapter(number: str) -> str:
    return next(p.name for p in NOTEBOOKS.glob(f"{number}_*.ipynb"))


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    pytest.importorskip("jupyterlab", reason="pip install jupyterlab to run the browser test")
    root = tmp_path_factory.mktemp("chapters")
    for number in CHAPTERS:
        shutil.copy(NOTEBOOKS / _chapter(number), root)
    for data in ("course_data",):  # what the chapters may read, beside them as in the clone
        if (NOTEBOOKS.parent / data).is_dir():
            shutil.copytree(NOTEBOOKS.parent / data, root.parent / data, dirs_exist_ok=True)
    with running_lab(root, tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture(scope="module")
def chromium(chromium_path: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


def _record(key: str, value: dict[str, Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    data = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    data[key] = value
    RECORD.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def _run_above(page: Any, start: int) -> None:
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    cells.nth(start).locator(".jp-InputPrompt").click()  # selects it, in command mode
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Above Selected Cell").first.click()
    page.wait_for_function(
        f"""n => [...({_CELLS})()].slice(0, n)
          .every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt').textContent))""",
        arg=start,
        timeout=120_000,
    )
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
    cells.nth(start).locator(".jp-InputPrompt").click()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("number", CHAPTERS)
def test_first_widget_cell_shows_its_picture_within_1s(
    number: str, lab: tuple[str, str], chromium: Any
) -> None:
    base, token = lab
    name = _chapter(number)
    start, shown = _timed_cells(name)
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})  # nothing cached
    context.add_init_script(_WATCH_EXECUTE)
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{base}/lab/tree/{name}?reset&token={token}")
        page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first.wait_for()
        page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
        if start > 0:
            _run_above(page, start)
        sent_before = page.evaluate("() => window.__mtExecute.length")
        for _ in range(start, shown + 1):
            page.keyboard.press("Shift+Enter")
        ms = page.wait_for_function(
            _PICTURE, arg=[shown, sent_before], polling="raf", timeout=60_000
        ).json_value()
        cell = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell").nth(shown)
        parts = {"picture_ms": round(ms)}
        for key, attribute in (
            ("view_ms", "data-mt-load-ms"),
            ("layout_ms", "data-mt-layout-ms"),
            ("layout_by", "data-mt-layout-by"),
        ):
            found = cell.locator(f"[{attribute}]")
            if found.count():
                parts[key] = found.first.get_attribute(attribute)
        page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
        page.screenshot(path=str(ARTIFACTS / f"first_picture_{number}.png"))
    finally:
        context.close()
    print(f"\nchapter {number}: first picture {parts}")
    _record(number, parts)
    assert not errors, errors
    if number != "06":  # a graph view: drawn from the kernel's SVG (graphviz-pure is installed)
        assert parts.get("layout_by") == "kernel", parts
    assert parts["picture_ms"] <= GOAL_MS, f"chapter {number}: first widget cell {parts}"
