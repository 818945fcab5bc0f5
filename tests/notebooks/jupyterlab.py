"""A JupyterLab server for browser tests, and the Run-All-and-wait steps they share.

``running_lab(root)`` serves ``root`` on 127.0.0.1 (a free port, a token, no user settings, no
news toast) and is always stopped afterwards, with the kernels it started. ``run_all(page)``
presses Run → Run All Cells once the kernel is idle and waits until every code cell has run.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(url: str, server: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"JupyterLab did not answer {url} within {timeout} s")


@contextmanager
def running_lab(
    root: Path, state: Path, config_path: list[Path] | None = None
) -> Iterator[tuple[str, str]]:
    """Serve ``root``, keeping settings and logs in ``state``; yields (base URL, token).
    ``config_path``: folders first on Jupyter's config path (``make lab``'s student config)."""
    settings = state / ".settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)  # no "get Jupyter news?" toast
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # every cell in the page, not only those in view, so tests can measure all of them
    tracker = state / ".settings" / "@jupyterlab" / "notebook-extension"
    tracker.mkdir(parents=True, exist_ok=True)
    (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    docmanager = state / ".settings" / "@jupyterlab" / "docmanager-extension"
    docmanager.mkdir(parents=True, exist_ok=True)  # saved only when a test saves
    (docmanager / "plugin.jupyterlab-settings").write_text(json.dumps({"autosave": False}))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(state / ".config"),  # no user settings, no saved workspace
        JUPYTER_RUNTIME_DIR=str(state / ".runtime"),
    )
    if config_path:
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(str(p) for p in config_path)
    command = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        f"--LabApp.user_settings_dir={state / '.settings'}",
        f"--LabApp.workspaces_dir={state / '.workspaces'}",
        "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")  # containers run as root; Jupyter refuses otherwise
    log = (state / "lab.log").open("wb")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=log,
                              start_new_session=True)  # fmt: skip
    try:
        # 120 s: on a loaded 2-core machine JupyterLab has needed over a minute to start
        _wait_until_up(f"http://127.0.0.1:{port}/api/status?token={token}", server, 120)
        yield f"http://127.0.0.1:{port}", token
    finally:
        if server.poll() is None:  # the server and its kernels share its process group
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
        log.close()


# True once no cell is queued or running: JupyterLab shows "[*]" in the prompt of those.
_ALL_RUN = """n => {
  const prompts = [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
  return prompts.length === n && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
}"""
_STOPPED = """() => {
  const prompts = [...document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
  return prompts.length > 0 && !prompts.some(p => p.textContent.includes('*'));
}"""


def _menu(page: Any, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def _wait_all_run(page: Any, code_cells: int, timeout_ms: float) -> None:
    try:
        page.wait_for_function(_ALL_RUN, arg=code_cells, timeout=timeout_ms)
    except Exception:
        page.wait_for_function(_STOPPED, timeout=5_000)  # an error stopped the run: say which
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()


def run_all(page: Any, code_cells: int, timeout_ms: float = 90_000) -> None:
    """Run → Run All Cells, then wait until every cell ran (or the run stopped at an error)."""
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook").first.wait_for()
    # "Run All Cells" before the kernel is connected would run nothing
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
    _menu(page, "Run All Cells")
    page.wait_for_function("() => document.querySelector('.jp-InputPrompt') !== null")
    _wait_all_run(page, code_cells, timeout_ms)


# Polled once per frame: the ms from window.__mtStart until code cell i shows its picture (a
# laid-out graph view, or a widget's loaded image), else false; also notes when output began.
_PICTURE = """i => {
  const cell = document.querySelectorAll(
    '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')[i];
  if (!cell) return false;
  if (window.__mtOutput === undefined && cell.querySelector('.jp-OutputArea-output'))
    window.__mtOutput = performance.now() - window.__mtStart;
  const images = [...cell.querySelectorAll('.jupyter-widgets img')];
  const shown = cell.querySelector('[data-mt-ready]') ||
    images.find((im) => im.complete && im.naturalWidth > 0);
  return shown ? performance.now() - window.__mtStart : false;
}"""


def run_all_timing(page: Any, code_cells: int, start: int, picture: int) -> dict[str, float]:
    """Run the cells above ``start``; then, timed, ``start`` to ``picture`` (code cell indexes)
    as a student presses Shift+Enter on each, until ``picture`` shows its picture; then the rest.

    Returns ms from pressing Shift+Enter on ``start`` to the first output of ``picture`` and to
    its picture on screen.
    """
    panel = ".jp-NotebookPanel:not(.lm-mod-hidden)"
    page.locator(f"{panel} .jp-Notebook").first.wait_for()
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
    cells = page.locator(f"{panel} .jp-CodeCell")
    cells.nth(start).locator(".jp-InputPrompt").click()  # selects it, in command mode
    if start > 0:
        _menu(page, "Run All Above Selected Cell")
        page.wait_for_function(
            """n => [...document.querySelectorAll(
              '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')]
              .slice(0, n).every(p => /\\[\\d+\\]/.test(p.textContent))""",
            arg=start,
            timeout=90_000,
        )
        page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
        cells.nth(start).locator(".jp-InputPrompt").click()
    page.evaluate("() => { window.__mtStart = performance.now(); delete window.__mtOutput; }")
    for _ in range(start, picture + 1):
        page.keyboard.press("Shift+Enter")
    shown = page.wait_for_function(_PICTURE, arg=picture, polling="raf", timeout=60_000)
    timing = {"output_ms": page.evaluate("() => window.__mtOutput"), "picture_ms": 0.0}
    timing["picture_ms"] = shown.json_value()
    parts = cells.nth(picture).locator("[data-mt-ready]")  # where a graph view's time went
    if parts.count():
        timing["bundle_ms"] = float(parts.first.get_attribute("data-mt-load-ms") or -1)
        timing["wasm_and_layout_ms"] = float(parts.first.get_attribute("data-mt-layout-ms"))
    page.locator(".jp-StatusBar-Widget", has_text="| Idle").first.wait_for()
    if picture + 1 < code_cells:
        cells.nth(picture + 1).locator(".jp-InputPrompt").click()
        _menu(page, "Run Selected Cell and All Below")
    _wait_all_run(page, code_cells, 90_000)
    return timing
