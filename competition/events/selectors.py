"""Reads of the Swiss events (rapid, blitz, blitz playoff): the pure ``Tournament`` built
from the database, the standings, and what the pages show. Each function costs a fixed
number of queries, whatever the number of entrants or rounds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, cast

from django.db.models import Count, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.models import (
    AuditAction,
    AuditRecord,
    EventKind,
    RoundStatus,
    Season,
    SwissEntrant,
    SwissEvent,
    SwissGame,
    SwissRound,
)
from competition.season.tables import points_text

from .engine import cards
from .engine import tiebreaks as swiss
from .engine.dutch import propose_rounds
from .engine.report import parse_order
from .engine.tiebreaks import Entrant, Kind, RoundResult, Tournament

# Columns of the standings table after the points and the direct encounter.
SHOWN_TIEBREAKS: tuple[str, ...] = ("BH-M1", "SB", "BH")


def max_points(event: SwissEvent) -> Fraction:
    """What one round is worth: 2 for a rapid two-game match, else 1."""
    return Fraction(2) if event.is_match_event else Fraction(1)


def tiebreak_text(value: Fraction | Decimal | int | None) -> str:
    """A tie-break in one notation, decimal commas throughout ("6,5", "12,25", "7"): a
    column never mixes "6½" with "12,25" (points keep their ½)."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return number_format(Decimal(f"{float(value):g}"))


def result_text(game: SwissGame) -> str:
    """'1-0', '1½-½', '0-1 (forfeit)'; '…' while it is not in; '' for a bye."""
    if game.black_id is None:
        return ""
    if game.white_points is None or game.black_points is None:
        return "…"
    return f"{points_text(game.white_points)}-{points_text(game.black_points)}"


def result_code(game: SwissGame) -> str:
    """The code of the result button that gives this result ('1/2-1/2', '3/2-1/2', '1-0F')."""
    if game.white_points is None or game.black_points is None:
        return ""
    code = f"{Fraction(game.white_points)}-{Fraction(game.black_points)}"
    return code + ("F" if game.forfeit else "")


# --- The pure tournament ----------------------------------------------------------------


def _bye_result(points: Fraction, top: Fraction) -> RoundResult:
    # A bye row holds a pairing-allocated bye; an imported TRF may also bring H and F
    # byes, which are stored the same way (F reads back as U: the tie-breaks treat both alike).
    if points == top:
        return RoundResult.bye(Kind.PAIRING_BYE, top)
    if points * 2 == top:
        return RoundResult.bye(Kind.HALF_BYE, top)
    return RoundResult.bye(Kind.ZERO_BYE, top)


def _side_result(
    own: Fraction, other: Fraction, opponent: int, colour: Any, forfeit: bool, top: Fraction
) -> RoundResult:
    if forfeit:
        return RoundResult.forfeit(opponent, won=own > other, colour=colour, max_points=top)
    return RoundResult.game(opponent, own, colour, top)


def build_tournament(
    entrants: Sequence[SwissEntrant],
    games: Iterable[SwissGame],
    round_numbers: Sequence[int],
    top: Fraction,
    *,
    colours: bool,
) -> Tournament:
    """The pure ``Tournament`` of the given rounds (all of them finished).

    Whoever has no pairing in a round (absent, entered later, withdrawn, resting in a
    playoff) gets a zero-point bye for it (C.07: a voluntarily unplayed round).
    """
    number_of = {e.pk: e.number for e in entrants}
    column = {n: i for i, n in enumerate(round_numbers)}
    results: dict[int, list[RoundResult]] = {
        e.number: [RoundResult.bye(Kind.ZERO_BYE, top)] * len(round_numbers) for e in entrants
    }
    for g in games:
        i = column[g.round.number]
        white = number_of[g.white_id]
        wp = Fraction(g.white_points or 0)
        if g.black_id is None:
            results[white][i] = _bye_result(wp, top)
            continue
        black = number_of[g.black_id]
        bp = Fraction(g.black_points or 0)
        results[white][i] = _side_result(wp, bp, black, "w" if colours else None, g.forfeit, top)
        results[black][i] = _side_result(bp, wp, white, "b" if colours else None, g.forfeit, top)
    return Tournament(
        tuple(
            Entrant(e.number, tuple(results[e.number]), e.name, e.rating or 0)
            for e in entrants
        )
    )


def event_entrants(event: SwissEvent) -> list[SwissEntrant]:
    return list(event.entrants.select_related("member").order_by("number"))


def event_tournament(
    event: SwissEvent, *, before: int | None = None, entrants: Sequence[SwissEntrant] | None = None,
    replacing: SwissGame | None = None,
) -> Tournament:
    """The finished rounds of the event (those numbered below ``before``, if given);
    ``replacing``: an unsaved game with another result, in place of the stored one (what
    a change would do)."""
    rounds = event.round_set.filter(status=RoundStatus.DONE)
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    numbers = list(rounds.order_by("number").values_list("number", flat=True))
    games: Iterable[SwissGame] = SwissGame.objects.filter(
        round__event=event, round__number__in=numbers
    ).select_related("round")
    if replacing is not None:
        games = [replacing if g.pk == replacing.pk else g for g in games]
    return build_tournament(
        entrants if entrants is not None else event_entrants(event),
        games,
        numbers,
        max_points(event),
        colours=not event.is_match_event,
    )


# --- Standings --------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    """One line of an event's standings (equal players share a rank)."""

    rank: int
    entrant: SwissEntrant
    points: Fraction
    de: int | None  # place by direct encounter among the players tied before it, if tied
    tiebreaks: tuple[tuple[str, Fraction], ...]  # SHOWN_TIEBREAKS and the order's others
    needs_decider: bool  # final standings: tied for first (rapid: after every criterion;
    # blitz: on points, for the playoff)

    def value(self, code: str) -> Fraction:
        return dict(self.tiebreaks)[code]

    @property
    def points_text(self) -> str:
        return points_text(self.points)

    @property
    def cells(self) -> list[str]:
        return [tiebreak_text(v) for _, v in self.tiebreaks]


def _rules(event: SwissEvent) -> Literal["2024", "2026"]:
    """The edition of FIDE's tie-break rules the event follows (a choices field)."""
    return cast(Literal["2024", "2026"], event.rules)


def tiebreak_columns(event: SwissEvent) -> tuple[str, ...]:
    """The numeric tie-breaks shown: those of the event's order, then BH-M1, SB, BH."""
    order = parse_order(event.tiebreak_order, _rules(event))
    own = tuple(c for c in order if c not in ("PTS", "DE"))
    return own + tuple(c for c in SHOWN_TIEBREAKS if c not in own)


def _de_places(t: Tournament, order: Sequence[str], rules: Any) -> dict[int, int]:
    """Each player's tier (1 = first) by direct encounter among those still tied on the
    criteria before DE in the order; players not tied there have no DE place."""
    if "DE" not in order:
        return {}
    groups = [frozenset(e.number for e in t.entrants)]
    for code in order[: order.index("DE")]:
        values = swiss.tiebreak(t, code, rules)
        groups = [
            frozenset(n for n in g if values[n] == v)
            for g in groups
            for v in sorted({values[n] for n in g}, reverse=True)
        ]
    places: dict[int, int] = {}
    for group in groups:
        if len(group) < 2:
            continue
        for place, tier in enumerate(swiss.direct_encounter_tiers(t, group), start=1):
            for n in tier:
                places[n] = place
    return places


def event_is_finished(event: SwissEvent, rounds_done: int | None = None) -> bool:
    if rounds_done is None:
        rounds_done = event.round_set.filter(status=RoundStatus.DONE).count()
    return rounds_done >= event.rounds


def event_standings(event: SwissEvent, *, entrants: Sequence[SwissEntrant] | None = None,
                    replacing: SwissGame | None = None) -> list[StandingRow]:
    """Ranked by the event's tie-break order (docs/rules.md 7, 8: PTS, DE, BH-M1, SB) over the
    finished rounds; in a blitz championship the players level on points at the top share
    first place (the playoff decides). The decider mark is set once every round is finished.
    ``replacing``: as ``event_tournament``."""
    entrants = list(entrants) if entrants is not None else event_entrants(event)
    t = event_tournament(event, entrants=entrants, replacing=replacing)
    order = parse_order(event.tiebreak_order, _rules(event))
    columns = tiebreak_columns(event)
    values = {code: swiss.tiebreak(t, code, _rules(event)) for code in columns}
    de = _de_places(t, order, _rules(event))
    finished = t.rounds > 0 and event_is_finished(event, t.rounds)
    by_number = {e.number: e for e in entrants}
    scores = t.scores()
    rankings = swiss.rank_players(t, order=order, rules=_rules(event))
    playoff = _blitz_tie_for_first(event, scores) if finished else set()
    return [
        StandingRow(
            rank=1 if r.number in playoff else r.rank,
            entrant=by_number[r.number],
            points=scores[r.number],
            de=de.get(r.number) if t.rounds > 0 else None,  # nothing to tell before a round
            tiebreaks=tuple((code, values[code][r.number]) for code in columns),
            needs_decider=finished and (r.needs_decider or r.number in playoff),
        )
        for r in rankings
    ]


def _blitz_tie_for_first(event: SwissEvent, scores: dict[int, Fraction]) -> set[int]:
    """docs/rules.md 8: in the blitz championship a tie for first *on points* is decided by playoff
    games (the tie-breaks only order the other places); they share first place until then."""
    if event.kind != EventKind.BLITZ or not scores:
        return set()
    top = max(scores.values())
    tied = {n for n, s in scores.items() if s == top}
    return tied if len(tied) > 1 else set()


def tied_for_first(rows: Sequence[StandingRow]) -> list[SwissEntrant]:
    """The players of an unbroken tie for first in final standings, by start number."""
    return sorted((r.entrant for r in rows if r.needs_decider), key=lambda e: e.number)


# --- Pages ------------------------------------------------------------------------------


def season_events(season: Season) -> QuerySet[SwissEvent]:
    return (
        season.events.select_related("half", "parent")
        .annotate(
            entrant_count=Count("entrants", distinct=True),
        )
        .order_by("date", "pk")
    )


def _rounds(event: SwissEvent) -> list[SwissRound]:
    return list(event.round_set.select_related("evening").order_by("number"))


def current_round(rounds: Sequence[SwissRound]) -> SwissRound | None:
    """The round being played or prepared; None when none is (between or after rounds)."""
    for rnd in rounds:
        if rnd.status != RoundStatus.DONE:
            return rnd
    return None


def event_page(event: SwissEvent) -> dict[str, Any]:
    entrants = event_entrants(event)
    rounds = _rounds(event)
    rows = event_standings(event, entrants=entrants)
    done = sum(r.status == RoundStatus.DONE for r in rounds)
    live = current_round(rounds)
    return {
        "event": event,
        "entrants": entrants,
        "rounds": rounds,
        "rows": rows,
        "columns": tiebreak_columns(event),
        "rounds_done": done,
        "finished": bool(rounds) and event_is_finished(event, done),
        "live": live is not None and live.status == RoundStatus.PAIRED,
        "current": live,
        "playoffs": list(event.playoffs.order_by("pk")),
        "has_trf": not event.is_match_event,
    }


def round_games(rnd: SwissRound) -> list[SwissGame]:
    """The round's boards with both players, each with its ``result_text``."""
    games = list(rnd.games.select_related("white__member", "black__member").order_by("board"))
    for g in games:
        g.result_text = result_text(g)  # type: ignore[attr-defined]
        g.result_code = result_code(g)  # type: ignore[attr-defined]
    return games


def round_page(rnd: SwissRound) -> dict[str, Any]:
    games = round_games(rnd)
    present = list(rnd.present.select_related("member").order_by("number"))
    paired = {g.white_id for g in games} | {g.black_id for g in games if g.black_id}
    entrants = event_entrants(rnd.event)
    return {
        "event": rnd.event,
        "round": rnd,
        "games": [g for g in games if g.black_id],
        "bye": next((g for g in games if g.black_id is None), None),
        "not_paired": [e for e in entrants if e.pk not in paired] if games else [],
        "present": present,
        "live": rnd.status == RoundStatus.PAIRED,
        "round_numbers": list(rnd.event.round_set.order_by("number").values_list("number", flat=True)),
    }


def arbiter_page(event: SwissEvent) -> dict[str, Any]:
    """Everything the arbiter's evening page needs, in a fixed number of queries."""
    context = event_page(event)
    rnd = context["current"]
    context["present_ids"] = set(rnd.present.values_list("pk", flat=True)) if rnd else set()
    games = round_games(rnd) if rnd else []
    context["games"] = [g for g in games if g.black_id]
    context["bye"] = next((g for g in games if g.black_id is None), None)
    context["missing_results"] = [
        g.board for g in context["games"] if g.white_points is None or g.black_points is None
    ]
    # The proposal counts the players still in (a withdrawn player plays no round).
    context["proposed_rounds"] = propose_rounds(len([e for e in context["entrants"] if not e.withdrawn]))
    context["can_open"] = rnd is None and len(context["rounds"]) < event.rounds
    context["tied"] = tied_for_first(context["rows"]) if context["finished"] else []
    context["can_playoff"] = (
        event.kind == EventKind.BLITZ and len(context["tied"]) > 1 and not context["playoffs"]
    )
    context["active"] = [e for e in context["entrants"] if not e.withdrawn]
    context["done_rounds"] = [r for r in context["rounds"] if r.status == RoundStatus.DONE]
    return context


# --- Cross table and player cards -------------------------------------------------------


def _order_and_tournament(event: SwissEvent) -> tuple[list[SwissEntrant], list[StandingRow], Tournament]:
    entrants = event_entrants(event)
    rows = event_standings(event, entrants=entrants)
    return entrants, rows, event_tournament(event, entrants=entrants)


def event_cross_table(event: SwissEvent) -> dict[str, Any]:
    """The event's cross table: a row per player in standings order, a cell per finished
    round (the opponent's row, the colour, the result); a fixed number of queries."""
    entrants, rows, t = _order_and_tournament(event)
    order = [row.entrant.number for row in rows]
    by_number = {row.entrant.number: row for row in rows}
    table = [
        {"row": by_number[cross.number], "place": cross.place, "cells": cross.cells}
        for cross in cards.round_cross_table(t, order)
    ]
    return {
        "event": event,
        "rows": table,
        "names": {e.number: e.name for e in entrants},
        "round_numbers": list(range(1, t.rounds + 1)),
        "columns": tiebreak_columns(event),
        "match": event.is_match_event,
    }


def event_player_card(event: SwissEvent, number: int) -> dict[str, Any] | None:
    """One player's card: round, opponent, colour, result, running score, and his
    standing with its tie-breaks; None when the event has no such start number."""
    entrants, rows, t = _order_and_tournament(event)
    by_number = {row.entrant.number: row for row in rows}
    if number not in by_number:
        return None
    order = [row.entrant.number for row in rows]
    return {
        "event": event,
        "row": by_number[number],
        "place": order.index(number) + 1,
        "lines": cards.player_card(t, number, order),
        "names": {e.number: e.name for e in entrants},
        "columns": tiebreak_columns(event),
        "match": event.is_match_event,
        "entrants": entrants,
    }


# --- Changing a result ------------------------------------------------------------------

UNDO_WINDOW = dt.timedelta(minutes=5)  # as the Keizer evening's (competition.season.selectors)
RESULT_ACTIONS = (AuditAction.EVENT_GAME_RESULT, AuditAction.EVENT_RESULT_CORRECT)


def later_rounds(rnd: SwissRound) -> list[int]:
    """The rounds paired after ``rnd``: a correction of ``rnd`` leaves their pairings."""
    return list(
        rnd.event.round_set.filter(number__gt=rnd.number).exclude(status=RoundStatus.OPEN)
        .order_by("number").values_list("number", flat=True)
    )


def _stored_text(side: dict[str, Any]) -> str:
    """'1-0', '1½-½' of an audit row's side (points as stored strings)."""
    if side.get("white") is None or side.get("black") is None:
        return "…"
    return f"{points_text(Fraction(side['white']))}-{points_text(Fraction(side['black']))}"


def result_change_undoable(record: AuditRecord | None, game: SwissGame, actor: Any,
                           now: dt.datetime) -> bool:
    """Whether ``actor`` may still undo the change ``record`` made to ``game`` in one tap:
    his own change of an existing result, at most UNDO_WINDOW ago, with nothing changed
    since (the arbiter's pages show the button when this says yes; game_result_undo asks
    it too)."""
    if record is None or record.actor_id != getattr(actor, "pk", None):
        return False
    before, after = record.before or {}, record.after or {}
    return (
        before.get("white") is not None and before.get("black") is not None
        and not after.get("undo")
        and after.get("game") == game.pk and after.get("version") == game.version
        and now - record.at <= UNDO_WINDOW
    )


def last_result_change(game: SwissGame) -> AuditRecord | None:
    return (
        AuditRecord.objects.filter(action__in=RESULT_ACTIONS, after__game=game.pk)
        .order_by("-at", "-pk").first()
    )


def result_changes(rnd: SwissRound, games: Sequence[SwissGame], actor: Any,
                   now: dt.datetime) -> dict[int, dict[str, Any]]:
    """For the boards of a round whose result was changed: the result before the last
    change and whether ``actor`` may still undo it (one query)."""
    latest: dict[int, AuditRecord] = {}
    records = AuditRecord.objects.filter(
        action__in=RESULT_ACTIONS, after__event=rnd.event_id, after__round=rnd.number
    ).order_by("-at", "-pk")
    for record in records:
        game_id = (record.after or {}).get("game")
        if game_id is not None and game_id not in latest:
            latest[game_id] = record
    found: dict[int, dict[str, Any]] = {}
    for game in games:
        last = latest.get(game.pk)
        before = (last.before or {}) if last else {}
        if last and before.get("white") is not None and before.get("black") is not None:
            found[game.pk] = {
                "was": _stored_text(before),
                "undo": result_change_undoable(last, game, actor, now),
                "action": last.action,  # the audit trail's filter that lists it
            }
    return found


def _with_forfeit(text: str, forfeit: bool) -> str:
    return f"{text} ({_('forfeit')})" if forfeit else text


def result_change_line(game: SwissGame, white: Fraction, black: Fraction, forfeit: bool) -> str:
    """'1-0 → 0-1' for a board whose result changes, else ''."""
    new = _with_forfeit(f"{points_text(white)}-{points_text(black)}", forfeit)
    old = _with_forfeit(result_text(game), game.forfeit)
    return "" if old == new else f"{old} → {new}"


def result_change_consequences(game: SwissGame, white: Fraction, black: Fraction,
                               forfeit: bool) -> list[str]:
    """What changing this board's result does, said before it is made and shown after:
    the change itself, whose points and place in the standings move (a finished round's
    results count at once), and the later rounds whose pairings stay as they are."""
    rnd = game.round
    event = rnd.event
    lines = [_("Board %(b)s of round %(r)s (%(white)s – %(black)s): %(change)s.") % {
        "b": game.board, "r": rnd.number, "white": game.white.name,
        "black": game.black.name if game.black else "", "change": result_change_line(game, white, black, forfeit),
    }]
    if rnd.status != RoundStatus.DONE:
        lines.append(_("Round %(n)s is not finished: its results count in the standings once it is.")
                     % {"n": rnd.number})
        return lines
    entrants = event_entrants(event)
    changed = SwissGame(pk=game.pk, round=rnd, board=game.board, white_id=game.white_id,
                        black_id=game.black_id, white_points=_as_decimal(white),
                        black_points=_as_decimal(black), forfeit=forfeit)
    before = {r.entrant.pk: r for r in event_standings(event, entrants=entrants)}
    after = event_standings(event, entrants=entrants, replacing=changed)
    players = {game.white_id, game.black_id}
    ordered = sorted(after, key=lambda r: (r.entrant.pk not in players, r.rank, r.entrant.number))
    for row in ordered:
        old = before[row.entrant.pk]
        if row.entrant.pk in players and old.points != row.points:
            lines.append(_("%(name)s: %(before)s → %(after)s points, place %(p1)s → %(p2)s.") % {
                "name": row.entrant.name, "before": old.points_text or "0",
                "after": row.points_text or "0", "p1": old.rank, "p2": row.rank})
        elif old.rank != row.rank:
            lines.append(_("%(name)s: place %(p1)s → %(p2)s.") % {
                "name": row.entrant.name, "p1": old.rank, "p2": row.rank})
    lines.append(_("The tie-breaks of the players they met change with it."))
    later = later_rounds(rnd)
    if later:
        lines.append(correction_consequence(later))
    return lines


def correction_consequence(later: Sequence[int]) -> str:
    return ngettext(
        "Round %(rounds)s was paired before this correction; its pairing stays as it is.",
        "Rounds %(rounds)s were paired before this correction; their pairings stay as they are.",
        len(later),
    ) % {"rounds": ", ".join(map(str, later))}


def _as_decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / value.denominator
