"""The stepper in a real JupyterLab, driven through Debian's Chromium by Playwright.

Starts JupyterLab on 127.0.0.1 (a free port, a token, a temp dir holding the test notebook),
runs all cells, clicks "next" three times and checks the highlighted node moves each time,
then saves a screenshot to ``artifacts/``. Skips without Chromium (fails in CI, see conftest).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.notebooks.jupyterlab import CHROMIUM_ARGS, running_lab

NOTEBOOK = Path(__file__).with_name("stepper_browser.ipynb")
ARTIFACTS = Path(__file__).parents[2] / "artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def lab_url(tmp_path: Path) -> Iterator[str]:
    """A JupyterLab serving a temp dir with the test notebook; always stopped afterwards."""
    pytest.importorskip("jupyterlab", reason="pip install jupyterlab to run the browser test")
    shutil.copy(NOTEBOOK, tmp_path / NOTEBOOK.name)
    with running_lab(tmp_path, tmp_path) as (base, token):
        yield f"{base}/lab/tree/{NOTEBOOK.name}?token={token}"


def _current_nodes(page: object) -> list[str]:
    nodes = page.locator(".mt-gv g.node.mt-current")  # type: ignore[attr-defined]
    return sorted(nodes.evaluate_all("els => els.map(e => e.getAttribute('data-mt'))"))


def _filled_after_each_step() -> list[set[str]]:
    """The notebook's program run here by the real engine: after k steps, whose .grad is set."""
    import microtorch as torch
    from microtorch.autograd import iter_backward
    from microtorch.widgets import TwoLayerNet

    torch.manual_seed(0)
    net = TwoLayerNet(5, 8, 1)
    X = torch.randn(200, 5)
    y_target = (X.sum(dim=1, keepdim=True) > 0).float()
    loss = ((net(X) - y_target) ** 2).mean()
    params = dict(net.named_parameters())
    filled = [set()]
    for _ in iter_backward(loss):
        filled.append({name for name, p in params.items() if p.grad is not None})
    assert len(filled) == 14 and not filled[3] and filled[-1] == set(params)
    return filled


@pytest.mark.timeout(180)
def test_stepper_in_jupyterlab(chromium_path: str, lab_url: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(30_000)
        try:
            page.goto(lab_url)
            page.locator(".jp-NotebookPanel .jp-Notebook").wait_for()
            # "Run All Cells" before the kernel is connected would run nothing
            page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            stepper = page.locator(".mt-stepper")
            stepper.locator("[data-mt-ready]").wait_for()  # the browser laid the graph out
            seen = [_current_nodes(page)]
            assert seen[0] == ["n0"]  # the loss: backward starts there
            for _ in range(3):
                stepper.locator("button", has_text="next").click()
                page.wait_for_function(
                    "prev => JSON.stringify([...document.querySelectorAll("
                    "'.mt-gv g.node.mt-current')].map(e => e.getAttribute('data-mt'))"
                    ".sort()) !== prev",
                    arg=str(seen[-1]).replace("'", '"').replace(", ", ","),
                )
                seen.append(_current_nodes(page))
                assert seen[-1] != seen[-2]
            assert "Step 3 of 13: SubBackward0" in stepper.inner_text()
            filled = _filled_after_each_step()
            for k in range(3, 13):  # the status names exactly the leaves whose .grad is set
                status = stepper.locator("b", has_text=f"{k} of 13 steps run").inner_text()
                named = re.search(r"received by ([^;]*)", status)
                assert set(named.group(1).split(", ") if named else []) == filled[k], status
                assert "partially" not in status
                stepper.locator("button", has_text="next").click()
            stepper.locator("b", has_text="backward complete").wait_for()
            text = page.locator(".jp-NotebookPanel").inner_text()
            assert "Loading widget..." not in text
            for bad in ("Error", "Traceback", "Exception"):
                assert bad not in text, f"{bad!r} shown in the notebook"
            assert page.locator(".jp-OutputArea-output[data-mime-type*='stderr']").count() == 0
            stepper.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / "widgets_stepper_browser.png"), full_page=True)
        except Exception:  # keep what the page showed, to see why
            page.screenshot(path=str(ARTIFACTS / "widgets_stepper_browser_failed.png"))
            raise
        finally:
            browser.close()
    assert seen[1:] == [["n1"], ["n2"], ["n3"]]  # MeanBackward0, PowBackward0, SubBackward0
