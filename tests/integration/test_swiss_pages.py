"""The Swiss event pages: public standings and rounds, the arbiter's evening page, the
leader's forms; who may see what, and a query count that does not grow with the field."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from competition.events import selectors as sel
from competition.events import services as swiss
from competition.models import RoundStatus, SwissEvent, SwissGame
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def blitz_event(players: int, *, finished_rounds: int = 1, live: bool = True):
    """A blitz with ``finished_rounds`` rounds played and, if ``live``, one under way."""
    leader, arbiter = f.leader(), f.arbiter()
    season = f.season(players=0)
    event = swiss.event_create(actor=leader, season=season, kind="blitz", name=f"Blitz {players}",
                               date=dt.date(2027, 6, 11))
    for i in range(players):
        swiss.entrant_add(actor=leader, event=event, member=f.member(rating=2000 - 10 * i))
    for _ in range(finished_rounds):
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for game in rnd.games.filter(black__isnull=False):
            swiss.game_result_set(actor=arbiter, game=game, white_points=1, black_points=0,
                                  expected_version=game.version)
        swiss.round_finish(actor=arbiter, round=rnd)
    if live:
        swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
    event.refresh_from_db()
    return event, leader, arbiter


@pytest.fixture
def live_blitz():
    return blitz_event(6)


# --- Public pages -----------------------------------------------------------------------


def test_events_list_shows_the_seasons_events(client, live_blitz):
    event, *_ = live_blitz
    response = client.get(reverse("events:events") + f"?season={event.season.slug}")
    assert response.status_code == 200
    assert event.name in response.content.decode()


def test_event_page_shows_the_standings_with_tiebreak_columns_and_refreshes_while_live(client, live_blitz):
    event, *_ = live_blitz
    response = client.get(reverse("events:event", args=[event.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for column in ("Pts", "DE", "BH-M1", "SB", "BH"):
        assert f">{column}</abbr>" in html
    first = event.entrants.get(number=1)
    assert first.member.name in html
    assert '<meta http-equiv="refresh" content="30">' in html
    assert reverse("events:round", args=[event.pk, 2]) in html
    assert reverse("events:trf", args=[event.pk]) in html
    assert reverse("events:arbiter", args=[event.pk]) not in html  # not for the public


def test_a_finished_round_does_not_refresh(client):
    event, *_ = blitz_event(4, finished_rounds=1, live=False)
    html = client.get(reverse("events:event", args=[event.pk])).content.decode()
    assert 'http-equiv="refresh"' not in html


def test_round_page_shows_pairings_and_results(client, live_blitz):
    event, *_ = live_blitz
    done = client.get(reverse("events:round", args=[event.pk, 1]))
    assert done.status_code == 200
    game = SwissGame.objects.filter(round__event=event, round__number=1).select_related("white__member").first()
    html = done.content.decode()
    assert game.white.member.name in html and "<strong>1-0</strong>" in html
    live = client.get(reverse("events:round", args=[event.pk, 2])).content.decode()
    assert "<strong>…</strong>" in live and 'http-equiv="refresh"' in live
    assert client.get(reverse("events:round", args=[event.pk, 9])).status_code == 404


def test_trf_download_of_a_blitz_and_none_for_a_rapid(client, live_blitz):
    event, leader, _ = live_blitz
    response = client.get(reverse("events:trf", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert body.startswith("012 Blitz 6")
    assert sum(line.startswith("001 ") for line in body.splitlines()) == 6
    rapid = swiss.event_create(actor=leader, season=event.season, kind="rapid", name="Rapid")
    assert client.get(reverse("events:trf", args=[rapid.pk])).status_code == 404


# --- Who may do what --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["arbiter", "round_open", "set_rounds", "playoff", "presence", "round_pair", "round_finish"],
)
def test_arbiter_pages_redirect_anonymous_to_sign_in_and_refuse_a_player(client, live_blitz, name):
    event, *_ = live_blitz
    args = [event.pk, 2] if name in ("presence", "round_pair", "round_finish") else [event.pk]
    url = reverse(f"events:{name}", args=args)
    method = client.get if name == "arbiter" else client.post
    response = method(url)
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    client.force_login(f.member())
    assert method(url).status_code == 403


@pytest.mark.parametrize("name,arbiter_status", [
    ("event_new", 200), ("event_import", 403), ("entrants", 200)])
def test_leader_forms_are_for_leaders_the_arbiter_creates_and_fills_an_event(
        client, live_blitz, name, arbiter_status):
    event, leader, arbiter = live_blitz
    url = reverse(f"events:{name}", args=[event.pk] if name == "entrants" else [])
    url += "" if name == "entrants" else f"?season={event.season.slug}"
    assert client.get(url).status_code == 302
    client.force_login(arbiter)
    assert client.get(url).status_code == arbiter_status
    client.force_login(leader)
    assert client.get(url).status_code == 200


def test_the_players_page_counts_players_and_rounds_each_in_its_own_number(client, live_blitz):
    # Before: "0 spelers, 1 ronden".
    event, leader, _arbiter = live_blitz
    SwissEvent.objects.filter(pk=event.pk).update(rounds=1)
    client.force_login(leader)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    page = client.get(reverse("events:entrants", args=[event.pk])).content.decode()
    assert f"{event.entrants.count()} spelers, 1 ronde." in page
    assert "1 ronden" not in page


def test_a_player_posting_a_result_gets_403_and_nothing_changes(client, live_blitz):
    event, *_ = live_blitz
    game = SwissGame.objects.filter(round__event=event, round__number=2, black__isnull=False).first()
    client.force_login(f.member())
    url = reverse("events:game_result", args=[event.pk, game.pk])
    assert client.post(url, {"result": "1-0", "version": 1}).status_code == 403
    game.refresh_from_db()
    assert game.white_points is None


# --- The arbiter's evening --------------------------------------------------------------


def test_arbiter_runs_a_round_from_the_phone_page(client, live_blitz):
    event, _, arbiter = live_blitz
    client.force_login(arbiter)
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert 'value="1/2-1/2"' in page and ">½-½</button>" in page and "0-0 both forfeit" in page
    games = list(SwissGame.objects.filter(round__event=event, round__number=2, black__isnull=False))
    for game in games:
        response = client.post(reverse("events:game_result", args=[event.pk, game.pk]),
                               {"result": "1/2-1/2", "version": game.version})
        assert response.status_code == 302 and response["Location"].endswith(f"#board-{game.board}")
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert page.count('value="1/2-1/2" aria-pressed="true"') == len(games)
    stale = client.post(reverse("events:game_result", args=[event.pk, games[0].pk]),
                        {"result": "1-0", "version": 1}, follow=True)
    assert "Somebody else entered ½-½ for board 1" in stale.content.decode()
    client.post(reverse("events:round_finish", args=[event.pk, 2]), {"confirm": "1"})
    assert event.round_set.get(number=2).status == RoundStatus.DONE

    client.post(reverse("events:round_open", args=[event.pk]))
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert 'type="checkbox"' in page and "Save and pair round 3" in page
    present = list(event.entrants.values_list("pk", flat=True))[:4]
    client.post(reverse("events:presence", args=[event.pk, 3]), {"present": present, "then": "pair"})
    rnd = event.round_set.get(number=3)
    assert rnd.status == RoundStatus.PAIRED and rnd.games.count() == 2
    assert set(rnd.present.values_list("pk", flat=True)) == set(present)


def test_a_bad_result_shows_a_message_and_saves_nothing(client, live_blitz):
    event, _, arbiter = live_blitz
    client.force_login(arbiter)
    game = SwissGame.objects.filter(round__event=event, round__number=2, black__isnull=False).first()
    response = client.post(reverse("events:game_result", args=[event.pk, game.pk]),
                           {"result": "2-0", "version": 1}, follow=True)
    assert "Unknown result" in response.content.decode()
    game.refresh_from_db()
    assert game.version == 1


def test_arbiter_sets_the_number_of_rounds_with_the_proposal_shown(client, live_blitz):
    event, _, arbiter = live_blitz
    client.force_login(arbiter)
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert "Proposed for 6 players: 3." in page
    client.post(reverse("events:set_rounds", args=[event.pk]), {"rounds": 4})
    event.refresh_from_db()
    assert event.rounds == 4


def test_the_playoff_is_generated_in_one_click_and_run_on_the_same_page(client):
    leader, arbiter = f.leader(), f.arbiter()
    event = swiss.event_create(actor=leader, season=f.season(players=0), kind="blitz", name="Draws")
    for i in range(4):
        swiss.entrant_add(actor=leader, event=event, member=f.member(rating=1800 - i))
    event.refresh_from_db()
    for _ in range(event.rounds):  # every game drawn: four players tied for first
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for game in rnd.games.all():
            swiss.game_result_set(actor=arbiter, game=game, white_points="0.5", black_points="0.5",
                                  expected_version=1)
        swiss.round_finish(actor=arbiter, round=rnd)
    client.force_login(arbiter)
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert "Generate the playoff" in page
    public = client.get(reverse("events:event", args=[event.pk])).content.decode()
    assert public.count('data-decider="1"') == 4
    response = client.post(reverse("events:playoff", args=[event.pk]), {"confirm": "1"})
    playoff = SwissEvent.objects.get(parent=event)
    assert response["Location"] == reverse("events:arbiter", args=[playoff.pk])
    page = client.get(response["Location"]).content.decode()
    assert "Round 1" in page and 'name="result"' in page
    assert playoff.round_set.count() == 6 and SwissGame.objects.filter(round__event=playoff).count() == 12


# --- The leader's forms -----------------------------------------------------------------


def test_leader_creates_an_event_and_enters_players_from_a_checkbox_list(client):
    leader = f.leader()
    season = f.season(players=3)
    client.force_login(leader)
    response = client.post(reverse("events:event_new"),
                           {"season": season.slug, "kind": "rapid", "name": "Rapid zomer", "rounds": ""})
    event = SwissEvent.objects.get(name="Rapid zomer")
    assert response["Location"] == reverse("events:entrants", args=[event.pk])
    assert event.rounds == 9 and event.season == season
    form = client.get(response["Location"]).content.decode()
    assert '<select' not in form  # no Ctrl-click multiple select (the phone test is in e2e)
    active = get_user_model().objects.filter(is_active=True, memberships__club=season.club).count()
    assert form.count('type="checkbox" name="members"') == active
    members = [p.member.pk for p in season.players.all()]
    client.post(reverse("events:entrants", args=[event.pk]), {"members": members})
    assert sorted(event.entrants.values_list("number", flat=True)) == [1, 2, 3]
    again = client.post(reverse("events:event_new"),
                        {"season": season.slug, "kind": "rapid", "name": "Rapid zomer"})
    assert again.status_code == 200 and "name already" in again.content.decode()


def test_leader_imports_a_trf_file(client, live_blitz):
    event, leader, _ = live_blitz
    text = swiss.event_to_trf(event)
    client.force_login(leader)
    upload = SimpleUploadedFile("blitz.trf", text.encode(), content_type="text/plain")
    response = client.post(reverse("events:event_import"),
                           {"season": event.season.slug, "name": "Imported", "file": upload})
    imported = SwissEvent.objects.get(name="Imported")
    assert response["Location"] == reverse("events:event", args=[imported.pk])
    assert imported.entrants.count() == 6
    bad = SimpleUploadedFile("bad.trf", b"001 xx\n")
    response = client.post(reverse("events:event_import"),
                           {"season": event.season.slug, "name": "Bad", "file": bad})
    assert response.status_code == 200 and "line 1" in response.content.decode()


_TWO = (
    "012 Kapot\nXXR 1\n"
    f"001    1      {'Anna Tie':<33} 1800 NED {'':>11} {'':10} {{points}}    1     2 w 1\n"
    f"001    2      {'Bram Tie':<33} 1700 NED {'':>11} {'':10}  0.0    2     1 b {{theirs}}\n"
)


@pytest.mark.parametrize(("points", "theirs", "dutch"), [
    (" 1.0", "-", "regel 3: ronde 1: uitslag “1” van 1 past niet bij “-” van 2."),
    (" 1.5", "0", "regel 3: 1½ punten, maar de uitslagen tellen op tot 1."),
])
def test_a_bad_trf_upload_is_refused_in_dutch_naming_the_line(client, live_blitz, points, theirs, dutch):
    event, leader, _ = live_blitz
    client.force_login(leader)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "nl"
    events = SwissEvent.objects.count()
    bad = SimpleUploadedFile("kapot.trf", _TWO.format(points=points, theirs=theirs).encode())
    response = client.post(reverse("events:event_import"),
                           {"season": event.season.slug, "name": "Kapot", "file": bad})
    page = response.content.decode()
    assert response.status_code == 200
    assert f"Het TRF-bestand kan niet worden gelezen: {dutch}" in page
    assert "line 3" not in page and "round 1" not in page and "add up" not in page
    assert SwissEvent.objects.count() == events


def test_a_trf_upload_with_a_nul_in_a_name_gets_a_message_saves_nothing_and_leaves_no_file(
    client, live_blitz, settings, tmp_path
):
    event, leader, _ = live_blitz
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 0  # the upload goes to a file on disk
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    text = swiss.event_to_trf(event)
    record = next(ln for ln in text.splitlines() if ln.startswith("001"))
    poisoned = text.replace(record, record[:16] + "\x00" + record[17:], 1)
    client.force_login(leader)
    events = SwissEvent.objects.count()
    for guests in ("", "on"):
        upload = SimpleUploadedFile("nul.trf", poisoned.encode(), content_type="text/plain")
        response = client.post(reverse("events:event_import"), {
            "season": event.season.slug, "name": "Poisoned", "file": upload, "guests": guests,
        })
        assert response.status_code == 200
        page = response.content.decode()
        assert "control characters in the record (U+0000)" in page and "line " in page
    assert SwissEvent.objects.count() == events
    assert list(tmp_path.iterdir()) == []


# --- Queries ----------------------------------------------------------------------------


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("page", ["event", "round", "arbiter"])
def test_event_pages_query_count_does_not_grow_with_the_entrants(client, django_assert_max_num_queries, page):
    small, _, arbiter_small = blitz_event(8, finished_rounds=2)
    big, _, arbiter_big = blitz_event(40, finished_rounds=2)

    def url(event):
        if page == "round":
            return reverse("events:round", args=[event.pk, 2])
        return reverse(f"events:{page}", args=[event.pk])

    if page == "arbiter":
        client.force_login(arbiter_small)
    measured = _queries(client, url(small))
    if page == "arbiter":
        client.force_login(arbiter_big)
    with django_assert_max_num_queries(measured):
        assert client.get(url(big)).status_code == 200
    assert len(sel.event_entrants(big)) == 40


# --- Asked before it happens (issue 14) -------------------------------------------------


def test_finishing_a_round_asks_first_and_changes_nothing_without_the_confirmation(client, live_blitz):
    event, _, arbiter = live_blitz
    client.force_login(arbiter)
    for game in SwissGame.objects.filter(round__event=event, round__number=2, black__isnull=False):
        swiss.game_result_set(actor=arbiter, game=game, white_points=1, black_points=0,
                              expected_version=game.version)
    page = client.get(reverse("events:arbiter", args=[event.pk])).content.decode()
    assert "data-confirm=\"Round 2&#x27;s results then count" in page
    url = reverse("events:round_finish", args=[event.pk, 2])
    response = client.post(url)
    assert response.status_code == 200
    assert "the later rounds&#x27; pairings stay as they are" in response.content.decode()
    assert event.round_set.get(number=2).status == RoundStatus.PAIRED
    client.post(url, {"confirm": "1"})
    assert event.round_set.get(number=2).status == RoundStatus.DONE


def test_generating_the_playoff_asks_first_and_creates_nothing_without_the_confirmation(client, live_blitz):
    event, _, arbiter = live_blitz
    client.force_login(arbiter)
    response = client.post(reverse("events:playoff", args=[event.pk]))
    assert response.status_code == 200
    assert "every tied player meets every other twice" in response.content.decode()
    assert not SwissEvent.objects.filter(parent=event).exists()
