"""The README's lab commands: localhost only, token on, and each reader gets their own tools.

The command comes from ``make -n lab`` (what ``make lab`` would run; ``make -n lab-key`` for the
instructors' lab), with the environment it sets, started with a free port, a temporary notebook
folder and ``--no-browser``; the server is always killed afterwards. The students' lab offers
none of nbgrader's instructor tools (its Formgrader, Create Assignment, course and assignment
lists) and keeps Validate; the instructors' lab has them all. Neither shows the news toast.
"""

from __future__ import annotations

import html
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
psutil = pytest.importorskip("psutil")


def _lab_command(target: str = "lab") -> tuple[dict[str, str], list[str]]:
    """The variables ``make <target>`` sets for jupyter, and its jupyter command, as make would
    run them here."""
    dry_run = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
    ).stdout
    (line,) = [line for line in dry_run.splitlines() if "jupyter lab" in line]
    words = shlex.split(line)
    start = next(i for i, word in enumerate(words) if "=" not in word or word.startswith("-"))
    return dict(w.split("=", 1) for w in words[:start]), words[start:]


def test_the_makefile_binds_to_localhost_and_keeps_the_token() -> None:
    _, command = _lab_command()
    assert command[0].endswith("jupyter") and command[1] == "lab"
    assert "--ip=127.0.0.1" in command
    insecure = ("token=", "password=", "disable_check_xsrf", "allow_origin", "--ip=0.0.0.0")
    assert not [arg for arg in command if any(bad in arg for bad in insecure)], command
    readme = (ROOT / "README.md").read_text()
    assert "make lab" in readme


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serve(tmp_path: Path, target: str) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """``make <target>``'s server on a free port, in a temporary folder; killed at the end."""
    port = _free_port()
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    variables, command = _lab_command(target)
    command = [a for a in command if not a.startswith("--notebook-dir")]
    command += [f"--notebook-dir={notebooks}", f"--port={port}", "--no-browser"]
    log = tmp_path / "lab.log"
    env = dict(
        os.environ,
        **variables,
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),  # no personal config can turn auth off
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
    )
    with open(log, "w") as out:
        server = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )  # fmt: skip
    try:
        yield server, port, log
    finally:
        try:
            os.killpg(server.pid, signal.SIGTERM)  # its own process group: the server only
            server.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)


@pytest.fixture()
def lab(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """The make-lab server on a free port, in a temporary folder; killed at the end."""
    with _serve(tmp_path, "lab") as served:
        yield served


def _token(log: Path, server: subprocess.Popen[str], port: int, wait: float = 40) -> str:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        found = re.search(
            rf"http://127\.0\.0\.1:{port}/lab[^?\s]*\?token=([0-9a-f]+)", log.read_text()
        )
        if found and _accepts(port):  # (jupyter prints the URL before its loop binds the port)
            return found.group(1)
        time.sleep(0.2)
    raise AssertionError("the server printed no token URL, or is not listening on its port:\n"
                         + log.read_text())  # fmt: skip


def _accepts(port: int) -> bool:
    """Whether something listens on 127.0.0.1:port."""
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _machine_addresses() -> list[str]:
    """This machine's own non-loopback IPv4 addresses."""
    return [
        a.address
        for addresses in psutil.net_if_addrs().values()
        for a in addresses
        if a.family == socket.AF_INET and not a.address.startswith("127.")
    ]


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_lab_needs_the_token_and_listens_on_localhost_only(
    lab: tuple[subprocess.Popen[str], int, Path],
) -> None:
    server, port, log = lab
    token = _token(log, server, port)
    base = f"http://127.0.0.1:{port}"
    assert _status(f"{base}/api/contents") == 403  # no token: refused
    assert _status(f"{base}/api/contents?token=wrong{token}") == 403
    assert _status(f"{base}/api/contents?token={token}") == 200
    assert _status(f"{base}/lab?token={token}") == 200
    listening = [
        c.laddr
        for c in psutil.Process(server.pid).net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN
    ]
    assert listening and {addr.ip for addr in listening} == {"127.0.0.1"}, listening
    for address in _machine_addresses():  # reachable from this machine's other addresses?
        with socket.socket() as s, pytest.raises(OSError):
            s.settimeout(2)
            s.connect((address, port))


INSTRUCTOR_PLUGINS = {
    "@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:course-list",
    "@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:menu",
}  # fmt: skip


WELCOME = ROOT / "notebooks" / "exercises" / "00_welcome.ipynb"


def _sign_as_make_does(tmp_path: Path, target: str) -> None:
    """Run the ``jupyter trust`` line of ``make <target>`` for the test's Jupyter data folder,
    then put one of the notebooks it signed into the served folder."""
    dry_run = subprocess.run(
        ["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
    ).stdout
    (line,) = [line for line in dry_run.splitlines() if "jupyter trust" in line]
    env = dict(os.environ, JUPYTER_DATA_DIR=str(tmp_path / "data"))  # as the server has it
    subprocess.run(line, shell=True, cwd=ROOT, env=env, check=True, timeout=120)
    shutil.copy(WELCOME, tmp_path / "notebooks" / WELCOME.name)


def _page_config(base: str, token: str) -> dict[str, object]:
    """The settings JupyterLab's page starts with (the extensions it leaves out, the news)."""
    with urllib.request.urlopen(f"{base}/lab?token={token}", timeout=30) as response:
        page = response.read().decode()
    (data,) = re.findall(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                         page, re.S)  # fmt: skip
    return json.loads(html.unescape(data))


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.parametrize("target", ["lab", "lab-key"])
def test_students_get_no_instructor_tools_and_nobody_the_news_toast_or_untrusted_notebooks(
    tmp_path: Path, target: str
):
    try:
        import nbgrader  # noqa: F401
    except ImportError:
        if os.environ.get("MICROTORCH_REQUIRE_NBGRADER") == "1":  # CI: never a skip
            pytest.fail("nbgrader not installed (MICROTORCH_REQUIRE_NBGRADER=1): make venv")
        pytest.skip("nbgrader not installed: make venv installs it")
    with _serve(tmp_path, target) as (server, port, log):
        _sign_as_make_does(tmp_path, target)
        token = _token(log, server, port, wait=150)  # the formgrader takes 15 s to import
        base = f"http://127.0.0.1:{port}"
        config = _page_config(base, token)
        disabled = set(config.get("disabledExtensions", []))
        formgrader = _status(f"{base}/formgrader?token={token}")
        validate = _status(f"{base}/assignments/validate?token={token}")
        opened = _status(f"{base}/api/contents/{WELCOME.name}?content=1&token={token}")
    assert opened == 200
    assert "is not trusted" not in log.read_text(), "the server calls the notebook not trusted"
    assert config["news"] == {"disabled": True}, config.get("news")
    assert "@jupyter/nbgrader:validate-assignment" not in disabled  # Validate stays for both
    assert validate != 404, "nbgrader's validate handler is missing"
    if target == "lab":
        assert disabled >= INSTRUCTOR_PLUGINS, disabled
        assert formgrader == 404, "the students' server still serves nbgrader's formgrader"
    else:
        assert not INSTRUCTOR_PLUGINS & disabled, disabled
        assert formgrader != 404, "the instructors' lab lost nbgrader's formgrader"
