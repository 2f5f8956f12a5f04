"""Writes: one function per use case, each in a transaction, each checking permission,
locking what it changes, recording an audit row and scheduling work after commit.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    Attendance,
    Bye,
    ClubDutyRequest,
    ClubDutyState,
    Competition,
    Evening,
    EveningKind,
    EveningStatus,
    Game,
    Half,
    HalfKind,
    Player,
    PlayerKind,
    Registration,
    Result,
    Season,
    System,
)
from competition.scoring.params import ParameterError, parse_parameters, preset
from competition.scoring.presets import COMPETITION_PRESETS
from competition.season import notices, standings
from competition.season.engine import calendar
from competition.season.engine.calendar import CalendarError, evening_times, propose_calendar
from competition.season.engine.signup import (
    SignupDecision,
    SignupRefused,
    club_duty_decided_status,
    club_duty_pending_status,
    decide_signup,
    default_status,
    is_late,
    sign_up_open_after_publication,
)
from competition.season.selectors import (
    DeadlineMove,
    deadline_moves,
    last_result_change,
    open_evenings,
    result_change_undoable,
)
from competition.season.texts import calendar_refusal, parameter_refusal, signup_refusal
from core.dates import club_tz, short_day
from core.jobs import enqueue_on_commit, on_commit_here
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.validators import require_single_line
from members.models import Actor, Club, Membership, person

log = logging.getLogger(__name__)


class Conflict(Exception):
    """Somebody else changed the row first; ``current`` is what it holds now."""

    def __init__(self, message: str, current: Any) -> None:
        super().__init__(message)
        self.current = current



_deferred: ContextVar[set[int] | None] = ContextVar("deferred_recalculation", default=None)


def schedule_recalculation(half_id: int | None) -> None:
    """Recalculate the half's season after the transaction commits (Celery task).

    The season's inputs version moves on in the same transaction, so the change is never
    left out of the standings: a recalculation records the version it computed from and
    runs again while the version moved, and if the task is lost (the broker is down) the
    beat's catch-up finds the standings behind the version.
    """
    if half_id is None:
        return
    deferred = _deferred.get()
    if deferred is not None:
        deferred.add(half_id)
        return
    # An UPDATE (no key columns): it never waits for a recalculation, which holds no lock
    # on the season row (standings.recalculate_season locks its StandingsState row).
    Season.objects.filter(halves=half_id).update(
        inputs_version=F("inputs_version") + 1, inputs_changed_at=timezone.now()
    )
    # One recalculation waiting at most per half (standings.queue_recalculation).
    on_commit_here(functools.partial(standings.queue_recalculation, half_id))


@contextmanager
def recalculation_deferred() -> Iterator[set[int]]:
    """Bulk writes (an import, the demo) collect the halves and recalculate once at the
    end instead of after every single result."""
    token = _deferred.set(set())
    try:
        yield _deferred.get()  # type: ignore[misc]
    finally:
        halves = _deferred.get() or set()
        _deferred.reset(token)
        for half_id in halves:
            schedule_recalculation(half_id)




# --- Season set-up ----------------------------------------------------------------------


@transaction.atomic
def season_set_up(
    *,
    actor: Actor,
    name: str,
    opening: dt.date,
    last_day: dt.date,
    system: str,
    knsb_rounds: Iterable[dt.date] = (),
    closed: Iterable[dt.date] = (),
    extra_rapid: Iterable[dt.date] = (),
    club: Club,
) -> Season:
    """A season with its competition (preset parameters), halves and proposed calendar,
    in ``club`` (named by the caller: never a guess)."""
    require(actor, Perm.MANAGE_SEASON, of=club)
    return season_create(actor=actor, name=name, opening=opening, last_day=last_day,
                         system=system, knsb_rounds=knsb_rounds, closed=closed,
                         extra_rapid=extra_rapid, club=club)


def season_create(
    *,
    actor: Actor,
    name: str,
    opening: dt.date,
    last_day: dt.date,
    system: str,
    knsb_rounds: Iterable[dt.date] = (),
    closed: Iterable[dt.date] = (),
    extra_rapid: Iterable[dt.date] = (),
    club: Club,
) -> Season:
    """``season_set_up`` after its permission check, in the caller's transaction: for a
    service that checked its own (the next season, which the leader starts)."""
    if system not in System.values:
        raise ValidationError({"system": _("Unknown system '%(s)s'.") % {"s": system}})
    require_single_line(name, field="name")
    if Season.objects.filter(club=club, name=name).exists():
        raise ValidationError({"name": _("A season with this name exists already.")})
    try:
        proposal = propose_calendar(
            opening=opening,
            last_day=last_day,
            knsb_rounds=knsb_rounds,
            closed=closed,
            extra_rapid=extra_rapid,
            single_period=system == System.LADDER,
        )
    except CalendarError as exc:
        raise ValidationError(calendar_refusal(exc)) from exc
    season = Season(club=club, name=name, slug=slugify(name), start_date=opening, end_date=last_day)
    season.full_clean()
    season.save()
    # The club's own defaults (its settings page): the games' start and the sign-up
    # deadline, as a weekday before the evenings' own (a Friday's Thursday is 1 day before).
    competition = Competition.objects.create(
        season=season, system=system, parameters=preset(system), **COMPETITION_PRESETS[system],
        start_time=club.start_time, deadline_time=club.deadline_time,
        deadline_days_before=(opening.weekday() - club.deadline_weekday) % 7,
    )
    halves: dict[str, Half] = {}
    if proposal.winter_start:
        kind = HalfKind.SEASON if system == System.LADDER else HalfKind.WINTER
        halves[kind] = Half.objects.create(season=season, kind=kind, start_date=proposal.winter_start)
    if proposal.summer_start:
        halves["summer"] = Half.objects.create(
            season=season, kind=HalfKind.SUMMER, start_date=proposal.summer_start
        )
    for proposed in proposal.evenings:
        starts_at, deadline = evening_times(
            proposed.date,
            start=competition.start_time,
            deadline_days_before=competition.deadline_days_before,
            deadline_time=competition.deadline_time,
            tz=club_tz(),
        )
        Evening.objects.create(
            season=season,
            half=halves.get(proposed.half) if proposed.half else None,
            date=proposed.date,
            kind=proposed.kind,
            starts_at=starts_at,
            deadline=deadline,
            note=_calendar_note(proposed),
        )
    audit.record(actor=actor, action=Action.SEASON_SET_UP, season=season, after={"name": name})
    pages_changed()
    return season


def _calendar_note(proposed: Any) -> str:
    """The proposal's reason for a Friday, in the language of whoever sets up the season."""
    if proposed.reason == calendar.FIRST_FRIDAY_OF_JANUARY:
        return _("first Friday of January: the summer half does not start on it")
    if proposed.reason == calendar.PLAYOFFS:
        return _("playoffs, evening %(n)s") % {"n": proposed.playoff_evening}
    return ""  # the kind says it all (rapid, closed, no competition)


@transaction.atomic(durable=True)
def competition_set_parameters(
    *, actor: Actor, competition: Competition, system: str, overrides: dict[str, Any] | None
) -> Competition:
    """Change the scoring system or parameters; the standings are computed anew."""
    require(actor, Perm.MANAGE_SEASON, of=competition)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    try:
        params = parse_parameters(system, overrides or {})
    except ParameterError as exc:
        raise ValidationError({"parameters": parameter_refusal(exc)}) from exc
    from competition.scoring.params import parameters_to_dict

    before = {"system": competition.system, "parameters": competition.parameters}
    competition.system = system
    competition.parameters = parameters_to_dict(params)
    competition.save(update_fields=["system", "parameters"])
    audit.record(
        actor=actor,
        action=Action.COMPETITION_PARAMETERS,
        season=competition.season,
        before=before,
        after={"system": system, "parameters": competition.parameters},
    )
    pages_changed()
    for half_id in competition.season.halves.values_list("id", flat=True):
        schedule_recalculation(half_id)
    return competition


# The competition's settings the administrator changes in the admin; the system and its
# parameters, the deadline and the ratings have services and pages of their own.
COMPETITION_SETTINGS = (
    "name", "max_meetings_per_season", "max_meetings_per_half", "min_evenings_between",
    "bye_policy", "start_time", "evenings_per_half", "eligibility_percentage",
    "eligibility_min_games", "eligibility_max_exempted", "venue_city", "chief_arbiter",
)


def can_change_competition_settings(actor: Actor, competition: Competition | None = None) -> bool:
    """Whether ``competition_settings_set`` takes this actor's change (the admin shows
    the competition's form only then)."""
    try:
        require(actor, Perm.MANAGE_SEASON, of=competition)
    except PermissionDenied:
        return False
    return True


@transaction.atomic
def competition_settings_set(
    *, actor: Actor, competition: Competition, changes: dict[str, Any]
) -> Competition:
    """Change the competition's pairing, calendar and prize settings (the admin's
    competition page): checked, locked, validated, audited; the standings are computed
    anew (the eligibility numbers are stored with them)."""
    require(actor, Perm.MANAGE_SEASON, of=competition)
    unknown = sorted(set(changes) - set(COMPETITION_SETTINGS))
    if unknown:
        raise ValidationError(_("These settings are changed elsewhere: %(names)s.")
                              % {"names": ", ".join(unknown)})
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    before = {name: getattr(competition, name) for name in changes}
    for name, value in changes.items():
        setattr(competition, name, value)
    competition.full_clean()
    competition.save(update_fields=list(changes) or None)
    audit.record(
        actor=actor, action=Action.COMPETITION_PARAMETERS, season=competition.season,
        before=_json_values(before), after=_json_values(changes),
    )
    pages_changed()
    for half_id in competition.season.halves.values_list("id", flat=True):
        schedule_recalculation(half_id)
    return competition


def _json_values(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v.strftime("%H:%M") if isinstance(v, dt.time) else v for k, v in values.items()}


@transaction.atomic(durable=True)
def competition_set_deadline(
    *, actor: Actor, competition: Competition, days_before: int, time: dt.time,
    move_evenings: bool, now: dt.datetime | None = None,
) -> list[DeadlineMove]:
    """Change the sign-up deadline setting (days before the evening, time of day) and,
    if asked, move the deadlines of the open evenings (not yet paired, deadline to come)
    to it; an evening whose new deadline has passed already keeps its own. The only way
    in: the leader's season page (the admin shows the setting read-only). Returns the
    evenings moved, each with its deadline before and after."""
    require(actor, Perm.MANAGE_CALENDAR, of=competition)
    now = now or timezone.now()
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if not 0 <= days_before <= 6:
        raise ValidationError({"days_before": _("The deadline is 0 to 6 days before the evening.")})
    if days_before == 0 and time > competition.start_time:
        raise ValidationError({"time": _(
            "On the evening itself the deadline comes before the start (%(start)s)."
        ) % {"start": competition.start_time.strftime("%H:%M")}})
    moves: list[DeadlineMove] = []
    if move_evenings:
        locked = open_evenings(competition, now).select_for_update(of=("self",))
        moves = deadline_moves(competition, days_before=days_before, time=time, now=now,
                               evenings=list(locked))
    late = [m.evening for m in moves if m.after_start]
    if late:
        raise ValidationError(_("The deadline would come after the start of %(date)s.")
                              % {"date": short_day(late[0].date)})
    moves = [m for m in moves if m.moves]
    before = {"days_before": competition.deadline_days_before,
              "time": competition.deadline_time.strftime("%H:%M")}
    competition.deadline_days_before, competition.deadline_time = days_before, time
    competition.save(update_fields=["deadline_days_before", "deadline_time"])
    for move in moves:
        assert move.after is not None  # a move has its new deadline
        move.evening.deadline = move.after
        move.evening.save(update_fields=["deadline"])
    audit.record(actor=actor, action=Action.COMPETITION_DEADLINE, season=competition.season_id,
                 before=before, after={"days_before": days_before, "time": time.strftime("%H:%M"),
                                       "moved": [m.evening.date.isoformat() for m in moves]})
    pages_changed()
    return moves


@transaction.atomic(durable=True)
def evening_update(
    *, actor: Actor, evening: Evening, kind: str, half: Half | None, note: str = ""
) -> Evening:
    """The leader corrects the proposed calendar: the kind or half of one Friday."""
    require(actor, Perm.MANAGE_CALENDAR, of=evening)
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if evening.games.exists() and kind != evening.kind:
        raise ValidationError(_("This evening has games already; its kind cannot change."))
    require_single_line(note, field="note")
    old_half = evening.half_id
    before = {"kind": evening.kind, "half": old_half, "note": evening.note}
    evening.kind = kind
    evening.half = half if kind == EveningKind.PLAYING else None
    evening.note = note
    evening.full_clean()
    evening.save()
    audit.record(
        actor=actor,
        action=Action.EVENING_UPDATE,
        evening=evening,
        before=before,
        after={"kind": kind, "half": evening.half_id, "note": note},
    )
    pages_changed()
    for half_id in {old_half, evening.half_id}:
        schedule_recalculation(half_id)
    return evening


@transaction.atomic
def player_add(
    *,
    actor: Actor,
    season: Season,
    member: Any,
    kind: str = PlayerKind.FLEXIBLE,
    rating: int | None = None,
    start: int | None = None,
) -> Player:
    """Add a member to a season; by default at the end of the starting order."""
    require(actor, Perm.MANAGE_SEASON, of=season)
    Season.objects.select_for_update().get(pk=season.pk)
    if not Membership.objects.filter(user_id=member.pk, club_id=season.club_id).exists():
        raise ValidationError(
            _("%(name)s is no member of the club: add him as a member first.") % {"name": member}
        )
    if Player.objects.filter(season=season, member=member).exists():
        raise ValidationError(_("%(name)s takes part already.") % {"name": member})
    if start is None:
        last = Player.objects.filter(season=season).order_by("-start").first()
        start = (last.start + 1) if last else 1
    player = Player(
        season=season,
        member=member,
        kind=kind,
        rating=rating if rating is not None else member.rating_of(season.competition.start_rating),
        start=start,
    )
    player.full_clean()
    player.save()
    audit.record(
        actor=actor,
        action=Action.PLAYER_ADD,
        player=player,
        after={"member": member.pk, "kind": kind, "start": start},
    )
    pages_changed()
    return player


@transaction.atomic
def players_order_by_rating(*, actor: Actor, season: Season) -> list[Player]:
    """The winter starting order: by rating on 1 September, highest first (docs/rules.md 4.1)."""
    require(actor, Perm.MANAGE_SEASON, of=season)
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season).select_related("member"))
    ordered = sorted(players, key=lambda p: (-(p.rating or 0), p.member.name, p.pk))
    renumber(ordered, "start")
    audit.record(actor=actor, action=Action.PLAYERS_ORDER_BY_RATING, season=season)
    pages_changed()
    return ordered


def renumber(objects: Sequence[Any], field: str) -> None:
    """Number ``objects`` 1..n in the given order, where ``field`` is unique among them (a
    starting order, start numbers, boards): first out of the way, above every current
    number, then into place, so the constraint holds after every statement."""
    if not objects:
        return
    model = type(objects[0])
    top = max(getattr(o, field) for o in objects)
    for position, obj in enumerate(objects, start=1):
        setattr(obj, field, top + position)
    model.objects.bulk_update(objects, [field])
    for position, obj in enumerate(objects, start=1):
        setattr(obj, field, position)
    model.objects.bulk_update(objects, [field])


# --- Signing up and off -----------------------------------------------------------------


def _still_seated(player: Player, evening: Evening, now: dt.datetime) -> bool:
    """The player has his seat in the published pairing (a game without result, or the
    bye) and the evening has not begun: a sign-off of his can still be taken back."""
    if evening.status != EveningStatus.PUBLISHED or now >= evening.starts_at:
        return False
    games = Game.objects.filter(evening=evening, result=Result.PENDING)
    return (games.filter(white=player).exists() or games.filter(black=player).exists()
            or Bye.objects.filter(evening=evening, player=player).exists())


def _registration_check(
    *, by_leader: bool, player: Player, evening: Evening, status: str, now: dt.datetime,
    force_majeure: bool = False, current: str | None = None,
) -> SignupDecision:
    """The status ``registration_set`` saves for this evening, or the ValidationError it
    refuses with: the one check behind the service and ``can_register``."""
    taking_back = False
    if not by_leader and status == Attendance.PRESENT and evening.status == EveningStatus.PUBLISHED:
        # Only a published evening (one at a time) costs these queries.
        if current is None:
            current = Registration.objects.filter(evening=evening, player=player).values_list(
                "status", flat=True).first()
        taking_back = (current is not None and current != Attendance.PRESENT
                       and _still_seated(player, evening, now))
    if evening.season_id != player.season_id:
        raise ValidationError(_("That evening belongs to another season."))
    if evening.kind != EveningKind.PLAYING:
        raise ValidationError(
            _("%(date)s is not a playing evening.") % {"date": short_day(evening.date)}
        )
    if (
        not by_leader
        and evening.status == EveningStatus.PUBLISHED
        and not sign_up_open_after_publication(status, taking_back)
    ):
        # The pairing is out: joining it means changing a game, which is the leader's
        # job. Signing off stays possible (it counts as late, docs/rules.md 3); the leader's
        # evening page shows the paired player who signed off.
        raise ValidationError(
            _("The pairing of %(date)s is published; ask the competition leader.")
            % {"date": short_day(evening.date)}
        )
    try:
        return decide_signup(
            fixed=player.is_fixed,
            requested=status,
            now=now,
            deadline=evening.deadline,
            by_leader=by_leader,
            force_majeure=force_majeure,
            current=current,
            taking_back=taking_back,
            starts_at=evening.starts_at,
        )
    except SignupRefused as exc:
        raise ValidationError(
            _("%(date)s: %(reason)s") % {"date": short_day(evening.date), "reason": signup_refusal(exc)}
        ) from exc


def _registers_as_leader(actor: Actor, player: Player) -> bool:
    """True for the leader (of the player's club); False for the player himself;
    PermissionDenied for anybody else."""
    if actor is not None and actor.has_perm(Perm.MANAGE_REGISTRATIONS, player):
        return True
    require(actor, Perm.REGISTER_SELF, of=player)
    if player.member_id != actor.pk:
        raise PermissionDenied(_("You can only change your own sign-ups."))
    return False


def can_register(
    actor: Actor, player: Player, evening: Evening, status: str, now: dt.datetime | None = None
) -> bool:
    """Whether ``registration_set`` would save this status for this evening now: the
    buttons on the home page ask this, so a button is shown exactly when the service
    takes it."""
    try:
        by_leader = _registers_as_leader(actor, player)
        _registration_check(by_leader=by_leader, player=player, evening=evening,
                            status=status, now=now or timezone.now())
    except (PermissionDenied, ValidationError):
        return False
    return True


@transaction.atomic
def registration_set(
    *,
    actor: Actor,
    player: Player,
    evenings: Sequence[Evening],
    status: str,
    force_majeure: bool = False,
    now: dt.datetime | None = None,
) -> list[Registration]:
    """Set a player's status for one or several evenings in one action.

    A player may change only his own status (before the deadline, by docs/rules.md 3); the
    leader may change anybody's at any time and record force majeure.
    """
    now = now or timezone.now()
    by_leader = _registers_as_leader(actor, player)
    if not evenings:
        raise ValidationError(_("Choose at least one evening."))
    evening_ids = [e.pk for e in evenings]
    locked = list(Evening.objects.select_for_update().filter(pk__in=evening_ids).order_by("date"))
    existing = {
        r.evening_id: r
        for r in Registration.objects.select_for_update().filter(
            player=player, evening_id__in=evening_ids
        )
    }
    saved: list[Registration] = []
    for evening in locked:
        reg = existing.get(evening.pk)
        decision = _registration_check(by_leader=by_leader, player=player, evening=evening,
                                       status=status, now=now, force_majeure=force_majeure,
                                       current=reg.status if reg else None)
        before = {"status": reg.status, "force_majeure": reg.force_majeure} if reg else None
        reg = _registration_write(reg, evening=evening, player=player, actor=actor,
                                  status=decision.status, force_majeure=force_majeure and by_leader)
        after = {"status": reg.status, "force_majeure": reg.force_majeure, "late": decision.late}
        settled = _club_duty_request_settle(actor=actor, evening=evening, player=player,
                                            status=reg.status, now=now)
        if settled:
            after["club_duty_request"] = settled
        audit.record(
            actor=actor,
            action=Action.REGISTRATION_SET,
            evening=evening,
            player=player,
            before=before,
            after=after,
        )
        # A sign-up for an evening still to be paired shows only on that evening's page.
        published = evening.status == EveningStatus.PUBLISHED
        pages_changed(evening_day=None if published else evening.date)
        saved.append(reg)
        if not by_leader and evening.status == EveningStatus.PUBLISHED:
            # A paired player's opponent and the leaders are told of his sign-off, and of
            # his taking it back (pairing.notices).
            enqueue_on_commit("pairing.tasks.notify_withdrawals", evening.pk)
        if evening.status != "open" or evening.date <= now.date():
            schedule_recalculation(evening.half_id)
    return saved


def _registration_write(reg: Registration | None, *, evening: Evening, player: Player,
                        actor: Actor, status: str, force_majeure: bool = False) -> Registration:
    """Save a player's sign-up for an evening: a new row, or the next version of his row
    (locked by the caller), with who changed it."""
    if reg is None:
        reg = Registration(evening=evening, player=player)
    else:
        reg.version += 1
    reg.status = status
    reg.force_majeure = force_majeure
    reg.changed_by = person(actor)
    reg.save()
    return reg


# --- Club duty: the player requests, the leader decides ----------------------------------

@transaction.atomic
def club_duty_request(
    *,
    actor: Actor,
    player: Player,
    evening: Evening,
    note: str = "",
    now: dt.datetime | None = None,
) -> ClubDutyRequest:
    """A player asks for club duty on one evening; the leader decides
    (``club_duty_decide``). Until then his sign-up is the sign-off the request implies
    (``signup.club_duty_pending_status``), which is what the standings read."""
    now = now or timezone.now()
    require(actor, Perm.REGISTER_SELF, of=player)
    require_single_line(note, field="duty_note")
    if player.member_id != actor.pk:
        raise PermissionDenied(_("You can only request club duty for yourself."))
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    day = short_day(evening.date)
    if evening.season_id != player.season_id:
        raise ValidationError(_("That evening belongs to another season."))
    if evening.kind != EveningKind.PLAYING:
        raise ValidationError(_("%(date)s is not a playing evening.") % {"date": day})
    reg = Registration.objects.select_for_update().filter(evening=evening, player=player).first()
    duty = ClubDutyRequest.objects.select_for_update().filter(evening=evening, player=player).first()
    if reg is not None and reg.status == Attendance.CLUB_DUTY:
        raise ValidationError(_("%(date)s: you have club duty already.") % {"date": day})
    if duty is not None and duty.state == ClubDutyState.REQUESTED:
        raise ValidationError(
            _("%(date)s: you have requested club duty already; the competition leader decides.")
            % {"date": day}
        )
    if duty is not None and duty.state == ClubDutyState.REFUSED:
        raise ValidationError(
            _("%(date)s: the competition leader has refused club duty for this evening; "
              "ask him if things have changed.") % {"date": day}
        )
    try:
        pending = club_duty_pending_status(
            fixed=player.is_fixed, now=now, deadline=evening.deadline, starts_at=evening.starts_at
        )
    except SignupRefused as exc:
        raise ValidationError(
            _("%(date)s: %(reason)s") % {"date": day, "reason": signup_refusal(exc)}
        ) from exc
    before = {"status": reg.status if reg else None}
    reg = _registration_write(reg, evening=evening, player=player, actor=actor, status=pending)
    if duty is None:
        duty = ClubDutyRequest(evening=evening, player=player)
    else:
        duty.version += 1  # asked again after he withdrew it, or after his duty was lifted
    duty.state = ClubDutyState.REQUESTED
    duty.note = note.strip()[:200]
    duty.requested_at = now
    duty.decided_by = None
    duty.decided_at = None
    duty.save()
    audit.record(
        actor=actor,
        action=Action.CLUB_DUTY_REQUEST,
        evening=evening,
        player=player,
        before=before,
        after={"status": pending, "state": duty.state, "note": duty.note,
               "late": is_late(now, evening.deadline)},
    )
    if evening.status != EveningStatus.OPEN or evening.date <= now.date():
        schedule_recalculation(evening.half_id)
    return duty


@transaction.atomic
def club_duty_request_evenings(
    *, actor: Actor, player: Player, evenings: Sequence[Evening], note: str = "",
    now: dt.datetime | None = None,
) -> list[ClubDutyRequest]:
    """A player asks for club duty on the chosen evenings: one request each, all or none."""
    if not evenings:
        raise ValidationError(_("Choose at least one evening."))
    return [club_duty_request(actor=actor, player=player, evening=evening, note=note, now=now)
            for evening in evenings]


@transaction.atomic
def club_duty_decide(
    *, actor: Actor, request: ClubDutyRequest, approve: bool, now: dt.datetime | None = None
) -> ClubDutyRequest:
    """The leader approves (club duty) or refuses (the pending sign-off stands) a request;
    the player and the leader are told by e-mail after commit, once."""
    require(actor, Perm.MANAGE_REGISTRATIONS, of=request)
    now = now or timezone.now()
    evening = Evening.objects.select_for_update().get(pk=request.evening_id)
    duty = (
        ClubDutyRequest.objects.select_for_update(of=("self",))
        .select_related("player__member").get(pk=request.pk)
    )
    player = duty.player
    if duty.state != ClubDutyState.REQUESTED:
        raise ValidationError(
            _("%(name)s has no pending club duty request for %(date)s.")
            % {"name": player.member.name, "date": short_day(evening.date)}
        )
    paired = (
        Game.objects.filter(evening=evening).filter(Q(white=player) | Q(black=player)).exists()
        or Bye.objects.filter(evening=evening, player=player).exists()
    )
    if approve and paired:
        # A paired player plays: the standings would ignore his club duty.
        raise ValidationError(
            _("%(name)s is in the pairing of %(date)s; remove him from it first.")
            % {"name": player.member.name, "date": short_day(evening.date)}
        )
    reg = Registration.objects.select_for_update().filter(evening=evening, player=player).first()
    pending = reg.status if reg else default_status(player.is_fixed)
    status = club_duty_decided_status(approve=approve, pending=pending)
    if status != pending:
        _registration_write(reg, evening=evening, player=player, actor=actor, status=status)
    before = {"state": duty.state, "status": pending}
    duty.state = ClubDutyState.APPROVED if approve else ClubDutyState.REFUSED
    duty.decided_by = person(actor)
    duty.decided_at = now
    duty.version += 1
    duty.save()
    audit.record(
        actor=actor,
        action=Action.CLUB_DUTY_DECIDE,
        evening=evening,
        player=player,
        before=before,
        after={"state": duty.state, "status": status},
    )
    schedule_recalculation(evening.half_id)
    notices.club_duty_decision_queue(duty, status)
    return duty


def _club_duty_request_settle(
    *, actor: Actor, evening: Evening, player: Player, status: str, now: dt.datetime
) -> str | None:
    """A sign-up change settles a pending request for that evening: the leader recording
    club duty approves it (the player is told, as after ``club_duty_decide``); any other
    change, by the player or the leader, withdraws it. Returns the new state, if any."""
    duty = (
        ClubDutyRequest.objects.select_for_update()
        .filter(evening=evening, player=player, state=ClubDutyState.REQUESTED).first()
    )
    if duty is None:
        return None
    if status == Attendance.CLUB_DUTY:
        duty.state = ClubDutyState.APPROVED
        duty.decided_by = person(actor)
        duty.decided_at = now
    else:
        duty.state = ClubDutyState.WITHDRAWN
    duty.version += 1
    duty.save()
    if duty.state == ClubDutyState.APPROVED:
        notices.club_duty_decision_queue(duty, Attendance.CLUB_DUTY)
    return str(duty.state)


# --- Results ----------------------------------------------------------------------------


NOTE_MAX = 200  # Game.note's length


@transaction.atomic
def result_set(
    *,
    actor: Actor,
    game: Game,
    result: str,
    note: str = "",
    expected_version: int | None = None,
    before_start: bool = False,
) -> Game:
    """Enter or correct a result. A stale ``expected_version`` raises Conflict. Before the
    evening's games start only the leader may, saying so (``before_start``; audited)."""
    require(actor, Perm.ENTER_RESULTS, of=game)
    if result not in Result.values:
        raise ValidationError({"result": _("Unknown result '%(r)s'.") % {"r": result}})
    require_single_line(note, field="note")
    if len(note) > NOTE_MAX:
        raise ValidationError({"note": _(
            "A note has at most %(max)s characters; this one has %(n)s."
        ) % {"max": NOTE_MAX, "n": len(note)}})
    locked = Game.objects.select_for_update(of=("self",)).select_related("evening").get(pk=game.pk)
    early = timezone.now() < locked.evening.starts_at
    if early and not before_start:
        raise ValidationError(
            _("Results can be entered from the start of the evening (%(start)s).")
            % {"start": date_format(timezone.localtime(locked.evening.starts_at), "j F H:i")}
        )
    if early:
        require(actor, Perm.MANAGE_PAIRINGS, of=game)
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            _("Somebody else entered %(result)s for board %(board)s meanwhile.")
            % {"result": locked.result or "…", "board": locked.board},
            current=locked,
        )
    if locked.result == result and locked.note == note:
        return locked
    return _result_write(actor=actor, locked=locked, result=result, note=note, early=early)


def _result_write(*, actor: Actor, locked: Game, result: str, note: str, early: bool,
                  undo: bool = False) -> Game:
    before = {"result": locked.result, "note": locked.note}
    locked.result = result
    locked.note = note
    locked.version += 1
    locked.save(update_fields=["result", "note", "version", "updated_at"])
    audit.record(
        actor=actor,
        action=Action.GAME_RESULT,
        evening=locked.evening,
        player=locked.white_id,
        before=before,
        after={"result": result, "note": locked.note, "board": locked.board,
               "game": locked.pk, "version": locked.version,
               **({"before_start": True} if early else {}), **({"undo": True} if undo else {})},
    )
    # The evening's page shows the result and its note beside the standings before the
    # evening, which the result does not change: it moves on at the commit. The pages that
    # show standings move on when the recalculation has stored them (core/pagecache.py);
    # a note alone changes no standings.
    pages_changed(evening_day=locked.evening.date)
    if result != before["result"]:
        schedule_recalculation(locked.evening.half_id)
    return locked


@transaction.atomic
def result_undo(*, actor: Actor, game: Game, now: dt.datetime | None = None) -> Game:
    """Put back the result a change replaced, a few minutes after the change, by its
    author (audited as a change of its own)."""
    require(actor, Perm.ENTER_RESULTS, of=game)
    now = now or timezone.now()
    locked = Game.objects.select_for_update(of=("self",)).select_related("evening").get(pk=game.pk)
    record = last_result_change(locked)
    if not result_change_undoable(record, locked, actor, now):
        raise ValidationError(
            _("Board %(board)s can no longer be undone here; enter the result again.")
            % {"board": locked.board}
        )
    assert record is not None
    before = record.before or {}
    return _result_write(actor=actor, locked=locked, result=before["result"],
                         note=before.get("note", ""), early=False, undo=True)


def game_create(*, evening: Evening, board: int, white: Player, black: Player) -> Game:
    """Create one game inside a caller's transaction (pairing services use it)."""
    if white.season_id != evening.season_id or black.season_id != evening.season_id:
        raise ValidationError(_("Both players must take part in this season."))
    try:
        with transaction.atomic():
            return Game.objects.create(evening=evening, board=board, white=white, black=black)
    except IntegrityError as exc:
        raise ValidationError(
            _("%(w)s or %(b)s is already paired this evening, or board %(n)s is taken.")
            % {"w": white, "b": black, "n": board}
        ) from exc


def games_create(*, evening: Evening, games: Sequence[tuple[int, Player, Player]]) -> list[Game]:
    """Create a whole pairing's games, (board, white, black), inside a caller's transaction
    in one INSERT. The constraints and the trigger that seats a player once an evening
    check every row (the trigger sees the rows inserted before it); when they refuse one,
    the games are tried again one by one, so the refusal names the game as ``game_create``
    does, and none is written."""
    for _board, white, black in games:
        if white.season_id != evening.season_id or black.season_id != evening.season_id:
            raise ValidationError(_("Both players must take part in this season."))
    try:
        with transaction.atomic():
            return Game.objects.bulk_create(
                Game(evening=evening, board=board, white=white, black=black)
                for board, white, black in games
            )
    except IntegrityError:
        pass
    with transaction.atomic():  # all or none, as the single INSERT
        return [game_create(evening=evening, board=board, white=white, black=black)
                for board, white, black in games]


def bye_set(*, evening: Evening, player: Player, drawn_from: Sequence[int] = ()) -> Bye:
    try:
        with transaction.atomic():
            Bye.objects.filter(evening=evening).delete()
            return Bye.objects.create(evening=evening, player=player, drawn_from=list(drawn_from))
    except IntegrityError as exc:
        raise ValidationError(_("%(p)s is already paired this evening.") % {"p": player}) from exc

