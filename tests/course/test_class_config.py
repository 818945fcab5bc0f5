"""The real-class hub's settings, and Zero to JupyterHub's values kept in step with them.

tests/course/test_class_hub.py runs docs/jupyterhub_class_config.py with a class; this reads the
settings it tested and checks that docs/z2jh-values.yaml, the configuration for a class that
outgrows one server, carries the same ones where Kubernetes has them.
"""

from __future__ import annotations

import asyncio
import errno
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from .conftest import ROOT

pytest.importorskip("jupyterhub")
from jupyterhub.spawner import LocalProcessSpawner  # noqa: E402
from traitlets.config import Config, PyFileConfigLoader  # noqa: E402 (jupyterhub brings it)

DOCS = ROOT / "docs"


def class_config() -> Config:
    """docs/jupyterhub_class_config.py, read as JupyterHub reads it."""
    loader = PyFileConfigLoader("jupyterhub_class_config.py", path=str(DOCS))
    return loader.load_config()


def exchange_settings(text: str) -> dict[str, str]:
    return dict(re.findall(r"^c\.(\w+\.\w+) = (.+)$", text, flags=re.M))


def test_the_class_hub_checks_passwords_and_runs_each_student_as_themselves():
    c = class_config()
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.JupyterHub.spawner_class.__mro__[1].__name__ == "LocalProcessSpawner"
    assert c.JupyterHub.cleanup_servers is False
    assert "instructor" in c.Authenticator.admin_users
    assert c.Authenticator.admin_users <= c.Authenticator.allowed_users
    assert c.JupyterHub.bind_url.startswith("http://127.0.0.1:"), "HTTPS is the proxy's job"


def test_students_get_the_class_students_lab_and_instructors_all_of_nbgrader():
    """Each server's JUPYTER_CONFIG_PATH (what each one's lab shows: test_class_hub.py)."""
    c = class_config()
    lab_config = c.Spawner.environment["JUPYTER_CONFIG_PATH"]  # called with each Spawner
    assert c.Spawner.environment["PATH"].startswith(str(Path(sys.executable).parent))
    folders = ROOT / "tools" / "lab_config"
    for name, kinds in [("instructor", ["common"]), ("mtstudent01", ["class_student", "common"])]:
        spawner = SimpleNamespace(user=SimpleNamespace(name=name))
        assert lab_config(spawner) == os.pathsep.join(str(folders / kind) for kind in kinds)
    assert (folders / "class_student" / "jupyter_server_config.json").is_file()


def test_the_hubs_python3_kernel_raises_its_own_oom_score_so_the_server_is_never_chosen(
    monkeypatch: pytest.MonkeyPatch,
):
    """Every server's JUPYTER_PATH starts with tools/hub_kernels/: its python3 kernel is the
    default one (same pid, same ipykernel, microtorch importable) with oom_score_adj 1000, so in
    a student's full memory cgroup the OOM killer takes a kernel before their server."""
    jupyter_client = pytest.importorskip("jupyter_client")
    c = class_config()
    hub_kernels = Path(c.Spawner.environment["JUPYTER_PATH"])
    assert hub_kernels == ROOT / "tools" / "hub_kernels"
    monkeypatch.setenv("JUPYTER_PATH", str(hub_kernels))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    spec = jupyter_client.kernelspec.KernelSpecManager().get_kernel_spec("python3")
    assert Path(spec.resource_dir) == hub_kernels / "kernels" / "python3"
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3")
    try:
        pid = manager.provisioner.process.pid
        printed: list[str] = []
        reply = client.execute_interactive(
            "import os, sys, microtorch; print(os.getpid(), sys.executable)",
            output_hook=lambda msg: printed.append(msg["content"].get("text", "")),
            timeout=60,
        )
        assert reply["content"]["status"] == "ok", reply["content"]
        assert "".join(printed).split() == [str(pid), sys.executable]
        assert Path(f"/proc/{pid}/oom_score_adj").read_text().strip() == "1000"
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_the_try_it_out_hub_stays_as_it_was_and_says_so():
    text = (DOCS / "jupyterhub_config.py").read_text(encoding="utf-8")
    assert 'c.JupyterHub.authenticator_class = "dummy"' in text
    assert "jupyterhub_class_config.py" in text, "it points to the real-class configuration"


def test_kubernetes_values_keep_the_class_hubs_limits_and_exchange():
    c = class_config()
    values = yaml.safe_load((DOCS / "z2jh-values.yaml").read_text(encoding="utf-8"))
    assert values["singleuser"]["memory"]["limit"] == c.Spawner.mem_limit
    (culler,) = [s for s in c.JupyterHub.services if s["name"] == "idle-culler"]
    (timeout,) = [a.split("=")[1] for a in culler["command"] if a.startswith("--timeout=")]
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] == int(timeout)
    assert values["hub"]["config"]["JupyterHub"]["cleanup_servers"] is False
    shipped = exchange_settings((DOCS / "nbgrader_exchange_config.py").read_text(encoding="utf-8"))
    files = values["singleuser"]["extraFiles"]["nbgrader-config"]
    assert files["mountPath"] == "/etc/jupyter/nbgrader_config.py"
    assert exchange_settings(files["stringData"]) == shipped
    mounts = values["singleuser"]["storage"]["extraVolumeMounts"]
    assert [m["mountPath"] for m in mounts] == [shipped["Exchange.root"].strip('"')]


# The students' memory cgroups, on a fake cgroup filesystem ------------------------------------
# The class hub test runs on whichever cgroup version its machine has (this one: v1, its v2
# hierarchy has no memory controller); here both versions' steps run against a folder laid out
# as each, with the kernel's part played by FakeCgroupfs.

LIMIT = 2**30  # docs/jupyterhub_class_config.py's c.Spawner.mem_limit
STUDENT = "mtstudent01"
HUB_PIDS = ["4242", "4243"]  # the hub and its proxy (never run: only moved)


class FakeCgroupfs:
    """A folder laid out as Linux's cgroup filesystem (v2 at ``root``, or v1's memory
    hierarchy at ``root/memory``), where this object plays the kernel: a new group gets its
    interface files; a pid written to a group's cgroup.procs moves there from its old group;
    v2 hands memory to child groups only while the group holds no process; v1 refuses a memory
    limit above the memory + swap one; a group can be removed once none of its processes runs
    (its interface files go with it)."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.mkdir, self.rmdir, self.write_text = Path.mkdir, Path.rmdir, Path.write_text
        monkeypatch.setattr(Path, "mkdir", lambda path, *a, **k: self.make_group(path, *a, **k))
        monkeypatch.setattr(Path, "rmdir", lambda path: self.remove_group(path))
        monkeypatch.setattr(Path, "write_text", lambda path, text, *a, **k: self.write(path, text))
        self.mkdir(root)

    def ours(self, path: Path) -> bool:
        return path.is_relative_to(self.root)

    def make_group(self, path: Path, mode: int = 0o777, parents: bool = False,
                   exist_ok: bool = False) -> None:  # fmt: skip
        existed = path.is_dir()
        self.mkdir(path, mode, parents, exist_ok)
        hierarchies = [self.root, self.root / "memory", self.root / "unified"]  # mounts
        if existed or not self.ours(path) or path in hierarchies:
            return
        files = {"cgroup.procs": ""}
        if path.is_relative_to(self.root / "memory"):  # v1
            files.update({"memory.limit_in_bytes": "9223372036854771712",
                          "memory.memsw.limit_in_bytes": "9223372036854771712"})  # fmt: skip
        else:
            enabled = (path.parent / "cgroup.subtree_control").read_text()
            files.update({"cgroup.controllers": enabled, "cgroup.subtree_control": ""})
            if "memory" in enabled.split():
                files.update({"memory.max": "max", "memory.swap.max": "max"})
        for name, text in files.items():
            self.write_text(path / name, text)

    def write(self, path: Path, text: str) -> int:
        if not self.ours(path):
            return self.write_text(path, text)
        if path.name == "cgroup.procs":
            for procs in self.root.rglob("cgroup.procs"):  # out of its old group
                self.write_text(procs, "".join(f"{p}\n" for p in self.procs(procs) if p != text))
            return self.write_text(path, path.read_text() + text + "\n")
        if path.name == "cgroup.subtree_control":
            if self.procs(path.parent / "cgroup.procs"):
                raise OSError(errno.EBUSY, "cgroup v2: the group holds processes", str(path))
            text = " ".join([*path.read_text().split(), *(c.lstrip("+") for c in text.split())])
        if path.name.startswith("memory.") and path.name.endswith("limit_in_bytes"):
            limit = path.parent / "memory.limit_in_bytes"
            swap = path.parent / "memory.memsw.limit_in_bytes"
            value = 2**63 if text == "-1" else int(text)
            if path == limit and value > int(swap.read_text()):
                raise OSError(errno.EINVAL, "above memory.memsw.limit_in_bytes", str(path))
            if path == swap and value < int(limit.read_text()):
                raise OSError(errno.EINVAL, "below memory.limit_in_bytes", str(path))
            text = str(value)
        return self.write_text(path, text)

    @staticmethod
    def procs(path: Path) -> list[str]:
        return path.read_text().split() if path.exists() else []

    def remove_group(self, path: Path) -> None:
        if not self.ours(path):
            return self.rmdir(path)
        if any(_running(int(pid)) for pid in self.procs(path / "cgroup.procs")):
            raise OSError(errno.EBUSY, "the group holds processes", str(path))
        for child in path.iterdir():
            child.unlink()
        return self.rmdir(path)


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended), from /proc/<pid>/stat's state."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _fake_spawner(root: Path, membership: Path) -> type:
    """docs/jupyterhub_class_config.py's spawner class, looking at the fake cgroups."""

    class FakeCgroupSpawner(class_config().JupyterHub.spawner_class):  # type: ignore[misc]
        cgroup_root = root
        self_cgroup = membership
        _memory_parent = False

    return FakeCgroupSpawner


def _layout(tmp: Path, version: str, fs: FakeCgroupfs) -> tuple[Path, Path]:
    """The hub's cgroups, as systemd lays out a service's: (the hub's group, /proc/self/cgroup)."""
    membership = tmp / "proc-self-cgroup"
    root = fs.root
    if version == "v2":
        fs.write_text(root / "cgroup.controllers", "cpuset cpu io memory pids")
        fs.write_text(root / "cgroup.subtree_control", "cpu io memory pids")
        (root / "system.slice").mkdir()
        (root / "system.slice" / "cgroup.subtree_control").write_text("+cpu +memory +pids")
        hub = root / "system.slice" / "jupyterhub.service"
        hub.mkdir()
        membership.write_text("0::/system.slice/jupyterhub.service\n")
    else:  # hybrid, as on this machine: v2's unified hierarchy holds no controller
        (root / "unified").mkdir()
        fs.write_text(root / "unified" / "cgroup.controllers", "")
        (root / "memory").mkdir()
        hub = root / "memory" / "system.slice" / "jupyterhub.service"
        hub.mkdir(parents=True)
        membership.write_text("4:memory:/system.slice/jupyterhub.service\n0::/\n")
    for pid in HUB_PIDS:
        (hub / "cgroup.procs").write_text(pid)
    return hub, membership


@pytest.mark.parametrize("version", ["v2", "v1"])
def test_each_students_memory_cgroup_is_made_limited_joined_and_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: str
):
    fs = FakeCgroupfs(tmp_path / "cgroup", monkeypatch)
    hub, membership = _layout(tmp_path, version, fs)
    spawner = _fake_spawner(fs.root, membership)(user=SimpleNamespace(name=STUDENT), mem_limit="1G")
    assert spawner.mem_limit == LIMIT
    group = spawner.memory_group = spawner._make_memory_group(spawner.mem_limit)
    assert group == hub / f"jupyterhub-{STUDENT}", "inside the hub's own group"
    if version == "v2":  # the hub and proxy moved down a level, then memory handed down
        assert (hub / "jupyterhub-hub" / "cgroup.procs").read_text().split() == HUB_PIDS
        assert (hub / "cgroup.procs").read_text() == ""
        assert "memory" in (hub / "cgroup.subtree_control").read_text().split()
        assert (group / "memory.max").read_text() == str(LIMIT)
        assert (group / "memory.swap.max").read_text() == "0", "no escape into swap"
    else:
        assert (hub / "cgroup.procs").read_text().split() == HUB_PIDS, "v1: the hub stays"
        assert (group / "memory.limit_in_bytes").read_text() == str(LIMIT)
        assert (group / "memory.memsw.limit_in_bytes").read_text() == str(LIMIT), "no swap"
    assert spawner.get_state()["memory_group"] == str(group), "kept across hub restarts"

    # the server's process joins the group before it becomes the student (not done here)
    base = LocalProcessSpawner
    monkeypatch.setattr(base, "make_preexec_fn", lambda self, name: lambda: None)
    monkeypatch.setattr(base, "stop", lambda self, now=False: asyncio.sleep(0))
    server = subprocess.Popen(["cat", "/proc/self/limits"], stdout=subprocess.PIPE, text=True,
                              preexec_fn=spawner.make_preexec_fn(STUDENT))  # fmt: skip
    limits = server.communicate(timeout=30)[0]
    assert (group / "cgroup.procs").read_text().split() == [str(server.pid)]
    (data,) = [line.split()[3:5] for line in limits.splitlines() if line.startswith("Max data")]
    assert data == [str(LIMIT)] * 2, "and each process's RLIMIT_DATA, hard"

    asyncio.run(spawner.stop())  # the server has ended: its group goes
    assert not group.exists()

    # a kernel still running once the server stopped is ended after 10 s (here 2 s), and its
    # group removed once it has died (the spawner's waits, all 5 times shorter)
    group = spawner.memory_group = spawner._make_memory_group(spawner.mem_limit)
    kernel = subprocess.Popen(["sleep", "60"], preexec_fn=spawner.make_preexec_fn(STUDENT))
    real_sleep = asyncio.sleep
    monkeypatch.setattr(asyncio, "sleep", lambda seconds: real_sleep(seconds / 5))
    asyncio.run(spawner.stop())
    assert kernel.wait(timeout=10) == -signal.SIGKILL
    assert not group.exists()


def test_without_a_writable_memory_controller_only_the_per_process_limit_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    fs = FakeCgroupfs(tmp_path / "cgroup", monkeypatch)
    fs.write_text(fs.root / "cgroup.controllers", "cpu pids")  # v2, no memory controller
    membership = tmp_path / "proc-self-cgroup"
    membership.write_text("0::/\n")
    spawner = _fake_spawner(fs.root, membership)(user=SimpleNamespace(name=STUDENT), mem_limit="1G")
    assert spawner._make_memory_group(spawner.mem_limit) is None
    assert list(fs.root.iterdir()) == [fs.root / "cgroup.controllers"], "nothing made"
