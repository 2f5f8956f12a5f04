"""Defaults of the non-scoring parameters per system (RULES.md 5 and 6).

Scoring parameters come from ``competition.scoring.params.preset``; these are the pairing,
calendar and prize numbers stored as fields on ``Competition``.
"""

from __future__ import annotations

from .scoring.prizes import PERCENTAGE_BY_SYSTEM

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
