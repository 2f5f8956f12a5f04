"""Defaults of the non-scoring parameters per system (docs/rules.md 5 and 6).

Scoring parameters come from ``competition.scoring.params.preset``; these are the pairing,
calendar and prize numbers stored as fields on ``Competition``.
"""

from __future__ import annotations

PERCENTAGE = 50  # pion: not absent without notice on at least 50% of the evenings
# Seed 002 (classic) has no prize rules: nobody is refused a prize unless the administrator
# sets a percentage. 0 switches the rule off (every player reaches 0%).
PERCENTAGE_BY_SYSTEM = {"pion": PERCENTAGE, "classic": 0, "keizer1956": PERCENTAGE}


def default_percentage(system: str) -> int:
    """The eligibility percentage a system's preset starts with."""
    return PERCENTAGE_BY_SYSTEM.get(system, PERCENTAGE)


COMPETITION_PRESETS: dict[str, dict[str, object]] = {
    "pion": {
        "max_meetings_per_season": 2,
        "max_meetings_per_half": 1,
        "min_evenings_between": 5,
        "bye_policy": "random",
        "eligibility_percentage": 50,
    },
    "classic": {
        "max_meetings_per_season": 1,
        "max_meetings_per_half": 1,
        "min_evenings_between": 0,
        "bye_policy": "lowest",
        "eligibility_percentage": PERCENTAGE_BY_SYSTEM["classic"],  # 0: nobody is refused
    },
    "keizer1956": {
        "max_meetings_per_season": 1,
        "max_meetings_per_half": 1,
        "min_evenings_between": 0,
        "bye_policy": "lowest",
        "eligibility_percentage": 50,
    },
    # Seed 001 says nothing about rematches: the pion numbers over one period.
    "ladder": {
        "max_meetings_per_season": 2,
        "max_meetings_per_half": 2,
        "min_evenings_between": 5,
        "bye_policy": "lowest",
        "eligibility_min_games": 14,
        "eligibility_max_exempted": 4,
    },
}
