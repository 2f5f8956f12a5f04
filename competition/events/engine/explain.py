"""Why a Dutch round was paired so: the brackets, the floaters and the deciding criterion
(docs/swiss.md, "Why this pairing").

The pairing explained is the project's own (``dutch.pair_blitz_round``, observed bracket by
bracket), so the explanation can never describe another pairing than the one published.
For every bracket the engine weighs each possible pair by the quality criteria of the
edition, most important first (a number with one field per criterion); the chosen pairs
have the best total. To say *which criterion decided*, the bracket is paired again with
the choice taken away (this pair not allowed; this downfloater paired inside the bracket;
the asked player given another opponent) and the best total without it is compared with
the chosen one field by field: the first criterion on which the alternative is worse
decided. When no criterion tells them apart, the order in which the candidates are
generated did (D.1-D.3: the transpositions and exchanges of the bracket).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.dutch.bracket import Bracket
from py4swiss.engines.dutch.player import Player
from py4swiss.matching_computer import ComputerDutchOptimality

from .dutch import Edition, engine_numbers, pair_blitz_round
from .dutch_brackets import Criteria, _Pairer
from .tiebreaks import RoundPairing, Tournament

# What each quality criterion is about, in py4swiss's (the 2017 text's) order C.5-C.19;
# the 2026 text numbers them C.6-C.8 and C.10-C.21 and adds its C.9 after the third.
TOPICS_2017 = (
    "pairs", "psd", "next_bracket", "topscorer_colour_difference", "topscorer_same_colour",
    "colour_preference", "strong_colour_preference", "downfloat_previous", "upfloat_previous",
    "downfloat_two_before", "upfloat_two_before", "downfloat_previous_score",
    "upfloat_previous_score", "downfloat_two_before_score", "upfloat_two_before_score",
)
TOPICS_2026 = (*TOPICS_2017[:3], "bye_unplayed_games", *TOPICS_2017[3:])
FIRST_ARTICLE = {"2017": 5, "2026": 6}

# Reasons that are not a quality criterion: the round must be completed (C.4, in the
# penultimate and last bracket, 2026 in every bracket, where a player who had a bye is
# paired first, C.2), the order of generation (D.1-D.3), and the absolute criteria that
# forbid a pair.
Kind = Literal["criterion", "complete", "bye", "order", "played", "colour", "alone", "unexplained"]


@dataclass(frozen=True)
class Reason:
    """Why the alternative lost: ``article`` is the edition's number of the criterion
    (``C.10``) with its ``topic`` (``colour_preference``) when ``kind`` is "criterion";
    "unexplained" would mean the alternative was better (the tests assert it never is)."""

    kind: Kind
    article: str = ""
    topic: str = ""


@dataclass(frozen=True)
class PairReason:
    white: int
    black: int
    reason: Reason  # what another opponent for either of them would have cost


@dataclass(frozen=True)
class FloatReason:
    player: int
    bye: bool  # the pairing-allocated bye, else a downfloat to the next bracket
    reason: Reason  # what pairing him inside the bracket would have cost


@dataclass(frozen=True)
class Candidate:
    opponent: int
    chosen: bool
    reason: Reason | None  # None for the opponent he got


@dataclass(frozen=True)
class BracketReport:
    score: Fraction  # of the resident players
    mdps: tuple[int, ...]  # moved down from the brackets above, best first
    residents: tuple[int, ...]
    penultimate: bool  # the brackets below were collapsed into one (A.9)
    last: bool
    completed: bool  # False: these downfloaters left the round incomplete (C.4); collapsed (2017)
    pairs: tuple[PairReason, ...] = ()
    floats: tuple[FloatReason, ...] = ()


@dataclass(frozen=True)
class PlayerReport:
    player: int
    score: Fraction  # of the bracket he was paired in
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class RoundExplanation:
    edition: Edition
    round: int
    pairing: RoundPairing
    brackets: tuple[BracketReport, ...]
    player: PlayerReport | None = None
    bye_score: Fraction | None = None  # the score of the bye's receiver (2026: C.5 made it the lowest possible)


def _value(weight: DynamicUint) -> int:
    return int(weight.to_binary(), 2)


class _Weighing:
    """One bracket's graph with the engine's edge weights (before the pairing steps changed
    them), paired again without a choice on one matching computer, updated in place."""

    def __init__(self, pairer: _Pairer, articles: tuple[str, ...], topics: tuple[str, ...]) -> None:
        self.bracket: Bracket = pairer.bracket
        self.shifts = [shift for _, shift in pairer.matcher._criteria_shifts()]  # each field's width
        self.articles = articles
        self.topics = topics
        self.players = pairer.matcher.players  # 2026: with the players below the next bracket
        self.index = {p: i for i, p in enumerate(self.players)}
        self.weights = pairer.weights
        self.values = [[_value(w) for w in row] for row in self.weights]
        self.zero = pairer.matcher._zero_weight
        n = len(self.players)
        self.computer = ComputerDutchOptimality(n, pairer.matcher._max_weight)
        for _ in range(n):
            self.computer.add_vertex()
        for i in range(n):
            for j in range(i + 1, n):
                if self.values[i][j]:
                    self.computer.set_edge_weight(i, j, self.weights[i][j])
        self.computer.compute_matching()
        self.mate: list[int] = []  # the last alternative's matching (``best``)

    def fields(self, total: int) -> tuple[int, ...]:
        """A total's fields, the most important first: completion, then the criteria."""
        low = 3 * self.bracket.bracket_bits + 1
        parts = []
        for shift in reversed(self.shifts):
            parts.append((total >> low) & ((1 << shift) - 1))
            low += shift
        parts.append(total >> low)
        return tuple(reversed(parts))

    def total(self, matching: Iterable[tuple[int, int]]) -> int:
        return sum(self.values[i][j] for i, j in matching)

    def _edges(self, dropped: tuple[int, int] | None, alone: tuple[int, int] | None) -> list[tuple[int, int]]:
        """The edges to take away, the changed vertex first (the computer updates the
        matching around the first vertex of every edge set)."""
        if dropped is not None:
            return [dropped] if self.values[dropped[0]][dropped[1]] else []
        assert alone is not None
        p, q = alone
        return [(v, k) for v in (p, q) for k in range(len(self.players))
                if k not in alone and self.values[v][k]]

    def best(self, dropped: tuple[int, int] | None = None, alone: tuple[int, int] | None = None) -> int:
        """The best total without the ``dropped`` edge, or with the two players ``alone``
        only allowed to meet each other."""
        edges = self._edges(dropped, alone)
        for u, v in edges:
            self.computer.set_edge_weight(u, v, self.zero)
        self.computer.compute_matching()
        self.mate = mate = self.computer.get_matching()
        for u, v in edges:
            self.computer.set_edge_weight(u, v, self.weights[u][v])
        return self.total((i, j) for i, j in enumerate(mate) if i < j)

    def compare(self, chosen: int, alternative: int) -> Reason:
        mine, other = self.fields(chosen), self.fields(alternative)
        for position, (a, b) in enumerate(zip(mine, other, strict=True)):
            if a == b:
                continue
            if a < b:
                return Reason("unexplained")
            if position == 0:
                return Reason("complete", "C.4")
            return Reason("criterion", self.articles[position - 1], self.topics[position - 1])
        return Reason("order", "D")


def _absolute(p: Player, q: Player) -> Reason:
    """Why the two may not meet: they played each other (C.1), or both must have the same
    colour (C.3). The blitz rounds forbid no other pairs."""
    if q.id in p.opponents:
        return Reason("played", "C.1")
    return Reason("colour", "C.3")


class _Recorder:
    """The observer: explains every bracket while its players still have their roles."""

    def __init__(self, edition: Edition, asked: int | None) -> None:
        self.edition = edition
        self.asked = asked
        self.brackets: list[BracketReport] = []
        self.player: PlayerReport | None = None
        self.bye_score: int | None = None  # in tenths, as the engine counts

    def __call__(self, pairer: _Pairer, pairs: list[tuple[Player, Player]] | None) -> None:
        bracket = pairer.bracket
        criteria: Criteria = pairer.criteria
        topics = TOPICS_2026 if self.edition == "2026" else TOPICS_2017
        first = FIRST_ARTICLE[self.edition]
        report = BracketReport(
            Fraction(bracket.min_bracket_score, 10), tuple(p.id for p in bracket.mdp_list),
            tuple(p.id for p in bracket.resident_list), bracket.penultimate_pairing_bracket,
            bracket.last_pairing_bracket, pairs is not None,
        )
        if pairs is None:  # collapsed: reported, not weighed
            self.brackets.append(report)
            return
        weighing = _Weighing(pairer, tuple(f"C.{first + i}" for i in range(len(criteria))), topics)
        index = weighing.index
        matching = pairer.matching
        chosen_edges = [(index[p], index[q]) for p, q in matching.items() if index[p] < index[q]]
        chosen = weighing.total(chosen_edges)
        in_bracket = bracket.mdp_list + bracket.resident_list
        paired = {p for white, black in pairs if white != black for p in (white, black)}
        if bracket.last_pairing_bracket:
            # the bye's receiver's score (2026: the lowest with which the round completes)
            self.bye_score = min((p.points_with_acceleration for p in in_bracket if p not in paired), default=None)
        pair_reasons = []
        for white, black in pairs:
            if white == black:
                continue
            alternative = weighing.best(dropped=(index[white], index[black]))
            pair_reasons.append(PairReason(white.id, black.id, self._judge(weighing, chosen, alternative)))
        floats = []
        for player in in_bracket:
            if player in paired:
                continue
            reason = self._inside(weighing, chosen, player, in_bracket)
            floats.append(FloatReason(player.id, bracket.last_pairing_bracket, reason))
        self.brackets.append(BracketReport(
            report.score, report.mdps, report.residents, report.penultimate, report.last, True,
            tuple(pair_reasons), tuple(floats),
        ))
        if self.asked is not None and any(p.id == self.asked for p in in_bracket):
            asked = next(p for p in in_bracket if p.id == self.asked)
            self.player = self._candidates(weighing, chosen, asked, in_bracket, matching, Fraction(bracket.min_bracket_score, 10))

    def _judge(self, weighing: _Weighing, chosen: int, alternative: int) -> Reason:
        """``compare``, and in the last bracket (2026: in every bracket, each being paired
        with the completion of the round) a round that is not completed because the one
        player the alternative leaves unpaired may not have the bye said so."""
        reason = weighing.compare(chosen, alternative)
        if reason.kind != "complete" or not (weighing.bracket.last_pairing_bracket or self.edition == "2026"):
            return reason
        unpaired = [q for q in weighing.players if weighing.mate[weighing.index[q]] == weighing.index[q]]
        if len(unpaired) == 1 and unpaired[0].bye_received:
            return self._no_bye(unpaired[0])
        return reason

    def _no_bye(self, other: Player) -> Reason:
        """The alternative leaves ``other`` the bye, who may not have it: he had one, or a
        win without playing, before (C.2), or (2026) he scores more than the lowest score
        with which the round can be completed (C.5)."""
        if self.edition == "2026" and self.bye_score is not None and other.points_with_acceleration > self.bye_score:
            return Reason("bye", "C.5")
        return Reason("bye", "C.2")

    def _forced(self, weighing: _Weighing, chosen: int, p: Player, q: Player) -> Reason:
        if not weighing.values[weighing.index[p]][weighing.index[q]]:
            return _absolute(p, q)
        return self._judge(weighing, chosen, weighing.best(alone=(weighing.index[p], weighing.index[q])))

    def _inside(self, weighing: _Weighing, chosen: int, player: Player, in_bracket: list[Player]) -> Reason:
        """The best of pairing ``player`` with anyone of his bracket instead."""
        best: tuple[tuple[int, ...], int, list[int]] | None = None
        for other in in_bracket:
            if other is player or not weighing.values[weighing.index[player]][weighing.index[other]]:
                continue
            total = weighing.best(alone=(weighing.index[player], weighing.index[other]))
            if best is None or weighing.fields(total) > best[0]:
                best = (weighing.fields(total), total, weighing.mate)
        if best is None:
            return Reason("alone")
        weighing.mate = best[2]
        return self._judge(weighing, chosen, best[1])

    def _candidates(self, weighing: _Weighing, chosen: int, asked: Player, in_bracket: list[Player],
                    matching: dict[Player, Player], score: Fraction) -> PlayerReport:
        mate: Player = matching.get(asked, asked)
        rows = []
        for other in in_bracket:
            if other is asked:
                continue
            if other is mate:
                rows.append(Candidate(other.id, True, None))
            else:
                rows.append(Candidate(other.id, False, self._forced(weighing, chosen, asked, other)))
        return PlayerReport(asked.id, score, tuple(rows))


def explain_round(
    tournament: Tournament, present: Collection[int], total_rounds: int | None = None,
    edition: Edition = "2026", *, first_white: bool = True, player: int | None = None,
) -> RoundExplanation:
    """Pair the next round as ``pair_blitz_round`` does and say why; ``player`` (a start
    number) adds every opponent he could have had in his bracket and what kept them apart."""
    ids = engine_numbers(tournament, present)
    engine_id = {number: i for i, number in ids.items()}
    if player is not None and player not in engine_id:
        raise ValueError(f"player {player} is not paired in this round")
    recorder = _Recorder(edition, None if player is None else engine_id[player])
    pairing = pair_blitz_round(tournament, present, total_rounds, edition, first_white=first_white,
                               observer=recorder)

    def back(reason_holder: int) -> int:
        return ids[reason_holder]

    brackets = tuple(
        BracketReport(
            b.score, tuple(map(back, b.mdps)), tuple(map(back, b.residents)), b.penultimate, b.last,
            b.completed, tuple(PairReason(back(p.white), back(p.black), p.reason) for p in b.pairs),
            tuple(FloatReason(back(f.player), f.bye, f.reason) for f in b.floats),
        )
        for b in recorder.brackets
    )
    asked = None
    if recorder.player is not None:
        r = recorder.player
        asked = PlayerReport(back(r.player), r.score,
                             tuple(Candidate(back(c.opponent), c.chosen, c.reason) for c in r.candidates))
    bye_score = tournament.scores()[pairing.bye] if pairing.bye is not None else None
    return RoundExplanation(edition, tournament.rounds + 1, pairing, brackets, asked, bye_score)
