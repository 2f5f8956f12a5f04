"""The platform operator's use cases: a new club, handed to its first leader.

An operator is a superuser (``is_superuser``): he runs the installation, not a club's
competition. He creates a club (name and address) and names the person who runs it; that
person becomes the club's administrator (he gives the other roles, sets up the season)
and gets the invitation e-mail with a link to set his password. Everything else is the
club's own business, on its own pages."""

from __future__ import annotations

import logging
import re

from allauth.account.models import EmailAddress
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import get_resolver
from django.utils.translation import gettext as _

from competition.models import System
from members.accounts import invitations
from members.clubs.context import club_context
from members.clubs.roles import ADMINISTRATOR
from members.models import Actor, Club, Membership, User

log = logging.getLogger(__name__)

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def platform_segments() -> set[str]:
    """The first path segments the site itself uses (admin, accounts, api, ...): no club
    may take one as its address. Read from the URL configuration, so a new top-level
    path is reserved the day it is added."""
    segments: set[str] = set()
    stack = list(get_resolver().url_patterns)
    while stack:
        pattern = stack.pop()
        text = str(pattern.pattern).lstrip("^/")
        first = re.split(r"[/<]", text, maxsplit=1)[0]
        if first:
            segments.add(first.rstrip("$"))
        elif hasattr(pattern, "url_patterns"):
            stack.extend(pattern.url_patterns)  # include("...") at the root: its own paths
    return segments | {"static", "media", "favicon.ico", "robots.txt"}


def is_operator(actor: Actor) -> bool:
    return bool(getattr(actor, "is_authenticated", False) and getattr(actor, "is_superuser", False))


def clean_slug(slug: str) -> str:
    slug = slug.strip().lower()
    if not SLUG.match(slug) or len(slug) > 40:
        raise ValidationError({"slug": _(
            "An address has lower-case letters, digits and hyphens (at most 40), for example "
            "'sc-de-toren'; not '%(s)s'."
        ) % {"s": slug}})
    if slug in platform_segments():
        raise ValidationError({"slug": _(
            "'%(s)s' is a part of the site itself; choose another address."
        ) % {"s": slug}})
    if Club.objects.filter(slug=slug).exists():
        raise ValidationError({"slug": _("A club with the address '%(s)s' exists already.") % {"s": slug}})
    return slug


@transaction.atomic
def club_create(*, actor: Actor, name: str, slug: str, leader_email: str, leader_name: str,
                venue: str = "", time_zone: str = "Europe/Amsterdam",
                default_system: str = "pion") -> tuple[Club, User]:
    """A new club, and its first leader as its administrator. He gets the first leader's
    invitation (the club's name, his role, the first steps; every link under the club's
    own address, queued as the new club's mail) when his account is new (or has never had
    a password); an account that exists already (a member of another club) keeps its
    password and simply joins."""
    if not is_operator(actor):
        raise PermissionDenied(_("Only the platform's operator creates clubs."))
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("The club needs a name.")})
    if default_system not in System.values:
        raise ValidationError({"default_system": _(
            "'%(s)s' is no rules preset; choose one of: %(known)s."
        ) % {"s": default_system, "known": ", ".join(System.values)}})
    club = Club(name=name, slug=clean_slug(slug), venue=venue.strip(), time_zone=time_zone,
                default_system=default_system)
    club.full_clean()
    email = User.objects.normalize_email(leader_email.strip()).lower()
    leader = User.objects.filter(email__iexact=email).first()
    if leader is None:
        if not leader_name.strip():
            raise ValidationError({"leader_name": _("The new leader needs a name.")})
        leader = User(email=email, name=leader_name.strip())
        leader.set_unusable_password()
        leader.full_clean(exclude=["password"])
        leader.save()
        EmailAddress.objects.create(user=leader, email=email, verified=False, primary=True)
    club.save()
    Membership.objects.create(user=leader, club=club, role=ADMINISTRATOR)
    with club_context(club):  # the new club's mail: its id, sender, name, language, links
        invitations.queue_first_leader(member=leader, club=club)  # none for an account with a password
    log.info("club %s created by operator %s; first leader %s", club.slug, actor.pk, leader.pk)
    return club, leader
