"""Junk input never gives a server error (issue 12, finding 7): a NUL byte anywhere in the
query or a form is refused once, by a middleware; unicode digits are not numbers; a TRF
file with a unicode start number, an absurd round count or a giant line is refused with a
clear message, and nothing is saved. Run on PostgreSQL too (``.ci/run``): that is where a
NUL byte used to reach the database and fail."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition.events import services as swiss
from competition.events.engine import trf
from competition.models import Game, SwissEvent
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture
def season():
    return f.season(players=4)


@pytest.mark.parametrize("url", [
    "/evenings/?season=%00", "/calendar/?season=%00", "/calendar.ics?season=%00",
    "/rules/?season=%00", "/events/?season=%00", "/standings/?all=%00", "/?x%00=1",
])
def test_a_nul_byte_in_a_query_parameter_is_refused_with_400(client, season, url):
    response = client.get(url)
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


@pytest.mark.parametrize("url", [
    "/api/v1/seasons/?x=%00", "/api/v1/seasons/a%00b/", "/api/v1/seasons/x/halves/y/standings?%009=",
])
def test_under_the_api_a_nul_byte_is_refused_with_the_apis_own_json_400(client, season, url):
    """The refusal the API's document declares for every operation (the property run of
    tests/integration/test_api_property.py sends such requests)."""
    response = client.get(url)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert "NUL" in response.json()["detail"]


def test_a_nul_byte_in_a_result_note_is_refused_and_nothing_is_saved(client, season):
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    game = evening.games.order_by("board").first()
    client.force_login(f.arbiter())
    response = client.post(reverse("competition:enter_result", args=[game.pk]),
                           {"result": "1-0", "version": str(game.version), "note": "a\x00b"})
    assert response.status_code == 400
    game.refresh_from_db()
    assert (game.result, game.version) == ("", 1)


@pytest.mark.parametrize("value", ["%C2%B2", "%D9%A3", "9" * 40, "-1", "1.5"])
def test_the_audit_page_treats_a_unicode_digit_or_huge_number_as_no_filter(client, season, value):
    client.force_login(f.leader())
    response = client.get(f"/leader/audit/?evening={value}&player={value}")
    assert response.status_code == 200


def _trf(players: int = 2, xxr: str = "1") -> str:
    rounds = [trf.TrfRound(2, "w", "1"), trf.TrfRound(1, "b", "0")]
    people = tuple(
        trf.TrfPlayer(number=i + 1, name=f"Player {i + 1:03d}", rating=1800,
                      points=Fraction(1 - i), rounds=(rounds[i],))
        for i in range(players)
    )
    return trf.write(trf.TrfFile((("012", "Junk"), ("XXR", xxr)), people))


def _upload(client, text: str, name: str = "Junk"):
    client.force_login(f.leader())
    upload = SimpleUploadedFile("junk.trf", text.encode(), content_type="text/plain")
    return client.post(reverse("events:event_import"), {"name": name, "file": upload})


def test_a_valid_trf_still_imports(client, season):
    response = _upload(client, _trf())
    assert response.status_code == 302 and SwissEvent.objects.filter(name="Junk").exists()


def _mutated(column_from: int, column_to: int, value: str) -> str:
    lines = _trf().splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("001"))
    line = lines[i]
    lines[i] = line[:column_from] + value.rjust(column_to - column_from) + line[column_to:]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("text", "message"), [
    (_mutated(4, 8, "²"), "start number"),
    (_mutated(48, 52, "9999"), "rating 9999 is above 3500"),
    (_mutated(48, 52, "٣"), "rating"),
    (_trf(xxr="40000"), "at most 30"),
    (_trf(xxr="²"), None),  # not a number of rounds: ignored, the file has one round
])
def test_a_trf_with_junk_numbers_is_refused_with_the_reason(client, season, text, message):
    response = _upload(client, text)
    if message is None:
        assert response.status_code == 302
        return
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not SwissEvent.objects.filter(name="Junk").exists()


def test_a_trf_line_of_twenty_thousand_rounds_is_refused_at_once(client, season):
    line = next(x for x in _trf().splitlines() if x.startswith("001"))
    giant = line[:91] + "0002 w 1  " * 20_000
    response = _upload(client, "012 Junk\n" + giant + "\n")
    assert response.status_code == 200
    assert "more than 99 rounds" in response.content.decode()
    assert not SwissEvent.objects.exists()


def test_a_trf_file_above_one_megabyte_is_refused(client, season):
    response = _upload(client, "012 Junk\n" + "XXX " + "x" * 1_100_000 + "\n")
    assert response.status_code == 200 and "larger than 1 MB" in response.content.decode()


def test_the_service_refuses_more_rounds_than_an_event_may_have(season):
    with pytest.raises(ValidationError, match="at most 30"):
        swiss.event_from_trf(actor=f.leader(), season=season, text=_trf(xxr="31"), name="Junk")
    assert not SwissEvent.objects.exists() and not Game.objects.filter(result="1-0").exists()
