"""JupyterHub for a real microtorch class on one server: docs/instructors.md ("A real class on
one server") sets it up step by step.

    .venv/bin/jupyterhub -f docs/jupyterhub_class_config.py    # as root, after tools/class_setup.py

Unlike docs/jupyterhub_config.py (the try-it-out hub), students log in with their own Unix
account's password (PAM), each server runs as that student's Unix user in a home only they can
read, each process of a student's is capped in memory, idle servers are stopped, and a hub
restart leaves the class running. tests/course/test_class_hub.py runs this file as shipped,
changing only the ports and where the hub keeps its state.
"""

import os
import pwd
import resource
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


class CourseSpawner(LocalProcessSpawner):
    """LocalProcessSpawner, which ignores ``mem_limit``, applying it to each of the student's
    processes (the server, every kernel and terminal) as their RLIMIT_DATA: an allocation past
    it fails with MemoryError in that process alone. Each student's server listens on a port of
    their own, 20000 + (uid mod 10000)."""

    async def start(self):
        # Not a random free port: under a class's load a server takes seconds to bind it, and
        # meanwhile any process asking Linux for a port (a kernel, another server) may get it.
        # Below Linux's range for those (32768-60999), one port per uid cannot be taken.
        self.port = 20000 + pwd.getpwnam(self.user.name).pw_uid % 10000
        return await super().start()

    def make_preexec_fn(self, name):
        become_user = super().make_preexec_fn(name)
        limit = int(self.mem_limit or 0)

        def preexec():  # runs in the new process, as root, before it becomes the student
            if limit:
                resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))  # hard: no way back up
            become_user()

        return preexec


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
c.Spawner.environment = {"PATH": f"{ENV_BIN}:/usr/local/bin:/usr/bin:/bin"}
# Seconds to start and to answer; a whole class logging in at once shares two cores.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
# Protects the other students: a runaway cell (a huge tensor, an endless list) gets MemoryError
# at 1 GiB instead of pushing the machine into swap or the kernel's OOM killer, which might kill
# anyone's process. A chapter's kernel needs about 0.5 GiB of it (docs/instructors.md).
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
