"""Page timings under load: /standings/ of a 100-player, 40-evening club on PostgreSQL.

Builds a throwaway database (``ranglijst_bench``) on the local PostgreSQL, migrates it,
imports a generated season (``tests.generate.random_season`` through
``manage.py import_season``), serves it with gunicorn on 127.0.0.1 (production settings:
DEBUG off, manifest static files) and puts 20 concurrent clients on each page for ~10 s.
Prints the median and 95th-percentile latency and the requests per second; asserts
nothing. Stops gunicorn and drops the database afterwards, also on failure.

The load comes from wrk when it is installed (``apt-get install -y wrk``), else from a
small thread-pool client here. Nothing is installed and no traffic leaves 127.0.0.1.

Run: .venv/bin/python bench/bench_pages.py   (also part of ``make bench``)
Environment: BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres, the
server to create the database on), BENCH_SECONDS (10), BENCH_CLIENTS (20), BENCH_WORKERS (4),
BENCH_LOAD=python (use the thread-pool client even where wrk is installed).
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from competition.season.engine.seasonfile import dump_season  # noqa: E402
from tests.generate import random_season  # noqa: E402

PLAYERS, EVENINGS, SEED, SYSTEM = 100, 40, 2026, "pion"
DATABASE = "ranglijst_bench"
ADMIN_URL = os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "20"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
PATHS = ["/standings/", "/standings/?all=1"]
PYTHON = sys.executable

# wrk reports 50/75/90/99; this prints the 95th too (microseconds).
WRK_REPORT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95),
    e.connect + e.read + e.write + e.timeout + e.status))
end
"""

# Production settings, with the collected static files in the temporary folder.
SETTINGS = """from config.settings import *  # noqa
STATIC_ROOT = {static!r}
"""


def played_a_year_ago(season: dict) -> dict:
    """The generated season moved back 52 weeks, so that every evening of it has been
    played (an import refuses games on evenings still to come)."""
    for evening in season["evenings"]:
        day = dt.date.fromisoformat(evening["date"]) - dt.timedelta(weeks=52)
        evening["date"] = day.isoformat()
    return season


def admin_connection():
    import psycopg

    return psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)


def database_url() -> str:
    parts = urlsplit(ADMIN_URL)
    return parts._replace(path=f"/{DATABASE}").geturl()


def recreate_database() -> None:
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')


def drop_database() -> None:
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PYTHON, str(ROOT / "manage.py"), *args], env=env, cwd=ROOT,
        capture_output=True, text=True,
    )
    if done.returncode:
        raise SystemExit(f"manage.py {args[0]} failed:\n{done.stdout}{done.stderr}")
    return done.stdout.strip()


# A session cookie makes a request bypass the visitors' page cache, as a signed-in
# member's would: those rows measure the full work of a page.
UNCACHED = {"Cookie": "sessionid=bench-uncached"}


def get(port: int, path: str, timeout: float = 10,
        headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def wait_until_up(port: int, server: subprocess.Popen, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited during start-up (its log is above).")
        try:
            status, body = get(port, "/standings/", timeout=2)
        except OSError:
            time.sleep(0.2)
            continue
        if status != 200:
            raise SystemExit(f"/standings/ answered {status}:\n{body[:2000].decode(errors='replace')}")
        return
    raise SystemExit(f"gunicorn did not answer within {limit:.0f} s.")


def load_with_wrk(wrk: str, port: int, path: str, folder: Path,
                  headers: dict[str, str] | None = None) -> dict[str, float]:
    script = folder / "report.lua"
    script.write_text(WRK_REPORT)
    extra = [arg for k, v in (headers or {}).items() for arg in ("-H", f"{k}: {v}")]
    out = subprocess.run(
        [wrk, f"-t{min(CLIENTS, 4)}", f"-c{CLIENTS}", f"-d{SECONDS:g}s", "--timeout", "10s",
         *extra, "-s", str(script), f"http://127.0.0.1:{port}{path}"],
        capture_output=True, text=True, check=True,
    ).stdout
    match = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+)", out)
    if not match:
        raise SystemExit(f"Could not read wrk's report:\n{out}")
    requests, duration_us, p50, p95, errors = map(int, match.groups())
    return {
        "requests": requests, "errors": errors, "median_ms": p50 / 1000, "p95_ms": p95 / 1000,
        "rps": requests / (duration_us / 1e6),
    }


def load_with_threads(port: int, path: str,
                      headers: dict[str, str] | None = None) -> dict[str, float]:
    """CLIENTS threads, each requesting one page after another for SECONDS."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + SECONDS

    def client() -> None:
        mine, failed = [], 0
        while time.monotonic() < stop:
            start = time.perf_counter()
            try:
                status, _ = get(port, path, headers=headers)
            except OSError:
                failed += 1
                continue
            mine.append(time.perf_counter() - start)
            failed += status != 200
        with lock:
            latencies.extend(mine)
            errors[0] += failed

    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    ordered = sorted(latencies)
    return {
        "requests": len(ordered), "errors": errors[0],
        "median_ms": statistics.median(ordered) * 1000 if ordered else float("nan"),
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1000 if ordered else float("nan"),
        "rps": len(ordered) / elapsed,
    }


def stop_server(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    server.send_signal(signal.SIGTERM)  # gunicorn: graceful stop of the workers
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def main() -> int:
    try:
        recreate_database()
    except Exception as exc:  # no server, no rights: say so, do not break `make bench`
        print(f"SKIPPED: PostgreSQL at {ADMIN_URL} is not usable ({exc.__class__.__name__}: "
              f"{str(exc).strip()}). Set BENCH_POSTGRES_URL.")
        return 0
    folder = Path(tempfile.mkdtemp(prefix="ranglijst-bench-"))
    server = None
    try:
        (folder / "bench_settings.py").write_text(SETTINGS.format(static=str(folder / "static")))
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "bench_settings",
            "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)]),
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "bench-only-" + os.urandom(16).hex(),
            "DJANGO_SECURE_HTTPS": "0",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "RANGLIJST_VAR_DIR": str(folder / "var"),  # cache and broker files
            "CELERY_TASK_ALWAYS_EAGER": "1",  # work the import schedules runs in-process
            "LOG_LEVEL": "WARNING",
        }
        env.pop("REDIS_URL", None)  # never touch a shared Redis

        started = time.perf_counter()
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        season_file = folder / "season.json"
        season = random_season(SEED, players=PLAYERS, evenings=EVENINGS, system=SYSTEM)
        season_file.write_text(json.dumps(played_a_year_ago(dump_season(season))))
        print(manage(env, "import_season", str(season_file), "--name", "bench-2026-2027"))
        print(f"set-up (migrate, static files, import): {time.perf_counter() - started:.1f} s")
        cpu = subprocess.run([PYTHON, str(ROOT / "bench" / "member_cpu.py")], env=env, cwd=folder,
                             capture_output=True, text=True)
        print(cpu.stdout.strip() or cpu.stderr.strip()[-2000:])

        port = free_port()
        server = subprocess.Popen(
            [str(Path(PYTHON).with_name("gunicorn")), "config.wsgi", "--bind",
             f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"],
            env=env, cwd=folder,
        )
        wait_until_up(port, server)
        wrk = None if os.environ.get("BENCH_LOAD") == "python" else shutil.which("wrk")
        if wrk is None and os.environ.get("BENCH_LOAD") != "python":
            print("wrk is not installed (apt-get install -y wrk); using the Python thread-pool "
                  "client, whose own overhead makes the figures somewhat worse.")
        print(f"gunicorn: {WORKERS} sync workers on 127.0.0.1:{port}; "
              f"{CLIENTS} concurrent clients, {SECONDS:g} s per page, load by "
              f"{'wrk' if wrk else 'Python threads'}")
        print(f"{'page':22} {'who':9} {'requests':>9} {'errors':>7} {'median ms':>10} "
              f"{'p95 ms':>8} {'req/s':>8}")
        for path in PATHS:
            for who, headers in (("visitor", None), ("uncached", UNCACHED)):
                for _ in range(20):  # warm up every worker's connection and imports
                    get(port, path, headers=headers)
                r = (load_with_wrk(wrk, port, path, folder, headers) if wrk
                     else load_with_threads(port, path, headers))
                print(f"{path:22} {who:9} {r['requests']:9d} {r['errors']:7d} "
                      f"{r['median_ms']:10.1f} {r['p95_ms']:8.1f} {r['rps']:8.1f}")
    finally:
        if server is not None:
            stop_server(server)
        drop_database()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
