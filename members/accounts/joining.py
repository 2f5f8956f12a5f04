"""Joining a club with an account that exists: the club invites, the person accepts.

A leader adds a person by e-mail address whatever exists (``services.member_add``). An
address with no account gets a new account and the invitation to set a password, as on
a single-club installation. An address that has an account (at another club, or one the
person made himself) gets an invitation to join this club instead: a ``JoinRequest`` of
kind ``invitation`` and an e-mail with a link to ``/<club>/me/join/``, where the person,
signed in, reads what joining means and accepts with one click (``join_accept``) or
declines (``join_decline``). Until he accepts he is no member of the club: no role, no
player, nothing of him on the club's pages but the name and address the leader typed, on
the leader's own member list, marked "invited" as a new person's is.

The leader's answer is the same in both cases (the same message, the same audit line), so
no leader learns from adding a person which addresses exist on the platform.
"""

from __future__ import annotations

import uuid

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import ProtectedError
from django.urls import reverse
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import Game, Player, PlayerKind, Season
from core import mail
from members.clubs.addresses import club_sender, on_site, site_name
from members.clubs.context import current_club
from members.clubs.roles import PLAYER, has_signed_in, join_club, other_clubs
from members.models import Actor, Club, JoinKind, JoinRequest, Membership, User


def invite_existing(*, actor: Actor, season: Season, member: User, name: str, kind: str,
                    site_url: str, player: Player | None = None) -> JoinRequest:
    """In the caller's transaction (``member_add``): invite ``member``'s account to join
    ``season``'s club, as ``kind`` of player of ``season`` once he accepts. A second
    invitation replaces the first (the latest season and kind count). ``player``: the row
    the leader made for an address he then corrected to this account's (``member_update``);
    the person takes it over on accepting."""
    request, _created = JoinRequest.objects.update_or_create(
        user=member, club=season.club,
        defaults={"kind": JoinKind.INVITATION, "season": season, "player_kind": kind, "name": name,
                  "player": player},
    )
    _queue_mail(member=member, club=season.club, site_url=site_url)
    return request


def invite_again(request: JoinRequest, *, site_url: str) -> None:
    """The invitation's e-mail once more (the leader's "send the invitation again")."""
    _queue_mail(member=request.user, club=request.club, site_url=site_url)


def waiting_for(player: Player) -> JoinRequest | None:
    """The invitation that would hand ``player``'s row to an existing account, if any."""
    return (JoinRequest.objects.filter(player=player, kind=JoinKind.INVITATION)
            .select_related("user", "club").first())


def _queue_mail(*, member: User, club: Club, site_url: str) -> None:
    context = {"member": member, "club": site_name(club),
               "url": on_site(site_url, reverse("me:join")),
               "home": on_site(site_url, reverse("competition:home"))}
    subject, body = mail.render("members/join_invitation", context)
    mail.queue(key=f"{mail.INVITATION}:{member.pk}:{uuid.uuid4().hex}", subject=subject, body=body,
               to=[member.email], member=member, sender=club_sender(club))


def open_invitation(user: object, club: Club | None = None) -> JoinRequest | None:
    """The invitation of the signed-in ``user`` to join ``club`` (the current club), if any."""
    club = club or current_club()
    if club is None or not getattr(user, "is_authenticated", False):
        return None
    return (JoinRequest.objects.filter(user_id=user.pk, club=club,  # type: ignore[attr-defined]
                                       kind=JoinKind.INVITATION)
            .select_related("season", "club").first())


def _own_invitation(actor: Actor, club: Club) -> JoinRequest:
    if not getattr(actor, "is_authenticated", False) or not actor.is_active:  # type: ignore[union-attr]
        raise ValidationError(_("Sign in to answer an invitation."))
    request = (JoinRequest.objects.select_for_update()
               .filter(user_id=actor.pk, club=club, kind=JoinKind.INVITATION).first())
    if request is None:
        raise ValidationError(_("There is no invitation to join this club (any more)."))
    return request


@transaction.atomic(durable=True)
def join_accept(*, actor: Actor, club: Club) -> Player | None:
    """He accepts: a player of ``club`` and, when the invitation named a season that has
    not ended, a player of it at the end of its starting order (as the kind invited, or
    flexible when the season is under way)."""
    request = _own_invitation(actor, club)
    member = User.objects.select_for_update().get(pk=request.user_id)
    join_club(member, club, PLAYER)
    if member.registration_pending:  # his own registration elsewhere: he is somebody's member now
        member.registration_pending = False
        member.save(update_fields=["registration_pending"])
    player = _take_over(request, member, club)
    if player is None and request.season_id is not None:
        season = Season.objects.select_for_update().get(pk=request.season_id)
        player = Player.objects.filter(season=season, member=member).first()
        if player is None:
            kind = request.player_kind if request.player_kind in PlayerKind.values else PlayerKind.FLEXIBLE
            if kind == PlayerKind.FIXED and Game.objects.filter(evening__season=season).exists():
                kind = PlayerKind.FLEXIBLE
            last = Player.objects.filter(season=season).order_by("-start").first()
            player = Player.objects.create(season=season, member=member, kind=kind,
                                           rating=member.rating, start=(last.start + 1) if last else 1)
    request.delete()
    audit.record(actor=actor, action=Action.MEMBER_JOIN, player=player,
                 after={"member": member.pk, "name": member.name, "club": club.pk})
    return player


def _take_over(request: JoinRequest, member: User, club: Club) -> Player | None:
    """A corrected invitation: the person takes over the player row the leader made for
    the address first typed (its starting position and results), with every other row of
    that placeholder account in this club, and the placeholder, which nobody ever signed
    in with and which belongs to this club alone, is removed (or, when something still
    names it, left without a club, an address or a password)."""
    if request.player_id is None:
        return None
    player = Player.objects.select_for_update(of=("self",)).filter(pk=request.player_id).first()
    if player is None:
        return None
    placeholder = User.objects.select_for_update().get(pk=player.member_id)
    if placeholder.pk == member.pk or has_signed_in(placeholder) or other_clubs(placeholder, club):
        return None  # never another person's account
    for row in Player.objects.select_for_update(of=("self",)).filter(member=placeholder, season__club=club):
        if not Player.objects.filter(season_id=row.season_id, member=member).exists():
            row.member = member
            row.save(update_fields=["member"])
    player.refresh_from_db()
    Membership.objects.filter(user=placeholder, club=club).delete()
    try:
        with transaction.atomic():
            placeholder.delete()
    except ProtectedError:  # a row of his that the person already had in that season
        pass
    return player if player.member_id == member.pk else None


@transaction.atomic(durable=True)
def join_decline(*, actor: Actor, club: Club) -> None:
    """He declines: the invitation is gone; his account and other clubs are as they were."""
    request = _own_invitation(actor, club)
    request.delete()
    audit.record(actor=actor, action=Action.MEMBER_JOIN_DECLINE,
                 after={"member": actor.pk, "club": club.pk})


def is_member_of(user: object, club: Club) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and Membership.objects.filter(
        user_id=user.pk, club=club).exists()  # type: ignore[attr-defined]
