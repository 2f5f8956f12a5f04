"""Settings for the test suite: the real ones, with fast hashing and eager tasks."""

import os
import tempfile
from urllib.parse import urlsplit

os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("DJANGO_SECURE_HTTPS", "0")
# The embedded broker, cache and beat files of a test run live apart from `make run`'s.
os.environ.setdefault("RANGLIJST_VAR_DIR", tempfile.mkdtemp(prefix="ranglijst-test-"))
# pytest-xdist workers (gw0, gw1, ...) each have their own test database (pytest-django
# appends the worker id to its name). They inherit the var/ directory of the process that
# started them: each takes its own below it, or their file caches would mix pages and
# versions. On Redis, worker gwK uses database number N+K of REDIS_URL's server (N: the
# URL's number), so one worker's cache.clear() (a FLUSHDB) never empties another's cache
# or broker queue; the environment is set too, for the subprocesses a test starts (once:
# a subprocess on these settings inherits the worker's values and keeps them).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER and os.environ.get("RANGLIJST_TEST_WORKER") != XDIST_WORKER:
    os.environ["RANGLIJST_TEST_WORKER"] = XDIST_WORKER
    os.environ["RANGLIJST_VAR_DIR"] = os.path.join(os.environ["RANGLIJST_VAR_DIR"], XDIST_WORKER)
    if os.environ.get("REDIS_URL"):
        _redis = urlsplit(os.environ["REDIS_URL"])
        _db = int(_redis.path.strip("/") or 0) + int(XDIST_WORKER.removeprefix("gw"))
        os.environ["REDIS_URL"] = _redis._replace(path=f"/{_db}").geturl()

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"  # noqa: F405
# Tests read the English source strings; the Dutch default is tested explicitly
# (tests/integration/test_language_default.py, tests/e2e/test_language.py).
LANGUAGE_CODE = "en"
STATIC_ROOT = VAR_DIR / "static"  # noqa: F405
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Tests read fresh pages; tests/integration/test_page_cache.py turns the cache on.
PAGE_CACHE_SECONDS = 0
# The club memo lives as long as the process (members/clubs/memo.py): a query count never
# depends on whether 30 seconds have passed; the signals still forget a changed club.
CLUB_MEMO_SECONDS = 0
# The read API's rate limit is tested on its own (test_api.py); the suite reads freely.
API_RATE_LIMIT = "100000/m/ip"
PAGE_STALE_SECONDS = 0
# Parallel runs (pytest-xdist): each worker its own file cache, since a test that clears
# the cache would otherwise empty the pages another worker's test is counting on.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and CACHES["default"]["BACKEND"].endswith("FileBasedCache"):  # noqa: F405
    for _alias in ("default", "pages"):
        CACHES[_alias]["LOCATION"] = str(VAR_DIR / f"cache-{_WORKER}" / _alias)  # noqa: F405
