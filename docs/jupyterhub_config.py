"""JupyterHub for a microtorch class, on one machine: docs/instructors.md explains each line.

    .venv/bin/jupyterhub -f docs/jupyterhub_config.py    # after `make venv hub-proxy`

TRY-IT-OUT ONLY: this is the setup to try the course out on your own machine, and the one
tests/course/test_jupyterhub.py runs (five students, chapter 04 each): the hub listens on
127.0.0.1 only, students are the names in ``docs/students.txt`` (or the file named by
MICROTORCH_ROSTER), and the dummy authenticator lets them in with any password. For a real
class, use docs/jupyterhub_class_config.py (tested with twenty students), which settles the
two lines marked REAL CLASS, behind an HTTPS reverse proxy.
"""

import os
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub defines get_config when it reads this file)
HERE = Path(__file__).resolve().parent
ENV_BIN = Path(sys.executable).parent  # the course environment: the .venv that runs the hub

# Loopback only; your reverse proxy (nginx, Caddy) forwards https://... to this port.
c.JupyterHub.bind_url = "http://127.0.0.1:8000"
c.JupyterHub.hub_ip = "127.0.0.1"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:8001"
# The proxy from npm, installed into the repository by `make hub-proxy` (or one on PATH).
local_proxy = HERE.parent / "tools/hub-proxy/node_modules/.bin/configurable-http-proxy"
if local_proxy.exists():
    c.ConfigurableHTTPProxy.command = [str(local_proxy)]

# Who may log in: one name per line. REAL CLASS: an authenticator with real passwords, e.g.
# "nativeauthenticator" (students sign up, you approve) or OAuthenticator (GitHub, your LMS).
c.JupyterHub.authenticator_class = "dummy"  # any password: for trying it out only
roster = Path(os.environ.get("MICROTORCH_ROSTER", HERE / "students.txt"))
c.Authenticator.allowed_users = set(roster.read_text(encoding="utf-8").split())
c.Authenticator.admin_users = {"instructor"}

# Every student gets a Jupyter server of their own, started from the course environment, so
# its default kernel, python3 (the kernel the chapters ask for), imports microtorch.
# REAL CLASS: "jupyterhub.spawner.LocalProcessSpawner" with a Unix account per student (or
# "systemdspawner" / "dockerspawner" to cap each one's memory); "simple" runs every server as
# the hub's own user with a home under /tmp, which isolates nobody.
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = os.environ.get(
    "MICROTORCH_HUB_HOMES", "/tmp/microtorch-hub/{username}"
)
c.Spawner.cmd = [str(ENV_BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.ip = "127.0.0.1"
c.Spawner.start_timeout = 120  # seconds; thirty students logging in at once share two cores
# and the same for the server to answer once started (JupyterHub's default, 30 s, is too short
# when several labs load their extensions at once on two cores: the hub then gives up on them)
c.Spawner.http_timeout = 120
if os.geteuid() == 0:  # a container running as root: Jupyter refuses root without this
    c.Spawner.args = ["--allow-root"]


def _lab_config(spawner):  # JupyterHub calls it with the Spawner
    """Students get the students' lab (no nbgrader instructor tools; Validate stays), admins
    all of nbgrader; nobody the news toast. The same folders `make lab` / `make lab-key` use."""
    lab_config = HERE.parent / "tools" / "lab_config"
    kinds = ["common"] if spawner.user.admin else ["student", "common"]
    return os.pathsep.join(str(lab_config / kind) for kind in kinds)


c.Spawner.environment = {"JUPYTER_CONFIG_PATH": _lab_config}  # a callable: per user

# Idle servers are stopped by the jupyterhub-idle-culler service (pip install
# jupyterhub-idle-culler) to give their memory back; see docs/instructors.md.
c.JupyterHub.cleanup_servers = True  # stopping the hub stops the students' servers too
