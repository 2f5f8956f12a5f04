"""Whole public pages cached for visitors who are not signed in.

A page is stored with the club's *data version*, which every recorded change and every
recalculation moves on (after commit). A page is served while its version is current or
it is younger than ``PAGE_STALE_SECONDS`` (a few seconds: the standings reach everyone
"within seconds", and a busy results evening does not re-render every player's page after
every board). After that, the first visitor renders the page anew; visitors arriving while he does get the previous version (so a burst of visitors
after a result costs one rendering, not one each), everyone after him the new one.
Signed-in members, requests with a session or pending messages, and non-GET requests
always get a fresh page.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable, Collection, Mapping
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, QueryDict

from .selectors import club_today

VERSION_KEY = "club-data-version"


def data_version() -> str:
    return str(cache.get(VERSION_KEY) or 0)


def bump_data_version() -> None:
    """Call inside the writing transaction: the version moves on once it commits."""

    _bump_after_commit(VERSION_KEY)


def evening_version(day: str) -> str:
    return str(cache.get(f"evening-version:{day}") or 0)


def bump_evening_version(day) -> None:
    """A change that shows only on one evening's page (a sign-up before the pairing)."""
    _bump_after_commit(f"evening-version:{day.isoformat() if hasattr(day, 'isoformat') else day}")


def _bump_after_commit(key: str) -> None:
    def bump() -> None:
        try:
            cache.incr(key)
        except ValueError:  # not there yet (or evicted)
            cache.set(key, 1, None)

    transaction.on_commit(bump)


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
    """The cache key of a public page: day, language, path and only the parameters the
    page uses, normalised (sorted, first value, allowed values only). Any other query
    string (``?cb=123``) maps to the same key, so junk requests cannot fill the cache."""
    page = "|".join((
        club_today().isoformat(), getattr(request, "LANGUAGE_CODE", ""),
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
