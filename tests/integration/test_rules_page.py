"""The rules page writes the club's numbers as a club writes them (issue 32): fractions as
one sign ("⅔ × het eigen waardecijfer", not "2/3"), a decimal that rounds a third says so
("0,3333 (⅓, afgerond)"), and the prize-eligibility numbers are on it (the ladder's 14
games and 4 exempted matches, De Pion's 50 %), as docs/rules.md promises every number."""

from __future__ import annotations

import pytest
from django.utils import translation

from competition.season.rules_text import describe_competition
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _rules(system: str) -> dict[str, str]:
    s = f.season(system=system, players=2)
    with translation.override("nl"):
        return {str(term): str(text) for term, text in describe_competition(s.competition)}


def test_classic_writes_its_thirds_as_a_club_does():
    lines = _rules("classic")
    text = " ".join(lines.values())
    assert "⅔ × het eigen waardecijfer" in text or "⅔ ×" in text
    assert "⅓ ×" in text
    assert "2/3" not in text and "1/3" not in text and "0,6667" not in text


def test_pion_says_its_third_is_rounded():
    text = " ".join(_rules("pion").values())
    assert "0,3333 (⅓, afgerond) ×" in text


def test_pion_names_its_attendance_rule_for_prizes():
    assert "minstens 50 % van de speelavonden" in _rules("pion")["Prijzen"]


def test_the_ladder_names_its_games_and_exemptions_for_prizes():
    prizes = _rules("ladder")["Prijzen"]
    assert "minstens 14 partijen" in prizes and "hooguit 4 clubwedstrijden" in prizes


def test_the_ladder_writes_its_decimals_with_a_comma():
    text = " ".join(_rules("ladder").values())
    assert "0,07" in text and "0.07" not in text
