"""Public registration, each club's own choice (``Club.open_registration``, off by default).

On a club's site the leader adds members (``competition.roster.services.member_add``, with an
invitation). A club that opens the sign-up form gets a request, not a member: the account
is created with ``registration_pending`` and a ``JoinRequest`` of kind ``registration``
for the club of the address the form was sent at (``record_registration``). It is listed
nowhere (``User.objects.members()``) and sees nothing members see (``User.is_member``)
until that club's leader, and only his, accepts it on his to-do list. Accepting makes him
a player of the club's current season (flexible, at the end of the starting order);
refusing removes the request, and the account with it only when it never belonged to any
club and asks no other club: an account that has (or had) a membership is kept.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import Player, PlayerKind, Season
from core.permissions import Perm, require
from members.clubs.context import current_club
from members.clubs.roles import PLAYER, join_club
from members.models import Actor, Club, JoinKind, JoinRequest, Membership, User

PERM = Perm.MANAGE_REGISTRATIONS


def registration_open(club: Club | None = None) -> bool:
    """Anyone may ask for an account on the sign-up page of ``club`` (the current club):
    the club's own setting. A page of no club opens no registration."""
    club = club or current_club()
    return bool(club is not None and club.open_registration)


def record_registration(member: User, club: Club | None = None) -> JoinRequest | None:
    """A new account made on the sign-up page asks to join the club of its address."""
    club = club or current_club()
    if club is None:
        return None
    request, _created = JoinRequest.objects.get_or_create(
        user=member, club=club, defaults={"kind": JoinKind.REGISTRATION})
    return request


def pending_registrations(club: Club) -> list[User]:
    """The accounts asking to join ``club``, oldest first (the leader's to-do list)."""
    return list(User.objects.filter(join_requests__club=club,
                                    join_requests__kind=JoinKind.REGISTRATION, is_active=True)
                .order_by("join_requests__created", "pk"))


def _pending(member_id: int, club: Club) -> tuple[User, JoinRequest]:
    request = (JoinRequest.objects.select_for_update()
               .filter(user_id=member_id, club=club, kind=JoinKind.REGISTRATION).first())
    member = User.objects.select_for_update().filter(pk=member_id, is_active=True).first()
    if request is None or member is None:
        raise ValidationError(_("This registration has been decided already."))
    return member, request


def _club(season: Season | None) -> Club:
    club = season.club if season is not None else current_club()
    if club is None:
        raise ValidationError(_("This registration has been decided already."))
    return club


@transaction.atomic(durable=True)
def registration_accept(*, actor: Actor, member_id: int, season: Season | None) -> User:
    """He becomes a member of the club (the player role) and, when a season runs, a
    flexible player of it at the end of the starting order."""
    require(actor, PERM, of=season)
    club = _club(season)
    member, request = _pending(member_id, club)
    if member.registration_pending:
        member.registration_pending = False
        member.save(update_fields=["registration_pending"])
    join_club(member, club, PLAYER)
    request.delete()
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


def refusal_removes_account(member: User, club: Club) -> bool:
    """Refusing removes the account only when it is nobody's but this request's: never a
    member anywhere (``registration_pending``), no club's member now, no other request."""
    return (member.registration_pending
            and not Membership.objects.filter(user=member).exists()
            and not JoinRequest.objects.filter(user=member).exclude(club=club).exists())


@transaction.atomic(durable=True)
def registration_refuse(*, actor: Actor, member_id: int) -> str:
    """The request to join the current club is removed; so is the account when it never
    was anyone's member and asks no other club (nothing of it is kept but the audit
    line). Returns the name it was registered under."""
    require(actor, PERM)
    club = _club(None)
    member, request = _pending(member_id, club)
    name, email = member.name, member.email
    removes = refusal_removes_account(member, club)
    audit.record(actor=actor, action=Action.MEMBER_REFUSE,
                 after={"member": member.pk, "name": name, "email": email})
    request.delete()
    if removes:
        member.delete()
    return name
