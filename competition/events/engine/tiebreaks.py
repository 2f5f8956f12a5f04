"""Swiss tournaments: the round-by-round data model and the FIDE tie-breaks (C.07).

Pure Python, no Django. Exact arithmetic: every point value is a ``Fraction``.

A round result carries the points scored out of a maximum (``max_points``): 1 for a single
game, 2 for the rapid competition's two-game match. All tie-breaks scale with it (a "draw"
is half the maximum), so the same code ranks the blitz and the rapid events.

Unplayed rounds follow Article 16 of C.07:

* ``rules="2024"`` (default): the edition applied from 2023/2024. A participant's own
  unplayed round counts against a dummy opponent with the participant's own final score;
  an opponent's voluntarily unplayed rounds (VUR) without an opponent (byes, absence) after
  his last round that was not a VUR count as draws (a withdrawal no longer drags his
  opponents down), while a forfeit loss always counts as a loss; a low cut takes a VUR
  first unless the least significant real opponent weighs more.
* ``rules="2026"``: the edition in force from 1 March 2026 adds the caps of Art. 16.4: the
  dummy's score is at most the real opponent's adjusted score (forfeits), and at most half
  of the maximum possible score (byes).

See docs/swiss.md for the definitions and the decisions.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Literal

Rules = Literal["2024", "2026"]
ONE = Fraction(1)
# The 2026 edition of C.07 is in force from this day on (its Art. 16.4 caps).
EDITION_2026_FROM = dt.date(2026, 3, 1)


def edition_on(day: dt.date) -> Rules:
    """The tie-break rules in force on ``day``: an event dated on or after 1 March 2026
    takes the 2026 edition, an earlier one the 2024 edition."""
    return "2026" if day >= EDITION_2026_FROM else "2024"


class Kind(StrEnum):
    """What happened to a participant in one round."""

    PLAYED = "played"  # over the board (TRF 1 = 0 W D L)
    FORFEIT_WIN = "forfeit_win"  # TRF +
    FORFEIT_LOSS = "forfeit_loss"  # TRF - (also both sides of a double forfeit)
    PAIRING_BYE = "pairing_bye"  # TRF U: pairing-allocated bye (odd number present)
    FULL_BYE = "full_bye"  # TRF F
    HALF_BYE = "half_bye"  # TRF H
    ZERO_BYE = "zero_bye"  # TRF Z or blank: absent, not paired, withdrawn


@dataclass(frozen=True)
class RoundResult:
    """One participant's round: ``points`` out of ``max_points`` (1 game, or a 2-game match)."""

    kind: Kind
    points: Fraction
    opponent: int | None = None
    colour: Literal["w", "b"] | None = None
    max_points: Fraction = ONE

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", Fraction(self.points))
        object.__setattr__(self, "max_points", Fraction(self.max_points))
        if not 0 <= self.points <= self.max_points:
            raise ValueError(f"points {self.points} outside 0..{self.max_points}")
        if self.kind in _WITH_OPPONENT and self.opponent is None:
            raise ValueError(f"{self.kind.value} needs an opponent")
        if self.kind not in _WITH_OPPONENT and self.opponent is not None:
            raise ValueError(f"{self.kind.value} has no opponent")

    @property
    def played(self) -> bool:
        return self.kind is Kind.PLAYED

    @property
    def is_vur(self) -> bool:
        """Voluntarily unplayed round (C.07 Art. 16): unplayed and not scored as a win."""
        return not self.played and self.points < self.max_points

    @property
    def is_win(self) -> bool:
        """Scored as a win: a won game, or a won match (more than half of its games)."""
        return self.points * 2 > self.max_points

    # Factories, so callers never spell out the kind/points combinations.
    @classmethod
    def game(
        cls,
        opponent: int,
        points: Fraction | int | str,
        colour: Literal["w", "b"] | None = None,
        max_points: Fraction | int = 1,
    ) -> RoundResult:
        return cls(Kind.PLAYED, Fraction(points), opponent, colour, Fraction(max_points))

    @classmethod
    def forfeit(
        cls,
        opponent: int,
        won: bool,
        colour: Literal["w", "b"] | None = None,
        max_points: Fraction | int = 1,
    ) -> RoundResult:
        kind = Kind.FORFEIT_WIN if won else Kind.FORFEIT_LOSS
        pts = Fraction(max_points) if won else Fraction(0)
        return cls(kind, pts, opponent, colour, Fraction(max_points))

    @classmethod
    def bye(cls, kind: Kind, max_points: Fraction | int = 1) -> RoundResult:
        top = Fraction(max_points)
        pts = {
            Kind.PAIRING_BYE: top,
            Kind.FULL_BYE: top,
            Kind.HALF_BYE: top / 2,
            Kind.ZERO_BYE: Fraction(0),
        }[kind]
        return cls(kind, pts, None, None, top)


_WITH_OPPONENT = {Kind.PLAYED, Kind.FORFEIT_WIN, Kind.FORFEIT_LOSS}


@dataclass(frozen=True)
class Entrant:
    """A participant: start number, rating and one ``RoundResult`` per round so far."""

    number: int
    results: tuple[RoundResult, ...] = ()
    name: str = ""
    rating: int = 0

    @property
    def score(self) -> Fraction:
        return sum((r.points for r in self.results), Fraction(0))


@dataclass(frozen=True)
class Tournament:
    """All entrants of a Swiss; every entrant has a result for every round played so far."""

    entrants: tuple[Entrant, ...]
    _index: dict[int, Entrant] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        index = {e.number: e for e in self.entrants}
        if len(index) != len(self.entrants):
            raise ValueError("duplicate start numbers")
        lengths = {len(e.results) for e in self.entrants}
        if len(lengths) > 1:
            raise ValueError("every entrant needs a result (maybe a zero bye) for every round")
        for e in self.entrants:
            for rnd, r in enumerate(e.results, start=1):
                if r.opponent is None:
                    continue
                other = index.get(r.opponent)
                if other is None or other.results[rnd - 1].opponent != e.number:
                    raise ValueError(f"round {rnd}: {e.number} v {r.opponent} is not mutual")
        object.__setattr__(self, "_index", index)

    @property
    def rounds(self) -> int:
        return len(self.entrants[0].results) if self.entrants else 0

    @property
    def max_points(self) -> Fraction:
        """Maximum per round (1 single games, 2 matches); taken from the first result."""
        for e in self.entrants:
            for r in e.results:
                return r.max_points
        return ONE

    def entrant(self, number: int) -> Entrant:
        return self._index[number]

    def scores(self) -> dict[int, Fraction]:
        return {e.number: e.score for e in self.entrants}

    def with_round(self, results: Mapping[int, RoundResult]) -> Tournament:
        """A new tournament with one more round appended (``results`` for every entrant)."""
        return Tournament(
            tuple(replace(e, results=e.results + (results[e.number],)) for e in self.entrants)
        )


# ----------------------------------------------------------------------------------------
# Article 16: adjusted scores and dummy opponents
# ----------------------------------------------------------------------------------------


def _fore(t: Tournament) -> Tournament:
    """FB: every last-round pairing with an opponent is taken as a played draw."""
    if t.rounds == 0:
        return t
    out = []
    for e in t.entrants:
        last = e.results[-1]
        if last.opponent is not None:
            draw = RoundResult(Kind.PLAYED, last.max_points / 2, last.opponent, last.colour, last.max_points)
            e = replace(e, results=e.results[:-1] + (draw,))
        out.append(e)
    return Tournament(tuple(out))


def adjusted_scores(t: Tournament) -> dict[int, Fraction]:
    """A participant's score as his opponents see it (Art. 16.3).

    The VURs without an opponent (half- and zero-point byes, absence) after his last round
    that was not a VUR (a withdrawal, trailing byes) count as draws. Everything else keeps
    its real points: a forfeit loss has an opponent, so it counts as the loss it is, also
    after his last played round (as FIDE's tie-break calculator counts it).
    """
    out: dict[int, Fraction] = {}
    for e in t.entrants:
        last_available = max((i for i, r in enumerate(e.results) if not r.is_vur), default=-1)
        total = Fraction(0)
        for i, r in enumerate(e.results):
            trailing_bye = i > last_available and r.opponent is None
            total += r.max_points / 2 if trailing_bye else r.points
        out[e.number] = total
    return out


@dataclass(frozen=True)
class _Contribution:
    """One round's entry in a Buchholz-family sum."""

    score: Fraction  # the (adjusted or dummy) opponent score
    value: Fraction  # what it adds: score for BH, score x points for SB
    vur: bool


def _contributions(t: Tournament, rules: Rules, sonneborn: bool) -> dict[int, list[_Contribution]]:
    own = t.scores()
    adjusted = adjusted_scores(t)
    half_max = t.max_points * t.rounds / 2
    out: dict[int, list[_Contribution]] = {}
    for e in t.entrants:
        items = []
        for r in e.results:
            if r.played:
                assert r.opponent is not None
                score = adjusted[r.opponent]
                vur = False
            else:
                score = own[e.number]  # Art. 16: dummy opponent with the own final score
                if rules == "2026":  # Art. 16.4 caps
                    cap = adjusted[r.opponent] if r.opponent is not None else half_max
                    score = min(score, cap)
                vur = r.is_vur
            items.append(_Contribution(score, score * r.points if sonneborn else score, vur))
        out[e.number] = items
    return out


def _cut(items: list[_Contribution], low: int, high: int) -> Fraction:
    """Sum after cutting ``low`` least and ``high`` most significant values (Art. 14, 16.5)."""
    rest = list(items)
    for _ in range(min(low, len(rest))):
        least = min(rest, key=lambda c: (c.score, c.value))
        vurs = [c for c in rest if c.vur]
        if vurs:
            vur = min(vurs, key=lambda c: (c.score, c.value))
            # A VUR goes first, unless the least significant real opponent weighs more:
            # a VUR must never save a participant from a cut.
            if not least.value > vur.value:
                least = vur
        rest.remove(least)
    for _ in range(min(high, len(rest))):
        rest.remove(max(rest, key=lambda c: (c.score, c.value)))
    return sum((c.value for c in rest), Fraction(0))


# ----------------------------------------------------------------------------------------
# The tie-breaks
# ----------------------------------------------------------------------------------------

Values = dict[int, Fraction]


def points(t: Tournament) -> Values:
    return t.scores()


def buchholz(t: Tournament, *, low: int = 0, high: int = 0, rules: Rules = "2024") -> Values:
    """BH, BH-C1 (low=1), BH-M1 (low=1, high=1), ... (C.07 Art. 8.1, 14)."""
    return {n: _cut(c, low, high) for n, c in _contributions(t, rules, False).items()}


def sonneborn_berger(t: Tournament, *, low: int = 0, high: int = 0, rules: Rules = "2024") -> Values:
    """SB: sum of opponent scores weighted by the points scored against them (Art. 9.1)."""
    return {n: _cut(c, low, high) for n, c in _contributions(t, rules, True).items()}


def fore_buchholz(t: Tournament, *, low: int = 0, high: int = 0, rules: Rules = "2024") -> Values:
    """FB: Buchholz as if every game of the last round had been drawn (Art. 8.3)."""
    return buchholz(_fore(t), low=low, high=high, rules=rules)


def wins(t: Tournament) -> Values:
    """WIN: rounds scored as a win, played or not (Art. 7.3)."""
    return {e.number: Fraction(sum(r.is_win for r in e.results)) for e in t.entrants}


def games_won(t: Tournament) -> Values:
    """WON: games (or matches) won over the board (Art. 7.4)."""
    return {e.number: Fraction(sum(r.is_win and r.played for r in e.results)) for e in t.entrants}


def progressive(t: Tournament) -> Values:
    """PS: the sum of the running scores after each round (Art. 7.5)."""
    out: Values = {}
    for e in t.entrants:
        running = total = Fraction(0)
        for r in e.results:
            running += r.points
            total += running
        out[e.number] = total
    return out


def _parse_code(code: str) -> tuple[str, int, int]:
    base, _, modifier = code.upper().partition("-")
    if not modifier:
        return base, 0, 0
    if modifier[0] == "C" and modifier[1:].isdigit():
        return base, int(modifier[1:]), 0
    if modifier[0] == "M" and modifier[1:].isdigit():
        return base, int(modifier[1:]), int(modifier[1:])
    raise ValueError(f"unknown tie-break modifier in {code!r}")


def tiebreak(t: Tournament, code: str, rules: Rules = "2024") -> Values:
    """Values of one tie-break by its C.07 acronym: PTS BH SB FB (with -Cn / -Mn), WIN WON PS."""
    if rules not in ("2024", "2026"):
        raise ValueError(f"rules must be '2024' or '2026', not {rules!r}")
    base, low, high = _parse_code(code)
    cut_family: dict[str, Callable[..., Values]] = {
        "BH": buchholz,
        "SB": sonneborn_berger,
        "FB": fore_buchholz,
    }
    if base in cut_family:
        return cut_family[base](t, low=low, high=high, rules=rules)
    if low or high:
        raise ValueError(f"{base} takes no modifier")
    simple: dict[str, Callable[[Tournament], Values]] = {
        "PTS": points,
        "WIN": wins,
        "WON": games_won,
        "PS": progressive,
    }
    if base not in simple:
        raise ValueError(f"unknown tie-break {code!r}")
    return simple[base](t)


# ----------------------------------------------------------------------------------------
# Direct encounter (Art. 6) and the ranking
# ----------------------------------------------------------------------------------------


def _encounters(t: Tournament, group: frozenset[int]) -> dict[int, dict[int, Fraction]]:
    """Average points each scored against each other member, over played games only."""
    got: dict[int, dict[int, list[Fraction]]] = {n: {} for n in group}
    for n in group:
        for r in t.entrant(n).results:
            if r.played and r.opponent in group:
                got[n].setdefault(r.opponent, []).append(r.points)
    return {n: {o: sum(v, Fraction(0)) / len(v) for o, v in opp.items()} for n, opp in got.items()}


def direct_encounter_tiers(t: Tournament, group: Iterable[int]) -> list[frozenset[int]]:
    """Split players tied so far into ordered tiers by direct encounter (C.07 Art. 6).

    If all of them met, order by the points scored among them. If some games are missing, a
    player is ranked first only when no missing game could change it: his score among them
    is higher than what any other could reach by winning all his missing games. Tiers still
    tied after a split are broken again among themselves.
    """
    members = frozenset(group)
    if len(members) <= 1:
        return [members] if members else []
    max_points = t.max_points
    enc = _encounters(t, members)
    got = {n: sum(enc[n].values(), Fraction(0)) for n in members}
    if all(len(enc[n]) == len(members) - 1 for n in members):
        tiers: list[frozenset[int]] = []
        for value in sorted(set(got.values()), reverse=True):
            tiers.append(frozenset(n for n in members if got[n] == value))
        if len(tiers) == 1:
            return tiers
        return [sub for tier in tiers for sub in direct_encounter_tiers(t, tier)]
    reach = {n: got[n] + (len(members) - 1 - len(enc[n])) * max_points for n in members}
    leader = max(members, key=lambda n: got[n])
    if all(got[leader] > reach[n] for n in members - {leader}):
        return [frozenset({leader})] + direct_encounter_tiers(t, members - {leader})
    return [members]


@dataclass(frozen=True)
class Ranking:
    """One line of the final order."""

    number: int
    rank: int  # equal players share a rank
    values: tuple[tuple[str, Fraction], ...]  # the numeric criteria (DE is not a number)
    needs_decider: bool = False  # tied for first after all criteria


def rank_players(
    tournament: Tournament,
    order: Sequence[str] = ("PTS", "DE", "BH-M1", "SB"),
    rules: Rules = "2024",
) -> list[Ranking]:
    """Rank by the criteria in ``order``; each criterion only splits players still tied."""
    numeric = {code: tiebreak(tournament, code, rules) for code in order if code.upper() != "DE"}
    groups: list[frozenset[int]] = [frozenset(e.number for e in tournament.entrants)]
    for code in order:
        refined: list[frozenset[int]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif code.upper() == "DE":
                refined.extend(direct_encounter_tiers(tournament, group))
            else:
                values = numeric[code]
                for value in sorted({values[n] for n in group}, reverse=True):
                    refined.append(frozenset(n for n in group if values[n] == value))
        groups = refined
    out: list[Ranking] = []
    position = 1
    for group in groups:
        for n in sorted(group):
            out.append(
                Ranking(
                    number=n,
                    rank=position,
                    values=tuple((code, numeric[code][n]) for code in numeric),
                    needs_decider=position == 1 and len(group) > 1,
                )
            )
        position += len(group)
    return out


# ----------------------------------------------------------------------------------------
# A round's pairing (what the pairing engines return)
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPairing:
    """The games of one round (white, black; for matches the order is meaningless) and the
    pairing-allocated bye, with notes for the leader where a rule had to give way."""

    games: tuple[tuple[int, int], ...]
    bye: int | None = None
    notes: tuple[str, ...] = ()


def played_pairs(t: Tournament) -> set[frozenset[int]]:
    """Pairs that met over the board (a forfeited game is no encounter)."""
    return {
        frozenset((e.number, r.opponent))
        for e in t.entrants
        for r in e.results
        if r.played and r.opponent is not None
    }


def had_pairing_bye(t: Tournament) -> set[int]:
    return {e.number for e in t.entrants if any(r.kind is Kind.PAIRING_BYE for r in e.results)}
