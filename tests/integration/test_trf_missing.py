"""Issue 32: the export for rating names the TRF records the file lacks (022, the venue's
city; 102, the chief arbiter) with a link to where they are filled in, and proposes them
from the club's venue and its arbiter."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competition.models import Competition
from members.models import Membership, User
from tests import factories as f

pytestmark = pytest.mark.django_db


def test_the_export_page_warns_of_what_the_file_lacks_and_proposes_it(client, played_evening):
    season, _evening = played_evening
    club = season.club
    club.venue = "Wijkcentrum De Pion, Dorpsstraat 1, 3511 AB Utrecht"
    club.save(update_fields=["venue"])
    assert Membership.objects.filter(club=club, role="arbiter").count() == 1
    arbiter = User.objects.get(memberships__club=club, memberships__role="arbiter")
    arbiter.name = "Yvonne de Haan"
    arbiter.save(update_fields=["name"])
    client.force_login(f.leader())
    url = reverse("ratings:export", args=[season.slug])
    html = client.get(url).content.decode()
    assert 'data-trf-missing="022 102"' in html
    assert "the city of the venue (record 022)" in html and "the chief arbiter (record 102)" in html
    assert 'href="#trf-club"' in html and 'id="trf-club"' in html
    # Proposed from the club's data: the city of its venue, its one arbiter as FIDE writes him.
    assert 'name="city" value="Utrecht"' in html
    assert 'name="arbiter" value="De Haan, Yvonne"' in html
    client.post(url, {"city": "Utrecht", "arbiter": "De Haan, Yvonne", "rating": "fide"})
    assert Competition.objects.get(season=season).venue_city == "Utrecht"
    assert "data-trf-missing" not in client.get(url).content.decode()
