"""The club of the work in hand, as the shell's bottom layer sees it: a cache-key prefix,
a time zone, the club's id and its language. ``members.context.club_context`` sets it
(core imports no app); the page cache (core/pagecache.py), "today" (core/dates.py), the
outbox and the e-mails' language (core/mail.py) read it, so two clubs never share a
cached page, a version, a day or a language."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from core.timezones import zone_or_default


@dataclass(frozen=True)
class Tenant:
    key: str  # "club-7": the prefix of the club's cache keys
    time_zone: str  # "Europe/Amsterdam"
    club_id: int | None = None  # the club's own id (the outbox's rows carry it)
    language: str = ""  # the club's language ("nl"): its e-mails are written in it

    def tzinfo(self) -> dt.tzinfo:
        """The club's zone; the site's own for a stored name that is no zone (a page
        never fails on it: core/timezones.py)."""
        return zone_or_default(self.time_zone)


_tenant: ContextVar[Tenant | None] = ContextVar("ranglijst_tenant", default=None)


def current_tenant() -> Tenant | None:
    return _tenant.get()


def tenant_key() -> str:
    """The club's cache-key prefix; "platform" outside any club."""
    tenant = _tenant.get()
    return tenant.key if tenant is not None else "platform"


def current_club_id() -> int | None:
    """The id of the club of the work in hand (an outbox row's default), None outside."""
    tenant = _tenant.get()
    return tenant.club_id if tenant is not None else None


@contextmanager
def tenant(value: Tenant | None) -> Iterator[None]:
    token = _tenant.set(value)
    try:
        yield
    finally:
        _tenant.reset(token)
