"""What a recalculation may reuse: a fingerprint of the inputs the standings after each
evening depend on (pure; no Django).

The standings after evening j of a half are a function of the competition's parameters,
the season's players and the evenings of that half up to and including j; the summer
half's also of the whole winter half (its final order is the summer starting order, its
absences with notice count on), docs/standings.md "Incremental recalculation". So a
chain of digests, one link per evening, tells which stored standings still hold: those
whose link is unchanged. A result entered or corrected on evening k changes the links
of k and of every later evening (the whole summer half after a winter evening), and
nothing before k. The last evening of a half also holds the explanation lines (made
from the same inputs) and the prize eligibility, which the competition's eligibility
numbers and the administrator's overrides change too: the recalculation adds those to
its link (`competition.season.standings.last_link`), so a half none of whose inputs
changed is neither computed to its lines nor compared.

`tests/unit/scoring/test_incremental.py` is the judge: on generated seasons with a
correction anywhere, every standings whose link is unchanged equals the full
recalculation's, for every Keizer method and the ladder.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence

from competition.scoring.types import Evening, KeizerParams, LadderParams, Player

# The half of the ladder's single run of evenings.
LADDER = "season"
# Hex digits of a link kept (128 bits): enough to tell two inputs apart.
LINK_LENGTH = 32


def _link(previous: str, part: object) -> str:
    return hashlib.sha256(f"{previous}\n{part!r}".encode()).hexdigest()[:LINK_LENGTH]


def input_links(
    params: KeizerParams | LadderParams, players: Sequence[Player], evenings: Sequence[Evening]
) -> dict[tuple[str, datetime.date], str]:
    """{(half, evening date): the link of the inputs the standings after that evening
    depend on}. The half is "winter"/"summer" for Keizer, `LADDER` for the ladder.
    `repr` of the frozen inputs is deterministic across processes (unlike `hash`)."""
    base = _link("", (params, tuple(sorted(players, key=lambda p: p.id))))
    links: dict[tuple[str, datetime.date], str] = {}
    if isinstance(params, LadderParams):
        link = base
        for evening in evenings:
            link = _link(link, evening)
            links[(LADDER, evening.date)] = link
        return links
    link = base
    for evening in (e for e in evenings if e.half == "winter"):
        link = _link(link, evening)
        links[("winter", evening.date)] = link
    # The summer half starts from the whole winter half (its last link, or none).
    link = _link(link, "summer")
    for evening in (e for e in evenings if e.half == "summer"):
        link = _link(link, evening)
        links[("summer", evening.date)] = link
    return links
