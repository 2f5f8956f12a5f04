"""Guests in a rapid or blitz event (issue 14): a non-member present on the evening is
entered by name with an optional rating and no account; he is paired, ranked and exported
to TRF like anyone else. The entrants are chosen from a checkbox list with a filter."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse

from competition.events import selectors as sel
from competition.events import services as swiss
from competition.models import AuditRecord, SwissEntrant, SwissGame
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def blitz(people):
    season = f.season(players=0)
    event = swiss.event_create(actor=people["leader"], season=season, kind="blitz",
                               name="Blitz 2027", date=dt.date(2027, 6, 11), rounds=3)
    for i in range(5):
        swiss.entrant_add(actor=people["leader"], event=event,
                          member=f.member(name=f"Lid {i}", rating=1900 - 100 * i))
    return event


def state(event):
    return (sorted(event.entrants.values_list("number", "member_id", "guest_name", "rating")),
            AuditRecord.objects.count())


def test_a_guest_is_numbered_by_rating_paired_ranked_and_in_the_trf(blitz, people):
    guest = swiss.entrant_add(actor=people["leader"], event=blitz, guest_name="  Gijs  de Gast ",
                              rating=1750)
    assert guest.is_guest and guest.member is None and guest.name == "Gijs de Gast"
    assert guest.number == 3  # between 1800 and 1700
    record = AuditRecord.objects.filter(action="event.entrant_add").latest("pk")
    assert record.after["guest"] == "Gijs de Gast" and record.after["member"] is None
    for _ in range(3):
        f.swiss_round_played(people["arbiter"], blitz)
    games = blitz.round_set.get(number=1).games.all()
    assert any(guest.pk in (g.white_id, g.black_id) for g in games)
    scored = sum(
        (g.white_points if g.white_id == guest.pk else g.black_points) or 0
        for g in SwissGame.objects.filter(round__event=blitz).filter(Q(white=guest) | Q(black=guest))
    )
    row = next(r for r in sel.event_standings(blitz) if r.entrant.pk == guest.pk)
    assert row.entrant.name == "Gijs de Gast" and row.points == scored
    trf_text = swiss.event_to_trf(blitz)
    line = next(li for li in trf_text.splitlines() if li.startswith(f"001 {guest.number:4d}"))
    assert line[14:47].strip() == "De Gast, Gijs" and line[48:52] == "1750"


def test_the_standings_page_marks_a_guest(client, blitz, people):
    swiss.entrant_add(actor=people["leader"], event=blitz, guest_name="Gijs de Gast")
    f.swiss_round_played(people["arbiter"], blitz)
    page = client.get(reverse("events:event", args=[blitz.pk]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Gijs de Gast" in page and '<span class="badge">gast</span>' in page


def test_a_trf_with_a_guest_imports_back_only_when_guests_are_allowed(blitz, people):
    swiss.entrant_add(actor=people["leader"], event=blitz, guest_name="Gijs de Gast", rating=1750)
    for _ in range(3):
        f.swiss_round_played(people["arbiter"], blitz)
    text = swiss.event_to_trf(blitz)
    with pytest.raises(ValidationError, match="No member with the name: Gijs de Gast"):
        swiss.event_from_trf(actor=people["leader"], season=blitz.season, text=text, name="Terug")
    copy = swiss.event_from_trf(actor=people["leader"], season=blitz.season, text=text, name="Terug",
                                guests=True)
    guests = list(copy.entrants.filter(member__isnull=True))
    assert [(g.guest_name, g.rating) for g in guests] == [("Gijs de Gast", 1750)]
    assert copy.entrants.filter(member__isnull=False).count() == 5  # members matched by name
    original = [(r.entrant.name, r.points, r.tiebreaks) for r in sel.event_standings(blitz)]
    assert [(r.entrant.name, r.points, r.tiebreaks) for r in sel.event_standings(copy)] == original


def test_a_trf_naming_a_player_twice_is_refused(people):
    season = f.season(players=0)
    event = swiss.event_create(actor=people["leader"], season=season, kind="blitz", name="Een")
    swiss.entrant_add(actor=people["leader"], event=event, guest_name="Dubbel")
    swiss.entrant_add(actor=people["leader"], event=event, guest_name="Anders")
    text = swiss.event_to_trf(event).replace("Anders", "dubbel")
    with pytest.raises(ValidationError, match="more than one player named: Dubbel, dubbel"):
        swiss.event_from_trf(actor=people["leader"], season=season, text=text, name="Twee", guests=True)
    assert not season.events.filter(name="Twee").exists()


def test_a_guest_reaches_the_blitz_playoff(people):
    season = f.season(players=0)
    event = swiss.event_create(actor=people["leader"], season=season, kind="blitz", name="Klein",
                               rounds=1)
    swiss.entrant_add(actor=people["leader"], event=event, guest_name="Gijs de Gast", rating=1800)
    swiss.entrant_add(actor=people["leader"], event=event, member=f.member(rating=1700))
    for _ in range(2):
        swiss.entrant_add(actor=people["leader"], event=event, member=f.member(rating=1500))
    f.swiss_round_played(people["arbiter"], event)  # 1 and 2 win: tied for first on points
    playoff = swiss.blitz_playoff_create(actor=people["arbiter"], event=event)
    assert sorted(e.name for e in playoff.entrants.all())[0] == "Gijs de Gast"
    assert playoff.entrants.filter(member__isnull=True, guest_name="Gijs de Gast").exists()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"guest_name": "   "}, "either a member or a guest"),
    ({}, "either a member or a guest"),
    ({"guest_name": "Gast", "member": "member"}, "either a member or a guest"),
    ({"guest_name": "x" * 81}, "at most 80 characters"),
    ({"guest_name": "Gast", "rating": 0}, "from 1 to 3000"),
    ({"guest_name": "Gast", "rating": 4000}, "from 1 to 3000"),
    ({"guest_name": "lid gast"}, "Lid Gast is entered already"),
])
def test_a_bad_guest_is_refused_with_a_message_and_nothing_saved(blitz, people, kwargs, message):
    swiss.entrant_add(actor=people["leader"], event=blitz, guest_name="Lid Gast")
    if kwargs.get("member"):
        kwargs = kwargs | {"member": f.member()}
    before = state(blitz)
    with pytest.raises(ValidationError, match=message):
        swiss.entrant_add(actor=people["leader"], event=blitz, **kwargs)
    assert state(blitz) == before


def test_only_the_leader_or_the_arbiter_enters_a_guest(blitz, people):
    before = state(blitz)
    for actor in (f.member(), None):
        with pytest.raises(PermissionDenied):
            swiss.entrant_add(actor=actor, event=blitz, guest_name="Gast")
    assert state(blitz) == before


@pytest.mark.parametrize("fields", [
    {"member": "member", "guest_name": "Gast"},  # both
    {"guest_name": ""},  # neither
])
def test_the_database_holds_exactly_one_of_member_and_guest_name(blitz, fields):
    if fields.get("member"):
        fields = fields | {"member": f.member()}
    with pytest.raises(IntegrityError), transaction.atomic():
        SwissEntrant.objects.create(event=blitz, number=99, **fields)


def test_the_database_refuses_the_same_guest_twice_in_an_event(blitz):
    SwissEntrant.objects.create(event=blitz, number=98, guest_name="Gast")
    with pytest.raises(IntegrityError), transaction.atomic():
        SwissEntrant.objects.create(event=blitz, number=99, guest_name="GAST")


# --- The entrants page ------------------------------------------------------------------


def test_the_entrants_page_is_a_checkbox_list_with_a_filter_and_a_guest_form(client, blitz, people):
    client.force_login(people["leader"])
    html = client.get(reverse("events:entrants", args=[blitz.pk])).content.decode()
    assert "<select" not in html
    assert 'data-filter-list="member-choices"' in html and "js/filter-list.js" in html
    assert '<p class="filter" data-filter-box hidden>' in html  # shown by the script only
    assert html.count('type="checkbox" name="members"') == (
        type(people["leader"]).objects.filter(is_active=True, memberships__club=blitz.season.club)
        .exclude(entries__event=blitz).count()
    )
    assert 'name="guest_name"' in html and 'name="guest_rating"' in html
    assert "<script>" not in html  # the CSP allows no inline script


def test_the_leader_enters_members_and_a_guest_in_one_go(client, blitz, people):
    client.force_login(people["leader"])
    newcomer = f.member(name="Nieuw Lid", rating=1650)
    response = client.post(reverse("events:entrants", args=[blitz.pk]),
                           {"members": [newcomer.pk], "guest_name": "Gijs de Gast", "guest_rating": "1550"},
                           follow=True)
    assert "2 entered" in response.content.decode()
    names = list(blitz.entrants.order_by("number").values_list("member__name", "guest_name"))
    assert ("Nieuw Lid", "") in names and (None, "Gijs de Gast") in names


@pytest.mark.parametrize(("data", "message"), [
    ({}, "Tick the members to enter, or fill in a guest"),
    ({"guest_rating": "1500"}, "A guest needs a name."),
    ({"guest_name": "Gast", "guest_rating": "abc"}, "Enter a whole number."),
    ({"members": ["999999"]}, "Select a valid choice."),
])
def test_the_entrants_form_shows_what_is_wrong_and_saves_nothing(client, blitz, people, data, message):
    client.force_login(people["leader"])
    before = state(blitz)
    response = client.post(reverse("events:entrants", args=[blitz.pk]), data)
    assert response.status_code == 200 and message in response.content.decode()
    assert state(blitz) == before


def test_a_duplicate_guest_through_the_form_is_refused_with_a_message(client, blitz, people):
    swiss.entrant_add(actor=people["leader"], event=blitz, guest_name="Gijs de Gast")
    client.force_login(people["leader"])
    before = state(blitz)
    response = client.post(reverse("events:entrants", args=[blitz.pk]), {"guest_name": "gijs de gast"},
                           follow=True)
    assert "Gijs de Gast is entered already" in response.content.decode()
    assert state(blitz) == before
