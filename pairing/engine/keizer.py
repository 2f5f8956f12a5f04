"""Pairing a Keizer or ladder evening (docs/rules.md section 5; explained in docs/pairing.md).

Pure functions, no Django. The pairing is the one the top-down rule makes ("1 plays 2;
if they met already, 1 plays 3"), except that a choice leaving the others unpairable is
never made. That is the lexicographically smallest valid pairing, found by fixing one
pair at a time and asking a matching algorithm whether the rest can still be paired.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import networkx as nx

from pairing.engine.blossom import Matcher
from pairing.engine.types import (
    FEWEST_BYES,
    RULES_WEAKEST_FIRST,
    ByePolicy,
    Colour,
    Half,
    Meeting,
    PairedGame,
    PairingResult,
    PairingRules,
    PlayerId,
    PresentPlayer,
    Relaxation,
    Rule,
)
from pairing.engine.weighted_matching import max_weight_perfect_matching

PairKey = frozenset[PlayerId]
History = Mapping[PairKey, Sequence[Meeting]]


# --- The hard constraints ------------------------------------------------------------


def index_history(meetings: Iterable[Meeting]) -> dict[PairKey, list[Meeting]]:
    """Group this season's meetings by the pair of players."""
    history: dict[PairKey, list[Meeting]] = defaultdict(list)
    for meeting in meetings:
        history[frozenset((meeting.a, meeting.b))].append(meeting)
    return dict(history)


def broken_rules(
    earlier: Sequence[Meeting], rules: PairingRules, evening_index: int, half: Half
) -> tuple[Rule, ...]:
    """The rules a meeting tonight would break, given the pair's earlier meetings."""
    broken: list[Rule] = []
    if any(abs(evening_index - m.evening) - 1 < rules.min_evenings_between for m in earlier):
        broken.append("min_evenings_between")
    if sum(1 for m in earlier if m.half == half) >= rules.max_meetings_per_half:
        broken.append("max_meetings_per_half")
    if len(earlier) >= rules.max_meetings_per_season:
        broken.append("max_meetings_per_season")
    return tuple(broken)


def violations(
    pairing: PairingResult | Iterable[PairedGame],
    history: Iterable[Meeting],
    rules: PairingRules,
    evening_index: int,
    half: Half,
) -> list[Relaxation]:
    """Every (game, rule) that a pairing breaks, by board, weakest rule first.

    `history` must not contain tonight's games. Raises ValueError when a player is
    paired twice or against himself (not a rule one can relax).
    """
    games = pairing.games if isinstance(pairing, PairingResult) else tuple(pairing)
    seen: set[PlayerId] = set()
    for game in games:
        if game.white == game.black or game.white in seen or game.black in seen:
            raise ValueError(f"player paired twice on board {game.board}")
        seen.update((game.white, game.black))
    by_pair = index_history(history)
    found: list[Relaxation] = []
    for game in sorted(games, key=lambda g: g.board):
        earlier = by_pair.get(frozenset((game.white, game.black)), ())
        for rule in broken_rules(earlier, rules, evening_index, half):
            found.append(Relaxation(game.white, game.black, rule))
    return found


# --- The pairing bye -----------------------------------------------------------------


def bye_groups(
    players: Sequence[PresentPlayer], policy: ByePolicy, seed: str | int
) -> list[list[int]]:
    """Bye candidates (positions in `players`) in policy order, grouped by byes had.

    Fewest byes first. `lowest`: lowest-placed first. `random`: each group shuffled with
    random.Random(seed), groups taken in order, so the same seed gives the same draw.
    """
    if policy not in ("random", "lowest"):
        raise ValueError(f"unknown bye policy {policy!r}")
    by_count: dict[int, list[int]] = defaultdict(list)
    for position, player in enumerate(players):
        by_count[player.byes].append(position)
    rng = random.Random(seed)
    groups = []
    for count in sorted(by_count):
        group = by_count[count]
        if policy == "lowest":
            group.reverse()
        else:
            rng.shuffle(group)
        groups.append(group)
    return groups


def bye_violation(players: Sequence[PresentPlayer], bye: PlayerId | None) -> Relaxation | None:
    """The bye went to a player with more byes this season than another of `players`
    (those in tonight's pairing): the bye policy's rule is relaxed, which the pairing
    does only when every player with the fewest byes would leave a meeting rule broken.
    """
    if bye is None or not players:
        return None
    byes = {p.id: p.byes for p in players}
    if byes[bye] > min(byes.values()):
        return Relaxation(bye, None, FEWEST_BYES)
    return None


# --- Colours ---------------------------------------------------------------------------


def _third_in_a_row(player: PresentPlayer, colour: Colour) -> bool:
    return player.colours[-2:] == (colour, colour)


def assign_colours(
    higher: PresentPlayer, lower: PresentPlayer
) -> tuple[PresentPlayer, PresentPlayer]:
    """(white, black) for a game between `higher` (placed higher) and `lower`.

    docs/rules.md 5, in its order; each step decides only what the steps before leave equal.
    1. White to the lower colour balance (whites minus blacks): the one with more blacks.
    2. Equal balance: white to the one who had black in his last game (if only one did).
    3. The leader's rule, which docs/rules.md leaves to the club; Ranglijst's is:
       a. nobody plays the same colour a third time in a row if the other way round
          spares both players that;
       b. otherwise white to the higher placed.
    """
    if higher.colour_balance != lower.colour_balance:
        if higher.colour_balance < lower.colour_balance:
            return higher, lower
        return lower, higher
    higher_black_last = higher.colours[-1:] == ("B",)
    lower_black_last = lower.colours[-1:] == ("B",)
    if higher_black_last != lower_black_last:
        return (higher, lower) if higher_black_last else (lower, higher)
    if _third_in_a_row(higher, "W") or _third_in_a_row(lower, "B"):
        if not (_third_in_a_row(lower, "W") or _third_in_a_row(higher, "B")):
            return lower, higher
    return higher, lower


# --- The pairing -----------------------------------------------------------------------


def pair_evening(
    players: Sequence[PresentPlayer],
    meetings: Iterable[Meeting],
    rules: PairingRules,
    *,
    evening_index: int,
    half: Half,
    seed: str | int,
) -> PairingResult:
    """Pair the players present tonight, given in standings order (see docs/pairing.md)."""
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    n = len(players)
    history = index_history(meetings)
    position = {pid: i for i, pid in enumerate(ids)}
    breaks: dict[tuple[int, int], tuple[Rule, ...]] = {}
    for key, earlier in history.items():
        if len(key) == 2 and all(pid in position for pid in key):
            i, j = sorted(position[pid] for pid in key)
            broken = broken_rules(earlier, rules, evening_index, half)
            if broken:
                breaks[(i, j)] = broken
    groups = bye_groups(players, rules.bye_policy, seed) if n % 2 else []
    bye_order = [i for group in groups for i in group]

    solved = _pair_strictly(n, breaks, bye_order)
    if solved is None:
        solved = _pair_relaxed(n, breaks, bye_order)
    pairs, bye = solved

    games: list[PairedGame] = []
    relaxed: list[Relaxation] = []
    for board, (i, j) in enumerate(sorted(pairs), start=1):
        white, black = assign_colours(players[i], players[j])
        games.append(PairedGame(board, white.id, black.id))
        relaxed.extend(Relaxation(white.id, black.id, rule) for rule in breaks.get((i, j), ()))
    bye_relaxed = bye_violation(players, None if bye is None else ids[bye])
    if bye_relaxed is not None:
        relaxed.append(bye_relaxed)
    drawn_from: tuple[PlayerId, ...] = ()
    if bye is not None and rules.bye_policy == "random":
        group = next(g for g in groups if bye in g)
        drawn_from = tuple(ids[i] for i in sorted(group))
    return PairingResult(
        games=tuple(games),
        bye=None if bye is None else ids[bye],
        bye_drawn_from=drawn_from,
        relaxed=tuple(relaxed),
    )


Solution = tuple[list[tuple[int, int]], int | None]


def _pair_strictly(
    n: int, breaks: Mapping[tuple[int, int], tuple[Rule, ...]], bye_order: Sequence[int]
) -> Solution | None:
    """Top-down pairing with every rule kept, or None when no valid pairing exists.

    Vertex n stands for the bye when n is odd. Each choice is fixed only if a perfect
    matching of the rest still exists (one augmenting-path search per check).
    """
    odd = n % 2 == 1
    adjacency: list[list[int]] = [[] for _ in range(n + odd)]
    for i in range(n):
        for j in range(i + 1, n):
            if (i, j) not in breaks:
                adjacency[i].append(j)
                adjacency[j].append(i)
    matcher = Matcher(adjacency)
    mate = matcher.mate
    if odd:
        adjacency[n].extend(range(n))
        for i in range(n):
            adjacency[i].append(n)
        matcher.add_pair(n, bye_order[0])
    # Start from the greedy top-down pairing: most later checks then succeed at once.
    for i in range(n):
        if mate[i] < 0:
            partner = next((j for j in adjacency[i] if i < j < n and mate[j] < 0), None)
            if partner is not None:
                matcher.add_pair(i, partner)
    if not matcher.maximise():
        return None

    bye = None
    if odd:
        bye = next(c for c in bye_order if matcher.fix(n, c))
    pairs = []
    active = matcher.active
    for i in range(n):
        if active[i]:
            j = next(j for j in adjacency[i] if i < j < n and active[j] and matcher.fix(i, j))
            pairs.append((i, j))
    return pairs, bye


def _relaxed_costs(
    n: int, breaks: Mapping[tuple[int, int], tuple[Rule, ...]], bye_order: Sequence[int]
) -> tuple[dict[tuple[int, int], int], int]:
    """The cost of every possible pair (vertex n is the bye) and a bound above them all.

    Costs, compared in this order (each level outweighs everything below it):
    1. the number of games breaking the season rule, then the half rule, then the gap;
    2. the bye candidate's place in the policy order;
    3. the top-down preference: player i's opponent j costs (j - i) * base**(n - 1 - i),
       so the highest player's choice outweighs all later ones (exact integers).
    """
    pair_slots = n // 2 + 1
    rule_weight = {rule: pair_slots**k for k, rule in enumerate(RULES_WEAKEST_FIRST)}
    # Later choices differ by at most (n - 1) * (base**k - 1) / (base - 1) < base**k.
    base = n + 1
    lex_span = n * base**n
    tier_unit = (n + 1) * lex_span
    bye = n

    costs: dict[tuple[int, int], int] = {}
    for i in range(n):
        for j in range(i + 1, n):
            tier = sum(rule_weight[rule] for rule in breaks.get((i, j), ()))
            costs[(i, j)] = tier * tier_unit + (j - i) * base ** (n - 1 - i)
    for rank, candidate in enumerate(bye_order):
        costs[(candidate, bye)] = rank * lex_span
    ceiling = (sum(rule_weight.values()) + 1) * tier_unit
    return costs, ceiling


def _solution(n: int, pairs_found: Iterable[tuple[int, int]]) -> Solution:
    pairs: list[tuple[int, int]] = []
    chosen_bye = None
    for u, v in pairs_found:
        u, v = min(u, v), max(u, v)
        if v == n and n % 2:
            chosen_bye = u
        else:
            pairs.append((u, v))
    return pairs, chosen_bye


# Candidate opponents per player for the relaxed pairing: the NEAR players just below him
# and the NEAR nearest he may meet. Any other pair enters only if the optimality check
# asks for it, so this changes the speed, never the result.
NEAR = 8
NEAR_ANY = 2


def _pair_relaxed(
    n: int, breaks: Mapping[tuple[int, int], tuple[Rule, ...]], bye_order: Sequence[int]
) -> Solution:
    """The best pairing when no valid one exists: one minimum-cost perfect matching
    (costs in `_relaxed_costs`), solved over nearby pairs and proved optimal over all
    (`weighted_matching.max_weight_perfect_matching`)."""
    costs, ceiling = _relaxed_costs(n, breaks, bye_order)
    candidates: set[tuple[int, int]] = {pair for pair in costs if pair[1] == n}
    unmatched = set(range(n))
    for i in range(n):
        candidates.update((i, j) for j in range(i + 1, min(n, i + 1 + NEAR_ANY)))
        allowed = [j for j in range(i + 1, n) if (i, j) not in breaks][:NEAR]
        candidates.update((i, j) for j in allowed)
        # The greedy top-down pairing; whoever it leaves alone may take anyone.
        if i in unmatched:
            partner = next((j for j in allowed if j in unmatched), None)
            if partner is not None:
                unmatched -= {i, partner}
    for i in unmatched:
        candidates.update((min(i, j), max(i, j)) for j in range(n) if j != i)
    mate = max_weight_perfect_matching(
        n + n % 2,
        lambda u, v: ceiling - costs[(u, v) if u < v else (v, u)],
        sorted(candidates),
        costs.keys,
    )
    return _solution(n, ((u, v) for u, v in mate.items() if u < v))


def _pair_relaxed_dense(
    n: int, breaks: Mapping[tuple[int, int], tuple[Rule, ...]], bye_order: Sequence[int]
) -> Solution:
    """The same optimum as `_pair_relaxed`, by one networkx matching over every pair.
    The earlier method, about ten times slower for 120 players; kept as the reference
    that tests and `bench/bench_pairing.py` compare against."""
    costs, ceiling = _relaxed_costs(n, breaks, bye_order)
    graph = nx.Graph()
    graph.add_nodes_from(range(n + n % 2))
    graph.add_weighted_edges_from((u, v, ceiling - c) for (u, v), c in costs.items())
    matching: set[tuple[Any, Any]] = nx.max_weight_matching(graph, maxcardinality=True)
    return _solution(n, matching)


# --- Helpers for the caller ------------------------------------------------------------


def result_to_dict(result: PairingResult) -> dict[str, Any]:
    """JSON-ready form of a pairing (used by `manage.py pair_evening`)."""
    return {
        "games": [{"board": g.board, "white": g.white, "black": g.black} for g in result.games],
        "bye": result.bye,
        "bye_drawn_from": list(result.bye_drawn_from),
        "relaxed": [{"white": r.white, "black": r.black, "rule": r.rule} for r in result.relaxed],
    }


def result_from_dict(data: Mapping[str, Any]) -> PairingResult:
    """Inverse of `result_to_dict`."""
    return PairingResult(
        games=tuple(PairedGame(g["board"], g["white"], g["black"]) for g in data["games"]),
        bye=data.get("bye"),
        bye_drawn_from=tuple(data.get("bye_drawn_from", ())),
        relaxed=tuple(
            Relaxation(r["white"], r["black"], r["rule"]) for r in data.get("relaxed", ())
        ),
    )


def place_newcomers(
    order: Sequence[PlayerId],
    ratings: Mapping[PlayerId, int | None],
    newcomers: Iterable[PlayerId],
) -> list[PlayerId]:
    """Insert first-time players into the standings `order`, for the pairing only.

    Each newcomer goes directly below the standings player whose rating is closest to
    his; on equal distance, below the higher placed of them. Newcomers placed below the
    same player are ordered by rating, highest first. A newcomer without a rating, or
    when nobody in `order` has one, goes to the bottom (the cautious side).
    """
    in_order = set(order)
    rated = [(pos, pid) for pos, pid in enumerate(order) if ratings.get(pid) is not None]
    below: dict[int, list[PlayerId]] = defaultdict(list)
    bottom: list[PlayerId] = []
    for newcomer in newcomers:
        if newcomer in in_order:
            raise ValueError(f"newcomer {newcomer} is already in the standings")
        rating = ratings.get(newcomer)
        if rating is None or not rated:
            bottom.append(newcomer)
            continue
        pos, _ = min(rated, key=lambda pp: (abs(_rating(ratings, pp[1]) - rating), pp[0]))
        below[pos].append(newcomer)

    def by_rating(pids: list[PlayerId]) -> list[PlayerId]:
        return sorted(pids, key=lambda pid: -(ratings.get(pid) or 0))

    placed: list[PlayerId] = []
    for pos, pid in enumerate(order):
        placed.append(pid)
        placed.extend(by_rating(below[pos]))
    placed.extend(by_rating([pid for pid in bottom if ratings.get(pid) is not None]))
    placed.extend(pid for pid in bottom if ratings.get(pid) is None)
    return placed


def _rating(ratings: Mapping[PlayerId, int | None], pid: PlayerId) -> int:
    rating = ratings.get(pid)
    assert rating is not None
    return rating
