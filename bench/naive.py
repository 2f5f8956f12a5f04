"""The standings computed the straightforward way, as docs/standings.md states the rules.

A reference for the engine in `competition/scoring/` (tests hold the two equal, bit for
bit; `bench/bench_scoring.py` times them side by side). Nothing here is clever: every
number is a `Fraction`, a total is the sum of its lines, scored again from the evenings
whenever it is needed, and the fixpoint recomputes every evening to its fixpoint without
remembering anything. Not used by the application.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from competition.scoring.types import (
    RESULT_OUTCOMES,
    Evening,
    EveningStandings,
    Half,
    HalfResult,
    KeizerParams,
    LadderEvening,
    LadderLine,
    LadderParams,
    LadderResult,
    LadderStanding,
    Line,
    Outcome,
    Player,
    PlayerStats,
    Standing,
)

MAX_ITERATIONS = 1000

# ---------------------------------------------------------------------------
# What happened to whom


@dataclass(frozen=True)
class Event:
    """One player's outcome on one evening."""

    player: int  # the player id
    outcome: Outcome
    opponent: int | None = None
    colour: str | None = None
    over_limit: bool = False  # an absence with notice beyond the season's limit


def mentioned_events(evening: Evening) -> list[Event]:
    """Everybody the evening names: the games (both sides), byes, club duty, absences."""
    events = []
    for game in evening.games:
        white, black = RESULT_OUTCOMES[game.result]
        events.append(Event(game.white, white, game.black, "white"))
        events.append(Event(game.black, black, game.white, "black"))
    events += [Event(p, Outcome.BYE) for p in evening.byes]
    events += [Event(p, Outcome.CLUB_DUTY) for p in evening.club_duty]
    events += [Event(p, Outcome.ABSENT_WITH_NOTICE) for p in evening.absent_with_notice]
    return events


COUNTED = {
    Outcome.WIN: "won", Outcome.DRAW: "drawn", Outcome.LOSS: "lost",
    Outcome.FORFEIT_WIN: "forfeit_wins", Outcome.FORFEIT_LOSS: "forfeit_losses",
    Outcome.POSTPONED: "postponed", Outcome.BYE: "byes",
    Outcome.ABSENT_WITH_NOTICE: "absent_with_notice",
    Outcome.ABSENT_WITHOUT_NOTICE: "absent_without_notice", Outcome.CLUB_DUTY: "club_duty",
}


def count(counts: dict[str, int], event: Event) -> None:
    """One more evening in a player's statistics (docs/rules.md 9)."""
    counts[COUNTED[event.outcome]] += 1
    if event.outcome in (Outcome.WIN, Outcome.DRAW, Outcome.LOSS):
        counts["whites" if event.colour == "white" else "blacks"] += 1


def no_counts() -> dict[str, int]:
    return dict.fromkeys(PlayerStats.__dataclass_fields__, 0)


# ---------------------------------------------------------------------------
# Keizer


def keizer_value(params: KeizerParams, rank: int) -> Fraction:
    """top − step × (rank − 1)."""
    return params.top - params.step * (rank - 1)


def values_of(params: KeizerParams, order: Sequence[int]) -> dict[int, Fraction]:
    return {player: keizer_value(params, rank) for rank, player in enumerate(order, start=1)}


def points(params: KeizerParams, event: Event, values: Mapping[int, Fraction]) -> Fraction:
    """What one event scores with these values."""
    rule = params.rule(event.outcome)
    if rule is None or event.over_limit:
        return Fraction(0)
    if rule.basis == "fixed":
        return rule.amount
    if rule.basis == "own":
        return rule.amount * values[event.player]
    assert event.opponent is not None
    return rule.amount * values[event.opponent]


def scored_value(params: KeizerParams, event: Event, values: Mapping[int, Fraction]) -> Fraction | None:
    """The value an event's points are a factor of (the explanation's `value`)."""
    rule = params.rule(event.outcome)
    if rule is None or rule.basis == "fixed":
        return None
    if rule.basis == "own":
        return values[event.player]
    assert event.opponent is not None
    return values[event.opponent]


class KeizerHalf:
    """A half's evenings as lists of events, and the players in the standings."""

    def __init__(
        self,
        params: KeizerParams,
        evenings: Sequence[Evening],
        starting_order: Sequence[int],
        present_from_start: Collection[int],
        absence_counts_before: Mapping[int, int],
    ) -> None:
        self.params = params
        self.evenings = evenings
        self.position = {player: i for i, player in enumerate(starting_order)}
        self.events: list[list[Event]] = []  # per evening, everybody in the standings
        self.entering: list[list[int]] = []  # per evening, who enters, by starting position
        absences = dict(absence_counts_before)
        active: set[int] = set()
        limit = params.absent_with_notice_limit
        for k, evening in enumerate(evenings):
            events = []
            for event in mentioned_events(evening):
                if event.outcome == Outcome.ABSENT_WITH_NOTICE:
                    before = absences.get(event.player, 0)
                    absences[event.player] = before + 1
                    if limit is not None and before >= limit:
                        event = Event(event.player, event.outcome, over_limit=True)
                events.append(event)
            mentioned = {e.player for e in events}
            new = (set(present_from_start) if k == 0 else set()) | mentioned
            new = {p for p in new if p in self.position} - active
            active |= new
            events += [Event(p, Outcome.ABSENT_WITHOUT_NOTICE) for p in active - mentioned]
            self.events.append(events)
            self.entering.append(sorted(new, key=self.position.__getitem__))

    def ordered(self, players: Collection[int], totals: Mapping[int, Fraction]) -> tuple[int, ...]:
        """Highest total first; equal totals by starting position."""
        return tuple(sorted(players, key=lambda p: (-totals[p], self.position[p])))

    def totals(self, upto: int, values: Mapping[int, Fraction], players: Collection[int]) -> dict[int, Fraction]:
        """Every player's total over evenings 1..upto, scored with these values."""
        totals = {p: Fraction(0) for p in players}
        for events in self.events[:upto]:
            for event in events:
                totals[event.player] += points(self.params, event, values)
        if self.params.own_value_added:
            for p in players:
                totals[p] += values[p]
        return totals


@dataclass
class After:
    """The standings after one evening, before they become rows."""

    order: tuple[int, ...]
    totals: dict[int, Fraction]
    values: dict[int, Fraction]  # the values the totals were scored with (averages after a cycle)
    cycle: bool = False
    iterations: int = 1
    cycle_orders: int = 0
    scored: list[dict[int, Fraction]] | None = None  # frozen: each evening's own values


def fixpoint(half: KeizerHalf, upto: int, start: tuple[int, ...]) -> After:
    """Values from the order → totals → new order, until the order stays put; a return
    to an earlier order is a cycle, settled by each player's average total over it."""
    players = set(start)
    orders = [start]
    order = start
    for iteration in range(1, MAX_ITERATIONS + 1):
        values = values_of(half.params, order)
        totals = half.totals(upto, values, players)
        new = half.ordered(players, totals)
        if new == order:
            return After(order, totals, values, iterations=iteration)
        if new in orders:
            return settle(half, upto, players, orders[orders.index(new):], iteration)
        orders.append(new)
        order = new
    return settle(half, upto, players, orders[-3:-1], MAX_ITERATIONS)


def settle(half: KeizerHalf, upto: int, players: set[int], cycle: list[tuple[int, ...]], iterations: int) -> After:
    n = len(cycle)
    every_values = [values_of(half.params, order) for order in cycle]
    every_totals = [half.totals(upto, values, players) for values in every_values]
    totals = {p: sum((t[p] for t in every_totals), Fraction(0)) / n for p in players}
    values = {p: sum((v[p] for v in every_values), Fraction(0)) / n for p in players}
    return After(half.ordered(players, totals), totals, values, True, iterations, n)


def compute_keizer_half(
    params: KeizerParams,
    evenings: Sequence[Evening],
    starting_order: Sequence[int],
    *,
    present_from_start: Collection[int] = (),
    absence_counts_before: Mapping[int, int] | None = None,
    half: Half = "winter",
    history: bool = True,
) -> HalfResult:
    """The standings after every evening of a half, by the half's method."""
    data = KeizerHalf(params, evenings, starting_order, present_from_start, absence_counts_before or {})
    if not evenings:
        return HalfResult(half, tuple(starting_order), (), False, ())
    order: tuple[int, ...] = ()
    stats: dict[int, dict[str, int]] = {}
    frozen_totals: dict[int, Fraction] = {}
    frozen_values: list[dict[int, Fraction]] = []
    snapshots = []
    outcome = None
    for k, evening in enumerate(evenings):
        used = order + tuple(data.entering[k])
        players = set(used)
        if params.method == "fixpoint":
            outcome = fixpoint(data, k + 1, used)
        elif params.method == "lagging":
            values = values_of(params, used)
            totals = data.totals(k + 1, values, players)
            outcome = After(data.ordered(players, totals), totals, values)
        else:  # frozen: this evening scored once with the standings before it, added to the rest
            values = values_of(params, used)
            frozen_values.append(values)
            for event in data.events[k]:
                frozen_totals[event.player] = frozen_totals.get(event.player, Fraction(0)) + points(
                    params, event, values
                )
            totals = {p: frozen_totals.get(p, Fraction(0)) for p in players}
            if params.own_value_added:
                totals = {p: t + values[p] for p, t in totals.items()}
            outcome = After(data.ordered(players, totals), totals, values)
        for event in data.events[k]:
            count(stats.setdefault(event.player, no_counts()), event)
        order = outcome.order
        rows = tuple(
            Standing(rank, p, outcome.totals[p], keizer_value(params, rank), PlayerStats(**stats[p]))
            for rank, p in enumerate(order, start=1)
        )
        snapshots.append(EveningStandings(evening.date, rows, outcome.cycle, outcome.iterations, outcome.cycle_orders))
    assert outcome is not None
    final = tuple(
        Standing(row.rank, row.player_id, row.total, row.value, row.stats,
                 explanation(data, row.player_id, outcome.values, frozen_values))
        for row in snapshots[-1].rows
    )
    return HalfResult(half, tuple(starting_order), final, outcome.cycle,
                      tuple(snapshots) if history else (), outcome.cycle_orders)


def explanation(
    half: KeizerHalf, player: int, last: Mapping[int, Fraction], frozen_values: Sequence[Mapping[int, Fraction]]
) -> tuple[Line, ...]:
    """A line per evening (scored with the last values; frozen: with the evening's own),
    and the own value if it is added; the lines sum to the total."""
    params = half.params
    lines = []
    for k, evening in enumerate(half.evenings):
        values = frozen_values[k] if params.method == "frozen" else last
        for event in half.events[k]:
            if event.player == player:
                lines.append(Line(evening.date, event.outcome, event.opponent,
                                  scored_value(params, event, values), points(params, event, values),
                                  event.over_limit))
    if params.own_value_added:
        lines.append(Line(None, Outcome.OWN_VALUE, None, last[player], last[player]))
    return tuple(lines)


def compute_keizer_season(
    params: KeizerParams, players: Sequence[Player], evenings: Sequence[Evening], *, history: bool = True
) -> dict[Half, HalfResult]:
    """Winter by starting position; summer from the winter's final standings, newcomers
    by starting position; absences with notice counted over the season."""
    by_start = [p.id for p in sorted(players, key=lambda p: (p.start, p.id))]
    fixed = {p.id for p in players if p.fixed}
    winter = [e for e in evenings if e.half == "winter"]
    summer = [e for e in evenings if e.half == "summer"]
    results: dict[Half, HalfResult] = {}
    carried: list[int] = []
    if winter:
        results["winter"] = compute_keizer_half(params, winter, by_start, present_from_start=fixed, history=history)
        carried = [row.player_id for row in results["winter"].standings]
    if summer:
        absences: dict[int, int] = {}
        for evening in winter:
            for p in evening.absent_with_notice:
                absences[p] = absences.get(p, 0) + 1
        results["summer"] = compute_keizer_half(
            params, summer, carried + [p for p in by_start if p not in carried],
            present_from_start=fixed | set(carried), absence_counts_before=absences,
            half="summer", history=history,
        )
    return results


# ---------------------------------------------------------------------------
# Ladder


def ladder_start_points(params: LadderParams, player: Player, player_count: int) -> Fraction:
    if player.start_points is not None:
        return Fraction(player.start_points)
    return params.place_factor * (player_count - player.start)


def ladder_line(params: LadderParams, evening: Evening, event: Event, start: Mapping[int, int]) -> LadderLine:
    base = {Outcome.WIN: params.win, Outcome.DRAW: params.draw, Outcome.LOSS: params.loss}
    delta = Fraction(0)
    if event.outcome in base:
        assert event.opponent is not None
        delta = base[event.outcome] + params.place_factor * (start[event.player] - start[event.opponent])
    bonused = event.outcome in base
    bonused |= event.outcome == Outcome.CLUB_DUTY and params.bonus_for_club_duty
    bonused |= event.outcome == Outcome.BYE and params.bonus_for_bye
    return LadderLine(evening.date, event.outcome, event.opponent, delta,
                      params.bonus if bonused else Fraction(0))


def compute_ladder(
    params: LadderParams, players: Sequence[Player], evenings: Sequence[Evening], *, history: bool = True
) -> LadderResult:
    """Ladder points = start points + the deltas and bonuses of every line so far."""
    start = {p.id: p.start for p in players}
    points0 = {p.id: ladder_start_points(params, p, len(players)) for p in players}
    by_start = sorted(players, key=lambda p: (p.start, p.id))
    size, extra = divmod(len(by_start), 4)
    sizes = [size + 1] * extra + [size] * (4 - extra)  # groups 1..4, the larger ones first
    group = {player.id: 1 + sum(i >= sum(sizes[: g + 1]) for g in range(4)) for i, player in enumerate(by_start)}
    active = {p.id for p in players if p.fixed}
    lines: dict[int, list[LadderLine]] = {p.id: [] for p in players}
    stats = {p.id: no_counts() for p in players}
    snapshots = []
    for evening in evenings:
        events = mentioned_events(evening)
        active |= {e.player for e in events}
        events += [Event(p, Outcome.ABSENT_WITHOUT_NOTICE) for p in active - {e.player for e in events}]
        for event in events:
            lines[event.player].append(ladder_line(params, evening, event, start))
            count(stats[event.player], event)
        if history:
            snapshots.append(LadderEvening(evening.date, ladder_rows(active, start, group, points0, lines, stats)))
    final = ladder_rows(active, start, group, points0, lines, stats, with_lines=True)
    return LadderResult(final, tuple(snapshots))


def ladder_rows(
    active: Collection[int],
    start: Mapping[int, int],
    group: Mapping[int, int],
    points0: Mapping[int, Fraction],
    lines: Mapping[int, list[LadderLine]],
    stats: Mapping[int, dict[str, int]],
    *,
    with_lines: bool = False,
) -> tuple[LadderStanding, ...]:
    """Standings rows, best first; ties by starting position."""
    bonus = {p: sum((line.bonus for line in lines[p]), Fraction(0)) for p in active}
    pairing = {p: points0[p] + sum((line.delta for line in lines[p]), Fraction(0)) for p in active}
    ordered = sorted(active, key=lambda p: (-(pairing[p] + bonus[p]), start[p]))
    return tuple(
        LadderStanding(rank, p, start[p], group[p], points0[p], pairing[p] + bonus[p], pairing[p], bonus[p],
                       PlayerStats(**stats[p]), tuple(lines[p]) if with_lines else ())
        for rank, p in enumerate(ordered, start=1)
    )
