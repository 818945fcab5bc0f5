"""The real-class hub's settings, and Zero to JupyterHub's values kept in step with them.

tests/course/test_class_hub.py runs docs/jupyterhub_class_config.py with a class; this reads the
settings it tested and checks that docs/z2jh-values.yaml, the configuration for a class that
outgrows one server, carries the same ones where Kubernetes has them.
"""

from __future__ import annotations

import re

import pytest
import yaml

from .conftest import ROOT

pytest.importorskip("jupyterhub")
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
