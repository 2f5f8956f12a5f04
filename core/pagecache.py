"""Whole public pages cached for visitors who are not signed in.

A page is stored with the club's *data version*, which moves on once after each committed
write: at the write's commit, or, when the write scheduled a recalculation, when that
recalculation has stored the new standings (``pages_changed``, ``recalculation_scheduled``). A page is served while its version is current or
it is younger than ``PAGE_STALE_SECONDS`` (a few seconds: the standings reach everyone
"within seconds", and a busy results evening does not re-render every player's page after
every board). After that, the first visitor renders the page anew; visitors arriving while he does get the previous version (so a burst of visitors
after a result costs one rendering, not one each), everyone after him the new one.
Signed-in members, requests with a session or pending messages, and non-GET requests
always get a fresh page.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import time
from collections.abc import Callable, Collection, Mapping
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from django.utils.connection import ConnectionProxy

from core.dates import club_today

# Pages live in a cache of their own that may evict (config/settings.py): never beside the
# sign-in rate limits, which a flood of distinct pages would otherwise push out.
PAGES = "pages"
cache: Any = ConnectionProxy(caches, PAGES)

VERSION_KEY = "club-data-version"


def _version(key: str) -> str:
    """A version number; when the cache lost it (a restart, an eviction) it starts again
    from the clock, never from a number an old cached page may carry."""
    found = cache.get(key)
    if found is None:
        cache.add(key, time.time_ns() // 1000, None)
        found = cache.get(key)
    return str(found)


def data_version() -> str:
    return _version(VERSION_KEY)


def evening_version(day: str) -> str:
    return _version(f"evening-version:{day}")


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # not there (evicted): a fresh number from the clock
        cache.set(key, time.time_ns() // 1000, None)


def bump_data_version() -> None:
    """The recalculation's own bump, after it has stored the new standings."""
    transaction.on_commit(lambda: _bump(VERSION_KEY))


# One bump per committed write (see docs/architecture.md, "One invalidation story"). A
# write calls ``pages_changed`` inside its transaction; a write that schedules a
# recalculation calls ``recalculation_scheduled`` instead (``schedule_recalculation``
# does), and then no bump happens at its commit: the recalculation moves the version on
# when it has stored the new standings, so no visitor caches the standings from before.
_STATE = "ranglijst_page_changes"


def _transaction_key(connection: Any) -> tuple[int, str | None] | None:
    """The write's own transaction: the outermost atomic block that is not a test case's
    (the one ``durable=True`` refers to), told apart by its savepoint when it is nested
    in a test's transaction. None outside a transaction."""
    blocks = connection.atomic_blocks
    for depth, block in enumerate(blocks):
        if not getattr(block, "_from_testcase", False):
            sid = connection.savepoint_ids[depth - 1] if 0 < depth <= len(
                connection.savepoint_ids) else None
            return depth, sid
    return None


def _changes() -> dict[str, Any] | None:
    """This transaction's pending page changes, flushed once at its commit; None
    outside a transaction (the caller then bumps at once)."""
    connection = transaction.get_connection()
    key = _transaction_key(connection) if connection.in_atomic_block else None
    if key is None:
        return None
    states = connection.__dict__.setdefault(_STATE, {})
    state = states.get(key)
    pending = [func for _sids, func, _robust in connection.run_on_commit]
    if state is None or state["flush"] not in pending:  # new, or its transaction rolled back
        state = {"data": False, "recalculation": False, "evenings": set()}
        state["flush"] = functools.partial(_flush, connection, key, state)
        states[key] = state
        transaction.on_commit(state["flush"])
    return state


def _flush(connection: Any, key: tuple[int, str | None], state: dict[str, Any]) -> None:
    states = connection.__dict__.get(_STATE, {})
    if states.get(key) is state:
        del states[key]
    if state["recalculation"]:
        return  # the recalculation bumps when it has stored the standings
    if state["data"]:
        _bump(VERSION_KEY)
        return
    for day in state["evenings"]:
        _bump(f"evening-version:{day}")


def pages_changed(*, evening_day: dt.date | None = None) -> None:
    """Visitors' pages show this write once its transaction commits. With
    ``evening_day``, only that evening's page changes (a sign-up before the pairing)."""
    state = _changes()
    if state is None:
        _bump(f"evening-version:{evening_day.isoformat()}" if evening_day else VERSION_KEY)
    elif evening_day is None:
        state["data"] = True
    else:
        state["evenings"].add(evening_day.isoformat())


def recalculation_scheduled() -> None:
    """This transaction's write is shown by the recalculation it scheduled."""
    state = _changes()
    if state is not None:
        state["recalculation"] = True


def versioned(parts: tuple[Any, ...], compute: Callable[[], Any], timeout: int = 3600) -> Any:
    """``compute()`` once per version of the club's data (and ``parts``): for the small
    reads every request of a page repeats (which season, half and standings it shows).
    Off, like the page cache, when ``PAGE_CACHE_SECONDS`` is 0 (the test suite)."""
    if settings.PAGE_CACHE_SECONDS <= 0:
        return compute()
    version = data_version()
    key = "memo:" + hashlib.sha256(repr((version, *parts)).encode()).hexdigest()
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, timeout)
    return found


def _cacheable(request: HttpRequest) -> bool:
    return (
        settings.PAGE_CACHE_SECONDS > 0
        and request.method == "GET"
        and not request.user.is_authenticated
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
    )


# The query parameters a page reads, each with the values it accepts (None: any short
# value; a value the page does not use yields a 404, which is never stored).
Params = Mapping[str, Collection[str] | None]
MAX_PARAM_LENGTH = 64


def page_key(request: HttpRequest, params: Params) -> str:
    """The cache key of a public page: day, language, host, path and only the parameters
    the page uses, normalised (sorted, first value, allowed values only). Any other query
    string (``?cb=123``) maps to the same key, so junk requests cannot fill the cache. The
    host (one of ``ALLOWED_HOSTS``) keeps two clubs' own host names apart at the same path;
    on the platform's address the path has the club's prefix (``request.path``)."""
    page = "|".join((
        club_today().isoformat(), getattr(request, "LANGUAGE_CODE", ""),
        request.get_host(), request.path, normalised_query(request, params),
    ))
    return "page:" + hashlib.sha256(page.encode()).hexdigest()


def normalised_query(request: HttpRequest, params: Params) -> str:
    kept = []
    for name in sorted(params):
        value = request.GET.get(name)
        allowed = params[name]
        if not value or len(value) > MAX_PARAM_LENGTH:  # empty is absent
            continue
        if allowed is not None and value not in allowed:
            continue
        kept.append((name, value))
    return urlencode(kept)


def cache_public_page(
    view: Callable[..., HttpResponse] | None = None,
    *,
    version: Callable[..., str] | None = None,
    params: Params | None = None,
):
    """Decorator; ``version(request, *args, **kwargs)`` adds a page's own version (the
    evening page: its sign-ups) to the club's; ``params`` names the query parameters the
    page reads (see ``page_key``)."""
    if view is None:
        return functools.partial(cache_public_page, version=version, params=params)

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not _cacheable(request):
            return view(request, *args, **kwargs)
        current = data_version() + "." + (version(request, *args, **kwargs) if version else "")
        # The page is rendered from the parameters of its key alone, so that what is
        # stored is what any request with that key would get (links to the page too).
        query = normalised_query(request, params or {})
        request.GET = QueryDict(query)
        request.META["QUERY_STRING"] = query
        key = page_key(request, params or {})
        stored = cache.get(key)  # (version, stored at, content, content type, headers)
        if stored is not None and (
            stored[0] == current or time.time() - stored[1] < settings.PAGE_STALE_SECONDS
        ):
            return _response(stored)
        # One visitor renders the new version; those arriving meanwhile get the previous
        # one (a second old) instead of all rendering the same page at once.
        if stored is not None and not cache.add(f"{key}:rendering:{current}", 1, 10):
            return _response(stored)
        response = view(request, *args, **kwargs)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            headers = [(k, v) for k, v in response.items()
                       if k.lower() in ("content-disposition",)]
            cache.set(
                key,
                (current, time.time(), response.content, response["Content-Type"], headers),
                settings.PAGE_CACHE_SECONDS,
            )
        return response

    return wrapper


def _response(stored: tuple) -> HttpResponse:
    _version, _stored_at, content, content_type, headers = stored
    response = HttpResponse(content, content_type=content_type)
    for name, value in headers:
        response[name] = value
    return response
