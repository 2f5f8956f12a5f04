"""Every form speaks Dutch (issue 23): the scoring parameters take and show decimal
commas with Dutch messages, the next season's form keeps its proposed dates and takes
Dutch dates, the standings' CSV is what Dutch Excel expects."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import translation

from competition.models import Competition
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


@pytest.fixture(autouse=True)
def language_restored():
    """A Dutch request leaves Dutch active in this thread; the next test reads English."""
    with translation.override("en"):
        yield


@pytest.fixture
def dutch():
    with translation.override("nl"):
        yield


def dutch_client(client, user):
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    return client



def parameters_data(page: str, **changes: str) -> dict[str, str]:
    data = {name: value for name, value in re.findall(
        r'<input type="(?:text|number)" name="([a-z_]+)" value="([^"]*)"', page)}
    data.update(re.findall(r'<select name="([a-z_]+)"[^>]*>.*?<option value="([^"]*)" selected', page, re.S))
    if 'name="own_value_added"' in page and 'name="own_value_added" id="id_own_value_added" checked' in page:
        data["own_value_added"] = "on"
    return {**data, "form": "parameters", "system": "pion", **changes}


def test_the_parameters_form_shows_decimal_commas(client, dutch):
    s = f.season(players=4)
    page = dutch_client(client, f.admin()).get(
        reverse("competition:leader_season", args=[s.slug])).content.decode()
    assert 'name="draw__amount" value="0,5"' in page
    assert 'name="absent_with_notice__amount" value="0,3333"' in page
    assert 'value="0.5"' not in page and 'value="0.3333"' not in page


def test_the_parameters_form_takes_decimal_commas(client, dutch):
    s = f.season(players=4)
    c = dutch_client(client, f.admin())
    url = reverse("competition:leader_season", args=[s.slug])
    data = parameters_data(c.get(url).content.decode(), draw__amount="0,4", bye__amount="0,75")
    response = c.post(url, data, follow=True)
    assert "Parameters opgeslagen" in response.content.decode() or "opgeslagen" in response.content.decode()
    params = Competition.objects.get(season=s).parameters
    assert params["draw"]["factor"] in (0.4, "2/5")
    assert params["bye"]["factor"] in (0.75, "3/4")


def test_a_wrong_parameter_is_refused_in_dutch_and_nothing_saved(client, dutch):
    s = f.season(players=4)
    c = dutch_client(client, f.admin())
    url = reverse("competition:leader_season", args=[s.slug])
    before = Competition.objects.get(season=s).parameters
    data = parameters_data(c.get(url).content.decode(), draw__amount="een half", top="0",
                           bye__basis="opponent")
    page = c.post(url, data).content.decode()
    assert "must be a number" not in page and "parameter '" not in page
    assert "Vul een getal in zoals 0,5 of een breuk zoals 2/3." in page
    assert "De topwaarde moet groter zijn dan 0." in page
    assert "heeft geen tegenstander" in page
    assert 'value="een half"' in page  # what he typed stays
    assert Competition.objects.get(season=s).parameters == before


# --- The next season --------------------------------------------------------------------


def test_the_next_season_form_shows_its_proposed_dates_in_the_date_picker(client, dutch):
    s = f.season(players=4)
    page = dutch_client(client, f.admin()).get(reverse("prizes:manage", args=[s.slug])).content.decode()
    # A date picker's value is ISO whatever the language; "03-09-2027" would leave it empty.
    # The proposal is a year on on the same weekday: Friday 4 September 2026 -> Friday 3.
    assert re.search(r'type="date" name="opening" value="2027-09-03"', page)
    assert re.search(r'type="date" name="last_day" value="2028-07-15"', page)


def test_the_next_season_takes_dutch_dates(client, dutch):
    from competition.models import EveningKind, Season

    s = f.season(players=4)
    c = dutch_client(client, f.admin())
    response = c.post(reverse("prizes:next_season", args=[s.slug]), {
        "name": "2027-2028", "opening": "3-9-2027", "last_day": "14-7-2028",
        "knsb_rounds": "9-10-2027, 6-11-2027", "closed": "24-12-2027 31-12-2027",
    })
    assert response.status_code == 302
    new = Season.objects.get(name="2027-2028")
    assert new.start_date.isoformat() == "2027-09-03"
    rapid = set(new.evenings.filter(kind=EveningKind.RAPID).values_list("date", flat=True))
    assert {d.isoformat() for d in rapid} >= {"2027-10-08", "2027-11-05"}
    closed = {d.isoformat() for d in new.evenings.filter(kind=EveningKind.CLOSED).values_list("date", flat=True)}
    assert closed >= {"2027-12-24", "2027-12-31"}


def test_a_wrong_date_keeps_what_was_typed_and_says_so_in_dutch(client, dutch):
    from competition.models import Season

    s = f.season(players=4)
    c = dutch_client(client, f.admin())
    response = c.post(reverse("prizes:next_season", args=[s.slug]), {
        "name": "2027-2028", "opening": "3-9-2027", "last_day": "14-7-2028",
        "knsb_rounds": "9-10-2027 31-2-2028", "closed": "",
    })
    page = html.unescape(response.content.decode())
    assert "'31-2-2028' is geen datum (bijvoorbeeld 4-9-2027)." in page
    assert "9-10-2027 31-2-2028" in page and 'value="2027-09-03"' in page
    assert "JJJJ" not in page
    assert not Season.objects.filter(name="2027-2028").exists()


# --- The standings' CSV -----------------------------------------------------------------


@pytest.fixture
def played():
    from competition.season import services
    from competition.season.standings import recalculate_season
    from pairing.services import evening_pair_and_publish

    s = f.season(players=5)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    for game in evening.games.all():
        services.result_set(actor=f.arbiter(), game=game, result="1/2-1/2")
    recalculate_season(s.pk)
    return s


def test_the_dutch_csv_is_what_dutch_excel_reads(client, played):
    import csv
    import io

    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    response = client.get(reverse("competition:standings_half", args=[played.slug, "winter"]),
                          {"export": "csv"})
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads UTF-8 only with its byte order mark
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    header = rows[0]
    assert header[:4] == ["Plaats", "Naam", "Punten", "Waarde"]
    assert "Afwezig zonder bericht" in header and "Clubverplichting" in header
    points = [row[header.index("Punten")] for row in rows[1:]]
    assert all("," in p and "." not in p for p in points), points


def test_the_english_csv_keeps_commas_between_cells_and_decimal_points(client, played):
    import csv
    import io

    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    response = client.get(reverse("competition:standings_half", args=[played.slug, "winter"]),
                          {"export": "csv"})
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["place", "name", "points"]
    assert "." in rows[1][2]


# --- The deadline setting ---------------------------------------------------------------


def test_changing_the_deadline_setting_offers_to_move_the_coming_evenings(client, monkeypatch):
    import datetime as dt

    from django.utils import timezone

    from competition.models import Evening
    from pairing.services import evening_pair_and_publish

    s = f.season(players=4)
    evenings = f.playing_evenings(s)
    now = evenings[2].deadline - dt.timedelta(days=2)
    monkeypatch.setattr(timezone, "now", lambda: now)
    evening_pair_and_publish(actor=None, system=True, evening_id=evenings[2].pk, now=now)  # early
    c = dutch_client(client, f.admin())
    url = reverse("competition:leader_season", args=[s.slug])
    assert 'name="days_before" value="1"' in c.get(url).content.decode()
    data = {"form": "deadline", "days_before": "2", "time": "20:00", "move_evenings": "on"}
    page = c.post(url, data).content.decode()
    assert "2 dagen voor de avond om 20:00" in page
    assert "kunnen meeschuiven" in page
    before = {e.pk: e.deadline for e in Evening.objects.filter(season=s)}
    assert {e.pk: e.deadline for e in Evening.objects.filter(season=s)} == before  # not yet
    c.post(url, {**data, "confirm": "1"})
    moved = Evening.objects.get(pk=evenings[3].pk)
    local = timezone.localtime(moved.deadline)
    assert (local.date(), local.strftime("%H:%M")) == (moved.date - dt.timedelta(days=2), "20:00")
    # The published evening and the past ones keep theirs.
    for e in (evenings[0], evenings[1], evenings[2]):
        assert Evening.objects.get(pk=e.pk).deadline == before[e.pk]
    competition = Competition.objects.get(season=s)
    assert (competition.deadline_days_before, competition.deadline_time.strftime("%H:%M")) == (2, "20:00")


def test_the_deadline_setting_can_leave_the_evenings_as_they_are(client):
    from competition.models import Evening

    s = f.season(players=4)
    c = dutch_client(client, f.admin())
    url = reverse("competition:leader_season", args=[s.slug])
    before = {e.pk: e.deadline for e in Evening.objects.filter(season=s)}
    c.post(url, {"form": "deadline", "days_before": "2", "time": "20:00", "confirm": "1"})
    assert {e.pk: e.deadline for e in Evening.objects.filter(season=s)} == before
    assert Competition.objects.get(season=s).deadline_days_before == 2
