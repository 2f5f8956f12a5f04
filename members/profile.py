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

import secrets

from allauth.account.models import EmailAddress
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from core.pagecache import pages_changed
from core.permissions import Actor, Perm, require

from .context import current_club
from .models import Membership, PublicName, User
from .names import public_name

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


@transaction.atomic(durable=True)
def member_remove(*, actor: Actor, member: User) -> User:
    """He leaves: his results stay under his public name, his account is removed. By the
    member himself or by the leader; never a staff account (the administrator's own)."""
    if getattr(actor, "pk", None) == member.pk:
        _own(actor, member)
    else:
        require(actor, LEADER_PERM)
    member = User.objects.select_for_update().get(pk=member.pk)
    if member.is_staff or member.is_superuser:
        raise ValidationError(_("An administrator's account is removed in the admin, by another administrator."))
    if not member.is_active:
        raise ValidationError(_("This account has been removed already."))
    shown = public_name(member) or _("former member")
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
