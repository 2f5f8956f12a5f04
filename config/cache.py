"""A Redis cache that degrades instead of failing or hanging.

- Refused or silent (accepts, never answers): every call has short socket timeouts
  (``REDIS_SOCKET_TIMEOUT``), and after one failure this process stops asking Redis for
  ``CACHE_RETRY_SECONDS`` (a circuit breaker), so a page or a sign-in pays at most one
  timeout, not one per cache call.
- Meanwhile reads miss and writes are dropped, except allauth's rate limits (keys
  ``allauth:…``), which are counted in this process's memory instead: while Redis is down
  the limits hold per web process rather than not at all.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
FALLBACK_PREFIX = "allauth:"  # rate limits and their locks


class Breaker:
    """Per process: after a failure, skip Redis until the retry time has passed."""

    def __init__(self) -> None:
        self._until = 0.0
        self._lock = threading.Lock()

    def is_open(self) -> bool:
        return time.monotonic() < self._until

    def trip(self) -> None:
        with self._lock:
            self._until = time.monotonic() + getattr(settings, "CACHE_RETRY_SECONDS", 10)

    def reset(self) -> None:
        with self._lock:
            self._until = 0.0


breaker = Breaker()
# The per-process stand-in for the rate limits while Redis is unreachable.
local = LocMemCache("ranglijst-rate-limit-fallback", {"OPTIONS": {"MAX_ENTRIES": 10_000}})


def _tolerant(default: Any, *, keyed: bool = True):
    def wrap(method):
        name = method.__name__

        @functools.wraps(method)
        def inner(self, *args, **kwargs):
            if not breaker.is_open():
                try:
                    return method(self, *args, **kwargs)
                except _DOWN:
                    log.warning("cache unavailable: %s skipped for %ss", name,
                                getattr(settings, "CACHE_RETRY_SECONDS", 10))
                    breaker.trip()
            if keyed and args and str(args[0]).startswith(FALLBACK_PREFIX):
                return getattr(local, name)(*args, **kwargs)
            return default(*args, **kwargs) if callable(default) else default

        return inner

    return wrap


def _get_default(key, default=None, *args, **kwargs):
    return default


def _incr_default(key, delta=1, *args, **kwargs):
    return delta


class ReusedRedisClient(RedisCacheClient):
    """One connection pool and one ``redis.Redis`` per server and options in the process.

    Django's client makes a new ``redis.Redis`` for every call (each setting up its two
    hundred response callbacks), and a new pool (so a new connection) for every new cache
    object: one is made per context that first touches the cache, and a commit hook runs
    in a copy of its context (``core.jobs.on_commit_here``), so a result's save opened a
    Redis connection of its own for the recalculation's "waiting" mark. The pool and the
    client are safe to share between threads and are reset by redis-py after a fork."""

    _shared: dict[tuple[str, str], Any] = {}
    _shared_lock = threading.Lock()

    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._options_key = repr(sorted(self._pool_options.items()))

    def _get_connection_pool(self, write: bool) -> Any:
        return self._shared_entry(write)[0]

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return self._shared_entry(write)[1]

    def _shared_entry(self, write: bool) -> tuple[Any, Any]:
        server = self._servers[self._get_connection_pool_index(write)]
        name = (server, self._options_key)
        entry = self._shared.get(name)
        if entry is None:
            with self._shared_lock:
                entry = self._shared.get(name)
                if entry is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    entry = self._shared[name] = (pool, self._client(connection_pool=pool))
        return entry


class ResilientRedisCache(RedisCache):
    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = ReusedRedisClient

    get = _tolerant(_get_default)(RedisCache.get)
    set = _tolerant(None)(RedisCache.set)
    # A dropped add counts as stored (the page cache's "I render it" lock); allauth's
    # lock goes to the per-process fallback instead.
    add = _tolerant(True)(RedisCache.add)
    touch = _tolerant(False)(RedisCache.touch)
    delete = _tolerant(False)(RedisCache.delete)
    get_many = _tolerant(lambda *a, **k: {}, keyed=False)(RedisCache.get_many)
    set_many = _tolerant(lambda *a, **k: [], keyed=False)(RedisCache.set_many)
    delete_many = _tolerant(None, keyed=False)(RedisCache.delete_many)
    has_key = _tolerant(False)(RedisCache.has_key)
    clear = _tolerant(None, keyed=False)(RedisCache.clear)
    incr = _tolerant(_incr_default)(RedisCache.incr)
