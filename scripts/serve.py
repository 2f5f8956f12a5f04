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


def main() -> int:
    port = os.environ.get("PORT", "8000")
    os.environ.setdefault("DJANGO_DEBUG", "1")
    commands = {
        "worker": [str(BIN / "celery"), "-A", "config", "worker", "--pool=solo", "-l", "info",
                   "-Q", "celery,mail"],
        "beat": [
            str(BIN / "celery"), "-A", "config", "beat", "-l", "info",
            "-s", str(ROOT / "var" / "celerybeat-schedule"),
        ],
        "web": [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
    }
    procs = {name: subprocess.Popen(cmd, cwd=ROOT) for name, cmd in commands.items()}
    print(
        f"\nRanglijst runs at http://127.0.0.1:{port}/ (worker and beat started too).\n"
        "Demo accounts (password 'schaken123'):\n"
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
