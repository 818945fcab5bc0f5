"""The system side of a class on one server, for docs/jupyterhub_class_config.py. Run as root.

    python3 tools/class_setup.py docs/students.txt --instructor instructor > passwords.txt
    python3 tools/class_setup.py --remove docs/students.txt --instructor instructor

- One Unix account per student on the roster (one name per line) and per instructor, created
  with a random password unless it already exists; each new account's ``name password`` is
  printed, for you to hand out (existing accounts keep theirs). Every listed home is made
  private to its owner (mode 0700).
- nbgrader's exchange, /srv/nbgrader/exchange, writable by every account (mode 1777), and
  docs/nbgrader_exchange_config.py as /etc/jupyter/nbgrader_config.py, so every student's
  server finds the course.
- /srv/jupyterhub (mode 0700) for the hub's database and cookie secret.

It first checks that every account can reach the repository's .venv, which each student's
server runs from, and its tools/lab_config/, which each server reads, and stops if not.

Running it again changes nothing that is already right. ``--remove`` deletes the accounts it
created (marked "microtorch course"), with their homes, the course's exchange folder and that
nbgrader config: the end of the semester. Standard library only (Linux: useradd, chpasswd).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import pwd
import secrets
import shutil
import stat
import subprocess
import sys
from pathlib import Path

MARK = "microtorch course"  # the accounts' comment (GECOS): what --remove may delete
COURSE = "microtorch"  # c.CourseDirectory.course_id in docs/nbgrader_exchange_config.py
EXCHANGE = Path("/srv/nbgrader/exchange")
NBGRADER_CONFIG = Path("/etc/jupyter/nbgrader_config.py")
HUB_STATE = Path("/srv/jupyterhub")
REPOSITORY = Path(__file__).resolve().parents[1]
SHIPPED_CONFIG = REPOSITORY / "docs" / "nbgrader_exchange_config.py"
# what docs/jupyterhub_class_config.py runs every server from (the hub's own environment); the
# class hub test names the one it runs in, which a second git worktree of the repository lacks
COURSE_ENV = Path(os.environ.get("MICROTORCH_COURSE_ENV", REPOSITORY / ".venv"))
LAB_CONFIG = REPOSITORY / "tools" / "lab_config"  # every server's Jupyter config (the hub's)


def account(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def create(name: str) -> str:
    """Make the account ``name`` with a home of its own; returns its new random password."""
    subprocess.run(
        ["useradd", "--create-home", "--shell", "/bin/bash", "--comment", MARK, name], check=True
    )
    password = secrets.token_urlsafe(12)  # letters, digits, - and _: never chpasswd's ":"
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
    return password


def unreachable(course_env: Path) -> list[Path]:
    """The folders on the way to the course environment, to the Python it was made from and to
    tools/lab_config/ and tools/hub_kernels/ that other accounts cannot enter: their servers
    could not start."""
    real = [
        course_env.resolve(),
        (course_env / "bin" / "python").resolve(),
        (LAB_CONFIG / "common" / "jupyter_server_config.py").resolve(),
        (REPOSITORY / "tools" / "hub_kernels" / "kernels" / "python3" / "kernel.json").resolve(),
    ]
    folders = {parent for path in real for parent in path.parents}
    return sorted(f for f in folders if not f.stat().st_mode & stat.S_IXOTH)


def set_up(names: list[str]) -> None:
    closed = unreachable(COURSE_ENV)
    if closed:
        sys.exit(
            f"students' servers run {COURSE_ENV}/bin/python and read {LAB_CONFIG}, which "
            "other accounts cannot reach "
            f"through {', '.join(map(str, closed))}: clone the repository to a shared place such "
            "as /opt/microtorch and make its .venv from a Python outside /root"
        )
    for name in names:
        if account(name) is None:
            print(name, create(name), flush=True)
        Path(account(name).pw_dir).chmod(0o700)  # type: ignore[union-attr]
    EXCHANGE.mkdir(parents=True, exist_ok=True)
    EXCHANGE.chmod(0o777 | stat.S_ISVTX)
    NBGRADER_CONFIG.parent.mkdir(parents=True, exist_ok=True)
    if NBGRADER_CONFIG.exists() and not filecmp.cmp(NBGRADER_CONFIG, SHIPPED_CONFIG, shallow=False):
        sys.exit(f"{NBGRADER_CONFIG} exists with other settings: merge {SHIPPED_CONFIG} into it")
    shutil.copyfile(SHIPPED_CONFIG, NBGRADER_CONFIG)
    NBGRADER_CONFIG.chmod(0o644)
    HUB_STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
    HUB_STATE.chmod(0o700)


def remove(names: list[str]) -> None:
    for name in names:
        user = account(name)
        if user is not None and user.pw_gecos.split(",")[0] == MARK:
            subprocess.run(["userdel", "--remove", name], check=True, stderr=subprocess.DEVNULL)
    shutil.rmtree(EXCHANGE / COURSE, ignore_errors=True)
    if NBGRADER_CONFIG.exists() and filecmp.cmp(NBGRADER_CONFIG, SHIPPED_CONFIG, shallow=False):
        NBGRADER_CONFIG.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("roster", type=Path, help="the students' user names, one per line")
    parser.add_argument("--instructor", action="append", default=[], help="repeat for several")
    parser.add_argument("--remove", action="store_true", help="delete what this made")
    args = parser.parse_args()
    names = args.roster.read_text(encoding="utf-8").split() + args.instructor
    (remove if args.remove else set_up)(names)


if __name__ == "__main__":
    main()
