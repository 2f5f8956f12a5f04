"""The shipping files: docker-compose.yml, the Dockerfile, .env.example, the lock files.

`docker compose config` needs a Docker engine; these tests read the same files as data and
check what docs/operations.md promises of them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")
INTERPOLATION = re.compile(r"^\$\{[A-Z_]+(:?[-?][^}]*)?\}$")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def strings(node, key: str = ""):
    """Every (key, string) in a YAML tree; a list's strings carry the list's key."""
    if isinstance(node, dict):
        for k, value in node.items():
            yield from strings(value, str(k))
    elif isinstance(node, list):
        for value in node:
            yield from strings(value, key)
    elif isinstance(node, str):
        yield key, node


def test_services_come_in_the_agreed_order(compose):
    assert list(compose["services"]) == [
        "postgres", "cache", "broker", "migrate", "web", "worker", "beat"]


def test_migrate_runs_once_and_the_app_waits_for_it(compose):
    services = compose["services"]
    migrate = services["migrate"]
    assert "manage.py migrate --noinput && python manage.py database_app_role ranglijst_app" in (
        " ".join(migrate["command"]))
    assert migrate["restart"] == "no"
    assert migrate["depends_on"]["postgres"] == {"condition": "service_healthy"}
    for name in APP_SERVICES:
        service = services[name]
        assert service["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }, name
        assert service["depends_on"]["postgres"] == {"condition": "service_healthy"}, name
        for redis in ("cache", "broker"):  # the page cache and the Celery queue, apart
            assert service["depends_on"][redis] == {"condition": "service_healthy"}, name
        # Only the one-shot service migrates: two processes migrating at once would race.
        assert "migrate" not in " ".join(service["command"]), name


def test_the_app_connects_as_a_role_that_owns_no_table_and_only_migrate_as_the_owner(compose):
    """Row-level security binds every role but the tables' owner (members/clubs/rls.py)."""
    services = compose["services"]
    for name in APP_SERVICES:
        assert services[name]["environment"]["DATABASE_URL"].startswith(
            "postgres://ranglijst_app:${APP_DB_PASSWORD"), name
    assert services["migrate"]["environment"]["DATABASE_URL"].startswith(
        "postgres://${POSTGRES_USER:-ranglijst}:${POSTGRES_PASSWORD")


def test_web_and_worker_have_healthchecks_on_themselves(compose):
    services = compose["services"]
    web = services["web"]["healthcheck"]["test"]
    assert web == ["CMD", "python", "scripts/healthcheck.py"]
    assert (ROOT / "scripts" / "healthcheck.py").is_file()
    worker = services["worker"]
    assert worker["command"][-2:] == ["-n", "worker@%h"]
    # It consumes the e-mail queue too (CELERY_TASK_ROUTES send every e-mail task there).
    assert worker["command"][worker["command"].index("-Q") + 1] == "standings,celery,mail"
    probe = worker["healthcheck"]["test"]
    assert probe[0] == "CMD-SHELL"
    # $$ is compose's escape: the shell in the container sees $HOSTNAME, its own name.
    assert "celery -A config inspect ping -d worker@$${HOSTNAME}" in probe[1]


def test_only_the_web_port_is_published_and_on_the_loopback_only(compose):
    services = compose["services"]
    assert [name for name, s in services.items() if "ports" in s] == ["web"]
    (port,) = services["web"]["ports"]
    assert port.startswith("127.0.0.1:") and port.endswith(":8000")


def test_the_compose_file_holds_no_password(compose):
    found = list(strings(compose))
    assert found
    for key, value in found:
        if "PASSWORD" in key.upper() or "SECRET" in key.upper():
            assert INTERPOLATION.match(value), f"{key}: {value!r} is a literal"
        for _user, password in re.findall(r"://([^:/@\s]+):([^@\s]+)@", value):
            assert INTERPOLATION.match(password), f"{value!r} has a password literal"
    text = (ROOT / "docker-compose.yml").read_text()
    assert "DJANGO_SECRET_KEY" not in text  # from .env only


def test_env_example_and_the_operations_doc_name_every_variable(compose):
    example = (ROOT / ".env.example").read_text()
    documented = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)\s*[= ]", example, re.M))
    text = (ROOT / "docker-compose.yml").read_text()
    in_compose = set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", text)) - {"HOSTNAME"}
    settings = (ROOT / "config" / "settings.py").read_text()
    in_settings = set(re.findall(r"""env\.\w+\(\s*["']([A-Z][A-Z0-9_]+)""", settings))
    in_settings |= set(re.findall(r"""environ\.get\(\s*["']([A-Z][A-Z0-9_]+)""", settings))
    assert {"POSTGRES_PASSWORD", "DATABASE_URL", "DJANGO_SECRET_KEY"} <= in_compose | in_settings
    assert sorted((in_compose | in_settings) - documented) == []
    operations = (ROOT / "docs" / "operations.md").read_text()
    assert sorted(v for v in in_compose | in_settings if f"`{v}`" not in operations) == []


def test_env_files_stay_out_of_git_and_of_the_image():
    assert ".env" in (ROOT / ".gitignore").read_text().split()
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored


def test_the_image_installs_the_locked_dependencies_before_copying_the_code():
    steps = [
        line.split(None, 1) for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line and not line.startswith((" ", "#"))
    ]
    copy_lock = steps.index(["COPY", "requirements.lock ./"])
    install = next(i for i, (op, arg) in enumerate(steps)
                   if op == "RUN" and "-r requirements.lock" in arg)
    copy_all = steps.index(["COPY", ". ."])
    assert copy_lock < install < copy_all
    assert "--require-hashes" in steps[install][1]
    # The code's own install adds nothing unlocked.
    assert "pip install --no-deps ." in steps[copy_all + 1][1]


def test_the_image_runs_from_a_second_stage_without_build_tools():
    text = (ROOT / "Dockerfile").read_text()
    stages = [line for line in text.splitlines() if line.startswith("FROM ")]
    assert stages == ["FROM python:3.11-slim AS build", "FROM python:3.11-slim"]
    run_stage = text.split("\n" + stages[1] + "\n", 1)[1]
    assert "COPY --from=build /opt/venv /opt/venv" in run_stage
    assert "pip install" not in run_stage and "apt-get" not in text  # the .mo files are committed
    assert "USER ranglijst" in run_stage


def _pins(path: Path) -> dict[str, str]:
    """Package (with its marker) -> version, from a pip-compile style lock file."""
    found = re.findall(r"^([A-Za-z0-9._-]+)==([^\s;\\]+)(\s*;[^\\]*)?", path.read_text(), re.M)
    return {f"{name.lower()}{(marker or '').strip()}": version
            for name, version, marker in found}


def test_lock_files_pin_everything_with_hashes_at_the_same_versions():
    production, dev = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-dev.lock")
    assert "django" in production and "gunicorn" in production
    assert "pytest" not in production and "pytest" in dev  # tools stay out of the image
    assert {p: v for p, v in dev.items() if p in production} == production
    assert not any(name.startswith("sqlalchemy") for name in dev)
    for path in (ROOT / "requirements.lock", ROOT / "requirements-dev.lock"):
        text = path.read_text()
        blocks = re.split(r"\n(?=[A-Za-z])", text.split("\n", 2)[2])
        unhashed = [b.split()[0] for b in blocks if b.strip() and "--hash=" not in b]
        assert unhashed == [], f"{path.name}: no hash for {unhashed}"


def test_declared_dependencies_are_in_the_locks():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = lambda reqs: {re.split(r"[<>=\[ ;]", r, maxsplit=1)[0].lower() for r in reqs}  # noqa: E731
    runtime, dev = names(project["dependencies"]), names(project["optional-dependencies"]["dev"])
    assert {"numpy", "icalendar"} <= runtime and "sqlalchemy" not in runtime
    assert {"pytest", "pytest-xdist", "import-linter", "django-stubs"} <= dev
    production = {p.split(";")[0] for p in _pins(ROOT / "requirements.lock")}
    everything = {p.split(";")[0] for p in _pins(ROOT / "requirements-dev.lock")}
    normal = lambda n: n.replace("_", "-")  # noqa: E731
    assert sorted(normal(n) for n in runtime - production) == []
    assert sorted(normal(n) for n in dev - everything) == []


def _worker_settings(worker: str, **env: str) -> list[str]:
    code = (
        "import os; from django.conf import settings as s; "
        "print(s.VAR_DIR, s.REDIS_URL or '-', os.environ.get('REDIS_URL', '-'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"DJANGO_SETTINGS_MODULE": "config.test_settings", "PATH": "/usr/bin:/bin",
             "PYTEST_XDIST_WORKER": worker, **env},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-3:]


def test_each_xdist_worker_has_its_own_var_directory_and_redis_database(tmp_path):
    """Workers inherit the var/ directory of the process that started them; sharing it, or
    one Redis database (a test's cache.clear() flushes it), would mix their cached pages,
    version counters and broker queues. Subprocesses a test starts inherit the same."""
    inherited = {"RANGLIJST_VAR_DIR": str(tmp_path)}
    assert _worker_settings("gw0", **inherited) == [str(tmp_path / "gw0"), "-", "-"]
    assert _worker_settings("gw1", **inherited)[0] == str(tmp_path / "gw1")
    redis = {**inherited, "REDIS_URL": "redis://127.0.0.1:6379/4"}
    assert _worker_settings("gw0", **redis)[1:] == ["redis://127.0.0.1:6379/4"] * 2
    assert _worker_settings("gw3", **redis)[1:] == ["redis://127.0.0.1:6379/7"] * 2
    assert _worker_settings("gw1", REDIS_URL="redis://127.0.0.1:6379")[1:] == [
        "redis://127.0.0.1:6379/1"] * 2
    # A subprocess of a test on gw3 (same settings, the worker's environment) stays there.
    inside = {"RANGLIJST_VAR_DIR": str(tmp_path / "gw3"), "REDIS_URL": "redis://127.0.0.1:6379/7",
              "RANGLIJST_TEST_WORKER": "gw3"}
    assert _worker_settings("gw3", **inside) == [str(tmp_path / "gw3")] + [
        "redis://127.0.0.1:6379/7"] * 2
