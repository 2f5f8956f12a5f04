"""The club a request is for, from its address (members/clubs/addresses.py).

``ClubMiddleware`` finds the club from the host (a ``ClubDomain``: served at the host's
root) or from the first path segment (``/<slug>/…`` on the platform's address), or, on a
single-club installation, serves the one club at ``/``. Under a prefix it takes the
prefix off ``request.path_info`` (the URLconf sees ``/standings/``) and adds it to the
script prefix, so every ``reverse()`` and ``{% url %}`` inside the club writes
``/<slug>/standings/`` without a call site knowing; ``request.path`` keeps the full
address (redirects, ``next``, the page cache). For the request it sets ``request.club``,
enters ``club_context(club)`` and the club's time zone, and restores all three after
the response, also when a view raised."""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Callable
from contextlib import ExitStack

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
)
from django.urls import get_script_prefix, set_script_prefix
from django.utils import timezone

from members.clubs.addresses import PLATFORM_PATHS, club_for_host, club_for_slug, single_club
from members.clubs.context import club_context, platform_context
from members.clubs.memo import home_club
from members.models import Club

log = logging.getLogger(__name__)

# Answered without asking the database which club: the health check must cost one query
# and say 503 when the database is down; static files are the platform's.
NO_DATABASE_PATHS = frozenset({"healthz", "static"})
# The URLconf of the platform's root in multi-club mode: the list of clubs at "/".
PLATFORM_URLCONF = "config.platform_urls"
# No club at this address: the request goes on to a URLconf that finds nothing, so the
# 404 page is rendered after the session and the user are known (as every other 404).
NO_CLUB_URLCONF = "config.no_club_urls"


class ClubMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.lstrip("/").split("/", 1)[0] in NO_DATABASE_PATHS:
            request.club = None  # type: ignore[attr-defined]
            return self.get_response(request)
        club = club_for_host(request.get_host())
        slug = ""
        if club is None and single_club():
            club = home_club()
        elif club is None:
            first, _, rest = request.path_info.lstrip("/").partition("/")
            if not first:
                request.urlconf = PLATFORM_URLCONF  # the list of clubs
            elif first not in PLATFORM_PATHS:
                club = club_for_slug(first)
                if club is None:
                    request.urlconf = NO_CLUB_URLCONF
                    request.club = None  # type: ignore[attr-defined]
                    return self.get_response(request)
                slug = first
                if not request.path_info.startswith(f"/{first}/"):  # /<slug> → /<slug>/
                    return HttpResponsePermanentRedirect(f"{request.path}/")
                if rest.split("/", 1)[0] == "admin":  # the admin is the platform's
                    query = request.META.get("QUERY_STRING", "")
                    return HttpResponseRedirect(f"{get_script_prefix()}{rest}" + (f"?{query}" if query else ""))
        request.club = club  # type: ignore[attr-defined]
        return self._serve(request, club, slug)

    def _serve(self, request: HttpRequest, club: Club | None, slug: str) -> HttpResponse:
        outer_prefix = get_script_prefix()
        with ExitStack() as stack:
            stack.callback(set_script_prefix, outer_prefix)
            if slug:
                request.path_info = request.path_info[len(slug) + 1:]
                request.META["PATH_INFO"] = request.path_info
                set_script_prefix(f"{outer_prefix}{slug}/")
                request.META["SCRIPT_NAME"] = f"{outer_prefix}{slug}"
            stack.enter_context(club_context(club))
            if club is not None:
                stack.enter_context(timezone.override(_time_zone(club)))
            return self.get_response(request)


def _time_zone(club: Club) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        log.warning("club %s has an unknown time zone %r", club.slug, club.time_zone)
        return zoneinfo.ZoneInfo("Europe/Amsterdam")


class PlatformWorkMiddleware:
    """After the user is known: a request that belongs to no club (the admin and the
    other platform pages of a multi-club installation) runs as the platform's work for an
    operator (every club: ``platform_context``), and in his own club for a club's
    administrator who has exactly one club (the admin then shows that club's rows only).

    The admin is the platform's on every installation: also where one club is served at
    ``/`` (and the request has that club), a signed-in user's admin is his (the
    operator's every club, an administrator's his own club, anyone else's none), never
    the club of the address (members/platform/adminscope.py)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        admin = request.path_info.lstrip("/").split("/", 1)[0] == "admin"
        if getattr(request, "club", None) is not None and not admin:
            return self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        if user.is_superuser:
            if admin:
                request.club = None  # type: ignore[attr-defined]
            with platform_context():
                return self.get_response(request)
        from members.models import Membership

        clubs = list(Membership.objects.filter(user=user, role="administrator")
                     .values_list("club", flat=True)[:2])
        if len(clubs) == 1:
            club = Club.objects.get(pk=clubs[0])
            if admin:
                request.club = club  # type: ignore[attr-defined]
            with club_context(club):
                return self.get_response(request)
        if admin:
            request.club = None  # type: ignore[attr-defined]
            with club_context(None):  # no club's rows: the club-scoped admin is closed
                return self.get_response(request)
        return self.get_response(request)
