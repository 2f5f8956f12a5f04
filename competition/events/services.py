"""Writes of the Swiss events: the rapid competition (docs/rules.md 7), the blitz championship and
its playoff (docs/rules.md 8). One function per use case, as in ``competition.season.services``: each
checks permission, locks the row it changes, validates, writes and records an audit row
(actions ``swiss.*``). The rules live in the pure engines; this module only feeds them.

The arbiter runs an evening round by round:
``round_open`` → ``presence_set`` → ``round_pair`` → ``game_result_set`` → ``round_finish``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import (
    Evening,
    EveningKind,
    EventKind,
    Half,
    PairingEdition,
    RatingKind,
    RoundStatus,
    Season,
    SwissEntrant,
    SwissEvent,
    SwissGame,
    SwissRound,
    TiebreakRules,
)
from competition.season.services import Conflict, renumber
from core.dates import club_tz, short_day
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.singleline import NotSingleLine
from core.validators import require_single_line
from members.models import Actor

from .engine import tiebreaks as swiss
from .engine import trf
from .engine.berger import playoff_rounds
from .engine.dutch import (
    BlitzPairingError,
    BlitzRefusal,
    Edition,
    edition_for,
    pair_blitz_round,
    propose_rounds,
)
from .engine.rapid import pair_rapid_round
from .selectors import (
    event_entrants,
    event_is_finished,
    event_standings,
    event_tournament,
    last_result_change,
    later_rounds,
    max_points,
    points_text,
    result_change_undoable,
    result_text,
    tied_for_first,
)
from .texts import trf_refusal

RAPID_ROUNDS = 9  # docs/rules.md 7
RAPID_ROUND_START = dt.time(20, 30)  # docs/rules.md 7: rounds on a rapid evening start 20:30

MANAGE = Perm.MANAGE_PAIRINGS
ARBITER = Perm.ENTER_RESULTS
# The arbiter runs the rapid and blitz events: he creates one of his club and enters its
# players (importing a TRF file stays the leader's).
CREATE = ARBITER

__all__ = [
    "Conflict",
    "blitz_playoff_create",
    "entrant_add",
    "event_create",
    "event_from_trf",
    "event_set_rounds",
    "event_standings",
    "event_to_trf",
    "game_result_correct",
    "game_result_set",
    "game_result_undo",
    "presence_set",
    "round_finish",
    "round_open",
    "round_pair",
]



def _lock_event(event: SwissEvent) -> SwissEvent:
    return SwissEvent.objects.select_for_update(of=("self",)).get(pk=event.pk)


def _lock_round(rnd: SwissRound) -> SwissRound:
    return (
        SwissRound.objects.select_for_update(of=("self",))
        .select_related("event")
        .get(pk=rnd.pk)
    )


def _record(actor: Actor, action: Action, event: SwissEvent, before: Any = None, **after: Any) -> None:
    audit.record(
        actor=actor, action=action, season=event.season_id, before=before,
        after={"event": event.pk, **after},
    )
    pages_changed()


def _unique_name(season: Season, name: str) -> str:
    taken = set(SwissEvent.objects.filter(season=season, name__startswith=name).values_list("name", flat=True))
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


# --- Events and entrants ----------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    actor: Actor,
    season: Season,
    kind: str,
    name: str,
    half: Half | None = None,
    date: dt.date | None = None,
    rounds: int | None = None,
    rules: str | None = None,
    pairing_edition: str = "",
) -> SwissEvent:
    """A rapid competition (9 rounds unless told) or a blitz championship. A blitz without
    ``rounds`` follows ``propose_rounds`` of its number of entrants until the arbiter sets
    the number (``event_set_rounds``). Without ``rules`` the tie-break rules are the
    edition in force on the event's day (its date, else its half's start, else the
    season's: ``tiebreaks.edition_on``); without ``pairing_edition`` a blitz is paired by
    the Dutch system's edition in force on its date (``pairing_edition``)."""
    require(actor, CREATE, of=season)
    if kind not in (EventKind.RAPID, EventKind.BLITZ):
        raise ValidationError({"kind": _("An event is a rapid competition or a blitz championship.")})
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("The event needs a name.")})
    require_single_line(name, field="name")
    if SwissEvent.objects.filter(season=season, name=name).exists():
        raise ValidationError({"name": _("This season has an event with this name already.")})
    if half is not None and half.season_id != season.pk:
        raise ValidationError({"half": _("The half belongs to another season.")})
    if rounds is not None and rounds < 1:
        raise ValidationError({"rounds": _("An event has at least one round.")})
    _check_event_date(season, kind, date)
    if rules and rules not in TiebreakRules.values:
        raise ValidationError({"rules": _("Unknown tie-break rules.")})
    rules = rules or swiss.edition_on(date or (half.start_date if half else season.start_date))
    if pairing_edition not in PairingEdition.values:
        raise ValidationError({"pairing_edition": _("Unknown pairing rules.")})
    if rounds is None:
        rounds = RAPID_ROUNDS if kind == EventKind.RAPID else 1
        fixed = kind == EventKind.RAPID
    else:
        fixed = True
    event = SwissEvent.objects.create(
        season=season, kind=kind, name=name, half=half, date=date, rounds=rounds,
        rounds_fixed=fixed, rules=rules, pairing_edition=pairing_edition,
    )
    _record(actor, Action.EVENT_CREATE, event, kind=kind, name=name, rounds=rounds,
            rounds_set=fixed, rules=rules, pairing_edition=pairing_edition or "by date")
    return event


def _check_event_date(season: Season, kind: str, date: dt.date | None) -> None:
    """An event's date lies in the season, on an evening the venue is open. (The leader's
    form also asks a blitz for its date; a blitz playoff made by the site has none yet.)"""
    if date is None:
        return
    if not season.start_date <= date <= season.end_date:
        raise ValidationError({"date": _(
            "%(date)s is outside the season (%(start)s to %(end)s)."
        ) % {"date": short_day(date), "start": short_day(season.start_date),
             "end": short_day(season.end_date)}})
    if Evening.objects.filter(season=season, date=date, kind=EveningKind.CLOSED).exists():
        raise ValidationError({"date": _(
            "The venue is closed on %(date)s; choose another evening."
        ) % {"date": short_day(date)}})


def _rounds_set(event: SwissEvent) -> bool:
    """Has somebody fixed the number of rounds (at creation or later)? Until then a blitz
    follows ``propose_rounds``."""
    return event.rounds_fixed


@transaction.atomic(durable=True)
def event_set_rounds(*, actor: Actor, event: SwissEvent, rounds: int) -> SwissEvent:
    """The arbiter sets the number of rounds (a blitz: after the proposal)."""
    require(actor, ARBITER, of=event)
    event = _lock_event(event)
    if event.kind == EventKind.BLITZ_PLAYOFF:
        raise ValidationError(_("A playoff's rounds follow from its Berger table."))
    existing = event.round_set.count()
    if rounds < max(1, existing):
        raise ValidationError(
            {"rounds": _("At least %(n)s: that many rounds exist already.") % {"n": max(1, existing)}}
        )
    before = {"rounds": event.rounds}
    event.rounds = rounds
    event.rounds_fixed = True
    event.save(update_fields=["rounds", "rounds_fixed"])
    _record(actor, Action.EVENT_SET_ROUNDS, event, before, rounds=rounds, rounds_set=True)
    return event


def _renumber_by_rating(event: SwissEvent) -> None:
    """Start numbers 1..n by rating (highest first, unrated last), then name."""
    entrants = list(event.entrants.select_for_update(of=("self",)).select_related("member"))
    entrants.sort(key=lambda e: (e.rating is None, -(e.rating or 0), e.name.lower(), e.pk))
    renumber(entrants, "number")


def _season_rating(event: SwissEvent, member: Any) -> int | None:
    player = event.season.players.filter(member=member).first()
    if player is not None and player.rating is not None:
        return player.rating
    return member.rating


GUEST_NAME_MAX = 80  # SwissEntrant.guest_name
GUEST_RATING_MAX = 3000


def _check_guest(event: SwissEvent, guest_name: str, rating: int | None) -> str:
    require_single_line(guest_name, field="guest_name")
    name = " ".join(guest_name.split())
    if not name:
        raise ValidationError({"guest_name": _("A guest needs a name.")})
    if len(name) > GUEST_NAME_MAX:
        raise ValidationError(
            {"guest_name": _("A name has at most %(n)s characters.") % {"n": GUEST_NAME_MAX}}
        )
    if rating is not None and not 0 < rating <= GUEST_RATING_MAX:
        raise ValidationError(
            {"guest_rating": _("A rating is a number from 1 to %(n)s.") % {"n": GUEST_RATING_MAX}}
        )
    entered = event.entrants.filter(guest_name__iexact=name).first()
    if entered is not None:
        raise ValidationError({"guest_name": _("%(name)s is entered already.") % {"name": entered.guest_name}})
    return name


@transaction.atomic(durable=True)
def entrant_add(
    *,
    actor: Actor,
    event: SwissEvent,
    member: Any = None,
    guest_name: str = "",
    rating: int | None = None,
) -> SwissEntrant:
    """Enter a member, or a guest (a non-member present on the evening: a name and an
    optional rating, no account). Until a round is paired the start numbers follow the
    rating; later entrants get the next number (and a zero-point bye for the rounds they
    missed)."""
    require(actor, CREATE, of=event)
    event = _lock_event(event)
    if event.kind == EventKind.BLITZ_PLAYOFF:
        raise ValidationError(_("A playoff's players are the players tied for first."))
    if (member is None) == (not guest_name.strip()):
        raise ValidationError(_("Enter either a member or a guest's name."))
    if member is None:
        guest_name = _check_guest(event, guest_name, rating)
    else:
        guest_name = ""
        if event.entrants.filter(member=member).exists():
            raise ValidationError(_("%(name)s is entered already.") % {"name": member.name})
        if rating is None:
            rating = _season_rating(event, member)
    started = event.round_set.exclude(status=RoundStatus.OPEN).exists()
    last = event.entrants.aggregate(last=Max("number"))["last"] or 0
    entrant = SwissEntrant.objects.create(
        event=event, member=member, guest_name=guest_name, rating=rating, number=last + 1
    )
    open_round = event.round_set.filter(status=RoundStatus.OPEN).first()
    if open_round is not None and event.kind == EventKind.BLITZ:
        open_round.present.add(entrant)  # a blitz is open to anyone present in time
    if not started:
        _renumber_by_rating(event)
        entrant.refresh_from_db(fields=["number"])
        if event.kind == EventKind.BLITZ and not _rounds_set(event):
            event.rounds = max(1, propose_rounds(event.entrants.count()))
            event.save(update_fields=["rounds"])
    _record(actor, Action.EVENT_ENTRANT_ADD, event, member=member.pk if member else None,
            guest=guest_name or None, rating=rating, number=entrant.number, rounds=event.rounds)
    return entrant


# --- Rounds -----------------------------------------------------------------------------


def _rapid_evening(event: SwissEvent, after: dt.date | None) -> Evening:
    """Today's rapid evening of the season, else the next one (not before ``after``)."""
    today = timezone.localdate()
    evenings = event.season.evenings.filter(kind=EveningKind.RAPID, date__gte=max(today, after or today))
    evening = evenings.order_by("date").first()
    if evening is None:
        raise ValidationError(_("This season has no rapid evening left to play the round on."))
    return evening


@transaction.atomic(durable=True)
def round_open(*, actor: Actor, event: SwissEvent, evening: Evening | None = None) -> SwissRound:
    """The next round, ready for marking who is present. Opening twice gives the same
    round. A rapid round belongs to a rapid evening (today's or the next, or ``evening``);
    the first round of an evening starts 20:30, later ones when the arbiter pairs them.
    Presence starts as the previous round's on the same evening (blitz round 1: everyone
    entered; an entrant added while a blitz round is open is present for it)."""
    require(actor, ARBITER, of=event)
    event = _lock_event(event)
    last = event.round_set.select_related("evening").order_by("-number").first()
    if last is not None and last.status == RoundStatus.OPEN:
        return last
    if last is not None and last.status != RoundStatus.DONE:
        raise ValidationError(_("Finish round %(n)s first.") % {"n": last.number})
    number = (last.number if last else 0) + 1
    if number > event.rounds:
        raise ValidationError(_("All %(n)s rounds have been played.") % {"n": event.rounds})
    starts_at = None
    if event.kind == EventKind.RAPID:
        if evening is None:
            evening = _rapid_evening(event, last.evening.date if last and last.evening else None)
        if evening.season_id != event.season_id or evening.kind != EveningKind.RAPID:
            raise ValidationError(_("A rapid round is played on a rapid evening of the season."))
        if last is not None and last.evening and evening.date < last.evening.date:
            raise ValidationError(_("Round %(n)s was played later than that evening.") % {"n": last.number})
        if last is None or last.evening_id != evening.pk:
            starts_at = dt.datetime.combine(evening.date, RAPID_ROUND_START, tzinfo=club_tz())
    rnd = SwissRound.objects.create(event=event, number=number, evening=evening, starts_at=starts_at)
    if last is not None and (event.kind != EventKind.RAPID or last.evening_id == rnd.evening_id):
        rnd.present.set(last.present.filter(withdrawn=False))
    elif last is None and event.kind == EventKind.BLITZ:
        rnd.present.set(event.entrants.filter(withdrawn=False))
    _record(actor, Action.EVENT_ROUND_OPEN, event, round=number,
            evening=evening.date.isoformat() if evening else None)
    return rnd


@transaction.atomic(durable=True)
def presence_set(*, actor: Actor, round: SwissRound, entrant_ids: Iterable[int]) -> SwissRound:
    """The arbiter marks who is present for a round (docs/rules.md 7: present 15 minutes before the
    round, the arbiter's marking is the record). Only before the round is paired."""
    require(actor, ARBITER, of=round)
    rnd = _lock_round(round)
    if rnd.status != RoundStatus.OPEN:
        raise ValidationError(_("Round %(n)s is paired already.") % {"n": rnd.number})
    wanted = set(entrant_ids)
    entrants = list(rnd.event.entrants.filter(pk__in=wanted, withdrawn=False))
    if len(entrants) != len(wanted):
        raise ValidationError(_("Only entrants of this event who have not withdrawn can be present."))
    before = sorted(rnd.present.values_list("number", flat=True))
    rnd.present.set(entrants)
    rnd.version += 1
    rnd.save(update_fields=["version"])
    _record(actor, Action.EVENT_PRESENCE_SET, rnd.event, before, round=rnd.number,
            present=sorted(e.number for e in entrants))
    return rnd


def blitz_refusal_texts() -> dict[BlitzRefusal, str]:
    """Every blitz pairing refusal's sentence in the active language."""
    return {
        BlitzRefusal.CANNOT_PAIR: _(
            "Round %(round)s cannot be paired by the Dutch system: every pairing breaks one "
            "of its absolute rules (no second game between the same two players, the "
            "colours). Check who is present."
        ),
    }


def blitz_refusal(exc: BlitzPairingError) -> str:
    return blitz_refusal_texts()[exc.code] % exc.params


def pairing_edition(event: SwissEvent) -> Edition:
    """The Dutch system's edition a blitz is paired by: the one the arbiter chose, else the
    one in force on the event's date (docs/swiss.md, "Dutch editions")."""
    if event.pairing_edition == "2017":
        return "2017"
    if event.pairing_edition == "2026":
        return "2026"
    return edition_for(event.date)


def _pair(event: SwissEvent, rnd: SwissRound, entrants: list[SwissEntrant], present: set[int]):
    tournament = event_tournament(event, before=rnd.number, entrants=entrants)
    if event.kind == EventKind.RAPID:
        return pair_rapid_round(tournament, present)
    try:
        return pair_blitz_round(tournament, present, total_rounds=event.rounds, edition=pairing_edition(event))
    except BlitzPairingError as exc:
        raise ValidationError(blitz_refusal(exc)) from exc


@transaction.atomic(durable=True)
def round_pair(*, actor: Actor, round: SwissRound) -> SwissRound:
    """Pair the round among the present entrants (rapid: two-game matches; blitz: Dutch)
    and store its boards and the engine's notes. A paired round is not paired again."""
    require(actor, ARBITER, of=round)
    rnd = _lock_round(round)
    if rnd.status != RoundStatus.OPEN:
        return rnd
    event = rnd.event
    if event.round_set.filter(number__lt=rnd.number).exclude(status=RoundStatus.DONE).exists():
        raise ValidationError(_("Finish the earlier rounds first."))
    entrants = event_entrants(event)
    present_ids = set(rnd.present.values_list("pk", flat=True))
    present = {e.number for e in entrants if e.pk in present_ids}
    if len(present) < 2:
        raise ValidationError(_("Mark at least two players present."))
    pairing = _pair(event, rnd, entrants, present)
    by_number = {e.number: e for e in entrants}
    for board, (white, black) in enumerate(pairing.games, start=1):
        SwissGame.objects.create(round=rnd, board=board, white=by_number[white], black=by_number[black])
    if pairing.bye is not None:
        SwissGame.objects.create(
            round=rnd, board=len(pairing.games) + 1, white=by_number[pairing.bye],
            white_points=_decimal(max_points(event)),
        )
    rnd.status = RoundStatus.PAIRED
    rnd.notes = list(pairing.notes)
    rnd.version += 1
    rnd.save(update_fields=["status", "notes", "version"])
    _record(actor, Action.EVENT_ROUND_PAIR, event, round=rnd.number,
            games=[list(g) for g in pairing.games], bye=pairing.bye, notes=list(pairing.notes))
    return rnd


def _as_points(value: Any) -> Fraction:
    try:
        return Fraction(str(value))
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        raise ValidationError(_("'%(v)s' is not a number of points.") % {"v": value}) from exc


def _check_result(event: SwissEvent, white: Fraction, black: Fraction, forfeit: bool) -> None:
    top = max_points(event)
    steps = {Fraction(k, 2) for k in range(int(top * 2) + 1)}
    if white not in steps or black not in steps:
        raise ValidationError(_("Points per side are 0 to %(m)s in half points.") % {"m": top})
    if forfeit:
        if (white, black) not in ((top, 0), (0, top), (0, 0)):
            raise ValidationError(
                _("A forfeit is %(m)s-0, 0-%(m)s or 0-0 (both absent).") % {"m": top}
            )
        return
    if white + black != top:
        raise ValidationError(
            _("The points of a game must add up to %(m)s (%(w)s + %(b)s given).")
            % {"m": top, "w": points_text(white), "b": points_text(black)}
        )


@transaction.atomic(durable=True)
def game_result_set(
    *,
    actor: Actor,
    game: SwissGame,
    white_points: Any,
    black_points: Any,
    forfeit: bool = False,
    expected_version: int | None,
) -> SwissGame:
    """Enter or change the result of a board of the round under way: a game 1-0 / ½-½ /
    0-1, a rapid match 2-0 … 0-2, or a forfeit. A stale ``expected_version`` raises
    Conflict. A finished round's results are corrected with ``game_result_correct``."""
    require(actor, ARBITER, of=game)
    locked = _lock_game(game)
    if locked.round.status == RoundStatus.DONE:
        raise ValidationError(
            _("Round %(n)s is finished: correct its results on the round's correction page.")
            % {"n": locked.round.number}
        )
    return _write_result(actor, locked, white_points, black_points, forfeit, expected_version)


@transaction.atomic(durable=True)
def game_result_correct(
    *,
    actor: Actor,
    game: SwissGame,
    white_points: Any,
    black_points: Any,
    forfeit: bool = False,
    expected_version: int | None,
) -> SwissGame:
    """The arbiter corrects a result of a finished round (a wrong tap, a ruling made
    afterwards). The standings and tie-breaks follow at once (they are computed on read);
    the later rounds' pairings, made from the old standings, stay as they are. Audited
    with the result before and after and the later rounds that were not paired again."""
    require(actor, ARBITER, of=game)
    locked = _lock_game(game)
    if locked.round.status != RoundStatus.DONE:
        raise ValidationError(
            _("Round %(n)s is not finished: enter its results on the arbiter's page.")
            % {"n": locked.round.number}
        )
    return _write_result(actor, locked, white_points, black_points, forfeit, expected_version,
                         correcting=True)


def _lock_game(game: SwissGame) -> SwissGame:
    return (
        SwissGame.objects.select_for_update(of=("self",))
        .select_related("round__event", "white__member", "black__member")
        .get(pk=game.pk)
    )


def _write_result(
    actor: Actor, locked: SwissGame, white_points: Any, black_points: Any, forfeit: bool,
    expected_version: int | None, *, correcting: bool = False, undo: bool = False,
) -> SwissGame:
    event = locked.round.event
    if expected_version is not None and locked.version != expected_version:
        raise Conflict(
            _("Somebody else entered %(result)s for board %(board)s meanwhile.")
            % {"result": result_text(locked), "board": locked.board},
            current=locked,
        )
    if locked.black_id is None:
        raise ValidationError(_("A bye has no result to enter."))
    if locked.round.status == RoundStatus.OPEN:
        raise ValidationError(_("The round is not paired yet."))
    white, black = _as_points(white_points), _as_points(black_points)
    _check_result(event, white, black, forfeit)
    new = (_decimal(white), _decimal(black))
    if (locked.white_points, locked.black_points, locked.forfeit) == (*new, forfeit):
        return locked
    before = {"white": _num(locked.white_points), "black": _num(locked.black_points), "forfeit": locked.forfeit}
    locked.white_points, locked.black_points = new
    locked.forfeit = forfeit
    locked.version += 1
    locked.save(update_fields=["white_points", "black_points", "forfeit", "version"])
    after: dict[str, Any] = {
        "round": locked.round.number, "board": locked.board, "white": _num(locked.white_points),
        "black": _num(locked.black_points), "forfeit": forfeit,
        "game": locked.pk, "version": locked.version, **({"undo": True} if undo else {}),
    }
    # Which game and which result, in words the audit trail can show without a query.
    after |= {"event_name": event.name, "white_name": locked.white.name,
              "black_name": locked.black.name if locked.black else ""}
    if correcting:
        after |= {"later_rounds": later_rounds(locked.round)}
    _record(actor, Action.EVENT_RESULT_CORRECT if correcting else Action.EVENT_GAME_RESULT,
            event, before, **after)
    return locked


def _num(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


@transaction.atomic(durable=True)
def game_result_undo(*, actor: Actor, game: SwissGame, now: dt.datetime | None = None) -> SwissGame:
    """Put back the result a change replaced, a few minutes after the change, by its
    author (audited as a change of its own, marked as an undo)."""
    require(actor, ARBITER)
    now = now or timezone.now()
    locked = _lock_game(game)
    record = last_result_change(locked)
    if record is None or not result_change_undoable(record, locked, actor, now):
        raise ValidationError(
            _("Board %(board)s can no longer be undone here; enter the result again.")
            % {"board": locked.board}
        )
    before = record.before or {}
    return _write_result(actor, locked, before["white"], before["black"], bool(before.get("forfeit")),
                         None, correcting=locked.round.status == RoundStatus.DONE, undo=True)


@transaction.atomic(durable=True)
def round_finish(*, actor: Actor, round: SwissRound) -> SwissRound:
    """Close a round once every board has a result; its points then count in the standings
    and the next round can be opened. Finishing twice changes nothing."""
    require(actor, ARBITER, of=round)
    rnd = _lock_round(round)
    if rnd.status == RoundStatus.DONE:
        return rnd
    if rnd.status == RoundStatus.OPEN:
        raise ValidationError(_("Round %(n)s is not paired yet.") % {"n": rnd.number})
    missing = list(
        rnd.games.filter(black__isnull=False, white_points__isnull=True).values_list("board", flat=True)
    )
    if missing:
        raise ValidationError(
            _("Boards without a result: %(b)s.") % {"b": ", ".join(map(str, missing))}
        )
    rnd.status = RoundStatus.DONE
    rnd.version += 1
    rnd.save(update_fields=["status", "version"])
    _record(actor, Action.EVENT_ROUND_FINISH, rnd.event, round=rnd.number)
    return rnd


# --- The blitz playoff ------------------------------------------------------------------


@transaction.atomic(durable=True)
def blitz_playoff_create(*, actor: Actor, event: SwissEvent) -> SwissEvent:
    """The playoff of an unbroken tie for first (docs/rules.md 8): a double round robin by the Berger
    tables, every tied player meeting every other with both colours, all games created at
    once. Berger numbers follow the start numbers. Generating twice gives the same playoff."""
    require(actor, ARBITER, of=event)
    event = _lock_event(event)
    existing = event.playoffs.first()
    if existing is not None:
        return existing
    if event.kind != EventKind.BLITZ:
        raise ValidationError(_("Only a blitz championship has a playoff."))
    if not event_is_finished(event):
        raise ValidationError(_("The playoff follows the final standings: finish every round first."))
    tied = tied_for_first(event_standings(event))
    if len(tied) < 2:
        raise ValidationError(_("There is no unbroken tie for first place."))
    schedule = playoff_rounds([e.number for e in tied])
    playoff = SwissEvent.objects.create(
        season=event.season, kind=EventKind.BLITZ_PLAYOFF, parent=event,
        name=_unique_name(event.season, _("%(name)s, playoff") % {"name": event.name})[:80],
        half=event.half, date=event.date, rounds=len(schedule), rounds_fixed=True, rules=event.rules,
        tiebreak_order=event.tiebreak_order,
    )
    entrants = {
        e.number: SwissEntrant.objects.create(
            event=playoff, member=e.member, guest_name=e.guest_name, rating=e.rating, number=i
        )
        for i, e in enumerate(tied, start=1)
    }
    for berger in schedule:
        rnd = SwissRound.objects.create(event=playoff, number=berger.number, status=RoundStatus.PAIRED)
        for board, (white, black) in enumerate(berger.games, start=1):
            SwissGame.objects.create(round=rnd, board=board, white=entrants[white], black=entrants[black])
        rnd.present.set([entrants[n] for game in berger.games for n in game])
    _record(actor, Action.EVENT_PLAYOFF_CREATE, event, playoff=playoff.pk,
            players=[e.member_id for e in tied], guests=[e.guest_name for e in tied if e.is_guest],
            rounds=len(schedule))
    return playoff


# --- TRF --------------------------------------------------------------------------------


def event_to_trf(event: SwissEvent) -> str:
    """The finished rounds as a TRF file for rating (single games: blitz and playoff), with
    the same records and player fields as the competition's export (docs/operations.md).
    A rapid event's two-game matches do not fit a TRF file."""
    if event.is_match_event:
        raise ValidationError(_("A rapid event's two-game matches do not fit a TRF file."))
    competition = event.season.competition
    rating = competition.trf_rating
    entrants = event_entrants(event)
    tournament = event_tournament(event, entrants=entrants)
    ranks = {row.entrant.number: row.rank for row in event_standings(event, entrants=entrants)}
    by_number = {e.number: e for e in entrants}
    dates = [event.date] * tournament.rounds if event.date else []
    parsed = trf.from_tournament(tournament)
    players, national = [], []
    for p in parsed.players:
        entrant = by_number[p.number]
        member = entrant.member
        # A guest's hand-entered rating counts as the rating the file carries.
        fide_rating = member.fide_rating if member else (entrant.rating if rating == RatingKind.FIDE else None)
        knsb_rating = member.rating if member else (entrant.rating if rating == RatingKind.KNSB else None)
        p = replace(p, name=trf.fide_name(p.name), rating=fide_rating or 0, rank=ranks.get(p.number, 0))
        if member is not None:
            p = replace(
                p, sex=member.sex, title=trf.fide_title(member.title) if member.title else "",
                federation=member.federation, fide_id=member.fide_id.strip(),
                birth_date=trf.trf_date(member.birth_date),
            )
        players.append(p)
        if rating == RatingKind.KNSB:
            national.append(trf.TrfNational(
                "NED", p.number, knsb_rating or 0, member.knsb_number.strip() if member else ""
            ))
    headers = trf.report_headers(
        name=event.name, city=competition.venue_city, dates=dates, players=len(entrants),
        rated=sum(1 for p in players if p.rating), rounds=event.rounds,
        kind=event.get_kind_display(), arbiter=competition.chief_arbiter,
        national=("NED", "NRO" if competition.start_rating == RatingKind.KNSB else "FIDE")
        if national else None,
    )
    try:
        return trf.write(trf.TrfFile(headers, tuple(players), tuple(national)))
    except NotSingleLine as exc:
        raise ValidationError(
            _("The TRF file cannot be written: %(what)s contains control characters (%(codes)s). "
              "Correct it first.") % {"what": exc.what, "codes": ", ".join(exc.codes)}
        ) from exc


_TRF_POINTS: dict[str, Fraction | int] = {"1": 1, "W": 1, "=": Fraction(1, 2), "D": Fraction(1, 2), "0": 0, "L": 0, "+": 1, "-": 0}


@transaction.atomic(durable=True)
def event_from_trf(
    *, actor: Actor, season: Season, text: str, name: str, guests: bool = False
) -> SwissEvent:
    """A blitz event from a TRF file (played elsewhere, or an earlier year). Players are
    matched to members by name; a name no member has is refused, or entered as a guest
    when ``guests``. Every round is stored finished."""
    require(actor, MANAGE, of=season)
    try:
        parsed = trf.parse(text)
    except trf.TrfError as exc:
        raise ValidationError(_("The TRF file cannot be read: %(e)s") % {"e": trf_refusal(exc)}) from exc
    if not parsed.players:
        raise ValidationError(_("The TRF file has no players."))
    counts = Counter(_name_key(p.name) for p in parsed.players)
    twice = sorted({p.name.strip() for p in parsed.players if counts[_name_key(p.name)] > 1})
    if twice:
        raise ValidationError(
            _("The TRF file has more than one player named: %(names)s.") % {"names": ", ".join(twice)}
        )
    members = _members_by_name((p.name for p in parsed.players), unknown_ok=guests)
    rounds = max(len(p.rounds) for p in parsed.players)
    planned = max(rounds, _planned_rounds(parsed.header("XXR")), 1)
    if planned > MAX_EVENT_ROUNDS:
        raise ValidationError(
            _("The TRF file has %(n)s rounds; an event has at most %(max)s.")
            % {"n": planned, "max": MAX_EVENT_ROUNDS}
        )
    event = event_create(actor=actor, season=season, kind=EventKind.BLITZ, name=name,
                         rounds=planned, date=_imported_date(season, parsed.header("042")))
    entrants = {
        p.number: SwissEntrant.objects.create(
            event=event, member=members.get(_name_key(p.name)), number=p.number,
            guest_name="" if _name_key(p.name) in members else _guest_name(p.name),
            rating=p.rating or None,
        )
        for p in parsed.players
    }
    for number in range(1, rounds + 1):
        rnd = SwissRound.objects.create(event=event, number=number, status=RoundStatus.DONE)
        board, present = 0, []
        for p in parsed.players:
            r = p.rounds[number - 1] if number <= len(p.rounds) else None
            if r is None or r.result in ("Z", " "):
                continue
            present.append(entrants[p.number])
            if r.opponent == 0:  # U, F, H byes
                board += 1
                SwissGame.objects.create(
                    round=rnd, board=board, white=entrants[p.number], white_points=_decimal(r.points),
                )
            elif r.colour == "w" or (r.colour != "b" and p.number < r.opponent):
                other = next(q for q in parsed.players if q.number == r.opponent).rounds[number - 1]
                board += 1
                SwissGame.objects.create(
                    round=rnd, board=board, white=entrants[p.number], black=entrants[r.opponent],
                    white_points=_decimal(_TRF_POINTS[r.result]),
                    black_points=_decimal(_TRF_POINTS[other.result]),
                    forfeit=r.result in ("+", "-"),
                )
        rnd.present.set(present)
    _record(actor, Action.EVENT_IMPORT, event, players=len(entrants), rounds=rounds, rounds_set=True)
    return event


MAX_EVENT_ROUNDS = 30  # as the event form


def _imported_date(season: Season, record: str | None) -> dt.date | None:
    """The file's start date (042), when it is an evening of this season the venue is open
    (docs/swiss.md): an event of an earlier year imported into this season keeps none."""
    date = trf.read_trf_date(record)
    if date is None or not season.start_date <= date <= season.end_date:
        return None
    closed = Evening.objects.filter(season=season, date=date, kind=EveningKind.CLOSED).exists()
    return None if closed else date


def _planned_rounds(xxr: str | None) -> int:
    """The XXR record: a number of rounds in ASCII digits, or nothing."""
    text = (xxr or "").strip()
    if not (text.isascii() and text.isdigit()):
        return 0
    return int(text) if len(text) <= 6 else MAX_EVENT_ROUNDS + 1


def _decimal(value: Fraction | int) -> Decimal:
    value = Fraction(value)
    return Decimal(value.numerator) / value.denominator


def _name_key(name: str) -> str:
    return trf.natural_name(name).lower()


def _guest_name(name: str) -> str:
    guest = trf.natural_name(name)[:GUEST_NAME_MAX]
    if not guest:
        raise ValidationError(_("The TRF file has a player without a name."))
    return guest


def _members_by_name(names: Iterable[str], *, unknown_ok: bool = False) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    wanted = {_name_key(n): trf.natural_name(n) for n in names}
    query = Q()
    for name in wanted.values():
        query |= Q(name__iexact=name)
    found: dict[str, list[Any]] = {}
    for user in get_user_model().objects.members().filter(query):
        key = user.name.strip().lower()
        if key in wanted:
            found.setdefault(key, []).append(user)
    unknown = sorted(wanted[k] for k in wanted if k not in found)
    double = sorted(wanted[k] for k, users in found.items() if len(users) > 1)
    if unknown and not unknown_ok:
        raise ValidationError(
            _("No member with the name: %(names)s. Add them first, or enter them as guests.")
            % {"names": ", ".join(unknown)}
        )
    if double:
        raise ValidationError(
            _("More than one member has the name: %(names)s.") % {"names": ", ".join(double)}
        )
    return {k: users[0] for k, users in found.items()}
