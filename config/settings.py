"""Settings, read from the environment (12-factor).

Without any environment the site runs on embedded defaults: SQLite in ``var/`` (WAL mode,
so the web process and the Celery worker share it) and Celery's filesystem broker, also in
``var/``. ``DATABASE_URL`` and ``REDIS_URL`` switch to PostgreSQL and Redis. Production
defaults are the secure ones: ``DJANGO_DEBUG`` is off unless set, and then a real
``DJANGO_SECRET_KEY`` is required.
"""

import os
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
# Runtime files of the embedded defaults: SQLite database, broker queue, cache, beat state.
VAR_DIR = Path(os.environ.get("RANGLIJST_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()

DEBUG = env.bool("DJANGO_DEBUG", default=False)
_DEV_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default=_DEV_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set (required when DJANGO_DEBUG is off)."
    )
# The published placeholders (.env.example, the development key) are no secret.
_PLACEHOLDER_KEYS = {"change-me-to-a-long-random-string", _DEV_KEY}
if not DEBUG and (SECRET_KEY in _PLACEHOLDER_KEYS or SECRET_KEY.startswith("change-me")):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is the published placeholder; set a long random value "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "django_tables2",
    "csp",
    "ninja",  # the API's documentation page, its assets served from our own static files
    "core",
    "members",
    "competition",
    "pairing",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session: a cookie with a NUL is dropped before anything reads it.
    "config.middleware.RefuseNulBytesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The club of the request, from its host or /<slug>/ (members/clubs/middleware.py): before
    # everything that reverses a URL or reads the club, the page cache included.
    "members.clubs.middleware.ClubMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A request in no club (the admin, the platform's pages): the operator's work sees
    # every club; a club's administrator's, his own club (members/clubs/middleware.py).
    "members.clubs.middleware.PlatformWorkMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "csp.middleware.CSPMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "competition.context_processors.club",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the web process read while the worker writes; IMMEDIATE transactions take
    # the write lock up front, so concurrent writers wait (busy timeout) instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
    }
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DATABASE_CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # The recalculation prepares its few statements of its own on the server, once per
    # connection (competition.season.standings._prepared_cursor); Django's own cursors
    # bind on the client and never prepare. Django turns psycopg's preparing off (None),
    # which refuses even an explicit prepare, so a threshold is set that no count
    # reaches. Behind a pooler in transaction mode without prepared-statement support,
    # DATABASE_PREPARED_STATEMENTS=0 turns it off (the parameters are still bound on the
    # server). docs/operations.md.
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 2**31 - 1)
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# `manage.py backup` writes times to the microsecond (Django's JSON rounds to milliseconds).
SERIALIZATION_MODULES = {"exactjson": "config.exactjson"}

# --- Redis: the page cache, the rate limits and the broker -------------------------------
# REDIS_URL is the page cache (alias "pages"): it may evict (allkeys-lru), since every page
# can be rendered again. The broker holds the task queue, which must not be evicted: give
# it its own Redis instance with CELERY_BROKER_URL (docker-compose.yml does); without it the
# broker shares REDIS_URL. The sign-in rate limits (allauth counts in the "default" alias)
# must not be evicted either, or filling the page cache would reset a lock-out:
# RATE_LIMIT_REDIS_URL, by default the broker's Redis (CELERY_BROKER_URL), which never
# evicts; docker-compose.yml gives them that instance's database 1.
REDIS_URL = env.str("REDIS_URL", default="")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or REDIS_URL
RATE_LIMIT_REDIS_URL = env.str("RATE_LIMIT_REDIS_URL", default="") or CELERY_BROKER_URL
# A hung Redis (accepts, never answers) costs one short timeout, then this process leaves
# Redis alone for CACHE_RETRY_SECONDS (config/cache.py).
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.3)
CACHE_RETRY_SECONDS = env.float("CACHE_RETRY_SECONDS", default=10)
REDIS_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_SOCKET_TIMEOUT, "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "max_retries": 0,
    # An unacknowledged task (worker killed) comes back after this many seconds; the
    # catch-up beat jobs cover anything older.
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
}


def _redis_cache(location: str) -> dict:
    return {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": location,
        "OPTIONS": {"socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
                    "socket_timeout": REDIS_SOCKET_TIMEOUT},
        "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="ranglijst"),
    }


if REDIS_URL:
    CACHES = {"default": _redis_cache(RATE_LIMIT_REDIS_URL), "pages": _redis_cache(REDIS_URL),
              # The standings engine's memory of settled evenings, shared by the workers
              # (competition/season/standings.py): in the evicting Redis, beside the pages.
              "settled": _redis_cache(REDIS_URL)}
else:
    CACHES = {
        # Files in var/: the rate limits never culled (their keys expire by themselves)...
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / "default"),
            "OPTIONS": {"MAX_ENTRIES": 10**9},
        },
        # ... the pages culled at Django's default of 300 entries.
        "pages": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / "pages"),
        },
        # The engine's memory of settled evenings: each process its own (one worker).
        "settled": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                    "LOCATION": "settled", "OPTIONS": {"MAX_ENTRIES": 4096}},
    }
if CELERY_BROKER_URL:
    CELERY_RESULT_BACKEND = CELERY_BROKER_URL
    # A web request must not hang when the broker is down or hung: fail fast, the beat
    # jobs catch up (core.jobs.enqueue).
    CELERY_BROKER_TRANSPORT_OPTIONS = REDIS_BROKER_TRANSPORT_OPTIONS
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_TIMEOUT
    CELERY_TASK_PUBLISH_RETRY = False
else:
    # A broker that needs no server: messages are files in var/broker.
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(VAR_DIR / "broker" / "queue"),
        "data_folder_out": str(VAR_DIR / "broker" / "queue"),
        "processed_folder": str(VAR_DIR / "broker" / "processed"),
        "control_folder": str(VAR_DIR / "broker" / "control"),
        "store_processed": False,
    }
    for _sub in ("queue", "processed", "control"):
        (VAR_DIR / "broker" / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_RESULT_BACKEND = None

CELERY_TIMEZONE = "Europe/Amsterdam"
CELERY_ENABLE_UTC = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The e-mail tasks have a queue of their own, and so have the recalculations of the
# standings: a results night's standings never wait behind an evening's e-mails or the
# deadline job's pairings (nor they behind them). Every worker command consumes the three
# queues, "standings" first (scripts/serve.py, docker-compose.yml); with a prefetch of one
# task a worker busy with a long task holds no standings back from the other.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    name: {"queue": "mail"}
    for name in (
        "core.tasks.send_mails", "core.tasks.send_mails_pending",
        "pairing.tasks.send_pairing_notices",
        "competition.tasks.send_club_duty_notice", "competition.tasks.send_club_duty_notices_undelivered",
        "members.tasks.send_invitation", "members.tasks.send_email_change",
    )
} | {
    name: {"queue": "standings"}
    for name in ("competition.tasks.recalculate_half", "competition.tasks.recalculate_stale_seasons")
}
# Celery closes the worker's database connections around every task unless told to reuse
# them: the deadline job's burst (one task per evening, one per evening's e-mails) would
# open a connection per task. Reuse each for this many tasks (CONN_MAX_AGE is the limit
# for idle time, CONN_HEALTH_CHECKS replaces a broken one before use).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=100)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_BEAT_SCHEDULE = {
    # The sign-up deadline is each evening's own (a parameter of its competition, Thursday
    # 18:00 by default), so one job every minute pairs every evening whose deadline has
    # passed: within a minute of it, and as soon as a worker is back after an outage.
    "close-due-evenings": {
        "task": "pairing.tasks.close_due_evenings",
        "schedule": crontab(minute="*"),
    },
    # Standings whose recalculation task was lost (broker down, worker killed).
    "recalculate-stale-seasons": {
        "task": "competition.tasks.recalculate_stale_seasons",
        "schedule": crontab(minute="*"),
    },
    # Catch-up: rating lists whose reading task was lost end with a message.
    "rating-imports-stuck": {
        "task": "competition.ratings.tasks.end_stuck_rating_imports",
        "schedule": crontab(minute="*/5"),
    },
    # Catch-up: outbox mails whose task was lost (core.mail).
    "mail-catch-up": {
        "task": "core.tasks.send_mails_pending",
        "schedule": crontab(minute="*"),
    },
}

# --- Accounts ---------------------------------------------------------------------------
AUTH_USER_MODEL = "members.User"
AUTHENTICATION_BACKENDS = [
    # The roles' permissions, per club (members/clubs/backends.py); first, and final for them.
    "members.clubs.backends.ClubRoleBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
# The name the standings show is asked for at sign-up, never taken from the address.
ACCOUNT_SIGNUP_FORM_CLASS = "members.accounts.forms.SignupForm"
# ... and the sign-up costs the same whether or not the address has an account.
ACCOUNT_FORMS = {"signup": "members.accounts.signup.SignupForm"}
# A reset link goes only to the address a member signs in with (members/accounts/password_reset.py).
ACCOUNT_FORMS["reset_password"] = "members.accounts.password_reset.ResetPasswordForm"
# A new address replaces the old one only once its owner confirms it (members/accounts/email_change.py).
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env.str("ACCOUNT_EMAIL_VERIFICATION", default="mandatory")
ACCOUNT_PREVENT_ENUMERATION = True
# Rate limits on the shared cache (Redis in production), written out so the policy is visible.
ACCOUNT_RATE_LIMITS = {
    # Failed sign-ins are limited per account (the key is the address typed in: 5 wrong
    # passwords lock that account for 5 minutes, from anywhere) and, apart, per client
    # address, high enough for a playing hall on one Wi-Fi (issue 23: 10 a minute locked
    # the whole club out); sign-ins as such likewise.
    "login_failed": "5/5m/key,60/5m/ip",
    "login": "120/m/ip",
    "signup": "20/m/ip",
    "confirm_email": "1/3m/key",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
}
# Behind a proxy (the TLS proxy of docs/operations.md) every request comes from the
# proxy's address: allauth must take the client's address from X-Forwarded-For, counting
# this many proxies of our own from the right, or all clients share one rate-limit bucket.
# 0 (no proxy) ignores the header, which a client could forge.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("ALLAUTH_TRUSTED_PROXY_COUNT", default=0)
# The read API (/api/v1/): requests per client address, counted like the sign-in's.
API_RATE_LIMIT = env.str("API_RATE_LIMIT", default="300/m/ip")
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# Setting the password from an invitation (or a reset) signs the member in: the link in
# his mailbox proves the address (members/accounts/adapter.py takes him to his club's home). Safe
# because a reset goes only to the account's own or a verified address, which nobody but
# the person sets once he has signed in (docs/operations.md, "Signed in by a password reset").
ACCOUNT_LOGIN_ON_PASSWORD_RESET = True
ACCOUNT_ADAPTER = "members.accounts.adapter.AccountAdapter"
# Public registration (/accounts/signup/): off, the leader adds members with an invitation.
# On, a registration is a request the leader accepts or refuses (members/accounts/registration.py).
OPEN_REGISTRATION = env.bool("OPEN_REGISTRATION", default=False)
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"

EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Ranglijst <competitie@localhost>")
# The site's public address: e-mails are sent outside a request, so their links are built
# from this (scheme and host, no trailing slash). Unset, it is the first host name served
# (DJANGO_ALLOWED_HOSTS), over HTTPS when the site is (development: localhost at PORT,
# 8000 by default; `make run` sets SITE_URL to the address it serves: scripts/serve.py).
_HOSTS = [h for h in ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")]
_SERVED = (f"{'https' if env.bool('DJANGO_SECURE_HTTPS', default=not DEBUG) else 'http'}://{_HOSTS[0]}"
           if _HOSTS and not DEBUG else f"http://localhost:{env.int('PORT', default=8000)}")
SITE_URL = env.str("SITE_URL", default="").rstrip("/") or _SERVED

# --- Internationalisation ---------------------------------------------------------------
LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", _("Dutch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True
CLUB_NAME = env.str("CLUB_NAME", default="Schaakclub De Pion")
# One club served at "/" (today's addresses, the default), or, off, every club at
# /<slug>/ and the list of clubs at "/"; a club's own host name serves it at "/" either
# way (members/clubs/addresses.py, docs/operations.md "Clubs and their addresses").
RANGLIJST_SINGLE_CLUB = env.bool("RANGLIJST_SINGLE_CLUB", default=True)
# The address (/<slug>/) of the club a single-club installation creates on migrate
# (members/clubs/memo.py); empty: made from CLUB_NAME.
CLUB_SLUG = env.str("CLUB_SLUG", default="")
# Where the club plays: in the members' calendar feeds and on the privacy statement.
CLUB_ADDRESS = env.str("CLUB_ADDRESS", default="Wijkcentrum De Pion, Dorpsstraat 1, 3511 AB Utrecht")
# Who answers questions about the members' data (the privacy statement).
PRIVACY_CONTACT = env.str("PRIVACY_CONTACT", default="secretaris@depion.example")
# Public pages for visitors are cached per version of the club's data (0 turns it off).
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=600)
# ... and may be served for this many seconds after a change before being rendered anew.
PAGE_STALE_SECONDS = env.int("PAGE_STALE_SECONDS", default=5)

# Rating lists (issue 16): uploads wait here until the worker has read them (web and
# worker share this folder), and are refused above this size (FIDE's zipped lists are
# about 40 MB, unzipped text about 200 MB).
RATINGS_UPLOAD_DIR = env.str("RATINGS_UPLOAD_DIR", default=str(VAR_DIR / "uploads" / "ratings"))
RATINGS_UPLOAD_MAX_BYTES = env.int("RATINGS_UPLOAD_MAX_MB", default=250) * 2**20
# A member list (issue 31: a club moves in) is read at once; a club's list of 300 members
# is 30 KB as CSV, 60 KB as a spreadsheet.
MEMBERS_UPLOAD_MAX_BYTES = env.int("MEMBERS_UPLOAD_MAX_MB", default=2) * 2**20
# Unpacked (a zip's content): FIDE's largest list is about half of it; a zip bomb stops here.
RATINGS_UNPACKED_MAX_BYTES = env.int("RATINGS_UNPACKED_MAX_MB", default=1024) * 2**20
# A list "being read" whose progress has not moved for this long lost its task: the
# catch-up job ends it with a message (reading FIDE's whole list takes well under a minute).
RATINGS_READING_STUCK_MINUTES = env.int("RATINGS_READING_STUCK_MINUTES", default=15)

# --- Static files -----------------------------------------------------------------------
# Absolute: a relative one would take the script prefix of the first request that read
# it, a club's /<slug>/ (members/clubs/middleware.py), and keep it for every later request.
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DJANGO_TABLES2_TEMPLATE = "django_tables2/semantic.html"

# --- Security ---------------------------------------------------------------------------
SECURE_HTTPS = env.bool("DJANGO_SECURE_HTTPS", default=not DEBUG)
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SESSION_COOKIE_HTTPONLY = True
SECURE_SSL_REDIRECT = SECURE_HTTPS and env.bool("DJANGO_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31536000 if SECURE_HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content Security Policy (django-csp): only our own scripts, styles and images; no inline
# script, no framing, forms post only to us.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
