"""Who is coming, and a preview: the next evening's page counts the players signed up
(names to members only); before the deadline the leader sees the pairing the job would
make now, with the rules it had to relax, and nothing is written."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django.asserts import assertContains, assertNotContains

from competition.models import AuditRecord, Bye, Evening, Game
from pairing.models import PairingNotice
from pairing.selectors import pairing_preview
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _rows() -> tuple:
    return (Game.objects.count(), Bye.objects.count(), AuditRecord.objects.count(),
            PairingNotice.objects.count(),
            sorted(Evening.objects.values_list("pk", "status", "version", "pairing_seed")))


def test_the_preview_pairs_like_the_job_and_writes_nothing(client):
    leader = f.leader()
    season = f.season(players=7)
    evening = f.playing_evenings(season)[0]
    before = _rows()
    client.force_login(leader)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(f"/pairing/evenings/{evening.pk}/preview/")
    assert response.status_code == 200
    writes = [q["sql"] for q in ctx.captured_queries
              if re.match(r"\s*(INSERT|UPDATE|DELETE)", q["sql"], re.I)
              and "django_session" not in q["sql"]]
    assert writes == []
    assert _rows() == before
    preview = response.context
    assert preview["present"] == 7 and len(preview["games"]) == 3 and preview["bye"]
    assertContains(response, 'id="no-relaxed"')
    # The job, run now, makes the same pairing.
    evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
    made = [(g.board, g.white.member.name, g.black.member.name)
            for g in evening.games.select_related("white__member", "black__member").order_by("board")]
    assert made == [(g["board"], g["white"], g["black"]) for g in preview["games"]]


def test_the_preview_names_the_rules_it_had_to_relax(client):
    leader = f.leader()
    season = f.season(system="classic", players=2)
    first, second = f.playing_evenings(season)[:2]
    evening_pair_and_publish(evening_id=first.pk, actor=None, system=True, now=first.deadline)
    preview = pairing_preview(second)
    assert preview["relaxed"] and preview["relaxed"][0]["words"]
    client.force_login(leader)
    response = client.get(f"/pairing/evenings/{second.pk}/preview/")
    assertContains(response, 'id="relaxed"')
    assertContains(response, preview["relaxed"][0]["words"])


def test_the_preview_is_the_leaders_and_a_published_evening_has_none(client):
    season = f.season(players=4)
    evening = f.playing_evenings(season)[0]
    client.force_login(season.players.first().member)
    assert client.get(f"/pairing/evenings/{evening.pk}/preview/").status_code == 403
    evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True, now=evening.deadline)
    client.force_login(f.leader())
    assert client.get(f"/pairing/evenings/{evening.pk}/preview/").status_code == 302


def test_the_evening_page_counts_who_is_coming_and_names_them_to_members_only(client):
    season = f.season(players=5, flexible=2)
    evening = f.playing_evenings(season)[0]
    url = f"/evenings/{evening.date.isoformat()}/?season={season.slug}"
    names = list(season.players.filter(kind="fixed").values_list("member__name", flat=True))
    response = client.get(url)
    assert [p.member.name for p in response.context["coming"]] == sorted(names)
    assertContains(response, 'id="coming"')
    assertNotContains(response, names[0])
    client.force_login(season.players.first().member)
    assertContains(client.get(url), names[0])
