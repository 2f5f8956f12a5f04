"""Pairing the rapid competition: a Swiss of two-game matches (docs/rules.md 7).

Colours do not matter (each match is one game with each colour). A round is worth 0-2
points; the pairing-allocated bye is worth 2 points and goes to a player at most once.

The whole round is one minimum-cost perfect matching (networkx ``max_weight_matching``
over the complete graph of present players, plus a BYE node when their number is odd), so
the pairing never fails where a valid one exists. The cost of a pairing is lexicographic,
most important first:

1. no rematch (a pair that already played a match);
2. no second pairing-allocated bye;
3. the bye in the lowest score group possible;
4. fewest floats (pairs with different scores), then the smallest (sum of squared gaps);
5. inside a score group, top half against bottom half by rating (1 v m/2+1, ...);
6. the bye to the lowest-rated of the eligible players.

Rules 1 and 2 are absolute as long as they can be kept; when no pairing keeps them (a small
field late in the event), the cheapest pairing breaks as few as possible and ``notes`` says
which pair meets again or who gets a second bye, so the leader can intervene.
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from itertools import combinations

import networkx as nx

from .tiebreaks import RoundPairing, Tournament, had_pairing_bye, played_pairs

REMATCH = 10**15
SECOND_BYE = 10**13
BYE_LEVEL = 10**11  # per score group above the lowest
FLOAT = 10**9  # per pair with different scores
FLOAT_GAP = 10**5  # times the squared gap in half points
HALVES = 10**2  # per place away from the top-v-bottom-half opponent
BYE_RATING = 1  # per place above the lowest-rated
BASE = 10**17  # makes every edge weight positive

_BYE = -1  # node of the bye


def _group_positions(
    players: list[int], scores: dict[int, Fraction], ratings: dict[int, int]
) -> dict[int, tuple[int, int]]:
    """(place in its score group by rating, group size) for each present player."""
    groups: dict[Fraction, list[int]] = {}
    for p in players:
        groups.setdefault(scores[p], []).append(p)
    out = {}
    for members in groups.values():
        members.sort(key=lambda p: (-ratings[p], p))
        for place, p in enumerate(members):
            out[p] = (place, len(members))
    return out


def pair_rapid_round(tournament: Tournament, present: Collection[int]) -> RoundPairing:
    """Pair the next round of the rapid Swiss among the ``present`` start numbers."""
    players = sorted(set(present))
    unknown = [p for p in players if p not in {e.number for e in tournament.entrants}]
    if unknown:
        raise ValueError(f"not in the tournament: {unknown}")
    if not players:
        return RoundPairing(())
    scores = tournament.scores()
    ratings = {e.number: e.rating for e in tournament.entrants}
    met = played_pairs(tournament)
    had_bye = had_pairing_bye(tournament)
    places = _group_positions(players, scores, ratings)
    levels = {s: i for i, s in enumerate(sorted({scores[p] for p in players}))}
    by_rating = sorted(players, key=lambda p: (ratings[p], -p))  # lowest first

    def pair_cost(a: int, b: int) -> int:
        cost = REMATCH if frozenset((a, b)) in met else 0
        gap = abs(scores[a] - scores[b]) * 2
        if gap:
            cost += FLOAT + FLOAT_GAP * int(gap * gap)
        else:
            (pa, size), (pb, _) = places[a], places[b]
            cost += HALVES * abs(abs(pa - pb) - size // 2)
        return cost

    def bye_cost(p: int) -> int:
        cost = SECOND_BYE if p in had_bye else 0
        return cost + BYE_LEVEL * levels[scores[p]] + BYE_RATING * by_rating.index(p)

    graph = nx.Graph()
    for a, b in combinations(players, 2):
        graph.add_edge(a, b, weight=BASE - pair_cost(a, b))
    if len(players) % 2:
        for p in players:
            graph.add_edge(_BYE, p, weight=BASE - bye_cost(p))
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    games: list[tuple[int, int]] = []
    bye = None
    for a, b in matching:
        if _BYE in (a, b):
            bye = b if a == _BYE else a
            continue
        games.append(_order(a, b, scores, ratings))
    if len(players) == 1:
        bye = players[0]
    games.sort(key=lambda g: (-max(scores[g[0]], scores[g[1]]), -ratings[g[0]], g[0]))

    notes = [f"rematch {a}-{b}: no pairing without one exists" for a, b in games if frozenset((a, b)) in met]
    if bye is not None and bye in had_bye:
        notes.append(f"second bye for {bye}: every eligible pairing needed it")
    return RoundPairing(tuple(games), bye, tuple(notes))


def _order(a: int, b: int, scores: dict[int, Fraction], ratings: dict[int, int]) -> tuple[int, int]:
    """Higher score (then rating) first, like a pairing list on the wall."""
    def key(p: int) -> tuple[Fraction, int, int]:
        return (scores[p], ratings[p], -p)

    return (a, b) if key(a) >= key(b) else (b, a)
