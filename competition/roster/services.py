"""The leader's writes about members: add a member (with an invitation to set his
password), change his details, and set the season's starting order.

Permission: ``competition.manage_registrations`` (the leader and the administrator), the
same as signing players up and off on their behalf: who takes part and where he starts is
the leader's daily work, not the administrator's set-up (docs/leader.md).

The starting order is free to change until the season's first game. Afterwards a Keizer
starting order is fixed (it decides standings already published); the ladder's starting
position (``van``) may still be moved, and every game of the season is recalculated with
it (docs/rules.md 4.2).
"""

from __future__ import annotations

import uuid
from typing import Any

from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import ClubDutyRequest, Game, Half, Player, PlayerKind, RatingKind, Season
from competition.season.services import renumber, schedule_recalculation
from core import mail
from core.models import Mail, MailState
from core.permissions import Perm, require
from core.tenancy.context import club_in_hand
from core.validators import require_single_line
from members.accounts import invitations, joining
from members.clubs.context import current_club
from members.clubs.roles import (
    ADMINISTRATOR,
    PLAYER,
    ROLES,
    account_rank,
    club_role,
    has_signed_in,
    join_club,
    may_manage_account,
    other_clubs,
    set_club_role,
)
from members.models import Actor, Membership, User, person

PERM = Perm.MANAGE_REGISTRATIONS
NO_ADDRESS_DOMAIN = "geen-adres.invalid"


def season_has_games(season: Season) -> bool:
    """The season is under way: its starting order has decided standings."""
    return Game.objects.filter(evening__season=season).exists()


def _recalculate_season(season: Season) -> None:
    for half_id in Half.objects.filter(season=season).values_list("pk", flat=True):
        schedule_recalculation(half_id)


def _check_kind(season: Season, kind: str) -> None:
    if kind not in PlayerKind.values:
        raise ValidationError(_("Unknown kind of player '%(k)s'.") % {"k": kind})
    if kind == PlayerKind.FIXED and season_has_games(season):
        raise ValidationError(
            _("The season is under way: a player who joins now is a flexible player "
              "(a fixed player opts in before the first evening).")
        )


def no_address() -> str:
    """An address for a member without one: the reserved domain ``.invalid`` (RFC 2606)
    is never delivered to (``core.mail`` drops it), and it keeps ``User.email`` unique."""
    return f"lid-{uuid.uuid4().hex[:16]}@{NO_ADDRESS_DOMAIN}"


def has_address(member: User) -> bool:
    return not member.email.endswith(f"@{NO_ADDRESS_DOMAIN}")


def _knsb_number(value: str) -> str:
    """A KNSB relation number is digits only (the federation's lists match on it)."""
    value = value.strip()
    if value and not (value.isascii() and value.isdigit()):
        raise ValidationError({"knsb_number": _(
            "A KNSB relation number has digits only, for example 8123456; not '%(v)s'."
        ) % {"v": value}})
    return value


@transaction.atomic(durable=True)
def member_add(**arguments: Any) -> Player:
    """A new member, taking part in ``season`` from now on, invited by e-mail to set his
    password (``member_add_within``, in a transaction of its own)."""
    return member_add_within(**arguments)


def member_add_within(
    *,
    actor: Actor,
    season: Season,
    name: str,
    email: str,
    rating: int | None = None,
    knsb_number: str = "",
    kind: str = PlayerKind.FLEXIBLE,
    site_url: str,
) -> Player:
    """A person added by e-mail address, taking part in ``season`` from now on, in the
    caller's transaction (``member_add`` opens its own; the member list's import adds all
    its rows in one, ``competition.roster.memberimport``).

    A new address: a new member, invited by e-mail to set his password; he joins at the end
    of the starting order, and on his first evening the pairing places him next to the
    player whose rating is closest to his (docs/rules.md 3). Without an address
    (``email=""``, a member list's row without one) he gets one that never receives mail
    (``no_address``) and no invitation: a player whom the leader signs up. An address that
    has an account already (another club's member, or his own registration): an invitation
    to join this club, which he accepts himself (``members.accounts.joining``); until then nothing
    of his account is changed or shown. The leader's answer is the same for both (the
    returned player's name and address are what he typed; for an invitation it is not
    saved), so no leader learns which addresses exist on the platform."""
    require(actor, PERM, of=season)
    season = Season.objects.select_for_update().get(pk=season.pk)
    email = User.objects.normalize_email(email.strip()).lower() or no_address()
    name = name.strip()
    if not name:
        raise ValidationError(_("A member needs a name."))
    require_single_line(name, field="name")
    knsb = _knsb_number(knsb_number)
    _check_kind(season, kind)
    existing = User.objects.select_for_update().filter(email__iexact=email).first()
    if existing is not None:
        return _add_existing(actor=actor, season=season, member=existing, name=name, email=email,
                             rating=rating, knsb_number=knsb, kind=kind, site_url=site_url)
    member = User(email=email, name=name, rating=rating, knsb_number=knsb)
    member.set_unusable_password()
    member.full_clean(exclude=["password"])
    member.save()
    join_club(member, season.club, PLAYER)  # he signs himself up and off
    # Not verified: the invitation's link goes to it, and setting the password with that
    # link is what verifies it (members.signals), so the leader never vouches for it.
    if has_address(member):
        EmailAddress.objects.create(user=member, email=email, verified=False, primary=True)
    last = Player.objects.filter(season=season).order_by("-start").first()
    player = Player.objects.create(
        season=season, member=member, kind=kind,
        rating=rating if season.competition.start_rating == RatingKind.KNSB else None,
        start=(last.start + 1) if last else 1,
    )
    _audit_add(actor, season, player, name=name, email=email, rating=rating, knsb_number=knsb,
               kind=kind, start=player.start)
    if has_address(member):
        _invite(actor, player, site_url)
    return player


def _audit_add(actor: Actor, season: Season, player: Player | None, **after: Any) -> None:
    audit.record(actor=actor, action=Action.MEMBER_ADD, player=player, season=season, after=after)


def _add_existing(*, actor: Actor, season: Season, member: User, name: str, email: str,
                  rating: int | None, knsb_number: str, kind: str, site_url: str) -> Player:
    """An address with an account. Already this club's member: he is the club's to see, so
    he is added to the season at once, or told to be in it. Anyone else's: an invitation
    to join (``members.accounts.joining``), answered as a new person's addition is."""
    if Membership.objects.filter(user=member, club=season.club).exists() and member.is_member:
        if Player.objects.filter(season=season, member=member).exists():
            raise ValidationError(
                _("%(name)s is a player of this season already.") % {"name": member.name})
        last = Player.objects.filter(season=season).order_by("-start").first()
        player = Player.objects.create(
            season=season, member=member, kind=kind,
            rating=member.rating if season.competition.start_rating == RatingKind.KNSB else None,
            start=(last.start + 1) if last else 1,
        )
        _audit_add(actor, season, player, name=member.name, email=member.email, rating=member.rating,
                   knsb_number=member.knsb_number, kind=kind, start=player.start)
        return player
    joining.invite_existing(actor=actor, season=season, member=member, name=name, kind=kind,
                            site_url=site_url)
    last = Player.objects.filter(season=season).order_by("-start").first()
    start = (last.start + 1) if last else 1
    _audit_add(actor, season, None, name=name, email=email, rating=rating,
               knsb_number=knsb_number, kind=kind, start=start)
    audit.record(actor=actor, action=Action.MEMBER_INVITE, season=season,
                 after={"email": email, "name": name})
    # Not saved: what the leader typed, for his answer (the same as for a new person).
    return Player(season=season, member=User(email=email, name=name, rating=rating,
                                             knsb_number=knsb_number), kind=kind, start=start)


def _check_may_manage(actor: Actor, member: User) -> None:
    if not may_manage_account(actor, member):
        raise ValidationError(
            _("The e-mail address and password of %(name)s can only be changed by himself "
              "or by someone with a higher role (the administrator).") % {"name": member.name}
        )


def _invite(actor: Actor, player: Player, site_url: str) -> None:
    audit.record(actor=actor, action=Action.MEMBER_INVITE, player=player,
                 after={"email": player.member.email})
    invitations.queue(member=player.member, site_url=site_url)


@transaction.atomic(durable=True)
def member_invite_again(*, actor: Actor, player: Player, site_url: str) -> Player:
    """Send the invitation again (the link of the first one has expired, or was lost).
    A member who has set his password already signs in, or asks for a new one himself."""
    require(actor, PERM, of=player)
    player = Player.objects.select_related("member").get(pk=player.pk)
    _check_invitable(actor, player.member)
    waiting = joining.waiting_for(player)
    if waiting is not None:  # the corrected address is an account's: its invitation to join
        audit.record(actor=actor, action=Action.MEMBER_INVITE, player=player,
                     after={"email": waiting.user.email})
        joining.invite_again(waiting, site_url=site_url)
        return player
    _invite(actor, player, site_url)
    return player


def _check_invitable(actor: Actor, member: User) -> None:
    if member.has_usable_password():
        raise ValidationError(
            _("%(name)s has set a password already; he can ask for a new one on the sign-in page.")
            % {"name": member.name}
        )
    _check_may_manage(actor, member)


@transaction.atomic(durable=True)
def mail_retry(*, actor: Actor, mail_id: int, site_url: str) -> Mail:
    """An e-mail to a member that was given up (the leader's to-do list shows it) goes
    again: an invitation is replaced by a new one (the invite-again rules: not for a
    member who has set his password), any other (a club duty decision) is put back in the
    outbox as it was, its attempts counted anew. Only a given-up mail: asking twice, or
    for a mail that went, changes nothing and says why. An e-mail address change concerns
    the member alone and is not the leader's to retry."""
    require(actor, PERM)
    row = (Mail.objects.select_for_update(of=("self",)).select_related("member")
           .filter(pk=mail_id, club=current_club()).first())  # never another club's
    if row is None:
        raise ValidationError(_("This e-mail does not exist (any more)."))
    if row.kind not in mail.LEADER_KINDS or row.member is None:
        raise ValidationError(
            _("This e-mail concerns the member alone; it is not yours to send again."))
    if row.state != MailState.FAILED:
        raise ValidationError(
            _("This e-mail to %(name)s was not given up (it went, or is on its way again): "
              "nothing to send again.") % {"name": row.member.name})
    member = row.member
    if row.kind == mail.INVITATION:
        _check_invitable(actor, member)
        player = (Player.objects.filter(member=member).select_related("member")
                  .order_by("-season__start_date").first())
        audit.record(actor=actor, action=Action.MEMBER_INVITE, player=player,
                     after={"email": member.email, "member": member.pk, "replaces": row.pk})
        invitations.queue(member=member, site_url=site_url)
        mail.replaced(row)
        return row
    duty = _club_duty_of(row)
    audit.record(actor=actor, action=Action.MAIL_RETRY,
                 player=duty.player if duty else None, evening=duty.evening if duty else None,
                 after={"mail": row.pk, "kind": row.kind, "name": member.name, "to": row.to})
    mail.retry(row)
    return row


def _club_duty_of(row: Mail) -> ClubDutyRequest | None:
    """The club duty request of a "club-duty:<request id>:<version>" mail, if still there."""
    parts = row.key.split(":")
    if len(parts) < 2 or not parts[1].isdigit():
        return None
    return ClubDutyRequest.objects.select_related("player", "evening").filter(pk=int(parts[1])).first()


PERSON_FIELDS = ("name", "email", "rating", "knsb_number")  # the person's, on this form


def person_is_shared(member: User) -> bool:
    """The person is a member of another club too: his own fields (name, e-mail, KNSB
    rating and number) are not this club's to change (the form says so)."""
    return other_clubs(member)


def _check_may_correct_address(actor: Actor, member: User) -> None:
    """Only an invitation not yet accepted, of an account of this club alone, below the
    leader's own role, has its address corrected by the leader (``may_manage_account``)."""
    who = person(actor)
    if who is None or not (who.is_superuser or account_rank(who, current_club()) > account_rank(member)):
        _check_may_manage(actor, member)  # says: a higher role
    if has_signed_in(member):
        raise ValidationError(
            _("%(name)s has signed in already: his e-mail address and password are his own. "
              "He changes them himself on \"My details\".") % {"name": member.name})
    _check_may_manage(actor, member)


def _correct_address(actor: Actor, player: Player, member: User, email: str, site_url: str) -> None:
    """The invitation went to a wrong address: the account (never signed in) takes the
    corrected one, unverified, and the invitation goes again, to it.

    The corrected address may have an account already (a member of another club, his own
    registration): then, as when the leader adds a person by that address, that account
    is invited to join (``members.accounts.joining``) and takes over this player row when he
    accepts; the account the leader made keeps the row until then, with no address (the
    old invitation's link no longer works: it was made for the old address). The leader's
    answer, the audit line and his member list are the same as for a new address, so he
    learns nothing of the other account; nothing of it changes."""
    waiting = joining.waiting_for(player)
    if waiting is not None:  # corrected once more: that invitation is withdrawn
        waiting.delete()
    existing = User.objects.select_for_update().filter(email__iexact=email).exclude(pk=member.pk).first()
    EmailAddress.objects.filter(user=member).delete()
    if existing is None:
        EmailAddress.objects.create(user=member, email=email, verified=False, primary=True)
        member.email = email
        member.save(update_fields=["email"])
        _invite(actor, player, site_url)
        return
    member.email = no_address()
    member.save(update_fields=["email"])
    joining.invite_existing(actor=actor, season=player.season, member=existing, name=member.name,
                            kind=player.kind, site_url=site_url, player=player)
    audit.record(actor=actor, action=Action.MEMBER_INVITE, player=player, after={"email": email})


def _check_not_this_clubs(email: str, member: User, club: Any) -> None:
    """The corrected address is a member's of this club already: the leader sees him on
    his own lists, so saying so tells him nothing of another club."""
    taken = (User.objects.filter(email__iexact=email, memberships__club=club, is_active=True,
                                 registration_pending=False).exclude(pk=member.pk).first())
    if taken is not None:
        raise ValidationError(
            _("%(name)s, a member of this club, has the e-mail address %(e)s; add him to the "
              "season instead.") % {"name": taken.name, "e": email})


def shown_email(player: Player) -> str:
    """The address the leader's pages show for ``player``: the one he typed, also when it
    is another account's that is invited to take the row over."""
    waiting = joining.waiting_for(player)
    return waiting.user.email if waiting is not None else player.member.email


@transaction.atomic(durable=True)
def member_update(
    *,
    actor: Actor,
    player: Player,
    name: str,
    email: str,
    rating: int | None,
    knsb_number: str,
    kind: str,
    site_url: str,
) -> Player:
    """Change a member's name, e-mail, KNSB rating and number, and his kind in this
    season. Before the first game his rating is also his rating on 1 September (the
    starting order's); afterwards that one stays as it was. The kind is the season's
    choice made before its first evening, so it is fixed once the season has games.

    The sign-in is the person's (docs/architecture.md, "The person and his memberships"):
    the leader corrects the e-mail address only of an invitation not yet accepted, of an
    account of his club alone and below his role (the invitation goes again, to the
    corrected address); never once the person has signed in. His name, KNSB rating and
    number are his own as soon as he is a member of another club too: then only the kind
    (the club's part) changes here."""
    require(actor, PERM, of=player)
    season = Season.objects.select_for_update().get(pk=player.season_id)
    player = Player.objects.select_for_update(of=("self",)).select_related("member").get(pk=player.pk)
    member = player.member = User.objects.select_for_update().get(pk=player.member_id)
    email = User.objects.normalize_email(email.strip()).lower()
    name = name.strip()
    if not name:
        raise ValidationError(_("A member needs a name."))
    require_single_line(name, field="name")
    if kind not in PlayerKind.values:
        raise ValidationError(_("Unknown kind of player '%(k)s'.") % {"k": kind})
    under_way = season_has_games(season)
    if kind != player.kind and under_way:
        raise ValidationError(
            _("The season is under way: a player's kind (fixed or flexible) no longer changes.")
        )
    new: dict[str, Any] = {"name": name, "email": email, "rating": rating,
                           "knsb_number": _knsb_number(knsb_number), "kind": kind}
    old: dict[str, Any] = {"name": member.name, "email": shown_email(player), "rating": member.rating,
                           "knsb_number": member.knsb_number, "kind": player.kind}
    changed = [key for key in new if new[key] != old[key]]
    if not changed:
        return player
    if any(key in PERSON_FIELDS for key in changed) and person_is_shared(member):
        raise ValidationError(
            _("%(name)s is also a member of another club: his name, e-mail address, KNSB "
              "rating and relation number are his own and are not changed here. He changes "
              "them himself on \"My details\".") % {"name": member.name})
    if "email" in changed:
        _check_may_correct_address(actor, member)
        _check_not_this_clubs(email, member, season.club)
    member.name, member.rating, member.knsb_number = name, rating, new["knsb_number"]
    member.full_clean(exclude=["password", "email"])
    member.save(update_fields=["name", "rating", "knsb_number"])
    if "email" in changed:
        _correct_address(actor, player, member, email, site_url)
    player.kind = kind
    if not under_way and season.competition.start_rating == RatingKind.KNSB:
        player.rating = rating  # the form's rating is the KNSB one
    player.save(update_fields=["kind", "rating"])
    audit.record(
        actor=actor, action=Action.MEMBER_CHANGE, player=player,
        before={k: old[k] for k in changed}, after={k: new[k] for k in changed},
    )
    if "name" in changed or "kind" in changed:
        _recalculate_season(season)  # the standings show the name; the kind scores absences
    return player


def _check_order_open(season: Season) -> None:
    if season_has_games(season) and not season.competition.is_ladder:
        raise ValidationError(
            _("The season has games already: its starting order decides the standings and "
              "no longer changes.")
        )


@transaction.atomic(durable=True)
def starting_order_by_rating(*, actor: Actor, season: Season) -> list[Player]:
    """The starting order by rating on 1 September, highest first (docs/rules.md 4.1), before
    the first game. Adjust it afterwards with ``player_move``."""
    require(actor, PERM, of=season)
    season = Season.objects.select_for_update(of=("self",)).select_related("competition").get(pk=season.pk)
    if season_has_games(season):
        raise ValidationError(
            _("The season has games already: its starting order is no longer set from ratings.")
        )
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season)
                   .select_related("member"))
    before = {str(p.pk): p.start for p in players}
    ordered = sorted(players, key=lambda p: (-(p.rating or 0), p.member.name, p.pk))
    renumber(ordered, "start")
    audit.record(actor=actor, action=Action.PLAYERS_ORDER_BY_RATING, season=season,
                 before=before, after={str(p.pk): p.start for p in ordered})
    return ordered


@transaction.atomic(durable=True)
def player_move(*, actor: Actor, player: Player, position: int) -> Player:
    """Put ``player`` at ``position`` in the starting order; the players in between move
    one place. Before the first game for any competition; for the ladder also later, with
    retroactive effect: every game of the season is scored again (docs/rules.md 4.2)."""
    require(actor, PERM, of=player)
    season = Season.objects.select_for_update(of=("self",)).select_related("competition").get(pk=player.season_id)
    _check_order_open(season)
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season)
                   .order_by("start"))
    if not 1 <= position <= len(players):
        raise ValidationError(
            _("A starting position is between 1 and %(n)s.") % {"n": len(players)}
        )
    moving = next(p for p in players if p.pk == player.pk)
    before = moving.start
    others = [p for p in players if p.pk != moving.pk]
    ordered = others[: position - 1] + [moving] + others[position - 1:]
    if [p.pk for p in ordered] == [p.pk for p in players]:
        return moving
    renumber(ordered, "start")
    audit.record(actor=actor, action=Action.PLAYER_START, player=moving,
                 before={"start": before}, after={"start": position})
    if season_has_games(season):
        _recalculate_season(season)
    return moving


# --- Roles (the administrator) ----------------------------------------------------------

ROLE_PERM = Perm.MANAGE_SEASON


def role_of(member: User) -> str | None:
    """The member's role in the current club (his ``Membership``), or None."""
    role = club_role(member)
    return role if role in ROLES else None


def _fide_id(value: str) -> str:
    value = value.strip()
    if value and not (value.isascii() and value.isdigit()):
        raise ValidationError({"fide_id": _(
            "A FIDE id has digits only, for example 1503014; not '%(v)s'."
        ) % {"v": value}})
    return value


@transaction.atomic(durable=True)
def member_set_role(*, actor: Actor, member: User, role: str, fide_id: str) -> User:
    """The administrator gives a member his role (player, arbiter, leader, administrator:
    one of them, the permissions are the role's) and sets his FIDE id. He cannot take
    the administrator's role from himself (nobody would be left to give it back)."""
    require(actor, ROLE_PERM)
    if role not in ROLES:
        raise ValidationError({"role": _("Unknown role '%(r)s'.") % {"r": role}})
    member = User.objects.select_for_update().get(pk=member.pk)
    fide = _fide_id(fide_id)
    before = {"role": role_of(member), "fide_id": member.fide_id}
    if member.pk == actor.pk and before["role"] == ADMINISTRATOR and role != ADMINISTRATOR:
        raise ValidationError({"role": _(
            "You cannot take the administrator's role from yourself; ask another administrator."
        )})
    if before == {"role": role, "fide_id": fide}:
        return member
    if fide != member.fide_id and person_is_shared(member):
        raise ValidationError({"fide_id": _(
            "%(name)s is also a member of another club: his FIDE id is his own and is not "
            "changed here.") % {"name": member.name}})
    set_club_role(member, role, club_in_hand())
    member.fide_id = fide
    member.save(update_fields=["fide_id"])
    audit.record(actor=actor, action=Action.MEMBER_ROLE, before=before,
                 after={"role": role, "fide_id": fide, "member": member.pk, "name": member.name})
    return member
