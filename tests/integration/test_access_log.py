"""Issue 30: the personal calendar feed's secret (the last path part of
…/me/calendar/<secret>.ics) is masked in the access log formats we ship: gunicorn's
(config/gunicorn.py, used by the Dockerfile and docker-compose.yml) and the nginx example
of docs/operations.md."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Zq8v3KpW0mT5rX2bN7cL9dF4hJ6sA1eG"
PATHS = (f"/me/calendar/{SECRET}.ics", f"/depion/me/calendar/{SECRET}.ics?x=1")

# A WSGI application that answers 200 to anything: the log line is gunicorn's, not Django's.
APP = '''
def application(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_web_service_runs_gunicorn_with_the_shipped_config():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command = compose["services"]["web"]["command"]
    assert command[:3] == ["gunicorn", "-c", "config/gunicorn.py"]
    assert "--access-logfile" not in command  # the config file's, masked
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD"))
    assert '"gunicorn", "-c", "config/gunicorn.py"' in cmd


def test_a_logged_request_line_of_gunicorn_holds_no_calendar_secret(tmp_path):
    (tmp_path / "plainapp.py").write_text(APP)
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    log = tmp_path / "out.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(gunicorn), "-c", str(ROOT / "config" / "gunicorn.py"), "--bind",
             f"127.0.0.1:{port}", "--workers", "1", "--chdir", str(tmp_path), "plainapp"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT}:{tmp_path}"})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("gunicorn did not start: " + log.read_text())
                time.sleep(0.2)
        for path in PATHS:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                             headers={"Referer": f"https://ranglijst.example{path}"})
            assert urllib.request.urlopen(request, timeout=10).read() == b"ok"
        lines = []
        while time.monotonic() < deadline:
            lines = [line for line in log.read_text().splitlines() if "calendar" in line]
            if len(lines) == len(PATHS):
                break
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert len(lines) == len(PATHS), log.read_text()
    for line in lines:
        assert SECRET not in line
        assert '"GET ' in line and "/me/calendar/<hidden>.ics" in line and " 200 " in line


def _nginx_map() -> tuple[re.Pattern[str], str]:
    """The regex and replacement of the ``map`` in docs/operations.md's nginx example, in
    Python's spelling (``(?<name>`` is ``(?P<name>``, ``${name}`` is ``\\g<name>``)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    block = re.search(r"```nginx\n(.*?)```", text, re.S).group(1)
    assert "log_format ranglijst" in block and "$ranglijst_logged_uri" in block
    assert "access_log /var/log/nginx/ranglijst.access.log ranglijst;" in block
    entry = re.search(r'"~(.+?)" "(.+?)";', block)
    pattern = entry.group(1).replace("(?<", "(?P<").replace("\\\\", "\\")
    replacement = re.sub(r"\$\{(\w+)\}", r"\\g<\1>", entry.group(2))
    return re.compile(pattern), replacement


def test_the_nginx_example_logs_the_feed_without_its_secret():
    pattern, replacement = _nginx_map()
    for path in PATHS:
        logged = pattern.sub(replacement, path) if pattern.match(path) else path
        assert SECRET not in logged
        assert "/me/calendar/<hidden>.ics" in logged
    assert not pattern.match("/me/calendar/new/")  # a page without a secret: as it is
