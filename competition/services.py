"""Writes: one function per use case, each in a transaction, each checking permission,
locking what it changes, recording an audit row and scheduling work after commit.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from . import audit, calendar
from .calendar import evening_times, propose_calendar
from .models import (
    Attendance,
    Bye,
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
from .presets import COMPETITION_PRESETS
from .scoring.params import ParameterError, parse_parameters, preset
from .signup import SignupRefused, decide_signup

log = logging.getLogger(__name__)


class Conflict(Exception):
    """Somebody else changed the row first; ``current`` is what it holds now."""

    def __init__(self, message: str, current: Any) -> None:
        super().__init__(message)
        self.current = current


def _require(actor: Any, perm: str) -> None:
    if actor is None or not actor.has_perm(perm):
        raise PermissionDenied(_("You are not allowed to do this."))


_deferred: ContextVar[set[int] | None] = ContextVar("deferred_recalculation", default=None)


def schedule_recalculation(half_id: int | None) -> None:
    """Recalculate the half's season after the transaction commits (Celery task).

    The season is marked stale in the same transaction, so that if the task is lost (the
    broker is down) the stale-season beat job still recalculates it: nothing entered is
    ever left out of the standings.
    """
    if half_id is None:
        return
    deferred = _deferred.get()
    if deferred is not None:
        deferred.add(half_id)
        return
    Season.objects.filter(halves=half_id, standings_stale_since__isnull=True).update(
        standings_stale_since=timezone.now()
    )
    from .tasks import recalculate_half

    transaction.on_commit(lambda: enqueue(recalculate_half, half_id))


def enqueue(task: Any, *args: Any) -> bool:
    """Send a task; when the broker is unreachable, log it and carry on (the caller's
    data is committed already, and a beat job catches up)."""
    try:
        task.delay(*args)
    except Exception:  # kombu raises several kinds when Redis is down
        log.warning("could not queue %s%r; the catch-up job will do it", task.name, args,
                    exc_info=True)
        return False
    return True


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
    actor: Any,
    name: str,
    opening: dt.date,
    last_day: dt.date,
    system: str,
    knsb_rounds: Iterable[dt.date] = (),
    closed: Iterable[dt.date] = (),
    extra_rapid: Iterable[dt.date] = (),
) -> Season:
    """A season with its competition (preset parameters), halves and proposed calendar."""
    _require(actor, "competition.manage_season")
    if system not in System.values:
        raise ValidationError({"system": _("Unknown system '%(s)s'.") % {"s": system}})
    if Season.objects.filter(name=name).exists():
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
    except ValueError as exc:
        raise ValidationError(str(exc)) from exc
    season = Season(name=name, slug=slugify(name), start_date=opening, end_date=last_day)
    season.full_clean()
    season.save()
    competition = Competition.objects.create(
        season=season, system=system, parameters=preset(system), **COMPETITION_PRESETS[system]
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
    audit.record(actor=actor, action="season.set_up", season=season, after={"name": name})
    return season


def _calendar_note(proposed: Any) -> str:
    """The proposal's reason for a Friday, in the language of whoever sets up the season."""
    if proposed.reason == calendar.FIRST_FRIDAY_OF_JANUARY:
        return _("first Friday of January: the summer half does not start on it")
    if proposed.reason == calendar.PLAYOFFS:
        return _("playoffs, evening %(n)s") % {"n": proposed.playoff_evening}
    return ""  # the kind says it all (rapid, closed, no competition)


@transaction.atomic
def competition_set_parameters(
    *, actor: Any, competition: Competition, system: str, overrides: dict[str, Any] | None
) -> Competition:
    """Change the scoring system or parameters; the standings are computed anew."""
    _require(actor, "competition.manage_season")
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    try:
        params = parse_parameters(system, overrides or {})
    except ParameterError as exc:
        raise ValidationError({"parameters": str(exc)}) from exc
    from .scoring.params import parameters_to_dict

    before = {"system": competition.system, "parameters": competition.parameters}
    competition.system = system
    competition.parameters = parameters_to_dict(params)
    competition.save(update_fields=["system", "parameters"])
    audit.record(
        actor=actor,
        action="competition.parameters",
        season=competition.season,
        before=before,
        after={"system": system, "parameters": competition.parameters},
    )
    for half_id in competition.season.halves.values_list("id", flat=True):
        schedule_recalculation(half_id)
    return competition


@transaction.atomic
def evening_update(
    *, actor: Any, evening: Evening, kind: str, half: Half | None, note: str = ""
) -> Evening:
    """The leader corrects the proposed calendar: the kind or half of one Friday."""
    _require(actor, "competition.manage_calendar")
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    if evening.games.exists() and kind != evening.kind:
        raise ValidationError(_("This evening has games already; its kind cannot change."))
    before = {"kind": evening.kind, "half": evening.half_id, "note": evening.note}
    evening.kind = kind
    evening.half = half if kind == EveningKind.PLAYING else None
    evening.note = note
    evening.full_clean()
    evening.save()
    audit.record(
        actor=actor,
        action="evening.update",
        evening=evening,
        before=before,
        after={"kind": kind, "half": evening.half_id, "note": note},
    )
    for half_id in {before["half"], evening.half_id}:
        schedule_recalculation(half_id)
    return evening


@transaction.atomic
def player_add(
    *,
    actor: Any,
    season: Season,
    member: Any,
    kind: str = PlayerKind.FLEXIBLE,
    rating: int | None = None,
    start: int | None = None,
) -> Player:
    """Add a member to a season; by default at the end of the starting order."""
    _require(actor, "competition.manage_season")
    Season.objects.select_for_update().get(pk=season.pk)
    if Player.objects.filter(season=season, member=member).exists():
        raise ValidationError(_("%(name)s takes part already.") % {"name": member})
    if start is None:
        last = Player.objects.filter(season=season).order_by("-start").first()
        start = (last.start + 1) if last else 1
    player = Player(
        season=season,
        member=member,
        kind=kind,
        rating=rating if rating is not None else member.rating,
        start=start,
    )
    player.full_clean()
    player.save()
    audit.record(
        actor=actor,
        action="player.add",
        player=player,
        after={"member": member.pk, "kind": kind, "start": start},
    )
    return player


@transaction.atomic
def players_order_by_rating(*, actor: Any, season: Season) -> list[Player]:
    """The winter starting order: by rating on 1 September, highest first (RULES.md 4.1)."""
    _require(actor, "competition.manage_season")
    players = list(Player.objects.select_for_update(of=("self",)).filter(season=season).select_related("member"))
    ordered = sorted(players, key=lambda p: (-(p.rating or 0), p.member.name, p.pk))
    renumber(ordered, "start")
    audit.record(actor=actor, action="players.order_by_rating", season=season)
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


@transaction.atomic
def registration_set(
    *,
    actor: Any,
    player: Player,
    evenings: Sequence[Evening],
    status: str,
    force_majeure: bool = False,
    now: dt.datetime | None = None,
) -> list[Registration]:
    """Set a player's status for one or several evenings in one action.

    A player may change only his own status (before the deadline, by RULES.md 3); the
    leader may change anybody's at any time and record force majeure.
    """
    now = now or timezone.now()
    by_leader = actor is not None and actor.has_perm("competition.manage_registrations")
    if not by_leader:
        _require(actor, "competition.register_self")
        if player.member_id != actor.pk:
            raise PermissionDenied(_("You can only change your own sign-ups."))
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
        if evening.season_id != player.season_id:
            raise ValidationError(_("That evening belongs to another season."))
        if evening.kind != EveningKind.PLAYING:
            raise ValidationError(
                _("%(date)s is not a playing evening.") % {"date": evening.date.isoformat()}
            )
        if (
            not by_leader
            and evening.status == EveningStatus.PUBLISHED
            and status != Attendance.ABSENT_WITH_NOTICE
        ):
            # The pairing is out: joining it means changing a game, which is the leader's
            # job. Signing off stays possible (it counts as late, RULES.md 3); the leader's
            # evening page shows the paired player who signed off.
            raise ValidationError(
                _("The pairing of %(date)s is published; ask the competition leader.")
                % {"date": evening.date.isoformat()}
            )
        try:
            decision = decide_signup(
                fixed=player.is_fixed,
                requested=status,
                now=now,
                deadline=evening.deadline,
                by_leader=by_leader,
                force_majeure=force_majeure,
            )
        except SignupRefused as exc:
            raise ValidationError(f"{evening.date.isoformat()}: {_(str(exc))}") from exc
        reg = existing.get(evening.pk)
        before = {"status": reg.status, "force_majeure": reg.force_majeure} if reg else None
        if reg is None:
            reg = Registration(evening=evening, player=player)
        else:
            reg.version += 1
        reg.status = decision.status
        reg.force_majeure = force_majeure and by_leader
        reg.changed_by = actor if getattr(actor, "is_authenticated", False) else None
        reg.save()
        audit.record(
            actor=actor,
            action="registration.set",
            evening=evening,
            player=player,
            before=before,
            after={"status": reg.status, "force_majeure": reg.force_majeure, "late": decision.late},
        )
        saved.append(reg)
        if evening.status != "open" or evening.date <= now.date():
            schedule_recalculation(evening.half_id)
    return saved


# --- Results ----------------------------------------------------------------------------


@transaction.atomic
def result_set(
    *,
    actor: Any,
    game: Game,
    result: str,
    note: str = "",
    expected_version: int | None = None,
    before_start: bool = False,
) -> Game:
    """Enter or correct a result. A stale ``expected_version`` raises Conflict. Before the
    evening's games start only the leader may, saying so (``before_start``; audited)."""
    _require(actor, "competition.enter_results")
    if result not in Result.values:
        raise ValidationError({"result": _("Unknown result '%(r)s'.") % {"r": result}})
    locked = Game.objects.select_for_update(of=("self",)).select_related("evening").get(pk=game.pk)
    early = timezone.now() < locked.evening.starts_at
    if early and not before_start:
        raise ValidationError(
            _("Results can be entered from the start of the evening (%(start)s).")
            % {"start": date_format(timezone.localtime(locked.evening.starts_at), "j F H:i")}
        )
    if early:
        _require(actor, "competition.manage_pairings")
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            _("Somebody else entered %(result)s for board %(board)s meanwhile.")
            % {"result": locked.result or "…", "board": locked.board},
            current=locked,
        )
    if locked.result == result and locked.note == note:
        return locked
    before = {"result": locked.result, "note": locked.note}
    locked.result = result
    locked.note = note[:200]
    locked.version += 1
    locked.save(update_fields=["result", "note", "version", "updated_at"])
    audit.record(
        actor=actor,
        action="game.result",
        evening=locked.evening,
        player=locked.white,
        before=before,
        after={"result": result, "note": locked.note, "board": locked.board,
               **({"before_start": True} if early else {})},
    )
    schedule_recalculation(locked.evening.half_id)
    return locked


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


def bye_set(*, evening: Evening, player: Player, drawn_from: Sequence[int] = ()) -> Bye:
    try:
        with transaction.atomic():
            Bye.objects.filter(evening=evening).delete()
            return Bye.objects.create(evening=evening, player=player, drawn_from=list(drawn_from))
    except IntegrityError as exc:
        raise ValidationError(_("%(p)s is already paired this evening.") % {"p": player}) from exc

