"""Writes of the club's website features: one function per use case."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from publicsuffixlist import PublicSuffixList

from competition import audit
from competition.audit import Action
from competition.models import ClubWebsite
from core.pagecache import pages_changed
from core.permissions import Perm, require
from members.models import Actor

MAX_ORIGINS = 20
# scheme://host[:port], a host of DNS labels, the first of which may be a wildcard
# (CSP allows https://*.example.nl). Nothing else: no path, no quote, no semicolon, no
# space, so an origin can never add a directive to the header it goes into.
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_ORIGIN = re.compile(
    rf"^(?P<scheme>https?)://(?P<host>(\*\.)?{_LABEL}(\.{_LABEL})*)(:(?P<port>[0-9]{{1,5}}))?$"
)
# Plain http only for a leader trying the embeds on his own computer: a page of
# localhost is nobody else's.
LOOPBACK = ("localhost", "127.0.0.1")


@functools.cache
def _public_suffixes() -> PublicSuffixList:
    """The public-suffix list the library ships (ICANN's and the private section, such as
    github.io): read from the package, never fetched."""
    return PublicSuffixList()


def parse_origin(text: str) -> str:
    """One site as CSP ``frame-ancestors`` names it, normalised (lower case, no trailing
    slash); a ``ValidationError`` saying what is wrong otherwise. Only ``https://`` (plain
    ``http://`` for localhost alone); a wildcard covers at most one registrable domain
    (``https://*.mijnclub.nl``, never ``https://*.co.uk``)."""
    shown = text.strip()
    origin = shown.lower()
    if origin.endswith("/"):
        origin = origin[:-1]
    match = _ORIGIN.match(origin)
    if match is None or (match["port"] and not 0 < int(match["port"]) < 65536):
        raise ValidationError(
            _("%(origin)s is not a website address such as https://www.schaakclub.nl "
              "(https, the host and perhaps a port; no path).") % {"origin": shown}
        )
    host = match["host"]
    if match["scheme"] == "http" and host not in LOOPBACK:
        raise ValidationError(
            _("%(origin)s is not secure: give the address with https:// (plain http:// only "
              "for localhost, to try the embeds on your own computer).") % {"origin": shown}
        )
    if host.startswith("*.") and _public_suffixes().privatesuffix(host[2:]) is None:
        raise ValidationError(
            _("%(origin)s allows too much: a wildcard covers one domain of your own, such as "
              "https://*.schaakclub.nl, not everything under %(suffix)s.")
            % {"origin": shown, "suffix": host[2:]}
        )
    return origin


def parse_origins(lines: Iterable[str]) -> list[str]:
    """Every site of the list checked (all errors at once), duplicates dropped."""
    origins: list[str] = []
    errors: list[ValidationError] = []
    for line in lines:
        if not line.strip():
            continue
        try:
            origin = parse_origin(line)
        except ValidationError as exc:
            errors.append(exc)
            continue
        if origin not in origins:
            origins.append(origin)
    if len(origins) > MAX_ORIGINS:
        errors.append(ValidationError(
            _("At most %(n)s sites may show the embeds.") % {"n": MAX_ORIGINS}))
    if errors:
        raise ValidationError(errors)
    return origins


def website_embed_origins_set(*, actor: Actor, origins: Iterable[str]) -> ClubWebsite:
    """The sites that may show the embeds in a frame (the leader's list); an empty list
    lets no site frame them. A bad address saves nothing."""
    require(actor, Perm.MANAGE_CALENDAR)
    checked = parse_origins(origins)
    with transaction.atomic(durable=True):
        website = ClubWebsite.objects.select_for_update().order_by("pk").first()
        if website is None:
            website = ClubWebsite.objects.create()
            website = ClubWebsite.objects.select_for_update().get(pk=website.pk)
        before = list(website.embed_origins)
        if before == checked:
            return website
        website.embed_origins = checked
        website.version += 1
        website.save()
        audit.record(actor=actor, action=Action.WEBSITE_EMBED_ORIGINS,
                     before={"embed_origins": before}, after={"embed_origins": checked})
        pages_changed()
    return website
