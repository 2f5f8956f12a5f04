"""Whole public pages cached for visitors who are not signed in.

A page is stored with the club's *data version*, which moves on once after each committed
write (``pages_changed``), and once more when a recalculation has stored new standings
(``standings_changed``). The data version has two parts: the club's writes, and its
standings. A result moves only its evening's page at its commit (the page shows the result
beside the standings before the evening, which the result does not change); the pages that
show standings move on when the recalculation has stored them, so no visitor caches the
standings from before. A page of one half
(its standings, cross table, evenings) names the half (``cache_public_page(half=...)``)
and is stored with the club's writes and that half's own standings version instead: a
result in the summer half leaves the winter half's pages cached, and a result of one club
any other club's pages. A page is served while its version is current or
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
import weakref
from collections.abc import Callable, Collection, Mapping
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from django.utils.connection import ConnectionProxy

from core.dates import club_today
from core.tenancy.context import tenant_key

# Pages live in a cache of their own that may evict (config/settings.py): never beside the
# sign-in rate limits, which a flood of distinct pages would otherwise push out.
PAGES = "pages"
cache: Any = ConnectionProxy(caches, PAGES)

VERSION_KEY = "club-data-version"  # the club's writes, other than its standings
STANDINGS_KEY = "standings-version"  # any of the club's standings stored anew


def _half_key(half_id: int) -> str:
    """The version of one half's standings (moved with ``STANDINGS_KEY``)."""
    return f"half-version:{half_id}"


def _club_key(key: str) -> str:
    """Every version, memo and page key is the current club's (core/tenancy/context.py): a
    result in one club never moves, nor serves, another club's pages."""
    return f"{tenant_key()}:{key}"


def _version(key: str) -> str:
    """A version number; when the cache lost it (a restart, an eviction) it starts again
    from the clock, never from a number an old cached page may carry."""
    found = cache.get(key)
    if found is None:
        cache.add(key, time.time_ns() // 1000, None)
        found = cache.get(key)
    return str(found)


def _versions(*keys: str) -> str:
    """Several of the club's versions in one round trip, joined (see ``_version``)."""
    full = [_club_key(key) for key in keys]
    found = cache.get_many(full)
    missing = [key for key in full if key not in found]
    if missing:
        for key in missing:
            cache.add(key, time.time_ns() // 1000, None)
        found.update(cache.get_many(missing))
    return ".".join(str(found.get(key)) for key in full)


def data_version() -> str:
    """The version of everything the club shows: its writes and all its standings."""
    return _versions(VERSION_KEY, STANDINGS_KEY)


def writes_version() -> str:
    """The version of the club's writes alone, without its standings: for what no result
    changes (which half an address shows)."""
    return _version(_club_key(VERSION_KEY))


def half_version(half_id: int) -> str:
    """The version of a page that shows one half: the club's writes and the half's own
    standings."""
    return _versions(VERSION_KEY, _half_key(half_id))


def evening_version(day: str) -> str:
    """The version of one evening's page: by the club and the evening's date (two clubs
    playing the same Friday have each their own)."""
    return _version(_club_key(f"evening-version:{day}"))


def _bump(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:  # not there (evicted): a fresh number from the clock
        cache.set(key, time.time_ns() // 1000, None)


def standings_changed(half_ids: Collection[int]) -> None:
    """The recalculation's own bump, after it has stored the new standings of these
    halves: their pages, and every page that shows all the club's standings, move on."""
    keys = [_club_key(STANDINGS_KEY)] + [_club_key(_half_key(h)) for h in sorted(half_ids)]

    def bump() -> None:
        for key in keys:
            _bump(key)

    transaction.on_commit(bump)


# One bump per committed write (see docs/architecture.md, "One invalidation story"). A
# write calls ``pages_changed`` inside its transaction, and it moves on at the commit what
# the write changed; the standings the write changes move on when its recalculation has
# stored them (``standings_changed``).
#
# The pending changes of a transaction are an object that only its ``on_commit`` callbacks
# hold (the connection keeps a weak reference to it): when the transaction rolls back,
# Django drops the callbacks, the object goes with them, and the next write starts afresh.
# Public API only: ``on_commit`` and ``in_atomic_block``. In a test, whose writes all sit
# in the test's transaction, the writes whose callbacks have not run share one object:
# a test that counts the bumps of a write runs the earlier writes' callbacks first
# (``django_capture_on_commit_callbacks(execute=True)``).


class _Changes:
    __slots__ = ("club", "data", "evenings", "flushed", "__weakref__")

    def __init__(self, club: str) -> None:
        self.club = club
        self.data = False
        self.evenings: set[str] = set()
        self.flushed = False


_pending: weakref.WeakKeyDictionary[Any, weakref.ref[_Changes]] = weakref.WeakKeyDictionary()


def _changes() -> _Changes | None:
    """This transaction's pending page changes, flushed once at its commit; None
    outside a transaction (the caller then bumps at once)."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return None
    ref = _pending.get(connection)
    state = ref() if ref is not None else None
    club = tenant_key()
    # new, or its transaction rolled back, or done, or a write of another club
    if state is None or state.flushed or state.club != club:
        state = _Changes(club)
        _pending[connection] = weakref.ref(state)
    # Each call's callback holds the state (never the other way round); the first to run
    # at the commit flushes it, the others find it flushed.
    transaction.on_commit(functools.partial(_flush, state))
    return state


def _flush(state: _Changes) -> None:
    if state.flushed:
        return
    state.flushed = True
    club = state.club  # the club of the write, whatever context runs the commit hooks
    if state.data:
        _bump(f"{club}:{VERSION_KEY}")
        return
    for day in state.evenings:
        _bump(f"{club}:evening-version:{day}")


def pages_changed(*, evening_day: dt.date | None = None) -> None:
    """Visitors' pages show this write once its transaction commits. With
    ``evening_day``, only that evening's page changes (a sign-up before the pairing, a
    result: its standings move on with the recalculation)."""
    state = _changes()
    if state is None:
        _bump(_club_key(f"evening-version:{evening_day.isoformat()}" if evening_day else VERSION_KEY))
    elif evening_day is None:
        state.data = True
    else:
        state.evenings.add(evening_day.isoformat())


def versioned(parts: tuple[Any, ...], compute: Callable[[], Any], timeout: int = 3600, *,
              standings: bool = True) -> Any:
    """``compute()`` once per version of the club's data (and ``parts``): for the small
    reads every request of a page repeats (which season, half and standings it shows).
    ``standings=False``: once per version of the club's writes, for what no standings
    change. Off, like the page cache, when ``PAGE_CACHE_SECONDS`` is 0 (the test suite)."""
    if settings.PAGE_CACHE_SECONDS <= 0:
        return compute()
    version = data_version() if standings else writes_version()
    key = "memo:" + hashlib.sha256(repr((tenant_key(), version, *parts)).encode()).hexdigest()
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
    """The cache key of a public page: club, day, language, path and only the parameters
    the page uses, normalised (sorted, first value, allowed values only). Any other query
    string (``?cb=123``) maps to the same key, so junk requests cannot fill the cache. Never
    the request's host string: its port and letter-case variants (``Ranglijst.example:81``)
    are one page. Two clubs' own host names at the same path are apart by their club; on
    the platform's address the path has the club's prefix (``request.path``)."""
    page = "|".join((
        tenant_key(), club_today().isoformat(), getattr(request, "LANGUAGE_CODE", ""),
        request.path, normalised_query(request, params),
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
    half: Callable[..., int | None] | None = None,
):
    """Decorator; ``version(request, *args, **kwargs)`` adds a page's own version (the
    evening page: its sign-ups) to the club's; ``params`` names the query parameters the
    page reads (see ``page_key``). ``half(request, *args, **kwargs)``: the one half whose
    standings and games the page shows (None: not known, all of them); it must not read
    the database on every visit (``versioned(..., standings=False)``)."""
    if view is None:
        return functools.partial(cache_public_page, version=version, params=params, half=half)

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not _cacheable(request):
            return view(request, *args, **kwargs)
        # The page is rendered from the parameters of its key alone, so that what is
        # stored is what any request with that key would get (links to the page too).
        query = normalised_query(request, params or {})
        request.GET = QueryDict(query)
        request.META["QUERY_STRING"] = query
        shown = half(request, *args, **kwargs) if half else None
        current = (half_version(shown) if shown else data_version()) + "." + (
            version(request, *args, **kwargs) if version else "")
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
