"""A member's own writes: his details at the current club (phone, e-mail preferences, how
the club's public pages show him: the club's part of him, on his ``Membership``), his
calendar feed's secret of the club, and leaving the club.

Leaving (AVG, the right to be forgotten, within what a competition must keep): his games
and standings stay (the other players' scores depend on them), under his public name —
his initials if he chose so — and everything else about him goes: the account is
deactivated and emptied (no e-mail address, phone, numbers, ratings, birth date, password
or sessions). A member asks for it himself on "My details", or the leader does it for him
on his member page; both ask for a confirmation first. Documented in docs/operations.md.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from dataclasses import dataclass

from allauth.account.models import EmailAddress
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import dateformat, timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import EveningStatus, Game, Player, PlayerKind, Registration
from core.dates import club_today
from core.pagecache import pages_changed
from core.permissions import Perm, require
from members.accounts import email_change
from members.clubs.context import club_context, current_club
from members.clubs.roles import ADMINISTRATOR, account_rank, forget_roles
from members.models import Actor, Club, Membership, PublicName, User, person
from members.names import public_name

log = logging.getLogger(__name__)
LEADER_PERM = Perm.MANAGE_REGISTRATIONS
PHONE_CHARACTERS = set("0123456789+-() ")


def _own(actor: Actor, member: User) -> None:
    if not getattr(actor, "is_authenticated", False) or actor.pk != member.pk or not actor.is_member:
        raise ValidationError(_("You can only change your own details."))


def _membership(member: User, *, lock: bool = False) -> Membership:
    """His membership of the current club: the club's part of him is set there only."""
    found = Membership.objects.filter(user_id=member.pk, club=current_club())
    found = found.select_for_update() if lock else found
    membership = found.first()
    if membership is None:
        raise ValidationError(_("You are not a member of this club."))
    return membership


def clean_phone(phone: str) -> str:
    phone = " ".join(phone.split())
    if phone and (not set(phone) <= PHONE_CHARACTERS or sum(c.isdigit() for c in phone) < 6):
        raise ValidationError(_("A phone number has digits, spaces, +, - and brackets only."))
    return phone


@transaction.atomic(durable=True)
def profile_update(
    *, actor: Actor, member: User, phone: str, public_as: str, pairing_mail: bool,
    notice_mail: bool,
) -> User:
    """His own details at the current club (his membership of it; his other clubs keep
    theirs); how the public pages show him moves the club's pages on at once."""
    _own(actor, member)
    if public_as not in PublicName.values:
        raise ValidationError(_("Choose how the public pages show you."))
    phone = clean_phone(phone)
    membership = _membership(member, lock=True)
    new = {"phone": phone, "public_as": public_as, "pairing_mail": pairing_mail,
           "notice_mail": notice_mail}
    old = {key: getattr(membership, key) for key in new}
    changed = [key for key in new if new[key] != old[key]]
    if not changed:
        return member
    for key in changed:
        setattr(membership, key, new[key])
    membership.save(update_fields=changed)
    # The phone number is not written into the trail: only that it changed.
    audit.record(actor=actor, action=Action.MEMBER_OWN_DETAILS,
                 before={k: (bool(old[k]) if k == "phone" else old[k]) for k in changed},
                 after={"member": member.pk, **{k: (bool(new[k]) if k == "phone" else new[k])
                                                for k in changed}})
    if "public_as" in changed:
        pages_changed()
    return member


@transaction.atomic(durable=True)
def email_change_request(*, actor: Actor, member: User, email: str, password: str,
                         site_url: str) -> bool:
    """He asks for a new e-mail address for himself, his password re-entered first (a
    session left open is not enough). The new address waits, unverified, beside the old
    one (which stays his sign-in) until its owner confirms it from the link sent to it;
    the old address is told at once, with a link to undo (``members.accounts.email_change``). An
    address that is another account's gets nothing, and he is answered the same (no
    answer tells whether an address has an account). Returns whether mail was queued."""
    _own(actor, member)
    member = User.objects.select_for_update().get(pk=member.pk)
    if not password or not member.check_password(password):
        raise ValidationError({"password": _("That is not your password.")})
    email = User.objects.normalize_email(email.strip()).lower()
    if email == member.email:
        raise ValidationError({"email": _("That is your address already.")})
    if User.objects.filter(email__iexact=email).exclude(pk=member.pk).exists():
        log.info("e-mail change of member %s to an address in use: nothing sent", member.pk)
        return False
    # An earlier request still open is replaced.
    EmailAddress.objects.filter(user=member, verified=False, primary=False).delete()
    EmailAddress.objects.filter(email__iexact=email, user=member).delete()
    EmailAddress.objects.create(user=member, email=email, verified=False, primary=False)
    return email_change.queue(member=member, old=member.email, new=email, site_url=site_url)


def calendar_token_renew(*, actor: Actor, member: User) -> str:
    """A new secret for his calendar feed of the current club; the old address stops
    working (his other clubs' feeds keep theirs)."""
    _own(actor, member)
    membership = _membership(member)
    token = secrets.token_urlsafe(32)
    Membership.objects.filter(pk=membership.pk).update(calendar_token=token)
    return token


def calendar_token(member: User) -> str:
    """His feed's secret at the current club, made on first use."""
    membership = _membership(member)
    if not membership.calendar_token:
        Membership.objects.filter(pk=membership.pk, calendar_token="").update(
            calendar_token=secrets.token_urlsafe(32))
        membership.refresh_from_db(fields=["calendar_token"])
    return membership.calendar_token


@dataclass(frozen=True)
class Leaving:
    """What a member's leaving changes in the club: the seasons he was a fixed player of,
    the boards of published pairings still to play that he sits on (the leader re-pairs
    or gives a bye), and the sign-ups dropped."""

    name: str
    fixed_in: tuple[str, ...] = ()
    boards: tuple[tuple[str, int], ...] = ()  # (evening date ISO, board)
    sign_ups_dropped: int = 0


def leaving_in_words(leaving: Leaving) -> list[str]:
    """What the leaving changed, said after it happened (to him, or to the leader who
    removed him)."""
    said = []
    if leaving.fixed_in:
        said.append(_("No longer a fixed player in %(seasons)s.") % {"seasons": ", ".join(leaving.fixed_in)})
    if leaving.sign_ups_dropped:
        said.append(_("Sign-ups for evenings to come removed: %(n)s.") % {"n": leaving.sign_ups_dropped})
    for date, board in leaving.boards:
        said.append(_("On board %(board)s of the published pairing of %(date)s: pair that evening "
                      "again or give his opponent a bye.") % {
                          "board": board, "date": dateformat.format(dt.date.fromisoformat(date), _("D j M"))})
    return said


def membership_clubs(member: User) -> list[Club]:
    """Every club the person is a member of, by name (a confirmation lists them)."""
    return list(Club.objects.filter(memberships__user=member).order_by("name"))


def _check_may_end(actor: Actor, member: User, club: Club) -> bool:
    """His own leaving, or the leader's decision; True when it is his own. A leader
    removes no one whose role in the club is at or above his own (but himself)."""
    if getattr(actor, "pk", None) == member.pk:
        _own(actor, member)
        return True
    require(actor, LEADER_PERM)
    who = person(actor)
    if who is None or not (who.is_superuser or account_rank(who, club) > account_rank(member, club)):
        raise ValidationError(_("%(name)s has a role in the club at or above yours; the administrator "
                                "removes him from the club.") % {"name": member.name})
    return False


@transaction.atomic(durable=True)
def membership_end(*, actor: Actor, member: User, club: Club) -> Leaving:
    """He leaves ``club`` (his own wish, or the leader removes him): that club's
    membership ends, and nothing else of his. His account, his other clubs and his games
    and standings here (under his public name) stay. At once he is no fixed player and
    nobody expects him on any evening to come (``competition.models.still_member``); his
    sign-ups for evenings not yet published go. The audit trail says what it changed, and
    the leader's to-do list shows it (a board of a published pairing he sits on, the
    fixed list)."""
    own = _check_may_end(actor, member, club)
    if club != current_club():
        raise ValidationError(_("You can only leave the club whose pages you are on."))
    membership = Membership.objects.select_for_update().filter(user=member, club=club).first()
    if membership is None:
        raise ValidationError(_("%(name)s is no member of the club (any more).") % {"name": member.name})
    _check_not_the_last_administrator(membership)
    leaving = _leave(actor, member, membership, own=own)
    pages_changed()
    return leaving


def _check_not_the_last_administrator(membership: Membership) -> None:
    if membership.role == ADMINISTRATOR and not Membership.objects.filter(
            club_id=membership.club_id, role=ADMINISTRATOR).exclude(pk=membership.pk).exists():
        raise ValidationError(_("%(name)s is the only administrator of %(club)s: give another member "
                                "that role first.") % {"name": membership.user.name,
                                                       "club": membership.club.name})


def _leave(actor: Actor, member: User, membership: Membership, *, own: bool) -> Leaving:
    """End ``membership`` (locked by the caller), in its club's context: what it changes,
    recorded in that club's audit trail."""
    with club_context(membership.club):
        today = club_today()
        players = list(Player.objects.filter(member=member, season__club=membership.club,
                                             season__end_date__gte=today).select_related("season"))
        fixed_in = tuple(p.season.name for p in players if p.kind == PlayerKind.FIXED)
        boards = tuple(
            (evening_date.isoformat(), board) for evening_date, board in
            Game.objects.filter(Q(white__in=players) | Q(black__in=players), evening__date__gte=today,
                                evening__status=EveningStatus.PUBLISHED)
            .order_by("evening__date", "board").values_list("evening__date", "board"))
        # Not published yet: nobody is paired from these sign-ups, and none counts yet.
        dropped, _kinds = Registration.objects.filter(player__in=players).exclude(
            evening__status=EveningStatus.PUBLISHED).delete()
        membership.delete()
        forget_roles(member)
        leaving = Leaving(name=member.shown_name, fixed_in=fixed_in, boards=boards,
                          sign_ups_dropped=dropped)
        audit.record(actor=actor, action=Action.MEMBER_LEAVE,
                     season=players[0].season if players else None,
                     before={"member": member.pk, "role": membership.role},
                     after={"member": member.pk, "name": leaving.name, "own": own,
                            "fixed_in": list(fixed_in), "boards": [list(b) for b in boards],
                            "sign_ups_dropped": dropped})
    return leaving


@transaction.atomic(durable=True)
def member_remove(*, actor: Actor, member: User) -> User:
    """He deletes his account: his results stay under his public name, in every club he
    played; the account is emptied and every membership ends. The person's own decision
    alone (a club's leader removes him from his club: ``membership_end``); the operator
    (a superuser) in an emergency. Never a staff account (the administrator's own)."""
    if getattr(actor, "pk", None) == member.pk:
        _own(actor, member)
    elif not getattr(actor, "is_superuser", False):
        raise ValidationError(_("Only he himself deletes his account; remove him from the club instead."))
    member = User.objects.select_for_update().get(pk=member.pk)
    if member.is_staff or member.is_superuser:
        raise ValidationError(_("An administrator's account is removed in the admin, by another administrator."))
    if not member.is_active:
        raise ValidationError(_("This account has been removed already."))
    memberships = list(Membership.objects.select_for_update().filter(user=member)
                       .select_related("club", "user"))
    for membership in memberships:
        _check_not_the_last_administrator(membership)
    shown = public_name(member) or _("former member")  # before the memberships (his choice) end
    for membership in memberships:  # each club's to-do list says he left, and what it changed
        _leave(actor, member, membership, own=True)
    audit.record(actor=actor, action=Action.MEMBER_REMOVE,
                 before={"member": member.pk, "name": member.name},
                 after={"member": member.pk, "name": shown})
    member.name = shown
    member.email = f"verwijderd-{member.pk}@leden.invalid"
    member.knsb_number = member.fide_id = ""
    member.rating = member.fide_rating = member.rating_date = member.fide_rating_date = None
    member.birth_date = None
    member.sex = member.title = ""
    member.is_active = False
    member.registration_pending = False
    member.set_unusable_password()
    member.save()
    member.groups.clear()
    member.memberships.all().delete()  # he belongs to no club any more (his phone and secrets go with it)
    EmailAddress.objects.filter(user=member).delete()
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(member.pk):
            session.delete()
    pages_changed()
    return member
