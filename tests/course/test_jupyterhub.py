"""A real JupyterHub serves five students, each running chapter 04 in a kernel of their own.

The hub is started from docs/jupyterhub_config.py, the file docs/instructors.md gives; a small
config in a temporary folder loads it and changes only the ports (free ones, on 127.0.0.1),
the database, the students' homes and the roster. Each student then does what JupyterLab does
for them: logs in through the hub's API (a token), starts a server, uploads the chapter,
opens a session with the kernel the notebook asks for, and runs every code cell over the
kernel's websocket. Everything started is stopped at the end, within a bounded time.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest

from .conftest import ROOT, isolated_env, require

psutil = pytest.importorskip("psutil")
websocket = pytest.importorskip("websocket")  # websocket-client, a jupyter_server dependency

CHAPTER = ROOT / "notebooks" / "04_chain_rule_and_backward.ipynb"
STUDENTS = [f"student{i}" for i in range(1, 6)]
LOCAL_PROXY = ROOT / "tools" / "hub-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
CELL_TIMEOUT = 120  # seconds for one cell; the whole chapter takes a few
WHO_AM_I = "import os, sys, microtorch\nprint(sys.prefix, microtorch.__file__, os.getpid())"

pytestmark = [pytest.mark.slow, pytest.mark.alone]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _proxy() -> str:
    if LOCAL_PROXY.exists():
        return str(LOCAL_PROXY)
    return require(
        "configurable-http-proxy", "MICROTORCH_REQUIRE_JUPYTERHUB", "run `make hub-proxy` (npm)"
    )


@dataclass
class Hub:
    url: str  # http://127.0.0.1:PORT
    process: subprocess.Popen[bytes]
    log: Path
    # Every process of the hub's seen alive, with its start time (a reused pid is not ours).
    started: dict[int, float] = field(default_factory=dict)

    def request(self, method: str, path: str, token: str = "", body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"token {token}"
        req = urllib.request.Request(self.url + path, data, headers, method=method)
        with urllib.request.urlopen(req, timeout=30) as reply:
            text = reply.read()
        return json.loads(text) if text.strip() else None

    def note_processes(self) -> None:
        try:
            children = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return
        for p in children:
            try:
                self.started[p.pid] = p.create_time()
            except psutil.NoSuchProcess:
                continue


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """The docs' hub on free loopback ports, with five students on its roster."""
    program = require(
        "jupyterhub", "MICROTORCH_REQUIRE_JUPYTERHUB", "make venv installs it (the course extra)"
    )
    proxy = _proxy()
    tmp = tmp_path_factory.mktemp("hub")
    (tmp / "roster.txt").write_text("\n".join(STUDENTS) + "\n")
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    (tmp / "jupyterhub_config.py").write_text(
        f"""c = get_config()
load_subconfig({str(ROOT / "docs" / "jupyterhub_config.py")!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {str(tmp / "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///{tmp / "hub.sqlite"}"
c.JupyterHub.cookie_secret_file = {str(tmp / "cookie_secret")!r}
"""
    )
    env = isolated_env(
        tmp, MICROTORCH_ROSTER=str(tmp / "roster.txt"), MICROTORCH_HUB_HOMES=f"{tmp}/{{username}}"
    )
    env.pop("PYTHONPATH")  # the kernels must find microtorch in the course environment itself
    env.pop("CONFIGPROXY_AUTH_TOKEN", None)
    log = tmp / "hub.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [program, "-f", str(tmp / "jupyterhub_config.py")],
            cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    hub = Hub(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                hub.request("GET", "/hub/api/")
                break
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the hub did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.5)
        hub.note_processes()
        yield hub
    finally:
        hub.note_processes()
        killed = _stop(hub)
    assert not killed, f"still running after the hub stopped, killed: {killed}"


def _stop(hub: Hub) -> list[str]:
    """SIGTERM the hub (which stops the proxy and every student's server), then make sure."""
    if hub.process.poll() is None:
        os.killpg(hub.process.pid, signal.SIGTERM)
        try:
            hub.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(hub.process.pid, signal.SIGKILL)
            hub.process.wait(timeout=10)
    leftovers = []
    for pid, created in hub.started.items():
        process = _alive(pid, created)
        if process is not None:
            leftovers.append(process)
    names = []
    for p in leftovers:
        names.append(_cmd(p))
        p.kill()
    psutil.wait_procs(leftovers, timeout=10)
    return names


@dataclass
class Run:
    """What one student's kernel did: the environment it runs in, and each cell's outcome."""

    prefix: str
    microtorch_file: str
    pid: int
    errors: dict[str, list[str]]  # cell id -> exception names
    stdout: dict[str, str]
    server_pss: int
    kernel_pss: int
    formgrader: bool  # the student's server answers nbgrader's instructor page


class Kernel:
    """A kernel of a student's server, driven over its websocket as JupyterLab drives it."""

    def __init__(self, url: str, token: str) -> None:
        self.ws = websocket.create_connection(
            url, header=[f"Authorization: token {token}"], timeout=CELL_TIMEOUT
        )
        self.session = uuid.uuid4().hex

    def execute(self, code: str) -> tuple[list[str], str]:
        """Run ``code``; returns the names of the errors it raised and what it printed."""
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "execute_request", "session": self.session,
                  "username": "", "version": "5.3", "date": ""}  # fmt: skip
        self.ws.send(json.dumps({
            "header": header, "parent_header": {}, "metadata": {}, "channel": "shell",
            "content": {"code": code, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
        }))  # fmt: skip
        errors, printed, idle, replied = [], [], False, False
        while not (idle and replied):
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "execute_reply":
                replied = True
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                idle = True
            elif kind == "stream":
                printed.append(msg["content"]["text"])
            elif kind == "error":
                errors.append(msg["content"]["ename"])
        return errors, "".join(printed)

    def close(self) -> None:
        self.ws.close()


def _cmd(process: psutil.Process) -> str:
    """The command line of ``process``, or "" for one that has ended meanwhile."""
    try:
        return " ".join(process.cmdline())
    except psutil.Error:
        return ""


def _server_of(hub: Hub, name: str) -> psutil.Process:
    """The Jupyter server process the hub started for ``name``."""
    for process in psutil.Process(hub.process.pid).children(recursive=True):
        try:
            if "singleuser" in _cmd(process) and process.environ().get("JUPYTERHUB_USER") == name:
                return process
        except psutil.Error:  # ended meanwhile
            continue
    raise AssertionError(f"no server process for {name}")


def _memory(server: psutil.Process) -> tuple[int, int]:
    """PSS (resident memory, shared pages split among their sharers) of a student's server and
    of its one kernel: what each student adds to the machine (docs/instructors.md)."""
    kernels = [p for p in server.children(recursive=True) if "ipykernel" in _cmd(p)]
    assert len(kernels) == 1, kernels
    return server.memory_full_info().pss, kernels[0].memory_full_info().pss


def _answers(hub: Hub, path: str, token: str) -> bool:
    try:
        hub.request("GET", path, token)
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return False
        raise
    return True


def _wait_until_ready(hub: Hub, name: str, token: str, deadline: float) -> None:
    """Until the hub calls ``name``'s server ready. A spawn the hub gave up on (its
    start_timeout or http_timeout passed, or the server exited) leaves no server in the user's
    model: that fails at once, with the hub's log, which says why."""
    while True:
        server = hub.request("GET", f"/hub/api/users/{name}", token)["servers"].get("")
        if server is not None and server.get("ready"):
            return
        failed = server is None or not (server.get("pending") or server.get("ready"))
        if failed or time.monotonic() > deadline:
            why = "the hub gave up on it" if failed else "still pending at the deadline"
            raise AssertionError(f"{name}'s server did not start ({why}){_log_on(hub, name)}")
        time.sleep(0.5)


def _log_on(hub: Hub, name: str) -> str:
    """The hub's last log lines that name ``name`` (why a spawn failed, for one)."""
    lines = [line for line in hub.log.read_text().splitlines() if name in line]
    return f"; the hub's log on {name}:\n" + "\n".join(lines[-40:])


def _student(hub: Hub, name: str) -> Run:
    """One student's session: log in, start a server, run the chapter, stop the server."""
    token = hub.request(
        "POST", f"/hub/api/users/{name}/tokens",
        body={"auth": {"username": name, "password": "any"}, "note": "test login"},
    )["token"]  # fmt: skip
    try:
        hub.request("POST", f"/hub/api/users/{name}/server", token)
    except urllib.error.HTTPError as error:  # the hub gave up within the request
        raise AssertionError(
            f"{name}'s server did not start ({error}){_log_on(hub, name)}"
        ) from None
    deadline = time.monotonic() + 240
    _wait_until_ready(hub, name, token, deadline)
    hub.note_processes()
    base = f"/user/{name}/api"
    # "ready" in the hub's API can come a moment before the proxy routes /user/<name>/ to the
    # server (a request then gets a 404): wait until the server itself answers
    while not _answers(hub, f"{base}/status", token):
        assert time.monotonic() < deadline, f"{name}'s server is not reachable through the hub"
        time.sleep(0.5)
    chapter = nbformat.read(CHAPTER, as_version=4)
    hub.request("PUT", f"{base}/contents/{CHAPTER.name}", token,
                {"type": "notebook", "format": "json", "content": chapter})  # fmt: skip
    session = hub.request("POST", f"{base}/sessions", token, {
        "path": CHAPTER.name, "type": "notebook", "name": CHAPTER.name,
        "kernel": {"name": chapter.metadata.kernelspec.name},
    })  # fmt: skip
    ws_url = hub.url.replace("http", "ws", 1) + f"{base}/kernels/{session['kernel']['id']}/channels"
    kernel = Kernel(ws_url, token)
    try:
        _, printed = kernel.execute(WHO_AM_I)
        prefix, microtorch_file, pid = printed.split()
        errors, stdout = {}, {}
        for cell in chapter.cells:
            if cell.cell_type == "code":
                errors[cell.id], stdout[cell.id] = kernel.execute(cell.source)
        hub.note_processes()
        server = _server_of(hub, name)
        server_pss, kernel_pss = _memory(server)
    finally:
        kernel.close()
    formgrader = _answers(hub, f"/user/{name}/formgrader", token)
    hub.request("DELETE", f"{base}/sessions/{session['id']}", token)
    hub.request("DELETE", f"/hub/api/users/{name}/server", token)
    deadline = time.monotonic() + 60
    while hub.request("GET", f"/hub/api/users/{name}", token)["servers"]:
        assert time.monotonic() < deadline, f"{name}'s server did not stop"
        time.sleep(0.5)
    return Run(prefix, microtorch_file, int(pid), errors, stdout, server_pss, kernel_pss,
               formgrader)  # fmt: skip


def test_five_students_each_run_chapter_04_in_their_own_kernel(hub: Hub):
    start = time.monotonic()
    with ThreadPoolExecutor(len(STUDENTS)) as pool:
        runs = dict(zip(STUDENTS, pool.map(lambda n: _student(hub, n), STUDENTS)))
    hub_itself = psutil.Process(hub.process.pid)
    proxies = [p for p in hub_itself.children() if "configurable-http-proxy" in _cmd(p)]
    print(f"five students, log in to server stopped: {time.monotonic() - start:.0f} s; hub PSS "
          f"{hub_itself.memory_full_info().pss / 2**20:.0f} MiB, proxy PSS "
          f"{sum(p.memory_full_info().pss for p in proxies) / 2**20:.0f} MiB")  # fmt: skip
    chapter = nbformat.read(CHAPTER, as_version=4)
    expected = {
        c.id: [o.ename for o in c.outputs if o.output_type == "error"]
        for c in chapter.cells
        if c.cell_type == "code"
    }
    checks = [c.id for c in chapter.cells if "exercise-check" in c.metadata.get("tags", [])]
    for name, run in runs.items():
        # The course environment's kernel: this .venv's Python, microtorch from this checkout.
        assert Path(run.prefix) == Path(sys.prefix), f"{name}'s kernel runs in {run.prefix}"
        assert Path(run.microtorch_file).is_relative_to(ROOT / "microtorch"), run.microtorch_file
        assert run.errors == expected, f"{name}: cells raised other errors than the chapter's"
        assert all("correct!" in run.stdout[i] for i in checks), name
        assert not run.formgrader, f"{name}'s lab serves nbgrader's formgrader, an instructor tool"
        print(f"{name}: server PSS {run.server_pss / 2**20:.0f} MiB, "
              f"kernel PSS {run.kernel_pss / 2**20:.0f} MiB")  # fmt: skip
    assert len({run.pid for run in runs.values()}) == len(STUDENTS), "one kernel per student"


def test_the_hub_stops_everything_it_started(hub: Hub):
    # Runs after the students: their servers were stopped through the API.
    hub.note_processes()
    alive = [p for p in map(_alive, hub.started, hub.started.values()) if p is not None]
    names = [_cmd(p) for p in alive]
    assert not any("singleuser" in n or "ipykernel" in n for n in names), names


def _alive(pid: int, created: float) -> psutil.Process | None:
    """The process ``pid`` if it is still the one started at ``created`` and not a zombie."""
    try:
        process = psutil.Process(pid)
        if process.create_time() != created or process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process
    except psutil.NoSuchProcess:
        return None
