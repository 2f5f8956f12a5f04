"""Settings are checked where they are typed (issue 30; docs/trust.md, "Settings checked
where they are typed"): a club's time zone is an IANA zone in every form (the admin's
club forms, the operator's service) and a zone stored before that check never makes a
page fail; the sites that may frame the embeds are https origins whose wildcard covers
one registrable domain at most (the public-suffix list of ``publicsuffixlist``)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from competition.models import ClubWebsite
from competition.website.services import parse_origin, website_embed_origins_set
from members.clubs.context import club_context
from members.models import Club, User
from members.platform.services import club_create
from tests import factories as f
from tests.decoy import decoy

pytestmark = pytest.mark.django_db

BAD_ZONES = ["Mars/Olympus", "../../etc/passwd", "Europe/Amsterdam\n", ""]


def _operator() -> User:
    return User.objects.create_superuser(email="operator@example.org", password="pw-schaak-123", name="Op")


@pytest.mark.parametrize("zone", BAD_ZONES)
def test_a_time_zone_that_is_no_iana_zone_is_refused_in_dutch(zone):
    with translation.override("nl"):
        with pytest.raises(ValidationError) as refused:
            _validate_time_zone(zone)
        assert refused.value.messages == [f"{zone} is geen tijdzone; kies er een zoals Europe/Amsterdam."]
    for good in ("Europe/Amsterdam", "America/Curacao", "Pacific/Kiritimati", "UTC"):
        _validate_time_zone(good)


def _validate_time_zone(value: str) -> None:
    """The validators of ``Club.time_zone`` (every model form runs them)."""
    for validator in Club._meta.get_field("time_zone").validators:
        validator(value)


def _club_form(club: Club, **changed) -> dict[str, str]:
    data = {"name": club.name, "site_name": club.site_name, "sender_name": club.sender_name,
            "reply_to": club.reply_to, "venue": club.venue, "time_zone": club.time_zone,
            "language": club.language, "default_system": club.default_system,
            "deadline_weekday": str(club.deadline_weekday),
            "deadline_time": club.deadline_time.strftime("%H:%M"),
            "start_time": club.start_time.strftime("%H:%M"),
            "domains-TOTAL_FORMS": "0", "domains-INITIAL_FORMS": "0"}
    return data | changed


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd"])
def test_the_admins_club_form_refuses_a_time_zone_that_is_none_and_saves_nothing(client, zone):
    club = decoy()
    client.force_login(_operator())
    url = f"/admin/members/club/{club.pk}/change/"
    with translation.override("nl"):
        response = client.post(url, _club_form(club, time_zone=zone), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200
    assert f"{zone} is geen tijdzone" in response.content.decode()
    club.refresh_from_db()
    assert club.time_zone == "Europe/Amsterdam"
    # A zone that is one is saved (the form itself is sound).
    assert client.post(url, _club_form(club, time_zone="America/Curacao")).status_code == 302
    club.refresh_from_db()
    assert club.time_zone == "America/Curacao"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd"])
def test_a_new_club_with_a_time_zone_that_is_none_is_refused_by_form_and_service(client, zone):
    operator = _operator()
    client.force_login(operator)
    data = {"name": "SC De Toren", "slug": "sc-de-toren", "venue": "", "time_zone": zone,
            "default_system": "pion", "leader_email": "tom@toren.example", "leader_name": "Tom Toren"}
    response = client.post("/admin/members/club/add/", data)
    assert response.status_code == 200 and "is not a time zone" in response.content.decode()
    with pytest.raises(ValidationError, match="is not a time zone"):
        club_create(actor=operator, name="SC De Toren", slug="sc-de-toren", leader_email="tom@toren.example",
                    leader_name="Tom", time_zone=zone)
    assert not Club.objects.filter(slug="sc-de-toren").exists()
    assert not User.objects.filter(email="tom@toren.example").exists()


@pytest.mark.parametrize("zone", ["Mars/Olympus", "../../etc/passwd"])
def test_a_club_whose_stored_zone_is_none_still_serves_its_pages(client, settings, zone):
    """A zone stored before the check (an old row, a restored one): the site's own zone
    is used, the pages answer."""
    settings.RANGLIJST_SINGLE_CLUB = False
    club = decoy()
    club.time_zone = zone
    club.save(update_fields=["time_zone"])  # no form: as a row from before the check
    for path in ("", "standings/", "evenings/", "calendar/", "calendar.ics", "api/v1/seasons"):
        response = client.get(f"/{club.slug}/{path}")
        assert response.status_code == 200, path


# --- The sites that may frame the embeds ----------------------------------------------------

ACCEPTED = [
    "https://www.schaakclub.nl",
    "https://*.mijnclub.nl",            # one registrable domain
    "https://*.www.mijnclub.nl",        # less than one
    "https://*.schaakclub.co.uk",       # a registrable domain under a two-part suffix
    "https://club.example.org:8443",
    "http://localhost:8000",            # to try the embeds on your own computer
    "http://127.0.0.1:8123",
]
REFUSED = [
    ("https://*.co.uk", "allows too much"),          # a public suffix: every British company
    ("https://*.github.io", "allows too much"),      # a suffix of the list's private part
    ("https://*.nl", "allows too much"),
    ("http://www.schaakclub.nl", "not secure"),
    ("http://*.schaakclub.nl", "not secure"),
    ("http://intranet:8000", "not secure"),
    ("ftp://www.schaakclub.nl", "not a website address"),
]


@pytest.mark.parametrize("origin", ACCEPTED)
def test_an_https_site_or_a_wildcard_of_one_domain_is_accepted(origin):
    assert parse_origin(origin) == origin


@pytest.mark.parametrize("origin, words", REFUSED)
def test_plain_http_and_a_wildcard_over_a_public_suffix_are_refused_and_nothing_saved(origin, words):
    club = decoy()
    with club_context(club):
        leader = f.leader(club)
        website_embed_origins_set(actor=leader, origins=["https://www.lokvogel.example"])
        with pytest.raises(ValidationError) as refused:
            website_embed_origins_set(actor=leader, origins=["https://ok.example.org", origin])
        assert ClubWebsite.objects.get().embed_origins == ["https://www.lokvogel.example"]
    assert words in " ".join(refused.value.messages)


def test_the_refusals_of_a_site_are_in_dutch():
    with translation.override("nl"):
        messages = {}
        for origin in ("https://*.co.uk", "http://www.schaakclub.nl", "https://x.nl/pad"):
            with pytest.raises(ValidationError) as refused:
                parse_origin(origin)
            messages[origin] = refused.value.messages[0]
    assert messages["https://*.co.uk"].startswith("https://*.co.uk staat te veel toe")
    assert "niet beveiligd" in messages["http://www.schaakclub.nl"]
    assert "geen websiteadres" in messages["https://x.nl/pad"]
