"""The relaxed pairing's weighted matching: solved over candidate edges, proved optimal
over all (pairing/engine/weighted_matching.py), checked against networkx over all edges."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from pairing.engine import keizer
from pairing.engine.weighted_matching import max_weight_perfect_matching
from tests.unit.pairing.test_keizer_pairing_properties import Evening, evenings


def weight_of(matching, weight) -> int:
    return sum(weight(u, v) for u, v in matching)


def as_pairs(mate: dict[int, int]) -> set[tuple[int, int]]:
    return {(u, v) for u, v in mate.items() if u < v}


@hypothesis_settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 9).map(lambda k: 2 * k),
    seed=st.integers(0, 10**6),
    spread=st.sampled_from([3, 50, 10**30]),
    near=st.integers(1, 4),
)
def test_matching_over_candidates_is_optimal_over_every_edge(n, seed, spread, near):
    rnd = random.Random(seed)
    weights = {(u, v): rnd.randint(0, spread) for u, v in itertools.combinations(range(n), 2)}

    def weight(u: int, v: int) -> int:
        return weights[(min(u, v), max(u, v))]

    # A path through all vertices admits a perfect matching; the optimum may need more.
    candidates = [(u, v) for (u, v) in weights if v - u <= near]
    mate = max_weight_perfect_matching(n, weight, candidates, weights.keys)
    assert sorted(mate) == list(range(n)) and all(mate[mate[v]] == v for v in mate)
    graph = nx.Graph()
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in weights.items())
    best = nx.max_weight_matching(graph, maxcardinality=True)
    found = weight_of(as_pairs(mate), weight)
    event(f"optimum outside the first candidates: {any(v - u > near for u, v in as_pairs(mate))}")
    assert found == weight_of(best, weight)


def test_candidates_without_a_perfect_matching_are_refused():
    with pytest.raises(ValueError, match="no perfect matching"):
        max_weight_perfect_matching(4, lambda u, v: 1, [(0, 1)], lambda: [(0, 1), (2, 3)])


@hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings(max_players=40, min_players=14, window=8))
def test_relaxed_pairing_equals_the_dense_reference(ev: Evening):
    """The fast relaxed pairing gives exactly the pairing of the earlier method (one
    networkx matching over every pair), on evenings of up to 40 players."""
    players = ev.present
    n = len(players)
    position = {p.id: i for i, p in enumerate(players)}
    breaks = {}
    for key, earlier in keizer.index_history(ev.meetings).items():
        i, j = sorted(position[pid] for pid in key)
        broken = keizer.broken_rules(earlier, ev.rules, ev.evening, ev.half)
        if broken:
            breaks[(i, j)] = broken
    groups = keizer.bye_groups(players, ev.rules.bye_policy, ev.seed) if n % 2 else []
    bye_order = [i for group in groups for i in group]
    event(f"pairs breaking a rule: {min(len(breaks) * 10 // max(n * (n - 1) // 2, 1), 9)}0%+")
    fast = keizer._pair_relaxed(n, breaks, bye_order)
    dense = keizer._pair_relaxed_dense(n, breaks, bye_order)
    assert (sorted(fast[0]), fast[1]) == (sorted(dense[0]), dense[1])
