"""JupyterHub for a real microtorch class on one server: docs/instructors.md ("A real class on
one server") sets it up step by step.

    .venv/bin/jupyterhub -f docs/jupyterhub_class_config.py    # as root, after tools/class_setup.py

Unlike docs/jupyterhub_config.py (the try-it-out hub), students log in with their own Unix
account's password (PAM), each server runs as that student's Unix user in a home only they can
read, a student's processes are capped in memory (together, and each one), idle servers are
stopped, and a hub restart leaves the class running. tests/course/test_class_hub.py runs this
file as shipped, changing only the ports and where the hub keeps its state.
"""

import asyncio
import os
import pwd
import resource
import signal
import sys
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner

c = get_config()  # noqa: F821 (JupyterHub defines get_config when it reads this file)
HERE = Path(__file__).resolve().parent
ENV_BIN = Path(sys.executable).parent  # the course environment: the .venv that runs the hub

# Loopback only: Caddy (or nginx) serves https://<your hub>/ and forwards to this port.
c.JupyterHub.bind_url = "http://127.0.0.1:8000"
c.JupyterHub.hub_ip = "127.0.0.1"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:8001"
local_proxy = HERE.parent / "tools/hub-proxy/node_modules/.bin/configurable-http-proxy"
if local_proxy.exists():
    c.ConfigurableHTTPProxy.command = [str(local_proxy)]
# The hub's database and cookie secret, readable by root only (tools/class_setup.py makes it).
STATE = Path("/srv/jupyterhub")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# Who may log in: the Unix accounts of the roster's students and of the instructors, each with
# its own password (PAM checks it, as `login` does). Any other account, root included, is
# refused, even with the right password.
c.JupyterHub.authenticator_class = "pam"
roster = Path(os.environ.get("MICROTORCH_ROSTER", HERE / "students.txt"))
instructors = set(os.environ.get("MICROTORCH_INSTRUCTORS", "instructor").split())
c.Authenticator.allowed_users = set(roster.read_text(encoding="utf-8").split()) | instructors
c.Authenticator.admin_users = instructors


CGROUP = Path("/sys/fs/cgroup")  # where Linux mounts the cgroup filesystem
SELF_CGROUP = Path("/proc/self/cgroup")  # the hub's own cgroups


def _unified(root: Path) -> Path:
    """cgroup v2's hierarchy: the mount itself, or its unified/ on a hybrid v1 + v2 system."""
    return root if (root / "cgroup.controllers").exists() else root / "unified"


def _memory_cgroup_parent(
    root: Path = CGROUP, membership: Path = SELF_CGROUP
) -> tuple[str, Path] | None:
    """Where the students' memory cgroups go: ("v2" or "v1", the hub's own memory cgroup),
    or None where neither hierarchy's memory controller is writable here. ``root`` and
    ``membership`` (what /proc/self/cgroup says) are parameters for the tests' fake ones."""
    own = {}  # controller -> the hub's cgroup in that hierarchy ("" is cgroup v2's)
    for line in membership.read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path.lstrip("/")
    base = _unified(root) / own.get("", "")
    try:
        if "" in own and "memory" in (base / "cgroup.controllers").read_text().split():
            control = base / "cgroup.subtree_control"
            if "memory" not in control.read_text().split():
                # cgroup v2 lets a group hand memory to its children only while no process is
                # in the group itself: the hub (and its proxy) move one level down first
                hub = base / "jupyterhub-hub"
                hub.mkdir(exist_ok=True)
                for pid in (base / "cgroup.procs").read_text().split():
                    (hub / "cgroup.procs").write_text(pid)
                control.write_text("+memory")
            return "v2", base
    except OSError:
        pass
    base = root / "memory" / own.get("memory", "")
    if "memory" in own and (base / "memory.limit_in_bytes").exists() and os.access(base, os.W_OK):
        return "v1", base
    return None


class CourseSpawner(LocalProcessSpawner):
    """LocalProcessSpawner, which ignores ``mem_limit``, applying it twice:

    - to all of a student's processes together (their server, every kernel and terminal), as
      the limit of a memory cgroup of their own (cgroup v2's ``memory.max``, else v1's
      ``memory.limit_in_bytes``), made before their server starts and removed when it stops;
      past it, Linux's OOM killer ends the largest of that student's processes, and only theirs;
    - to each of those processes, as its RLIMIT_DATA: one allocation past it fails with
      MemoryError in that process alone, which keeps running (the usual runaway cell). Where no
      memory cgroup is writable this is the only limit. The hub logs which applies.

    Each student's server listens on a port of their own, 20000 + (uid mod 10000)."""

    memory_group: Path | None = None  # this student's cgroup, kept across hub restarts
    _memory_parent: tuple[str, Path] | None | bool = False  # found at the first start
    cgroup_root = CGROUP  # (a test's fake cgroup filesystem changes these two)
    self_cgroup = SELF_CGROUP

    async def start(self):
        # Not a random free port: under a class's load a server takes seconds to bind it, and
        # meanwhile any process asking Linux for a port (a kernel, another server) may get it.
        # Below Linux's range for those (32768-60999), one port per uid cannot be taken.
        self.port = 20000 + pwd.getpwnam(self.user.name).pw_uid % 10000
        self.memory_group = self._make_memory_group(int(self.mem_limit or 0))
        return await super().start()

    def _make_memory_group(self, limit: int) -> Path | None:
        if not limit:
            return None
        spawners = type(self)  # the parent is found once, for every student's spawner
        if spawners._memory_parent is False:  # not at config load: only in the hub itself
            spawners._memory_parent = _memory_cgroup_parent(self.cgroup_root, self.self_cgroup)
        mib = f"{limit / 2**20:.0f} MiB"
        if spawners._memory_parent:
            version, parent = spawners._memory_parent
            group = parent / f"jupyterhub-{self.user.name}"
            try:
                group.mkdir(exist_ok=True)
                if version == "v2":
                    (group / "memory.max").write_text(str(limit))
                    if (group / "memory.swap.max").exists():  # and no escape into swap
                        (group / "memory.swap.max").write_text("0")
                else:
                    swap = group / "memory.memsw.limit_in_bytes"  # memory + swap, if accounted
                    if swap.exists():
                        swap.write_text("-1")  # (never below memory.limit_in_bytes)
                    (group / "memory.limit_in_bytes").write_text(str(limit))
                    if swap.exists():
                        swap.write_text(str(limit))
                self.log.info(
                    "%s's memory limit: %s for all their processes together (cgroup %s %s), "
                    "and %s per process (RLIMIT_DATA)", self.user.name, mib, version, group, mib
                )  # fmt: skip
                return group
            except OSError as error:
                self.log.warning("%s: no memory cgroup (%s)", self.user.name, error)
        self.log.info(
            "%s's memory limit: %s per process (RLIMIT_DATA) only: no writable memory cgroup, "
            "so a student's processes together may hold more", self.user.name, mib
        )  # fmt: skip
        return None

    def make_preexec_fn(self, name):
        become_user = super().make_preexec_fn(name)
        limit = int(self.mem_limit or 0)
        procs = None if self.memory_group is None else str(self.memory_group / "cgroup.procs")

        def preexec():  # runs in the new process, as root, before it becomes the student
            if procs:  # the server joins the student's cgroup: all it starts is counted there
                fd = os.open(procs, os.O_WRONLY)
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
            if limit:
                resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))  # hard: no way back up
            become_user()

        return preexec

    async def stop(self, now=False):
        group = self.memory_group or self._server_memory_group()
        await super().stop(now=now)
        if group is None:
            return
        for attempt in range(40):  # the server has ended; its kernels may take a moment more
            try:
                group.rmdir()
                self.log.info("%s's server stopped: removed %s", self.user.name, group)
                break
            except FileNotFoundError:
                break
            except OSError:  # busy: a process is still in it
                if attempt == 20:  # 10 s: what is left of the server's is ended
                    for pid in (group / "cgroup.procs").read_text().split():
                        try:
                            os.kill(int(pid), signal.SIGKILL)
                        except ProcessLookupError:
                            continue
                await asyncio.sleep(0.5)
        else:
            self.log.warning("%s: could not remove %s", self.user.name, group)

    def _server_memory_group(self) -> Path | None:
        """The student's cgroup, found from their server's process (a hub restarted from an
        older version of this file has none in its state)."""
        try:
            lines = Path(f"/proc/{self.pid}/cgroup").read_text().splitlines()
        except OSError:
            return None
        name = f"jupyterhub-{self.user.name}"
        for line in lines:
            _, controllers, path = line.split(":", 2)
            if path.endswith("/" + name) and (controllers == "" or "memory" in controllers):
                root = self.cgroup_root
                return (root / "memory" if controllers else _unified(root)) / path.lstrip("/")
        return None

    def get_state(self):
        state = super().get_state()
        if self.memory_group:
            state["memory_group"] = str(self.memory_group)
        return state

    def load_state(self, state):
        super().load_state(state)
        if state.get("memory_group"):
            self.memory_group = Path(state["memory_group"])
            self.log.debug("%s's memory cgroup: %s", self.user.name, self.memory_group)

    def clear_state(self):
        super().clear_state()
        self.memory_group = None


LAB_CONFIG = HERE.parent / "tools" / "lab_config"  # readable by every account (class_setup.py)
# The python3 kernel the chapters ask for, as the default one but with its oom_score_adj raised
# to 1000: in a full memory cgroup the OOM killer then takes a kernel, never the server.
HUB_KERNELS = HERE.parent / "tools" / "hub_kernels"


def _lab_config(spawner) -> str:
    """Each server's Jupyter config path. Everyone gets common/: no news toast, and a chapter
    opens unmodified (served with the language_info its kernel reports). Students get
    class_student/ first: none of nbgrader's instructor tools (Formgrader, Create Assignment,
    the course list), neither in the lab nor on their server, but the Assignments tab and its
    server extension (assignment_list), which Fetch, Submit and Fetch Feedback go through.
    Instructors keep all of nbgrader."""
    kinds = ["common"] if spawner.user.name in instructors else ["class_student", "common"]
    return os.pathsep.join(str(LAB_CONFIG / kind) for kind in kinds)


# Each student's Jupyter server runs as their own Unix user, from the course environment, so its
# `python3` kernel (the one the chapters ask for) imports microtorch; files land in their home,
# which only they can read (mode 0700, from tools/class_setup.py).
c.JupyterHub.spawner_class = CourseSpawner
c.Spawner.cmd = [str(ENV_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
# Kernels talk to their server over Unix sockets in the student's private runtime folder, not
# over loopback TCP ports: no other account can reach them, and twenty servers starting kernels
# at once cannot pick the same port (they did, in the test, over TCP).
c.Spawner.args = ["--KernelManager.transport=ipc"]
c.Spawner.ip = "127.0.0.1"
# PATH starts with the course environment, so a JupyterLab terminal finds nbgrader and python.
# JUPYTER_CONFIG_PATH, per user: the lab configuration of tools/lab_config/. JUPYTER_PATH: the
# python3 kernel of tools/hub_kernels/ comes first.
c.Spawner.environment = {
    "PATH": f"{ENV_BIN}:/usr/local/bin:/usr/bin:/bin",
    "JUPYTER_CONFIG_PATH": _lab_config,  # a callable: JupyterHub calls it for each server
    "JUPYTER_PATH": str(HUB_KERNELS),
}
# Seconds to start and to answer; a whole class logging in at once shares two cores.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
# Protects the other students: a student's processes together hold at most 1 GiB (their own
# memory cgroup), so a runaway cell or a pile of open kernels cannot push the machine into swap
# or into the OOM killer of the whole machine, which might kill anyone's process; past it the
# largest of that student's own processes is killed. One allocation past 1 GiB gets MemoryError
# instead, in that kernel alone, which carries on. A student's server and a chapter's kernel
# hold about 0.25 GiB together (docs/instructors.md).
c.Spawner.mem_limit = "1G"

# Protects the class from the absent: a server with no activity (no kernel running a cell, no
# browser tab talking to it) for an hour is stopped and its memory given back; the student's
# files stay, and logging in again starts a fresh server.
idle_timeout = int(os.environ.get("MICROTORCH_IDLE_TIMEOUT", "3600"))  # seconds
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={idle_timeout}"],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]

# Restarting the hub (a config change, an upgrade) leaves every student's server and kernel
# running; the new hub finds them again. To end the class, stop everything with the API (the
# admin panel's "Stop All", or POST /hub/api/shutdown with {"servers": true}).
c.JupyterHub.cleanup_servers = False
