"""The deployment keeps the cache bounded and the broker apart from it (issue 12, finding
3): the cache Redis has a memory limit with LRU eviction, the broker its own instance that
never evicts, and the settings read them from separate variables."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _service(compose: str, name: str) -> str:
    match = re.search(rf"^  {name}:\n((?:    .*\n|\n)+?)(?=^  \S|\Z)", compose, re.M)
    assert match, f"service {name} missing"
    return match.group(1)


def test_compose_bounds_the_cache_and_keeps_the_broker_apart():
    compose = (ROOT / "docker-compose.yml").read_text()
    cache = _service(compose, "cache")
    broker = _service(compose, "broker")
    assert '"--maxmemory", "64mb"' in cache and '"allkeys-lru"' in cache
    assert "noeviction" in broker and "maxmemory " not in broker
    assert "REDIS_URL: redis://cache:6379/0" in compose
    assert "CELERY_BROKER_URL: redis://broker:6379/0" in compose


def test_settings_take_the_broker_from_its_own_variable():
    code = ("import django; django.setup(); from django.conf import settings as s; "
            "print(s.CACHES['pages']['LOCATION'], s.CACHES['default']['LOCATION'], s.CELERY_BROKER_URL)")
    with tempfile.TemporaryDirectory() as var_dir:
        env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings",
               "DJANGO_DEBUG": "1", "RANGLIJST_VAR_DIR": var_dir,
               "REDIS_URL": "redis://cache:6379/0", "CELERY_BROKER_URL": "redis://broker:6379/0"}
        done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    # Pages on the cache's Redis (it may evict); the rate limits ("default") and the broker
    # on the broker's, which never evicts (docs/operations.md).
    assert done.stdout.split() == ["redis://cache:6379/0", "redis://broker:6379/0",
                                   "redis://broker:6379/0"]
