"""Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm).

Kept incremental on purpose: the pairing engine fixes one pair at a time and asks
whether the rest can still be matched perfectly. With a perfect matching at hand that
question is one augmenting-path search, not a new matching from scratch.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

UNMATCHED = -1


class Matcher:
    """A matching on vertices 0..n-1 of an undirected graph given as adjacency lists.

    Fixed vertices (see `fix`) leave the graph: later searches ignore them.
    """

    def __init__(self, adjacency: Sequence[Sequence[int]]) -> None:
        self.adj = adjacency
        self.n = len(adjacency)
        self.mate = [UNMATCHED] * self.n
        self.active = [True] * self.n

    def add_pair(self, u: int, v: int) -> None:
        """Add the edge u-v to the matching; both must be unmatched."""
        self.mate[u] = v
        self.mate[v] = u

    def exposed(self) -> list[int]:
        return [v for v in range(self.n) if self.active[v] and self.mate[v] == UNMATCHED]

    def maximise(self) -> bool:
        """Augment until maximum; True when the matching on the active vertices is perfect."""
        for root in self.exposed():
            if self.mate[root] == UNMATCHED:
                self._augment_from(root)
        return not self.exposed()

    def fix(self, u: int, v: int) -> bool:
        """Fix the pair u-v if a perfect matching of the active vertices containing it exists.

        Requires the current matching to be perfect on the active vertices; keeps it so.
        On success u and v become inactive; on failure nothing changes.
        """
        mate = self.mate
        if mate[u] != v:
            a, b = mate[u], mate[v]
            self.active[u] = self.active[v] = False
            mate[a] = mate[b] = mate[u] = mate[v] = UNMATCHED
            if not self._augment_from(a):
                self.active[u] = self.active[v] = True
                self.add_pair(u, a)
                self.add_pair(v, b)
                return False
            self.add_pair(u, v)
        self.active[u] = self.active[v] = False
        return True

    def _augment_from(self, root: int) -> bool:
        """Search an augmenting path from the exposed `root`; flip it if found."""
        end, parent = self._find_path(root)
        if end == UNMATCHED:
            return False
        v = end
        while v != UNMATCHED:
            pv = parent[v]
            next_v = self.mate[pv]
            self.mate[v] = pv
            self.mate[pv] = v
            v = next_v
        return True

    def _find_path(self, root: int) -> tuple[int, list[int]]:
        n, adj, mate, active = self.n, self.adj, self.mate, self.active
        parent = [UNMATCHED] * n
        base = list(range(n))
        in_tree = [False] * n
        in_tree[root] = True
        queue = deque([root])

        def lowest_common_base(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == UNMATCHED:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark_path(v: int, b: int, child: int, in_blossom: list[bool]) -> None:
            while base[v] != b:
                in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in adj[v]:
                if not active[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != UNMATCHED and parent[mate[to]] != UNMATCHED):
                    # `to` is an outer vertex too: an odd cycle, contract the blossom.
                    cur = lowest_common_base(v, to)
                    in_blossom = [False] * n
                    mark_path(v, cur, to, in_blossom)
                    mark_path(to, cur, v, in_blossom)
                    for i in range(n):
                        if in_blossom[base[i]]:
                            base[i] = cur
                            if not in_tree[i]:
                                in_tree[i] = True
                                queue.append(i)
                elif parent[to] == UNMATCHED:
                    parent[to] = v
                    if mate[to] == UNMATCHED:
                        return to, parent
                    in_tree[mate[to]] = True
                    queue.append(mate[to])
        return UNMATCHED, parent
