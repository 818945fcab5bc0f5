"""A real class on one JupyterHub: twenty students and an instructor, each their own Unix user.

The hub runs docs/jupyterhub_class_config.py as shipped (a small config loads it and changes
only the ports and where the hub keeps its database), after the system set-up of
docs/instructors.md ("A real class on one server"): tools/class_setup.py makes the accounts,
their private homes, nbgrader's exchange and /etc/jupyter/nbgrader_config.py. Everyone then
does what they would do in JupyterLab, through the hub's API and their own server's REST API:

- the instructor logs in with their password, puts chapters 04 and 10 in a course directory,
  and generates and releases both with nbgrader, in a kernel of their own server (as in a
  JupyterLab terminal; the commands are the guide's);
- twenty students log in at once, each fetches both chapters (the Assignments tab's API),
  answers a different set of exercises, runs chapter 04 in a kernel of their own, and submits;
- the instructor collects, autogrades and releases feedback; every student fetches theirs;
- each student's kernel tries to read another student's files, and fails;
- each one's lab is what tools/lab_config/ makes it: students' without nbgrader's instructor
  tools (page config, server extensions; in Chromium, their Nbgrader menu) but with the
  Assignments tab, the instructor's with all of nbgrader, everyone's chapters opening with the
  language_info their kernel reports (unmodified);
- a student's processes together stay within the student's memory limit (their cgroup), and
  one allocation past it gets MemoryError;
- the hub is restarted mid-class, the idle culler stops the idle servers, and the hub's
  shutdown API stops everything that is left.

Needs root (accounts, setuid); CI runs it as root. Everything it made is removed at the end.
"""

from __future__ import annotations

import ctypes
import json
import os
import pwd
import re
import shlex
import signal
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from urllib.parse import quote

import nbformat
import pytest

from tests.notebooks.jupyterlab import CHROMIUM_ARGS

from .conftest import ROOT, isolated_env, require
from .test_jupyterhub import Hub, Kernel, _alive, _answers, _cmd, _free_port, _proxy

psutil = pytest.importorskip("psutil")
websocket = pytest.importorskip("websocket")  # websocket-client, a jupyter_server dependency

# (minutes on a busy machine; alone: make test runs it by itself, after the others)
pytestmark = [pytest.mark.slow, pytest.mark.alone, pytest.mark.timeout(3600)]

# Twenty in CI; MICROTORCH_CLASS_SIZE=5 runs a smaller class, to try a change quickly.
STUDENTS = [
    f"mtstudent{i:02d}" for i in range(1, int(os.environ.get("MICROTORCH_CLASS_SIZE", 20)) + 1)
]
INSTRUCTOR = "mtinstructor"
OUTSIDER = "mtoutsider"  # a Unix account with a password, on no roster
COURSE = "microtorch"
CHAPTERS = ["04_chain_rule_and_backward", "10_capstone_tiny_language_model"]
RUN = CHAPTERS[0]  # the chapter every student runs in their kernel
EXCHANGE = Path("/srv/nbgrader/exchange") / COURSE
GUIDE = ROOT / "docs" / "instructors.md"
ARTIFACTS = ROOT / "artifacts"
SECTION = "## A real class on one server"
# seconds, for the culling part only (the shipped hub waits an hour). The busy student's last
# activity the new culler sees is as old as the hub's restart, which took over 25 s on a loaded
# 2-core machine (CI, stop 28): the timeout must leave the restart room.
IDLE_TIMEOUT = 90
MEM_LIMIT = 2**30  # docs/jupyterhub_class_config.py's c.Spawner.mem_limit
CGROUP = Path("/sys/fs/cgroup")
PR_SET_CHILD_SUBREAPER = 36


def guide_commands() -> list[list[str]]:
    """The shell blocks of the guide's real-class section, each a list of commands."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    section = section[: section.find("\n## ", len(SECTION))]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    commands = []
    for block in blocks:
        joined = block.replace("\\\n", " ")
        lines = [line.split("  #")[0].strip() for line in joined.splitlines()]
        commands.append([line for line in lines if line and not line.startswith("#")])
    return commands


def answered(student: int, chapter: str) -> list[int]:
    """The exercises a student answers: a different set for each of the twenty."""
    if chapter == CHAPTERS[0]:  # 2 exercises: student % 4 picks a subset
        bits, count = student % 4, 2
    else:  # 3 exercises: student // 4 (0 to 4) picks one
        bits, count = student // 4, 3
    return [k + 1 for k in range(count) if bits >> k & 1]


def nbgrader_meta(cell: nbformat.NotebookNode) -> dict:
    return cell.metadata.get("nbgrader", {})


def solutions(chapter: str) -> dict[str, str]:
    nb = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    return {
        nbgrader_meta(c)["grade_id"]: c.source for c in nb.cells if nbgrader_meta(c).get("solution")
    }


@dataclass
class Student:
    name: str
    password: str
    index: int
    token: str = ""
    server_pid: int = 0
    server_uid: int = -1
    kernel_id: str = ""
    kernel_pid: int = 0
    kernel_uid: int = -1
    login_to_chapter: float = 0.0  # seconds from the login request to the chapter's last cell
    server_pss: int = 0
    kernel_pss: int = 0
    kernel_data: int = 0  # the kernel's data segment: what RLIMIT_DATA caps
    memory_group: Path | None = None  # the student's memory cgroup, which caps all they run
    group_usage: int = 0  # what that cgroup holds (their server, kernel and page cache)
    opened_language_info: dict = field(default_factory=dict)  # chapter 04's, as served
    kernel_language_info: dict = field(default_factory=dict)  # what its kernel reports
    errors: dict[str, list[str]] = field(default_factory=dict)
    stdout: dict[str, str] = field(default_factory=dict)
    submitted: dict[str, dict] = field(default_factory=dict)
    feedback: dict[str, str] = field(default_factory=dict)  # chapter -> feedback HTML path


@dataclass
class Class:
    tmp: Path
    hub: Hub
    config: Path
    env: dict[str, str]
    students: list[Student]
    instructor: Student
    total_pss: int = 0
    grades: dict = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    processes: dict[int, float] = field(default_factory=dict)  # everything any hub started


class Reaper:
    """Makes this process the subreaper of what the hub leaves behind when it restarts.

    The servers outlive a restarted hub (cleanup_servers = False) and are re-parented; on a
    real server systemd (PID 1) reaps them when they end, but this container's PID 1 does not,
    so without this a culled server would stay a zombie the new hub counts as running."""

    def __init__(self) -> None:
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.keep: set[int] = set()  # our own Popen children: they reap themselves
        self.orphans: dict[int, float] = {}  # pid -> start time of what a hub started
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def __enter__(self) -> Reaper:
        assert self.libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        self.thread.start()
        return self

    def run(self) -> None:
        while not self.stop.wait(0.5):
            for child in psutil.Process().children():
                try:
                    if (
                        self.orphans.get(child.pid) == child.create_time()
                        and child.pid not in self.keep
                        and child.status() == psutil.STATUS_ZOMBIE
                    ):
                        os.waitpid(child.pid, os.WNOHANG)
                except (psutil.Error, ChildProcessError):
                    continue

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def _root_or_skip() -> None:
    if os.geteuid() == 0 and sys.platform == "linux":
        return
    message = "the class hub test makes Unix accounts: run it as root on Linux (CI does)"
    if os.environ.get("MICROTORCH_REQUIRE_JUPYTERHUB") == "1":
        pytest.fail(message)
    pytest.skip(message)


def _open_the_way(paths: list[Path]) -> dict[Path, int]:
    """Lets every account through the folders on the way to ``paths``; returns their modes.

    CI's Python lives under /root (mode 0700), where no student's server could run it; a real
    class server keeps the course in a shared place instead (tools/class_setup.py checks)."""
    opened = {}
    for path in paths:
        for folder in path.resolve().parents:
            mode = stat.S_IMODE(folder.stat().st_mode)
            if not mode & stat.S_IXOTH and folder not in opened:
                opened[folder] = mode
                folder.chmod(mode | stat.S_IXOTH)
    return opened


def _setup_tool(tmp: Path, *args: str) -> str:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "class_setup.py"), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, MICROTORCH_COURSE_ENV=sys.prefix),  # the hub's, which it checks
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.stdout


def _start_hub(tmp: Path, config: Path, env: dict[str, str], reaper: Reaper) -> Hub:
    log = tmp / f"hub-{time.monotonic_ns()}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(config)],
            cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    reaper.keep.add(process.pid)
    port = re.search(r'bind_url = "http://127.0.0.1:(\d+)"', config.read_text()).group(1)  # type: ignore[union-attr]
    hub = Hub(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + 90
    while True:
        try:
            hub.request("GET", "/hub/api/")
            break
        except (urllib.error.URLError, ConnectionError):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the hub did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
    return hub


def login(hub: Hub, name: str, password: str) -> str:
    """A token for ``name``, as the login form gets one: with the account's password."""
    reply = hub.request(
        "POST", f"/hub/api/users/{name}/tokens",
        body={"auth": {"username": name, "password": password}, "note": "class test"},
    )  # fmt: skip
    return reply["token"]


def _wait_for_server(hub: Hub, name: str, token: str) -> None:
    hub.request("POST", f"/hub/api/users/{name}/server", token)
    deadline = time.monotonic() + 180
    while (
        not (server := hub.request("GET", f"/hub/api/users/{name}", token)["servers"].get(""))
        or not server["ready"]
    ):
        assert server and time.monotonic() < deadline, (
            f"{name}'s server did not start:\n{hub.log.read_text()[-3000:]}"
        )
        time.sleep(1)
    while not _answers(hub, f"/user/{name}/api/status", token):
        assert time.monotonic() < deadline, f"{name}'s server is not reachable through the hub"
        time.sleep(0.5)


class ClassKernel(Kernel):
    """A kernel over its websocket, which answers kernel_info before it is sent code (as
    JupyterLab waits for it, then copies its language_info into the notebook), and whose every
    request has a deadline."""

    def __init__(self, url: str, token: str, timeout: float) -> None:
        super().__init__(url, token)
        self.timeout = timeout
        self.language_info: dict = {}
        self.ws.settimeout(10)
        deadline = time.monotonic() + 180
        while not self.info():
            assert time.monotonic() < deadline, f"no kernel_info reply from {url}"

    def info(self) -> bool:
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": "kernel_info_request", "session": self.session,
                  "username": "", "version": "5.3", "date": ""}  # fmt: skip
        self.ws.send(json.dumps({"header": header, "parent_header": {}, "metadata": {},
                                 "channel": "shell", "content": {}}))  # fmt: skip
        try:
            while True:
                msg = json.loads(self.ws.recv())
                mine = msg.get("parent_header", {}).get("msg_id") == msg_id
                if mine and msg["header"]["msg_type"] == "kernel_info_reply":
                    self.language_info = msg["content"]["language_info"]
                    return True
        except websocket.WebSocketTimeoutException:
            return False

    def execute(self, code: str) -> tuple[list[str], str]:
        done: list[tuple[list[str], str]] = []
        self.ws.settimeout(self.timeout)
        worker = threading.Thread(
            target=lambda: done.append(super(ClassKernel, self).execute(code)), daemon=True
        )
        worker.start()
        worker.join(self.timeout)
        assert done, f"no reply within {self.timeout} s to:\n{code[:200]}"
        return done[0]


def _kernel(hub: Hub, name: str, token: str, kernel_id: str, timeout: float = 120) -> ClassKernel:
    url = hub.url.replace("http", "ws", 1) + f"/user/{name}/api/kernels/{kernel_id}/channels"
    return ClassKernel(url, token, timeout)


def _run_here(hub: Hub, who: Student, code: str, timeout: float = 120) -> tuple[list[str], str]:
    kernel = _kernel(hub, who.name, who.token, who.kernel_id, timeout)
    try:
        return kernel.execute(code)
    finally:
        kernel.close()


def _shell(hub: Hub, who: Student, commands: list[str], timeout: float = 1800) -> str:
    """Run ``commands`` with bash in ``who``'s kernel (their uid, their home), from the
    repository, as they would in a JupyterLab terminal; returns what they printed."""
    script = "set -euo pipefail\n" + "\n".join(commands)
    code = (
        "import subprocess\n"
        f"run = subprocess.run(['bash', '-c', {script!r}], cwd={str(ROOT)!r},\n"
        "                     capture_output=True, text=True)\n"
        "print(run.returncode); print(run.stdout[-4000:]); print(run.stderr[-4000:])"
    )
    errors, printed = _run_here(hub, who, code, timeout)
    assert not errors and printed.startswith("0\n"), f"{who.name}: {commands} failed:\n{printed}"
    return printed


def _student_session(hub: Hub, s: Student) -> None:
    """One student's class: log in, fetch, answer, run chapter 04, submit."""
    start = time.monotonic()
    s.token = login(hub, s.name, s.password)
    _wait_for_server(hub, s.name, s.token)
    base = f"/user/{s.name}"
    for chapter in CHAPTERS:
        hub.request(
            "POST",
            f"{base}/assignments/fetch?course_id={COURSE}&assignment_id={chapter}",
            s.token,
            {},
        )
    for chapter in CHAPTERS:
        path = f"{base}/api/contents/{chapter}/{chapter}.ipynb"
        nb = nbformat.from_dict(hub.request("GET", f"{path}?content=1", s.token)["content"])
        answers = solutions(chapter)
        for cell in nb.cells:
            grade_id = nbgrader_meta(cell).get("grade_id", "")
            if nbgrader_meta(cell).get("solution") and int(grade_id.split("-")[1]) in answered(
                s.index, chapter
            ):
                cell.source = answers[grade_id]
        hub.request("PUT", path, s.token,
                    {"type": "notebook", "format": "json", "content": nb})  # fmt: skip
        if chapter == RUN:
            s.opened_language_info = dict(nb.metadata.language_info)
            session = hub.request("POST", f"{base}/api/sessions", s.token, {
                "path": f"{chapter}/{chapter}.ipynb", "type": "notebook", "name": chapter,
                "kernel": {"name": nb.metadata.kernelspec.name},
            })  # fmt: skip
            s.kernel_id = session["kernel"]["id"]
            kernel = _kernel(hub, s.name, s.token, s.kernel_id)
            s.kernel_language_info = kernel.language_info
            try:
                _, printed = kernel.execute("import os; print(os.getpid(), os.getuid())")
                s.kernel_pid, s.kernel_uid = map(int, printed.split())
                for cell in nb.cells:
                    if cell.cell_type == "code":
                        s.errors[cell.id], s.stdout[cell.id] = kernel.execute(cell.source)
                s.login_to_chapter = time.monotonic() - start
                kernel.execute(f"secret = {s.name!r} + ' was here'")
            finally:
                kernel.close()
    for chapter in CHAPTERS:
        s.submitted[chapter] = hub.request(
            "POST",
            f"{base}/assignments/submit?course_id={COURSE}&assignment_id={chapter}",
            s.token,
            {},
        )


def _fetch_feedback(hub: Hub, s: Student) -> None:
    base = f"/user/{s.name}"
    for chapter in CHAPTERS:
        hub.request(
            "POST",
            f"{base}/assignments/fetch_feedback?course_id={COURSE}&assignment_id={chapter}",
            s.token,
            {},
        )
        listing = hub.request("GET", f"{base}/api/contents/{chapter}/feedback", s.token)
        (stamp,) = [item["path"] for item in listing["content"]]
        s.feedback[chapter] = f"{stamp}/{chapter}.html"


def _note(klass: Class, hub: Hub) -> None:
    hub.note_processes()
    klass.processes.update(hub.started)


def _pss(pid: int) -> int:
    return psutil.Process(pid).memory_full_info().pss


def _memory_group(pid: int) -> Path | None:
    """The memory cgroup of process ``pid``: cgroup v1's memory hierarchy, else v2's."""
    own = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        own.update(dict.fromkeys(controllers.split(","), path.lstrip("/")))
    if "memory" in own:
        return CGROUP / "memory" / own["memory"]
    unified = CGROUP if (CGROUP / "cgroup.controllers").exists() else CGROUP / "unified"
    return unified / own[""] if "" in own else None


def _group_value(group: Path, v2: str, v1: str, key: str = "") -> int:
    """A number from a memory cgroup's file: v2's ``v2``, else v1's ``v1`` (a ``key``'s line)."""
    text = (group / (v2 if (group / v2).exists() else v1)).read_text()
    if key:
        (text,) = [line.split()[1] for line in text.splitlines() if line.startswith(key + " ")]
    return 2**63 if text.strip() == "max" else int(text)


def _usage(group: Path) -> int:
    return _group_value(group, "memory.current", "memory.usage_in_bytes")


def _limit(group: Path) -> int:
    return _group_value(group, "memory.max", "memory.limit_in_bytes")


def _oom_kills(group: Path) -> int:
    return _group_value(group, "memory.events", "memory.oom_control", "oom_kill")


def _measure(klass: Class) -> None:
    hub = klass.hub
    _note(klass, hub)
    for s in [*klass.students, klass.instructor]:
        for p in psutil.Process(hub.process.pid).children(recursive=True):
            try:
                if "singleuser" in _cmd(p) and p.environ().get("JUPYTERHUB_USER") == s.name:
                    s.server_pid, s.server_uid = p.pid, p.uids().real
                    s.memory_group = _memory_group(p.pid)
            except psutil.Error:
                continue
        if s.kernel_pid:
            s.server_pss, s.kernel_pss = _pss(s.server_pid), _pss(s.kernel_pid)
            s.kernel_data = psutil.Process(s.kernel_pid).memory_info().data
            if s.memory_group is not None:
                s.group_usage = _usage(s.memory_group)
    tree = [
        psutil.Process(hub.process.pid),
        *psutil.Process(hub.process.pid).children(recursive=True),
    ]
    klass.total_pss = sum(p.memory_full_info().pss for p in tree)


@pytest.fixture(scope="module")
def klass(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Class]:
    """The whole class up to the students' feedback; the restart and the end follow as tests."""
    _root_or_skip()
    require(
        "jupyterhub", "MICROTORCH_REQUIRE_JUPYTERHUB", "make venv installs it (the course extra)"
    )
    proxy = _proxy()
    tmp = tmp_path_factory.mktemp("class-hub")
    roster = tmp / "students.txt"
    roster.write_text("\n".join(STUDENTS) + "\n")
    (tmp / "outsider.txt").write_text(OUTSIDER + "\n")
    setup, start, _, _, _ = guide_commands()
    # The guide's set-up, with this test's roster and instructor: the commands below
    assert setup == [
        "make venv hub-proxy",  # done: CI runs it first (.ci/run)
        "python3 tools/class_setup.py docs/students.txt --instructor instructor > passwords.txt",
    ], setup
    assert start == [".venv/bin/jupyterhub -f docs/jupyterhub_class_config.py"], start
    port, hub_port, api_port = _free_port(), _free_port(), _free_port()
    config = tmp / "jupyterhub_config.py"
    config.write_text(
        f"""c = get_config()
load_subconfig({str(ROOT / "docs" / "jupyterhub_class_config.py")!r})
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {str(tmp / "proxy.pid")!r}
c.JupyterHub.db_url = "sqlite:///{tmp / "hub.sqlite"}"
c.JupyterHub.cookie_secret_file = {str(tmp / "cookie_secret")!r}
# servers report activity every 5 s instead of 300, so the culling part can be short
c.Spawner.environment = {{**c.Spawner.environment, "JUPYTERHUB_ACTIVITY_INTERVAL": "5"}}
"""
    )
    env = isolated_env(tmp, MICROTORCH_ROSTER=str(roster), MICROTORCH_INSTRUCTORS=INSTRUCTOR)
    env.pop("PYTHONPATH")  # the kernels must find microtorch in the course environment itself
    env.pop("CONFIGPROXY_AUTH_TOKEN", None)
    opened = _open_the_way([Path(sys.base_prefix), ROOT])
    with Reaper() as reaper:
        try:
            # what a run that was killed may have left: accounts of the course, the exchange
            _setup_tool(tmp, "--remove", str(roster), "--instructor", INSTRUCTOR)
            _setup_tool(tmp, "--remove", str(tmp / "outsider.txt"))
            passwords = dict(
                line.split()
                for line in _setup_tool(tmp, str(roster), "--instructor", INSTRUCTOR).splitlines()
            )
            assert set(passwords) == {*STUDENTS, INSTRUCTOR}, "made every account, once"
            assert _setup_tool(tmp, str(roster), "--instructor", INSTRUCTOR) == "", "idempotent"
            passwords.update(
                line.split() for line in _setup_tool(tmp, str(tmp / "outsider.txt")).splitlines()
            )
            hub = _start_hub(tmp, config, env, reaper)
            students = [Student(n, passwords[n], i) for i, n in enumerate(STUDENTS)]
            instructor = Student(INSTRUCTOR, passwords[INSTRUCTOR], -1)
            klass = Class(tmp, hub, config, env, students, instructor)
            klass.outputs["outsider password"] = passwords[OUTSIDER]
            klass.reaper = reaper  # type: ignore[attr-defined]
            reaper.orphans = klass.processes
            try:
                _teach(klass)
                yield klass
            finally:
                _end(klass)
        finally:
            for account in [*STUDENTS, INSTRUCTOR, OUTSIDER]:
                for p in psutil.process_iter():
                    try:
                        if p.uids().real == pwd.getpwnam(account).pw_uid:
                            p.kill()
                    except (psutil.Error, KeyError):
                        continue
            time.sleep(1)
            _setup_tool(tmp, "--remove", str(roster), "--instructor", INSTRUCTOR)
            _setup_tool(tmp, "--remove", str(tmp / "outsider.txt"))
            for folder, mode in opened.items():
                folder.chmod(mode)


def _teach(klass: Class) -> None:
    hub, instructor = klass.hub, klass.instructor
    _, _, release, grade, _ = guide_commands()
    start = time.monotonic()
    instructor.token = login(hub, instructor.name, instructor.password)
    _wait_for_server(hub, instructor.name, instructor.token)
    kernel = hub.request(
        "POST", f"/user/{instructor.name}/api/kernels", instructor.token, {"name": "python3"}
    )
    instructor.kernel_id = kernel["id"]
    klass.outputs["release"] = _shell(hub, instructor, release)
    klass.outputs["release time"] = f"{time.monotonic() - start:.0f}"
    start = time.monotonic()
    with ThreadPoolExecutor(len(klass.students)) as pool:
        list(pool.map(lambda s: _student_session(hub, s), klass.students))
    klass.outputs["class time"] = f"{time.monotonic() - start:.0f}"
    _measure(klass)
    start = time.monotonic()
    klass.outputs["grade"] = _shell(hub, instructor, grade)
    klass.outputs["grading time"] = f"{time.monotonic() - start:.0f}"
    code = (
        "import json, os\nfrom nbgrader.api import Gradebook\n"
        "grades = {}\n"
        "with Gradebook('sqlite:///' + os.path.expanduser('~/microtorch/gradebook.db')) as gb:\n"
        f"    for a in {CHAPTERS!r}:\n"
        f"        for s in {STUDENTS!r}:\n"
        "            nb = gb.find_submission_notebook(a, a, s)\n"
        "            scores = {g.name: [g.score, g.max_score] for g in nb.grades}\n"
        "            grades.setdefault(s, {})[a] = scores\n"
        "print(json.dumps(grades))"
    )
    errors, printed = _run_here(hub, instructor, code)
    assert not errors, printed
    klass.grades = json.loads(printed)
    with ThreadPoolExecutor(len(klass.students)) as pool:
        list(pool.map(lambda s: _fetch_feedback(hub, s), klass.students))
    _note(klass, hub)


def _stop_hub(hub: Hub, sig: int = signal.SIGTERM) -> None:
    if hub.process.poll() is None:
        hub.process.send_signal(sig)
        try:
            hub.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(hub.process.pid, signal.SIGKILL)
            hub.process.wait(timeout=10)


def _end(klass: Class) -> None:
    """Whatever the tests did: no hub, no server, no kernel of the class stays behind."""
    _note(klass, klass.hub)
    _stop_hub(klass.hub)
    for pid, created in klass.processes.items():
        process = _alive(pid, created)
        if process is not None:
            process.kill()


# The set-up ----------------------------------------------------------------------------------


def test_the_setup_makes_private_homes_the_exchange_and_nbgraders_config(klass: Class):
    for s in [*klass.students, klass.instructor]:
        home = os.stat(pwd.getpwnam(s.name).pw_dir)
        assert stat.S_IMODE(home.st_mode) == 0o700 and home.st_uid == pwd.getpwnam(s.name).pw_uid
    exchange = os.stat(EXCHANGE.parent)
    assert stat.S_IMODE(exchange.st_mode) == 0o1777
    shipped = (ROOT / "docs" / "nbgrader_exchange_config.py").read_text(encoding="utf-8")
    assert Path("/etc/jupyter/nbgrader_config.py").read_text(encoding="utf-8") == shipped
    assert f'c.Exchange.root = "{EXCHANGE.parent}"' in shipped
    assert f'c.CourseDirectory.course_id = "{COURSE}"' in shipped


def test_an_unlisted_account_and_a_wrong_password_are_refused(klass: Class):
    hub, s = klass.hub, klass.students[0]
    for name, password in [
        (s.name, s.password + "x"),  # a student, the wrong password
        (s.name, ""),
        (OUTSIDER, klass.outputs["outsider password"]),  # a real account, its right password
        ("root", "root"),
    ]:
        with pytest.raises(urllib.error.HTTPError) as refused:
            login(hub, name, password)
        assert refused.value.code == 403, (name, refused.value.code)
    assert login(hub, s.name, s.password), "the right password still works"


# Twenty students at once -------------------------------------------------------------------


def _oom_score_adj(pid: int) -> int:
    return int(Path(f"/proc/{pid}/oom_score_adj").read_text())


def test_each_student_has_their_own_server_and_kernel_under_their_own_uid(klass: Class):
    uids = {pwd.getpwnam(s.name).pw_uid for s in klass.students}
    assert len(uids) == len(klass.students)
    for s in klass.students:
        uid = pwd.getpwnam(s.name).pw_uid
        assert s.server_uid == uid and s.kernel_uid == uid, s.name
        assert psutil.Process(s.kernel_pid).uids().real == uid
        server = psutil.Process(s.server_pid)
        assert s.kernel_pid in [p.pid for p in server.children(recursive=True)], s.name
        assert server.environ()["PATH"].startswith(str(Path(sys.executable).parent)), s.name
        # tools/hub_kernels/: in a full cgroup the OOM killer takes a kernel, never the server
        assert _oom_score_adj(s.kernel_pid) == 1000 > _oom_score_adj(s.server_pid), s.name
    assert len({s.kernel_pid for s in klass.students}) == len(klass.students)
    assert len({s.server_pid for s in klass.students}) == len(klass.students)


def test_each_student_runs_chapter_04_with_their_own_answers(klass: Class):
    chapter = nbformat.read(ROOT / "notebooks" / f"{RUN}.ipynb", as_version=4)
    cells = {c.id: c for c in chapter.cells if c.cell_type == "code"}
    for s in klass.students:
        assert set(s.errors) == set(cells), s.name
        for cell_id, cell in cells.items():
            meta = nbgrader_meta(cell)
            grade_id = meta.get("grade_id", "")
            if meta.get("solution") or meta.get("grade"):
                number = int(grade_id.split("-")[1])
                if number in answered(s.index, RUN):
                    assert not s.errors[cell_id], (s.name, grade_id, s.errors[cell_id])
                    if meta.get("grade"):
                        assert "correct!" in s.stdout[cell_id], (s.name, grade_id)
                elif meta.get("grade"):
                    assert s.errors[cell_id], f"{s.name}: {grade_id} passed without an answer"
            else:
                want = [o.ename for o in cell.outputs if o.output_type == "error"]
                assert s.errors[cell_id] == want, (s.name, cell.source[:80])


def _range(values: list[int]) -> str:
    return f"{min(values) / 2**20:.0f}-{max(values) / 2**20:.0f} MiB"


def test_memory_per_student_and_in_total(klass: Class):
    students = klass.students
    per_student = [s.server_pss + s.kernel_pss for s in students]
    largest_data = max(s.kernel_data for s in students)
    print(
        f"\n{len(students)} students, PSS: server {_range([s.server_pss for s in students])}, "
        f"chapter 04 kernel {_range([s.kernel_pss for s in students])}, both "
        f"{sum(per_student) / len(per_student) / 2**20:.0f} MiB on average; all the hub started "
        f"(hub, proxy, culler, {len(students) + 1} servers, their kernels) "
        f"{klass.total_pss / 2**20:.0f} MiB; largest kernel data segment "
        f"{largest_data / 2**20:.0f} MiB of the {MEM_LIMIT / 2**20:.0f} MiB limit; each "
        f"student's memory cgroup {_range([s.group_usage for s in students])} of their "
        f"{MEM_LIMIT / 2**20:.0f} MiB"
    )
    assert all(s.memory_group and s.memory_group.name == f"jupyterhub-{s.name}" for s in students)
    assert all(0 < s.group_usage < MEM_LIMIT // 2 for s in students), "room under the limit"
    assert max(per_student) < 400 * 2**20, "a student's server and kernel grew past 400 MiB"
    assert klass.total_pss < len(students) * 400 * 2**20
    assert largest_data < MEM_LIMIT // 2, "a chapter leaves room under the limit"


def test_time_from_login_to_a_running_chapter(klass: Class):
    times = sorted(s.login_to_chapter for s in klass.students)
    print(
        f"\nlogin to chapter 04 run: fastest {times[0]:.0f} s, "
        f"median {times[len(times) // 2]:.0f} s, slowest {times[-1]:.0f} s (all {len(times)} at "
        f"once); instructor's release "
        f"{klass.outputs['release time']} s, the class {klass.outputs['class time']} s, "
        f"grading {klass.outputs['grading time']} s"
    )
    assert times[-1] < 240


def _data_limit(pid: int) -> tuple[int, int]:
    """A process's RLIMIT_DATA (soft, hard), from /proc (prlimit on another uid may be barred)."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max data size"):
            soft, hard = line.split()[3:5]
            return int(soft), int(hard)
    raise AssertionError(f"no data size limit in /proc/{pid}/limits")


def test_a_runaway_cell_hits_the_memory_limit_alone(klass: Class):
    hub, s = klass.hub, klass.students[0]
    limits = {_data_limit(pid) for pid in (s.server_pid, s.kernel_pid)}
    assert limits == {(MEM_LIMIT, MEM_LIMIT)}, limits
    errors, _ = _run_here(hub, s, "hog = bytearray(3 * 2**29)  # 1.5 GiB")
    assert errors == ["MemoryError"]
    errors, printed = _run_here(hub, s, "print(secret)")
    assert not errors and printed == f"{s.name} was here\n", "the kernel lives on"


def _running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_students_kernels_together_stay_within_the_students_limit(klass: Class):
    hub, s, other = klass.hub, klass.students[1], klass.students[2]
    group = s.memory_group
    assert group is not None and _limit(group) == MEM_LIMIT, (group, "no memory cgroup")
    log = hub.log.read_text()
    assert f"{s.name}'s memory limit: 1024 MiB for all their processes together" in log, log[-2000:]
    kills = _oom_kills(group)
    ids = [
        hub.request("POST", f"/user/{s.name}/api/kernels", s.token, {"name": "python3"})["id"]
        for _ in range(2)
    ]
    kernels = [_kernel(hub, s.name, s.token, kernel_id) for kernel_id in ids]
    results: dict[int, object] = {}
    try:
        pids = [int(k.execute("import os; print(os.getpid())")[1]) for k in kernels]
        assert set(map(str, pids)) <= set((group / "cgroup.procs").read_text().split())
        # the first holds 25% of the limit, then the second asks for 80% (every page written,
        # under its 1 GiB RLIMIT_DATA): the second is then the group's largest process, the one
        # the OOM killer takes. (Were the first the larger, as with 60% each, Linux would kill
        # it and then, before its memory is freed, possibly the next process: a kernel, as every
        # kernel's oom_score_adj is 1000 (tools/hub_kernels/), and so one that holds nothing.)
        hogs = [f"hog = b'x' * {int(share * MEM_LIMIT)}" for share in (0.25, 0.8)]

        def allocate(i: int) -> None:
            try:
                results[i] = kernels[i].execute(hogs[i])
            except (AssertionError, OSError, websocket.WebSocketException) as error:
                results[i] = type(error).__name__  # the kernel died under the request

        for i in range(2):
            worker = threading.Thread(target=allocate, args=(i,), daemon=True)
            worker.start()
            deadline = time.monotonic() + 120
            while worker.is_alive() and _running(pids[i]) and time.monotonic() < deadline:
                time.sleep(0.2)  # until it replies or is killed
        time.sleep(2)  # a kernel killed meanwhile is reaped
        holding = [i for i in range(2) if _running(pids[i]) and results.get(i) == ([], "")]
        refused = [i for i in range(2) if results.get(i) == (["MemoryError"], "")]
        killed = [i for i in range(2) if not _running(pids[i])]
        print(
            f"\n{s.name}'s two kernels, 25% then 80% of {MEM_LIMIT / 2**20:.0f} MiB: holding "
            f"{holding}, MemoryError {refused}, killed {killed} (cgroup OOM kills "
            f"{_oom_kills(group) - kills}); cgroup holds {_usage(group) / 2**20:.0f} MiB"
        )
        assert len(holding) == 1 and len(refused) + len(killed) == 1, (results, killed)
        assert not killed or _oom_kills(group) > kills
        assert _usage(group) <= MEM_LIMIT
    finally:
        for kernel, kernel_id in zip(kernels, ids):
            kernel.close()
            hub.request("DELETE", f"/user/{s.name}/api/kernels/{kernel_id}", s.token)
    for who in (s, other):  # their chapter kernels, untouched
        errors, printed = _run_here(hub, who, "print(secret)")
        assert not errors and printed == f"{who.name} was here\n", who.name
    assert _running(s.kernel_pid) and _running(s.server_pid)


# Each one's lab: tools/lab_config/ ----------------------------------------------------------

# nbgrader's instructor tools in the lab, which tools/lab_config/class_student/ turns off, and
# the "Jupyter news?" toast (with the update check), which common/ turns off for everyone
INSTRUCTOR_PLUGINS = {
    f"@jupyter/nbgrader:{name}" for name in ("course-list", "create-assignment", "formgrader")
}
NEWS = "@jupyterlab/apputils-extension:announcements"
LAB_CONFIG_DATA = re.compile(
    r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', flags=re.S
)


def _get(hub: Hub, path: str, token: str) -> tuple[int, str]:
    """GET ``path`` through the hub as the token's user: the status and the text."""
    request = urllib.request.Request(hub.url + path, headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _lab_page_config(hub: Hub, who: Student) -> dict:
    """The page config JupyterLab's page at /user/<name>/lab starts with."""
    status, html = _get(hub, f"/user/{who.name}/lab", who.token)
    assert status == 200, (who.name, status)
    (data,) = LAB_CONFIG_DATA.findall(html)
    return json.loads(unescape(data))


def test_students_have_the_assignments_tab_and_none_of_the_instructors_tools(klass: Class):
    hub = klass.hub
    for s in klass.students:
        page = _lab_page_config(hub, s)
        assert "@jupyter/nbgrader" in {e["name"] for e in page["federated_extensions"]}, s.name
        assert set(page["disabledExtensions"]) == INSTRUCTOR_PLUGINS | {NEWS}, (s.name, page)
        # their server: no Formgrader, no course list; the assignment list (Fetch, Submit)
        assert _get(hub, f"/user/{s.name}/formgrader/api/status", s.token)[0] == 404, s.name
        assert _get(hub, f"/user/{s.name}/formgraders", s.token)[0] == 404, s.name
        status, text = _get(hub, f"/user/{s.name}/assignments?course_id={COURSE}", s.token)
        assert status == 200, (s.name, status, text[:300])
        listed = json.loads(text)
        assert listed["success"] is True, listed
        assert {a["assignment_id"] for a in listed["value"]} == set(CHAPTERS), (s.name, listed)
    teacher = klass.instructor
    page = _lab_page_config(hub, teacher)
    assert set(page["disabledExtensions"]) == {NEWS}, page  # all of nbgrader
    status, text = _get(hub, f"/user/{teacher.name}/formgrader/api/status", teacher.token)
    assert (status, json.loads(text)) == (200, {"status": True}), (status, text[:300])
    assert _get(hub, f"/user/{teacher.name}/formgraders", teacher.token)[0] != 404


def test_a_chapter_opens_with_the_language_info_its_kernel_reports(klass: Class):
    """JupyterLab copies the kernel's language_info into the notebook it opened and marks it
    modified if that changes it: every student's chapter 04 must open unmodified."""
    stored = nbformat.read(ROOT / "notebooks" / f"{RUN}.ipynb", as_version=4).metadata
    assert "version" not in stored.language_info, "the chapter stores no Python version"
    for s in klass.students:
        assert s.kernel_language_info.get("version"), (s.name, s.kernel_language_info)
        assert s.opened_language_info == s.kernel_language_info, s.name
    teacher, hub = klass.instructor, klass.hub
    path = f"/user/{teacher.name}/api/contents/microtorch/source/{RUN}/{RUN}.ipynb?content=1"
    opened = hub.request("GET", path, teacher.token)["content"]["metadata"]["language_info"]
    kernel = _kernel(hub, teacher.name, teacher.token, teacher.kernel_id)
    kernel.close()
    assert opened == kernel.language_info


@pytest.mark.browser
def test_a_students_lab_shows_assignments_and_no_formgrader(klass: Class, chromium_path: str):
    """In Chromium: a student logs in on the hub's page, and nbgrader's menu holds the
    Assignment List alone, which lists both chapters; the instructor's has the Formgrader.
    Screenshot: artifacts/class_hub_student_lab.png."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    s = klass.students[3]
    menus = {}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, headless=True,
                                    args=CHROMIUM_ARGS)  # fmt: skip
        try:
            for who in (s, klass.instructor):
                page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
                page.set_default_timeout(120_000)
                page.goto(f"{klass.hub.url}/hub/login")
                page.fill("#username_input", who.name)
                page.fill("#password_input", who.password)
                with page.expect_navigation():
                    page.click("#login_submit")
                page.goto(f"{klass.hub.url}/user/{who.name}/lab?reset")
                page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
                items = page.locator(
                    ".lm-Menu-content .lm-Menu-item:not(.lm-mod-hidden) .lm-Menu-itemLabel"
                )
                items.first.wait_for()
                menus[who.name] = items.all_inner_texts()
                if who is s:
                    items.filter(has_text="Assignment List").click()
                    listing = page.locator("#nbgrader-assignment-list")
                    for chapter in CHAPTERS:
                        listing.get_by_text(chapter).first.wait_for()
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / "class_hub_student_lab.png"))
                    assert page.get_by_text("official Jupyter news").count() == 0, "news toast"
        finally:
            browser.close()
    assert [item.strip() for item in menus[s.name]] == ["Assignment List"], menus
    assert any("Formgrader" in item for item in menus[klass.instructor.name]), menus


# nbgrader through the hub ------------------------------------------------------------------


def test_every_submission_is_collected_and_graded_as_its_student_answered(klass: Class):
    for s in klass.students:
        for chapter in CHAPTERS:
            assert s.submitted[chapter]["success"] is True, s.submitted[chapter]
            got = klass.grades[s.name][chapter]
            want = {
                f"exercise-{k}-check": [1.0 if k in answered(s.index, chapter) else 0.0, 1.0]
                for k in range(1, len(got) + 1)
            }
            assert got == want, (s.name, chapter)
    patterns = {json.dumps(klass.grades[s.name], sort_keys=True) for s in klass.students}
    assert len(patterns) == len(klass.students), "every student answered differently"


def test_every_student_fetches_their_own_feedback(klass: Class):
    hub = klass.hub
    for s in klass.students:
        for chapter in CHAPTERS:
            path = f"/user/{s.name}/api/contents/{quote(s.feedback[chapter])}"
            html = hub.request("GET", path, s.token)["content"]
            score = len(answered(s.index, chapter))
            total = 2 if chapter == CHAPTERS[0] else 3
            assert f"{chapter} (Score: {score}.0 / {total}.0)" in html, (s.name, chapter)


def test_no_student_can_read_another_students_home_submission_or_feedback(klass: Class):
    hub = klass.hub
    for i, s in enumerate(klass.students):
        victim = klass.students[(i + 1) % len(klass.students)]
        home = pwd.getpwnam(victim.name).pw_dir
        attempts = {
            "list their home": f"os.listdir({home!r})",
            "read their notebook": f"open({home + f'/{RUN}/{RUN}.ipynb'!r}).read()",
            "read their feedback": f"open({home + '/' + victim.feedback[RUN]!r}).read()",
            "list the submissions": f"os.listdir({str(EXCHANGE / 'inbound')!r})",
            "list the feedback": f"os.listdir({str(EXCHANGE / 'feedback')!r})",
        }
        code = (
            "import os, json\nresults = {}\n"
            + "".join(
                f"try:\n    {attempt}\n    results[{what!r}] = 'read it'\n"
                f"except Exception as error:\n    results[{what!r}] = type(error).__name__\n"
                for what, attempt in attempts.items()
            )
            + "print(json.dumps(results))"
        )
        errors, printed = _run_here(hub, s, code)
        assert not errors, printed
        assert json.loads(printed) == dict.fromkeys(attempts, "PermissionError"), (s.name, printed)
    # and the instructor, who collected them, can read every submission
    assert len(
        list((Path(pwd.getpwnam(INSTRUCTOR).pw_dir) / "microtorch" / "submitted").iterdir())
    ) == len(klass.students)


# The hub restarts, servers idle, the class ends ------------------------------------------------


def test_a_restarted_hub_finds_every_server_and_kernel_still_running(klass: Class):
    old = klass.hub
    _note(klass, old)
    running = {s.name: (s.server_pid, s.kernel_pid) for s in [*klass.students, klass.instructor]}
    created = {
        pid: psutil.Process(pid).create_time() for pids in running.values() for pid in pids if pid
    }
    _stop_hub(old)
    assert old.process.returncode is not None
    for pid, when in created.items():
        assert _alive(pid, when) is not None, f"{_cmd(psutil.Process(pid))} stopped with the hub"
    klass.hub = _restart(klass, old)

    def still_there(s: Student) -> None:
        deadline = time.monotonic() + 120
        while not _answers(klass.hub, f"/user/{s.name}/api/status", s.token):
            assert time.monotonic() < deadline, f"{s.name}'s server unreachable after the restart"
            time.sleep(0.5)
        errors, printed = _run_here(klass.hub, s, "print(secret)")
        assert not errors and printed == f"{s.name} was here\n", s.name  # the same kernel

    with ThreadPoolExecutor(len(klass.students)) as pool:
        list(pool.map(still_there, klass.students))
    for pid, when in created.items():
        assert _alive(pid, when) is not None


def _restart(klass: Class, old: Hub, **env: str) -> Hub:
    _stop_hub(old)
    hub = _start_hub(klass.tmp, klass.config, dict(klass.env, **env), klass.reaper)  # type: ignore[attr-defined]
    hub.started.update(old.started)
    return hub


def test_the_idle_culler_stops_idle_servers_only(klass: Class):
    # The hub again, its culler's timeout cut from an hour to IDLE_TIMEOUT seconds
    _note(klass, klass.hub)
    busy = klass.students[0]
    idle = [s for s in [*klass.students, klass.instructor] if s is not busy]
    stop = threading.Event()

    def work() -> None:  # the one student still working: a cell every two seconds
        while not stop.wait(2):
            try:
                _run_here(klass.hub, busy, "x = sum(range(1000))")
            except (OSError, AssertionError, websocket.WebSocketException):
                continue  # the hub is restarting

    # Working from before the restart: the new culler's first round, as the hub starts, must
    # find the busy student active, however long a loaded machine takes to restart the hub.
    worker = threading.Thread(target=work)
    worker.start()
    try:
        time.sleep(8)  # a cell run, and the server's activity report (every 5 s) sent
        restarting = time.monotonic()
        klass.hub = hub = _restart(klass, klass.hub, MICROTORCH_IDLE_TIMEOUT=str(IDLE_TIMEOUT))
        restart_s = time.monotonic() - restarting
        deadline = time.monotonic() + 4 * IDLE_TIMEOUT + 60
        left = idle
        while left:
            assert time.monotonic() < deadline, f"not culled: {[s.name for s in left]}"
            time.sleep(2)
            left = [
                s
                for s in left
                if hub.request("GET", f"/hub/api/users/{s.name}", klass.instructor.token)["servers"]
            ]
    finally:
        stop.set()
        worker.join()
    assert hub.request("GET", f"/hub/api/users/{busy.name}", busy.token)["servers"], (
        f"busy, not culled (the restart took {restart_s:.0f} s, the timeout is {IDLE_TIMEOUT} s)"
    )
    deadline = time.monotonic() + 30
    for s in idle:
        for pid in (s.server_pid, s.kernel_pid):
            while (
                pid
                and psutil.pid_exists(pid)
                and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
            ):
                assert time.monotonic() < deadline, f"{s.name}'s process {pid} outlived its culling"
                time.sleep(0.5)
        while s.memory_group and s.memory_group.exists():  # removed when the server stopped
            assert time.monotonic() < deadline, f"{s.memory_group} outlived {s.name}'s server"
            time.sleep(0.5)


def test_the_shutdown_api_stops_everything_the_hubs_started(klass: Class):
    hub = klass.hub
    _note(klass, hub)
    (command,) = guide_commands()[-1]
    assert command.startswith("curl ") and "/hub/api/shutdown" in command, command
    command = command.replace("http://127.0.0.1:8000", hub.url).replace(
        "$TOKEN", klass.instructor.token
    )
    subprocess.run(shlex.split(command), check=True, capture_output=True, timeout=60)
    hub.process.wait(timeout=60)
    deadline = time.monotonic() + 30
    while alive := [
        p for p in map(_alive, klass.processes, klass.processes.values()) if p is not None
    ]:
        assert time.monotonic() < deadline, [_cmd(p) for p in alive]
        time.sleep(0.5)
    groups = [s.memory_group for s in [*klass.students, klass.instructor] if s.memory_group]
    while left := [group for group in groups if group.exists()]:
        assert time.monotonic() < deadline, f"memory cgroups left: {left}"
        time.sleep(0.5)
