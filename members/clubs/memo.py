"""The installation's clubs: which one a single-club installation serves.

A single-club installation (today's, and every test that does not name a club) has one
club, created from the settings (``CLUB_NAME``, ``CLUB_SLUG``) by migration
``members.0007_clubs``; ``home_club`` returns it (and recreates it after a test flush).
It is memoised in the process (each request asks for it), as is the club of each host
name and of each ``/<slug>/`` a request came for (``remembered_host``,
``remembered_slug``; members/clubs/addresses.py ``club_for_host``, ``club_for_slug``): a page
served from the page cache costs no query, and keeps being served while the database is
down (a memo too old to trust is still used when the database cannot be asked). A change
of any club or club domain (a renamed or deleted club's slug), or a flush of the database
(``post_migrate``), forgets them all."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.text import slugify

from members.models import Club, ClubDomain

_home: list[Club] = []
# host name → its club (None: the platform's address); bounded, as hosts come from requests
_hosts: dict[str, Club | None] = {}
# the same for the slug of /<slug>/ (None: no such club)
_slugs: dict[str, Club | None] = {}
MAX_HOSTS = 1000
# The memo of the last period, asked again but used while the database is down.
_stale: dict[tuple[str, str], Club | None] = {}
# A club changed in another process (a leader's edit served by another web worker) is seen
# here after at most this long; in this process at once (the signals below).
MEMO_SECONDS = 30.0
_MISSING = object()
_stamp = [0.0]


def _fresh() -> bool:
    """Whether the memo is younger than MEMO_SECONDS (``CLUB_MEMO_SECONDS``; 0: as long as
    the process lives, for the tests, whose query counts must not depend on the clock); an
    old one is dropped."""
    seconds = getattr(settings, "CLUB_MEMO_SECONDS", MEMO_SECONDS)
    if not seconds or time.monotonic() - _stamp[0] < seconds:
        return True
    _home.clear()
    _stale.clear()
    for kind, memo in (("host", _hosts), ("slug", _slugs)):
        _stale.update(((kind, key), club) for key, club in memo.items())
        memo.clear()
    _stamp[0] = time.monotonic()
    return False


def default_club_fields() -> dict[str, str]:
    name = getattr(settings, "CLUB_NAME", "") or "Ranglijst"
    language = settings.LANGUAGE_CODE
    return {
        "name": name,
        "slug": getattr(settings, "CLUB_SLUG", "") or slugify(name)[:40] or "club",
        "venue": getattr(settings, "CLUB_ADDRESS", ""),
        "language": language if language in dict(settings.LANGUAGES) else "nl",
    }


def home_club() -> Club:
    """The installation's own club (the only one on a single-club installation): the club
    of the settings' address (``CLUB_SLUG``, else the slug of ``CLUB_NAME``), which
    migration ``members.0007_clubs`` created, else the installation's first club."""
    if _fresh() and _home:
        return _home[0]
    fields = default_club_fields()
    club = (Club.objects.filter(slug=fields["slug"]).first()
            or Club.objects.order_by("pk").first())
    if club is None:  # a new installation's first club: OPEN_REGISTRATION is its default
        opened = bool(getattr(settings, "OPEN_REGISTRATION", False))
        club, _ = Club.objects.get_or_create(slug=fields.pop("slug"),
                                             defaults={**fields, "open_registration": opened})
    _home[:] = [club]
    return club


def remembered_host(host: str, find: Callable[[str], Club | None]) -> Club | None:
    """The club of ``host`` (a normal host name), asked of ``find`` once per process."""
    return _remembered("host", _hosts, host, find)


def remembered_slug(slug: str, find: Callable[[str], Club | None]) -> Club | None:
    """The club at ``/<slug>/`` (None: none), asked of ``find`` once per process."""
    return _remembered("slug", _slugs, slug, find)


def _remembered(kind: str, memo: dict[str, Club | None], key: str,
                find: Callable[[str], Club | None]) -> Club | None:
    fresh = _fresh()
    club = memo.get(key, _MISSING) if fresh else _MISSING
    if club is _MISSING:
        try:
            club = find(key)
        except DatabaseError:
            if (kind, key) not in _stale:
                raise
            return _stale[(kind, key)]  # the database down: the last answer, asked again next time
        if len(memo) >= MAX_HOSTS:
            memo.clear()
        memo[key] = club
    return club  # type: ignore[return-value]


def forget_home_club(*args: Any, **kwargs: Any) -> None:
    _home.clear()
    _hosts.clear()
    _slugs.clear()
    _stale.clear()


post_save.connect(forget_home_club, sender=Club, dispatch_uid="home_club_saved")
post_delete.connect(forget_home_club, sender=Club, dispatch_uid="home_club_deleted")
post_migrate.connect(forget_home_club, dispatch_uid="home_club_migrated")
post_save.connect(forget_home_club, sender=ClubDomain, dispatch_uid="club_domain_saved")
post_delete.connect(forget_home_club, sender=ClubDomain, dispatch_uid="club_domain_deleted")
