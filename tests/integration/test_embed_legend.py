"""Issue 32: the embedded standings mark a player not (yet) eligible for a prize with
"*", and say under the table what the mark means."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from competition.website import views

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]
TODAY = dt.date(2025, 9, 27)  # the fixture's season's winter half is under way


def test_the_embeds_mark_has_a_legend(client, played_evening, monkeypatch):
    season, _evening = played_evening
    last = season.players.order_by("-start").first()
    monkeypatch.setattr(views.prize_selectors, "eligibility_marks",
                        lambda half: {last.pk: False})
    html = client.get(reverse("website:embed_standings")).content.decode()
    assert 'aria-describedby="embed-legend">*</span>' in html
    legend = html[html.index('id="embed-legend"'):]
    assert "* not (yet) eligible for a prize</p>" in legend[:200]


def test_without_a_mark_there_is_no_legend(client, played_evening):
    html = client.get(reverse("website:embed_standings")).content.decode()
    assert "<tbody>" in html and "embed-legend" not in html
