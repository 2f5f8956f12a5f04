"""A Redis cache that degrades instead of failing: when Redis is down, reads miss and
writes are dropped (logged), so pages, sign-in and sign-ups keep working."""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


def _tolerant(default: Any):
    def wrap(method):
        @functools.wraps(method)
        def inner(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except _DOWN:
                log.warning("cache unavailable: %s skipped", method.__name__)
                return default(*args, **kwargs) if callable(default) else default

        return inner

    return wrap


def _get_default(key, default=None, *args, **kwargs):
    return default


class ResilientRedisCache(RedisCache):
    get = _tolerant(_get_default)(RedisCache.get)
    set = _tolerant(None)(RedisCache.set)
    # A dropped add counts as stored: allauth's rate limiter takes a lock with add() and
    # would otherwise refuse every sign-in while Redis is down (limits are off meanwhile).
    add = _tolerant(True)(RedisCache.add)
    touch = _tolerant(False)(RedisCache.touch)
    delete = _tolerant(False)(RedisCache.delete)
    get_many = _tolerant(lambda *a, **k: {})(RedisCache.get_many)
    set_many = _tolerant(lambda *a, **k: [])(RedisCache.set_many)
    delete_many = _tolerant(None)(RedisCache.delete_many)
    has_key = _tolerant(False)(RedisCache.has_key)
    clear = _tolerant(None)(RedisCache.clear)

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except _DOWN:
            log.warning("cache unavailable: incr skipped")
            return delta
