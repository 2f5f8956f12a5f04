"""Serve the site with its Celery worker and beat scheduler; Ctrl-C stops all three.

Used by `make run`: the web process (Django's server), one worker and the beat scheduler
share the embedded SQLite database and the filesystem broker in var/ (or PostgreSQL and
Redis when DATABASE_URL and REDIS_URL are set).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


# The demo has three clubs: each at its own address (/<slug>/), the list of clubs at "/"
# (an installation of one club may keep it at "/": RANGLIJST_SINGLE_CLUB=1).
DEFAULTS = {"DJANGO_DEBUG": "1", "RANGLIJST_SINGLE_CLUB": "0"}
DEMO_CLUBS = ("schaakclub-de-pion", "de-ladder", "keizer-klassiek")


def environment(env: dict[str, str]) -> dict[str, str]:
    """The environment of the three processes: the defaults above, and the address the web
    process serves at (``PORT``) as the site's address (``SITE_URL``), so that the e-mails
    the worker writes link to the port the site is at, not to a fixed one."""
    port = env.get("PORT", "8000")
    return {**DEFAULTS, "SITE_URL": f"http://127.0.0.1:{port}", **env, "PORT": port}


def main() -> int:
    os.environ.update(environment(dict(os.environ)))
    port = os.environ["PORT"]
    commands = {
        "worker": [str(BIN / "celery"), "-A", "config", "worker", "--pool=solo", "-l", "info",
                   "-Q", "standings,celery,mail"],
        "beat": [
            str(BIN / "celery"), "-A", "config", "beat", "-l", "info",
            "-s", str(ROOT / "var" / "celerybeat-schedule"),
        ],
        "web": [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
    }
    procs = {name: subprocess.Popen(cmd, cwd=ROOT) for name, cmd in commands.items()}
    print(
        f"\nRanglijst runs at http://127.0.0.1:{port}/ (worker and beat started too).\n"
        + "".join(f"  http://127.0.0.1:{port}/{slug}/\n" for slug in DEMO_CLUBS)
        + "Demo accounts (password 'schaken123'; the README lists those of the other clubs):\n"
        "  leider@demo.club        competition leader\n"
        "  arbiter@demo.club       arbiter\n"
        "  beheer@demo.club        administrator (also /admin/)\n"
        "  speler1@demo.club ...   players (speler1 to speler30)\n"
        "Ctrl-C stops everything.\n",
        flush=True,
    )
    code = 0
    try:
        while True:
            for name, proc in procs.items():
                if proc.poll() is not None:
                    print(f"{name} stopped with exit code {proc.returncode}", file=sys.stderr)
                    code = proc.returncode or 1
                    raise KeyboardInterrupt
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return code


if __name__ == "__main__":
    sys.exit(main())
