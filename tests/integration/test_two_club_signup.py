"""A member of two clubs who signs up at one club for an evening where the other club
expects him too (signed up there, or a fixed player who has not signed off) is warned
before it is saved; the warning names the other club and says nothing else of it
(issue 28). With the decoy club B, whose season has A's dates."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competition.models import Attendance, PlayerKind, Registration
from competition.season import selectors, services
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import User
from tests import factories as f
from tests.decoy import NAME, SHARED_EMAIL, decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def shared_in_a():
    """A's season with B's shared member as a flexible player (a fixed player at B)."""
    season = f.season(players=3)
    shared = User.objects.get(email=SHARED_EMAIL)
    services.player_add(actor=f.admin(), season=season, member=shared, kind=PlayerKind.FLEXIBLE)
    upcoming = list(selectors.upcoming_evenings(season))
    return season, shared, upcoming


def _sign_up(client, evening, **extra):
    return client.post(reverse("competition:signup"), {
        "evenings": [str(evening.pk)], "status": Attendance.PRESENT, **extra})


def test_signing_up_where_the_other_club_expects_him_warns_first_and_saves_nothing(client, shared_in_a):
    season, shared, upcoming = shared_in_a
    evening = upcoming[0]
    client.force_login(shared)
    client.cookies.load({"django_language": "nl"})
    asked = _sign_up(client, evening)
    page = asked.content.decode()
    assert asked.status_code == 200 and "data-expected-elsewhere" in page
    assert f"ook verwacht bij {NAME}" in page
    assert not Registration.objects.filter(player__member=shared, evening=evening).exists()
    # nothing else of B: no evening, board, opponent or address of B's
    warning = page[page.index("data-expected-elsewhere"):page.index("</section>", page.index("data-expected-elsewhere"))]
    assert "/lokvogel/" not in warning and "Player 0" not in warning
    done = _sign_up(client, evening, confirm="1")
    assert done.status_code == 302
    assert Registration.objects.get(player__member=shared, evening=evening).status == Attendance.PRESENT


def test_no_warning_where_he_signed_off_at_the_other_club_or_for_a_one_club_member(client, shared_in_a):
    season, shared, upcoming = shared_in_a
    evening = upcoming[1]
    b = decoy()
    with club_context(b):
        from competition.models import Evening, Player

        b_evening = Evening.objects.get(season__club=b, date=evening.date)
        b_player = Player.objects.get(season__club=b, member=shared)
        services.registration_set(actor=shared, player=b_player, evenings=[b_evening],
                                  status=Attendance.ABSENT_WITH_NOTICE)
    client.force_login(shared)
    assert _sign_up(client, evening).status_code == 302  # saved at once: B does not expect him
    one_club = season.players.exclude(member=shared).select_related("member").first().member
    client.force_login(one_club)
    assert _sign_up(client, upcoming[2]).status_code == 302
    assert selectors.expected_elsewhere(one_club, [upcoming[2].date]) == {}


def test_the_other_club_is_named_by_its_name_alone():
    season = f.season(players=3)
    shared = User.objects.get(email=SHARED_EMAIL)
    assert home_club() != decoy()
    with club_context(home_club()):
        found = selectors.expected_elsewhere(shared, [e.date for e in selectors.upcoming_evenings(season)][:1])
    assert list(found.values()) == [[NAME]]
