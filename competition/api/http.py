"""What every API endpoint of every version does around its view: only GET, HEAD and
OPTIONS; a rate limit per club and client address (the shared cache, as the sign-in's:
a club's website polling its API from a shared host never uses up another club's); the body
cached per version of the club's data, as the public pages are; an ``ETag`` with ``304``
on ``If-None-Match``; CORS for any site, without credentials."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from allauth.core.internal import ratelimit
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, include, re_path
from django.utils.cache import patch_vary_headers

from core.pagecache import Params, cache_public_page
from core.tenancy.context import current_club_id

ALLOWED = ("GET", "HEAD", "OPTIONS")
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": ", ".join(ALLOWED),
    "Access-Control-Allow-Headers": "If-None-Match",
    "Access-Control-Expose-Headers": "ETag",
    "Access-Control-Max-Age": "86400",
}


def _etag(content: bytes) -> str:
    return '"' + hashlib.sha256(content).hexdigest()[:32] + '"'


def _matches(if_none_match: str, etag: str) -> bool:
    tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
    return "*" in tags or etag in tags


def _refusal(status: int, detail: str, **headers: str) -> HttpResponse:
    response = JsonResponse({"detail": detail}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def public_endpoint(view: Callable[..., HttpResponse], params: Params) -> Callable[..., HttpResponse]:
    cached = cache_public_page(view, params=params)

    @functools.wraps(view)
    def endpoint(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        method = request.method or "GET"
        if method == "OPTIONS":  # a CORS preflight: nothing to read
            response = HttpResponse(status=204)
        elif method not in ALLOWED:
            response = _refusal(405, "Only GET, HEAD and OPTIONS.", Allow=", ".join(ALLOWED))
        elif not ratelimit.consume(request, app=f"ranglijst.api.{current_club_id()}", action="read",
                                   config={"read": settings.API_RATE_LIMIT}, limit_get=True):
            response = _refusal(429, "Too many requests; try again in a minute.",
                                **{"Retry-After": "60"})
        else:
            response = _read(cached, request, method, *args, **kwargs)
        for name, value in CORS.items():
            response[name] = value
        return response

    return endpoint


def _read(cached: Callable[..., HttpResponse], request: HttpRequest, method: str,
          *args: Any, **kwargs: Any) -> HttpResponse:
    request.method = "GET"  # HEAD is GET without the body
    response = cached(request, *args, **kwargs)
    request.method = method
    if response.status_code == 200 and not response.streaming:
        etag = _etag(response.content)
        if _matches(request.headers.get("If-None-Match", ""), etag):
            response = HttpResponse(status=304)
        response["ETag"] = etag
        response["Cache-Control"] = "public, max-age=0, must-revalidate"
    patch_vary_headers(response, ("Accept-Encoding",))
    if method == "HEAD":
        response.content = b""
    return response


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Any other path under the API (``/api/v1/players/05``, ``/api/v1/nothing``): the
    API's JSON 404, not the site's HTML page."""
    return _refusal(404, "Not Found")


def public_urls(urls: tuple[list[Any], str, str], params: Params) -> Any:
    """An API's URL patterns (as django-ninja gives them) with every view behind the
    shell above, for ``path(..., public_urls(...))``; after them, every other path under
    the API is its JSON 404 (with the same shell: TRACE there is a 405 too)."""
    patterns, _app_name, namespace = urls
    wrapped = [
        URLPattern(p.pattern, public_endpoint(p.callback, params), p.default_args, p.name)
        for p in patterns  # ninja's own "api-root" (its openapi document reverses it) is
    ]                      # the version's index: the same path, listed after it
    wrapped.append(re_path(r"", public_endpoint(not_found, {})))  # unnamed: nothing links to it
    return include((wrapped, namespace), namespace=namespace)
