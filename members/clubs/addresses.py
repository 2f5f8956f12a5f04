"""Where a club is served, and the absolute links and sender of its e-mails.

A club is at ``/<slug>/…`` on the platform's address (``SITE_URL``), or at the root of a
host name of its own (``ClubDomain``). A single-club installation
(``RANGLIJST_SINGLE_CLUB``, the default) serves its club at ``/`` as it always did. The
platform's own pages (``PLATFORM_PATHS``: the admin, the accounts, the health check, the
language switch, static files) are at the root and belong to no club. See
docs/operations.md, "Clubs and their addresses"."""

from __future__ import annotations

from email.utils import parseaddr
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail.message import sanitize_address
from django.urls import get_resolver, get_script_prefix, reverse
from django.utils.encoding import punycode

from core import mail
from members.clubs.context import current_club
from members.clubs.memo import home_club, remembered_host, remembered_slug
from members.models import Club, ClubDomain

# First path segments that are the platform's, never a club's address: a club cannot take
# one as its slug (``reserved_slugs``).
PLATFORM_PATHS = frozenset({"admin", "accounts", "healthz", "i18n", "static", "language"})


def reserved_slugs() -> frozenset[str]:
    """What a club may not take as its slug: the platform's paths and every first path
    segment of the site's URLs (``/standings/``, ``/me/``), which on a single-club
    installation that moves to addresses would make ``/<slug>/`` ambiguous."""
    segments: set[str] = set()
    patterns = list(get_resolver().url_patterns)
    while patterns:
        pattern = patterns.pop()
        first = str(pattern.pattern).split("/", 1)[0]
        if first:
            segments.add(first)
        elif hasattr(pattern, "url_patterns"):  # include("…") at the root
            patterns.extend(pattern.url_patterns)
    return PLATFORM_PATHS | frozenset(s for s in segments if "<" not in s)


def single_club() -> bool:
    """One club served at ``/`` (today's installations), or every club at ``/<slug>/``."""
    return bool(getattr(settings, "RANGLIJST_SINGLE_CLUB", True))


def normal_host(host: str) -> str:
    """A request's host as ``ClubDomain.host`` stores it: lower case, no port, no dot at the end."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("["):  # an IPv6 literal: never a club's domain
        return host
    return host.rsplit(":", 1)[0] if ":" in host else host


def club_for_host(host: str) -> Club | None:
    """The club whose own host name this is, or None (the platform's address). Memoised
    in the process (members/clubs/memo.py): a page served from the cache costs no query."""
    return remembered_host(normal_host(host), _club_of_host)


def club_for_slug(slug: str) -> Club | None:
    """The club at ``/<slug>/`` on the platform's address, or None. Memoised in the process
    as a host name is: a cached page under ``/<slug>/`` costs no query and is served while
    the database is down; a renamed or deleted club is forgotten (members/clubs/memo.py)."""
    return remembered_slug(slug, lambda s: Club.objects.filter(slug=s).first())


def _club_of_host(host: str) -> Club | None:
    domain = ClubDomain.objects.select_related("club").filter(host=host).first()
    return domain.club if domain else None


def club_base_url(club: Club) -> str:
    """Scheme, host and (on the platform's address) ``/<slug>``, without a slash at the end.
    Asked once per club instance (a batch of e-mails asks it for every message)."""
    cached = club.__dict__.get("_base_url")
    if cached is not None:
        return cached
    hosts = sorted(club.domains.all(), key=lambda d: d.pk)  # prefetched by the list of clubs
    scheme = urlsplit(settings.SITE_URL).scheme or "https"
    if hosts:
        base = f"{scheme}://{hosts[0].host}"
    elif single_club():
        base = settings.SITE_URL
    else:
        base = f"{settings.SITE_URL}/{club.slug}"
    club.__dict__["_base_url"] = base
    return base


def club_url(club: Club, path: str) -> str:
    """The absolute address of ``path`` (a ``reverse()`` result) on the club's site, for
    e-mails, calendar feeds and tasks, which are written outside the club's request. A path
    reversed inside a request already carries that request's club prefix: it is taken off
    once, so the link is the same from a request and from a worker."""
    return on_site(club_base_url(club), path)


def on_site(base: str, path: str) -> str:
    """``path`` (a ``reverse()`` result, from a request or a worker) under ``base``, an
    address that already ends in the club's prefix where it has one
    (``https://ranglijst.example/alfa``): the current request's prefix is taken off the path."""
    prefix = get_script_prefix()
    if prefix != "/" and path.startswith(prefix):
        path = "/" + path[len(prefix):]
    if not path.startswith("/"):
        path = "/" + path
    return base.rstrip("/") + path


def platform_url(path: str) -> str:
    """The absolute address of a platform page (the accounts, the admin): never a club's."""
    return settings.SITE_URL + path


def club_sender(club: Club | None) -> tuple[str, list[str]]:
    """``(From, Reply-To)`` of the club's e-mails: the platform's own address
    (``DEFAULT_FROM_EMAIL``: mail from the club's own domain would fail SPF and DKIM) under
    the club's name (its sender name when it has one, else the name above its pages), so
    two clubs' e-mails never look alike in an inbox, and replies to the club's address when
    it has one."""
    platform = settings.DEFAULT_FROM_EMAIL
    if club is None:
        return platform, []
    shown = club.sender_name or club.shown_name
    from_email = sanitize_address((shown, _address_of(platform)), settings.DEFAULT_CHARSET)
    return from_email, [club.reply_to] if club.reply_to else []


def club_subject(club: Club | None, subject: str) -> str:
    """The subject of one of the club's e-mails: the club's name in it (in front, as
    ``[Club] …``, unless the subject names it already)."""
    if club is None:
        return subject
    name = club.shown_name
    return subject if name.lower() in subject.lower() else f"[{name}] {subject}"


def club_footer(club: Club | None) -> str:
    """The lines under every e-mail of the club: its name, its venue and its home page
    (under the club's own address), in the club's language."""
    if club is None:
        return ""
    return "\n-- \n" + mail.render_body("mail/club_footer", {
        "club": club.shown_name, "venue": club_venue(club),
        "home": club_url(club, reverse("competition:home")),
    }).strip() + "\n"


def _address_of(sender: str) -> str:
    """The bare address of ``"Name <address>"`` (or of a bare address)."""
    address = parseaddr(sender)[1] or sender
    local, _, domain = address.rpartition("@")
    return f"{local}@{punycode(domain)}" if local else address


def site_name(club: Club | None = None) -> str:
    """The name above the club's pages and in its e-mails: the club's (or, outside any
    club, the installation's ``CLUB_NAME``)."""
    club = club or current_club()
    return club.shown_name if club is not None else (getattr(settings, "CLUB_NAME", "") or "Ranglijst")


def club_venue(club: Club | None = None) -> str:
    """Where the club plays (calendar entries, e-mails, the privacy statement): the club's
    venue, or, for the installation's own club, ``CLUB_ADDRESS``."""
    club = club or current_club()
    if club is not None and club.venue:
        return club.venue
    # The installation's address is its own club's: never another club's venue.
    if club is None or club.pk == home_club().pk:
        return getattr(settings, "CLUB_ADDRESS", "")
    return ""


def club_home_url(club: Club, *, from_host: str = "") -> str | None:
    """A link to ``club``'s pages from a page of the platform or of another club (asked at
    ``from_host``), or None where this installation serves the club at no address.

    A club with a host name of its own is linked there. Every other club is at a path of
    the platform's address: ``/<slug>/`` on an installation of many clubs, ``/`` for the one
    club of a single-club installation, which serves no other club anywhere (a club that a
    copy or the demo added beside it has no address until it gets a host name: None). From
    a page at a club's own host name the platform's address is written whole, as a path
    there would be that club's."""
    if club.domains.all():  # prefetched by the callers' lists of clubs
        return f"{club_base_url(club)}/"
    if single_club():
        path = "/" if club.pk == home_club().pk else None
    else:
        path = f"/{club.slug}/"
    if path is None or not from_host or club_for_host(from_host) is None:
        return path
    return platform_url(path)
