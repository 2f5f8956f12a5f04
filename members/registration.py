"""Public registration, when the club allows it (``OPEN_REGISTRATION``, off by default).

On a club's site the leader adds members (``members.services.member_add``, with an
invitation). A club that opens the sign-up form gets a request, not a member: the account
is created with ``registration_pending`` and is listed nowhere (``User.objects.members()``)
and sees nothing members see (``User.is_member``) until the leader accepts it on his
to-do list. Accepting makes him a player of the current season (flexible, at the end of
the starting order); refusing removes the account.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import Player, PlayerKind, Season
from core.permissions import Actor, Perm, require

from .models import User
from .roles import PLAYER, join_club

PERM = Perm.MANAGE_REGISTRATIONS


def registration_open() -> bool:
    """Anyone may ask for an account on the sign-up page (the club's setting)."""
    return bool(getattr(settings, "OPEN_REGISTRATION", False))


def _pending(member_id: int) -> User:
    member = User.objects.select_for_update().filter(pk=member_id).first()
    if member is None or not member.registration_pending:
        raise ValidationError(_("This registration has been decided already."))
    return member


@transaction.atomic(durable=True)
def registration_accept(*, actor: Actor, member_id: int, season: Season | None) -> User:
    """He becomes a member (the player role) and, when a season runs, a flexible player
    of it at the end of the starting order."""
    require(actor, PERM, of=season)
    member = _pending(member_id)
    member.registration_pending = False
    member.save(update_fields=["registration_pending"])
    join_club(member, role=PLAYER)
    player = None
    if season is not None:
        season = Season.objects.select_for_update().get(pk=season.pk)
        if not Player.objects.filter(season=season, member=member).exists():
            last = Player.objects.filter(season=season).order_by("-start").first()
            player = Player.objects.create(
                season=season, member=member, kind=PlayerKind.FLEXIBLE, rating=member.rating,
                start=(last.start + 1) if last else 1,
            )
    audit.record(actor=actor, action=Action.MEMBER_ACCEPT, player=player,
                 season=season, after={"member": member.pk, "name": member.name,
                                       "email": member.email})
    return member


@transaction.atomic(durable=True)
def registration_refuse(*, actor: Actor, member_id: int) -> str:
    """The account is removed (it never was a member: nothing of it is kept but the audit
    line). Returns the name it was registered under."""
    require(actor, PERM)
    member = _pending(member_id)
    name, email = member.name, member.email
    audit.record(actor=actor, action=Action.MEMBER_REFUSE,
                 after={"member": member.pk, "name": name, "email": email})
    member.delete()
    return name
