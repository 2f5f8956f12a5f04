"""The leader's calendar: move an evening (date, start, deadline), add one, cancel one.

Each edit is checked first (``evening_change_check``): what it would do is said before
(who had signed up, a published pairing that must be withdrawn, a rapid round that moves
with the evening) and the leader confirms; the service checks the same again, under the
evening's lock, writes, and queues one e-mail per player concerned (the club's, in the
outbox, keyed by the evening's version: told once). An evening that has results is never
moved nor cancelled: its games decide standings already.

The players concerned: those who had signed up, those in its published pairing, and the
fixed players who had not signed off (they are expected).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    Attendance,
    Bye,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    Player,
    PlayerKind,
    Registration,
    Season,
    SwissRound,
)
from competition.season.engine.calendar import evening_times
from competition.season.services import schedule_recalculation
from core import mail
from core.dates import short_day
from core.pagecache import pages_changed
from core.permissions import Perm, require
from members.clubs.addresses import club_sender
from members.models import Actor

MOVE, ADD, CANCEL = "move", "add", "cancel"
PERM = Perm.MANAGE_CALENDAR


@dataclass
class EveningChange:
    """What an edit does: the evening's new times, and its consequences for players."""

    action: str
    season: Season
    evening: Evening | None
    date: dt.date | None = None
    starts_at: dt.datetime | None = None
    deadline: dt.datetime | None = None
    signed_up: list[str] = field(default_factory=list)
    withdraws_pairing: bool = False
    rapid_rounds: list[SwissRound] = field(default_factory=list)
    concerned: list[Player] = field(default_factory=list)
    old_date: dt.date | None = None

    def consequences(self, *, mailed: bool = False) -> list[str]:
        """The sentences the confirmation says before, and the e-mail repeats after."""
        lines = []
        old = self.old_date
        if self.action == MOVE and old is not None and self.date and self.starts_at:
            lines.append(_("The evening of %(old)s moves to %(new)s, start %(start)s, sign-up "
                           "deadline %(deadline)s.") % {
                "old": short_day(old), "new": short_day(self.date),
                "start": _clock(self.starts_at), "deadline": _moment(self.deadline)})
        elif self.action == ADD and self.date and self.starts_at:
            lines.append(_("A new evening on %(new)s, start %(start)s, sign-up deadline "
                           "%(deadline)s.") % {"new": short_day(self.date),
                                               "start": _clock(self.starts_at),
                                               "deadline": _moment(self.deadline)})
        elif self.action == CANCEL and old is not None:
            lines.append(_("The evening of %(old)s is cancelled: nobody plays, nobody scores.")
                         % {"old": short_day(old)})
        if self.signed_up:
            lines.append(_("Signed up: %(names)s.") % {"names": ", ".join(self.signed_up)}
                         + " " + (_("Their sign-up stays for the new date; they can sign off.")
                                  if self.action == MOVE else _("Their sign-up lapses.")))
        if self.withdraws_pairing:
            lines.append(_("The published pairing is withdrawn; it is made again after the "
                           "new deadline.") if self.action == MOVE
                         else _("The published pairing is withdrawn."))
        for rnd in self.rapid_rounds:
            if self.action == MOVE:
                lines.append(_("Round %(n)s of %(event)s moves with it.")
                             % {"n": rnd.number, "event": rnd.event.name})
            else:
                lines.append(_("Round %(n)s of %(event)s is no longer on an evening; give it "
                               "another one.") % {"n": rnd.number, "event": rnd.event.name})
        if self.concerned and not mailed:
            lines.append(_("%(n)s players concerned are told by e-mail.")
                         % {"n": len(self.concerned)})
        return lines


def _clock(moment: dt.datetime | None) -> str:
    return timezone.localtime(moment).strftime("%H:%M") if moment else ""


def _moment(moment: dt.datetime | None) -> str:
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{short_day(local.date())} {local:%H:%M}"


def _times(season: Season, date: dt.date, start: dt.time | None,
           deadline: dt.datetime | None) -> tuple[dt.datetime, dt.datetime]:
    competition = season.competition
    starts_at, proposed = evening_times(
        date, start=start or competition.start_time,
        deadline_days_before=competition.deadline_days_before,
        deadline_time=competition.deadline_time)
    deadline = deadline or proposed
    if deadline > starts_at:
        raise ValidationError(_("The sign-up deadline comes after the start of the evening."))
    return starts_at, deadline


def _check_date(season: Season, date: dt.date, evening: Evening | None) -> None:
    if not season.start_date <= date <= season.end_date:
        raise ValidationError(_("%(date)s is outside the season (%(first)s to %(last)s).") % {
            "date": short_day(date), "first": short_day(season.start_date),
            "last": short_day(season.end_date)})
    other = Evening.objects.filter(season=season, date=date)
    if evening is not None:
        other = other.exclude(pk=evening.pk)
    if other.exists():
        raise ValidationError(_("There is an evening on %(date)s already; a date has one "
                                "evening.") % {"date": short_day(date)})
    if date < timezone.localdate():
        raise ValidationError(_("%(date)s has passed: an evening moves to a day to come.")
                              % {"date": short_day(date)})


def _check_unplayed(evening: Evening) -> None:
    if Game.objects.filter(evening=evening).exclude(result="").exists():
        raise ValidationError(_("The evening of %(date)s has results already: it cannot be "
                                "moved or cancelled.") % {"date": short_day(evening.date)})
    if SwissRound.objects.filter(evening=evening).exclude(status="open").exists():
        raise ValidationError(_("A rapid round of %(date)s is paired already: it cannot be "
                                "moved or cancelled.") % {"date": short_day(evening.date)})


def _concerned(evening: Evening) -> tuple[list[str], list[Player]]:
    """(names of who signed up, the players concerned) in starting order: two queries."""
    statuses = dict(Registration.objects.filter(evening=evening)
                    .values_list("player_id", "status"))
    paired = set(Game.objects.filter(evening=evening).values_list("white_id", flat=True))
    paired |= set(Game.objects.filter(evening=evening).values_list("black_id", flat=True))
    paired |= set(Bye.objects.filter(evening=evening).values_list("player_id", flat=True))
    players = list(Player.objects.filter(season_id=evening.season_id)
                   .select_related("member").order_by("start"))
    signed = [p.member.name for p in players if statuses.get(p.pk) == Attendance.PRESENT]
    concerned = [p for p in players
                 if statuses.get(p.pk) == Attendance.PRESENT or p.pk in paired
                 or (p.kind == PlayerKind.FIXED and p.pk not in statuses)]
    return signed, concerned


def evening_change_check(*, action: str, season: Season, evening: Evening | None = None,
                         date: dt.date | None = None, start: dt.time | None = None,
                         deadline: dt.datetime | None = None) -> EveningChange:
    """What the edit would do, or the Dutch reason it cannot be done; saves nothing."""
    season = Season.objects.select_related("competition").get(pk=season.pk)
    change = EveningChange(action=action, season=season, evening=evening,
                           old_date=evening.date if evening is not None else None)
    if action in (MOVE, CANCEL):
        assert evening is not None
        _check_unplayed(evening)
        change.signed_up, change.concerned = _concerned(evening)
        change.withdraws_pairing = Game.objects.filter(evening=evening).exists() or \
            Bye.objects.filter(evening=evening).exists()
        change.rapid_rounds = list(SwissRound.objects.filter(evening=evening)
                                   .select_related("event").order_by("number"))
    if action in (MOVE, ADD):
        if date is None:
            raise ValidationError(_("Choose the date of the evening."))
        _check_date(season, date, evening)
        change.date = date
        change.starts_at, change.deadline = _times(season, date, start, deadline)
    return change


def _half_of(season: Season, date: dt.date) -> Half | None:
    return Half.objects.filter(season=season, start_date__lte=date).order_by("-start_date").first()


def _withdraw_pairing(evening: Evening, *, deadline: dt.datetime) -> None:
    Game.objects.filter(evening=evening).delete()
    Bye.objects.filter(evening=evening).delete()
    evening.published_at = None
    evening.status = EveningStatus.OPEN if deadline > timezone.now() else EveningStatus.CLOSED


def _tell(change: EveningChange, evening: Evening) -> int:
    """One e-mail per player concerned, the club's, keyed by the evening's version."""
    sender = club_sender(change.season.club)
    with mail.club_language():
        lines = change.consequences(mailed=True)
    context = {"evening": evening, "lines": lines, "action": change.action,
               "old_date": change.old_date or evening.date}
    told = 0
    for player in change.concerned:
        member = player.member
        if not member.email or not member.notice_mail:
            continue
        subject, body = mail.render("competition/evening_change_email", {**context, "player": player})
        if mail.queue(key=f"evening-change:{evening.pk}:{evening.version}:{member.pk}",
                      subject=subject, body=body, to=[member.email], member=member, sender=sender):
            told += 1
    return told


def _locked(evening: Evening) -> Evening:
    return Evening.objects.select_for_update(of=("self",)).select_related("season__competition").get(pk=evening.pk)


@transaction.atomic(durable=True)
def evening_move(*, actor: Actor, evening: Evening, date: dt.date, start: dt.time | None = None,
                 deadline: dt.datetime | None = None) -> EveningChange:
    """Move an evening to another date, start or deadline; its pairing, if published, is
    withdrawn (it is made again after the new deadline), its rapid rounds move with it."""
    require(actor, PERM, of=evening)
    evening = _locked(evening)
    change = evening_change_check(action=MOVE, season=evening.season, evening=evening,
                                  date=date, start=start, deadline=deadline)
    assert change.starts_at is not None and change.deadline is not None
    before = {"date": evening.date.isoformat(), "starts_at": evening.starts_at.isoformat(),
              "deadline": evening.deadline.isoformat()}
    shift = change.starts_at - evening.starts_at
    old_half = evening.half_id
    if change.withdraws_pairing:
        _withdraw_pairing(evening, deadline=change.deadline)
    elif evening.status == EveningStatus.CLOSED and change.deadline > timezone.now():
        evening.status = EveningStatus.OPEN  # the sign-up opens again until the new deadline
    evening.date, evening.starts_at, evening.deadline = date, change.starts_at, change.deadline
    if evening.kind == EveningKind.PLAYING:
        evening.half = _half_of(evening.season, date) or evening.half
    evening.version += 1
    evening.full_clean()
    evening.save()
    for rnd in change.rapid_rounds:
        if rnd.starts_at is not None:
            rnd.starts_at += shift
            rnd.save(update_fields=["starts_at"])
    audit.record(actor=actor, action=Action.EVENING_UPDATE, evening=evening, before=before,
                 after={"date": date.isoformat(), "starts_at": change.starts_at.isoformat(),
                        "deadline": change.deadline.isoformat(),
                        "pairing_withdrawn": change.withdraws_pairing})
    _tell(change, evening)
    pages_changed()
    for half_id in {old_half, evening.half_id}:
        schedule_recalculation(half_id)
    return change


@transaction.atomic(durable=True)
def evening_add(*, actor: Actor, season: Season, date: dt.date, kind: str = EveningKind.PLAYING,
                start: dt.time | None = None, deadline: dt.datetime | None = None) -> Evening:
    """A new evening in the season (a playing evening belongs to the half of its date)."""
    require(actor, PERM, of=season)
    season = Season.objects.select_for_update().get(pk=season.pk)
    if kind not in EveningKind.values:
        raise ValidationError(_("Unknown kind of evening."))
    change = evening_change_check(action=ADD, season=season, date=date, start=start,
                                  deadline=deadline)
    assert change.starts_at is not None and change.deadline is not None  # an added date has both
    half = _half_of(season, date) if kind in (EveningKind.PLAYING, EveningKind.RAPID) else None
    if kind == EveningKind.PLAYING and half is None:
        raise ValidationError(_("%(date)s is before the season's first half begins.")
                              % {"date": short_day(date)})
    evening = Evening(season=season, date=date, kind=kind, half=half,
                      starts_at=change.starts_at, deadline=change.deadline)
    evening.full_clean()
    evening.save()
    audit.record(actor=actor, action=Action.EVENING_UPDATE, evening=evening,
                 after={"added": date.isoformat(), "kind": kind})
    pages_changed()
    schedule_recalculation(evening.half_id)
    return evening


@transaction.atomic(durable=True)
def evening_cancel(*, actor: Actor, evening: Evening) -> EveningChange:
    """Cancel an evening: it stays in the calendar as "venue closed", its sign-ups lapse,
    its published pairing is withdrawn and its rapid rounds come off it."""
    require(actor, PERM, of=evening)
    evening = _locked(evening)
    if evening.kind == EveningKind.CLOSED:
        raise ValidationError(_("The evening of %(date)s is cancelled already.")
                              % {"date": short_day(evening.date)})
    change = evening_change_check(action=CANCEL, season=evening.season, evening=evening)
    before = {"kind": evening.kind, "half": evening.half_id}
    old_half = evening.half_id
    if change.withdraws_pairing:
        _withdraw_pairing(evening, deadline=evening.deadline)
    Registration.objects.filter(evening=evening).delete()
    SwissRound.objects.filter(evening=evening).update(evening=None)
    evening.kind, evening.half, evening.status = EveningKind.CLOSED, None, EveningStatus.OPEN
    evening.version += 1
    evening.full_clean()
    evening.save()
    audit.record(actor=actor, action=Action.EVENING_UPDATE, evening=evening, before=before,
                 after={"kind": EveningKind.CLOSED, "cancelled": True,
                        "pairing_withdrawn": change.withdraws_pairing})
    _tell(change, evening)
    pages_changed()
    schedule_recalculation(old_half)
    return change
