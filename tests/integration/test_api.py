"""The read API (/api/v1/, docs/operations.md "On the club's own website"): its OpenAPI
document is valid, it says what the pages say (the demo season, compared page by page),
it never shows private data, and its HTTP shell holds (ETag and 304, CORS for GET only,
the rate limit)."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import json
import re
import secrets
from decimal import Decimal

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openapi_spec_validator import validate

from competition.events import services as swiss
from competition.models import (
    ClubDutyRequest,
    EveningKind,
    EveningStatus,
    Game,
    Player,
    Result,
    SwissEvent,
)
from competition.prizes import services as prizes
from competition.season import services
from core import pagecache
from members.clubs.memo import home_club
from members.models import Club, User
from tests.demo_snapshot import demo_season
from tests.isolation import UNIQUE_EVENTS, UNIQUE_SEASON, club_b, markers_in
from tests.transactions import rolled_back

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)  # a Monday: ten winter evenings played, summer to come
PRIVATE_NOTE = "Privé: mijn schoonmoeder is jarig"
PRIVATE_REASON = "Besluit bestuur: ziekenhuisopname"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo club with a finished blitz round and private text a leader keeps: a club
    duty request's note, an eligibility override's reason, KNSB numbers, birth dates."""
    now = timezone.make_aware(dt.datetime.combine(TODAY, dt.time(12)))
    with django_db_blocker.unblock(), rolled_back():
        season = demo_season(TODAY)
        leader = User.objects.get(email="leider@demo.club")
        arbiter = User.objects.get(email="arbiter@demo.club")
        admin = User.objects.get(email="beheer@demo.club")
        User.objects.filter(email__startswith="speler").update(
            knsb_number="8123456", birth_date=dt.date(1961, 3, 17))
        later = season.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date")[1]
        asker = season.players.order_by("start").last()
        services.club_duty_request(actor=asker.member, player=asker, evening=later,
                                   note=PRIVATE_NOTE, now=now)
        winter = season.halves.get(kind="winter")
        prizes.eligibility_override_set(actor=admin, half=winter, player=asker, eligible=True,
                                        reason=PRIVATE_REASON)
        event = swiss.event_create(actor=leader, season=season, kind="blitz", name="Snelschaak",
                                   date=dt.date(2027, 6, 11))
        for player in season.players.order_by("start")[:8]:
            swiss.entrant_add(actor=leader, event=event, member=player.member)
        swiss.entrant_add(actor=leader, event=event, guest_name="Gast Jansen")
        rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=event))
        for g in rnd.games.filter(black__isnull=False):
            swiss.game_result_set(actor=arbiter, game=g, white_points=1, black_points=0,
                                  expected_version=g.version)
        swiss.round_finish(actor=arbiter, round=rnd)
        yield season


def get_json(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, (url, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    return json.loads(response.content)


def cells(row_html: str) -> list[str]:
    """The text of each cell of a table row."""
    found = re.findall(r"<td\b[^>]*>(.*?)</td>", row_html, flags=re.S)
    return [htmllib.unescape(re.sub(r"<[^>]+>|\s+", " ", c)).strip().rstrip("*").strip()
            for c in found]


def page_rows(html: str) -> dict[int, list[str]]:
    """The standings table's rows by player id (``data-player``)."""
    return {int(pid): cells(row) for pid, row in re.findall(
        r'<tr[^>]*data-player="(\d+)"[^>]*>(.*?)</tr>', html, flags=re.S)}


# --- The document -------------------------------------------------------------------------


def test_the_openapi_document_is_valid_and_names_every_endpoint(client, demo):
    spec = get_json(client, reverse("api_v1:openapi-json"))
    validate(spec)
    paths = set(spec["paths"])
    assert {"/api/v1/seasons", "/api/v1/seasons/{season}/halves/{half}/standings",
            "/api/v1/seasons/{season}/evenings/{date}", "/api/v1/players/{player_id}",
            "/api/v1/seasons/{season}/calendar", "/api/v1/seasons/{season}/events",
            "/api/v1/events/{event_id}", "/api/v1/events/{event_id}/rounds/{number}"} <= paths
    assert all(set(ops) == {"get"} for ops in spec["paths"].values())
    row = spec["components"]["schemas"]["StandingRow"]["properties"]
    assert {"rank", "score", "score_exact", "value", "games", "won", "drawn", "lost",
            "percentage", "colour_balance", "whites", "blacks", "byes", "absent_with_notice",
            "absent_without_notice"} <= set(row)


def test_the_documentation_page_serves_its_assets_from_the_site_itself(client, demo):
    response = client.get(reverse("api_v1:openapi-view"))
    assert response.status_code == 200
    html = response.content.decode()
    assert reverse("api_v1:openapi-json") in html
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources  # no CDN
    assets = [s for s in sources if s.endswith((".js", ".css"))]
    assert len(assets) >= 3
    for asset in assets:  # shipped in the package, served by the site's static files
        assert finders.find(asset.removeprefix("/static/")), asset


# --- Page and API say the same ------------------------------------------------------------


def test_standings_in_the_api_are_the_standings_page_row_for_row(client, demo):
    for half in ("winter", "summer"):
        data = get_json(client, reverse("api_v1:standings", args=[demo.slug, half]))
        page = client.get(reverse("competition:standings_half", args=[demo.slug, half]) + "?all=1")
        rows = page_rows(page.content.decode())
        assert len(rows) == len(data["rows"])
        for row in data["rows"]:
            shown = rows[row["player"]["id"]]
            # #, name, points, value, games, W, D, L, %, W−B, W/B, byes, absences
            change = row["change"]
            arrow = "" if not change else ("▲" if change > 0 else "▼") + str(abs(change))
            assert shown[0].split() == [str(row["rank"])] + ([arrow] if arrow else [])
            rating = row["player"]["rating"]
            assert shown[1].split() == row["player"]["name"].split() + ([str(rating)] if rating else [])
            assert Decimal(shown[2].replace(",", "")) == Decimal(row["score"])
            assert Decimal(shown[3]) == Decimal(row["value"])
            assert shown[4:8] == [str(row[k]) for k in ("games", "won", "drawn", "lost")]
            assert shown[8] == (str(row["percentage"]) if row["percentage"] is not None else "–")
            assert shown[10] == f"{row['whites']}/{row['blacks']}"
            assert shown[11:14] == [str(row[k]) for k in (
                "byes", "absent_with_notice", "absent_without_notice")]
            assert row["eligible"] == ("not (yet) eligible" not in page.content.decode()
                                       .split(f'data-player="{row["player"]["id"]}"')[1]
                                       .split("</tr>")[0])


def test_standings_after_an_earlier_evening_are_those_stored_for_it(client, demo):
    winter = demo.halves.get(kind="winter")
    data = get_json(client, reverse("api_v1:standings", args=[demo.slug, "winter"]))
    first = data["evenings"][0]
    earlier = get_json(client, reverse("api_v1:standings", args=[demo.slug, "winter"])
                       + f"?after={first}")
    snapshot = winter.snapshots.get(evening__date=first)
    stored = list(snapshot.rows.order_by("rank").values_list("player_id", "score_exact"))
    assert [(r["player"]["id"], r["score_exact"]) for r in earlier["rows"]] == stored
    assert earlier["after"] == first and all(r["eligible"] is None for r in earlier["rows"])
    missing = client.get(reverse("api_v1:standings", args=[demo.slug, "winter"]) + "?after=2026-11-29")
    assert missing.status_code == 404
    assert client.get(reverse("api_v1:standings", args=[demo.slug, "spring"])).status_code == 404


def test_an_evening_in_the_api_is_its_page_board_for_board(client, demo):
    evening = demo.evenings.filter(status=EveningStatus.PUBLISHED).order_by("-date").first()
    day = evening.date.isoformat()
    data = get_json(client, reverse("api_v1:evening", args=[demo.slug, day]))
    html = client.get(reverse("competition:evening", args=[day])).content.decode()
    boards = re.findall(r'<tr id="board-(\d+)">(.*?)</tr>', html, flags=re.S)
    assert [int(b) for b, _ in boards] == [g["board"] for g in data["games"]]
    for (_board, row), game in zip(boards, data["games"], strict=True):
        shown = cells(row)
        # Each name with his rating, then his place and points going into the evening.
        for cell, side in zip(shown[1:3], (game["white"], game["black"]), strict=True):
            expected = side["name"].split() + ([str(side["rating"])] if side["rating"] else [])
            assert cell.split()[: len(expected)] == expected
        assert f'data-result="{game["result"]}"' in row
    if data["bye"]:
        assert data["bye"]["name"] in html.split("Pairing bye")[1][:300]
    for key, title in (("absent_with_notice", "Absent with notice"),
                       ("absent_without_notice", "Absent without notice")):
        names = [p["name"] for p in data[key]]
        if names:
            assert ", ".join(names) in html.split(f"<h2>{title}</h2>")[1][:2000]
    coming = demo.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date").first()
    upcoming = get_json(client, reverse("api_v1:evening", args=[demo.slug, coming.date.isoformat()]))
    page = client.get(reverse("competition:evening", args=[coming.date.isoformat()])).content.decode()
    assert upcoming["games"] == [] and upcoming["published"] is False
    assert f"{upcoming['signed_up']} players signed up so far" in page


def test_a_player_in_the_api_is_his_page(client, demo):
    for player in demo.players.order_by("start")[:3]:
        data = get_json(client, reverse("api_v1:player", args=[player.pk]))
        html = client.get(reverse("competition:player", args=[player.pk])).content.decode()
        assert data["name"] == player.member.name
        tprs = re.findall(r"<span data-tpr>(\d+)</span>", html)
        assert [str(h["tpr"]) for h in data["halves"] if h["tpr"] is not None] == tprs
        totals = re.findall(r"<tfoot><tr><th[^>]*>Total</th><th class=\"num\">([\d.,-]+)</th>", html)
        assert [Decimal(t.replace(",", "")) for t in totals] == [Decimal(h["score"]) for h in data["halves"]]
        for half in data["halves"]:
            lines = sum(Decimal(line["points"]) for line in half["lines"])
            assert lines - Decimal(half["rounding"]) == Decimal(half["score"])
        games = Game.objects.filter(evening__season=demo).filter(
            white=player) | Game.objects.filter(black=player)
        assert len(data["games"]) == games.count()


def test_an_event_in_the_api_is_its_page(client, demo):
    event = SwissEvent.objects.get(season=demo, name="Snelschaak")
    listed = get_json(client, reverse("api_v1:events", args=[demo.slug]))
    assert [e["id"] for e in listed["events"]] == [event.pk]
    data = get_json(client, reverse("api_v1:event", args=[event.pk]))
    html = client.get(reverse("events:event", args=[event.pk])).content.decode()
    assert data["rounds_done"] == 1 and len(data["standings"]) == 9
    assert "Gast Jansen" in [r["entrant"]["name"] for r in data["standings"]]
    for row in data["standings"]:
        assert row["entrant"]["name"] in html
        assert set(row["tiebreaks"]) == set(data["columns"])
    winners = [r for r in data["standings"] if r["points"] == "1"]
    assert len(winners) == 5  # four white wins and the bye
    rnd = get_json(client, data["round_list"][0]["api"])
    round_html = client.get(reverse("events:round", args=[event.pk, 1])).content.decode()
    assert len(rnd["games"]) == 4 and rnd["bye"] is not None
    for game in rnd["games"]:
        assert game["result"] == "1-0" and game["white"]["name"] in round_html
    assert client.get(reverse("api_v1:round", args=[event.pk, 9])).status_code == 404


def test_the_calendar_in_the_api_is_the_seasons_evenings(client, demo):
    data = get_json(client, reverse("api_v1:calendar", args=[demo.slug]))
    evenings = list(demo.evenings.order_by("date").values_list("date", "kind"))
    assert [(dt.date.fromisoformat(e["date"]), e["kind"]) for e in data["evenings"]] == evenings
    assert [h["kind"] for h in data["halves"]] == ["winter", "summer"]
    seasons = get_json(client, reverse("api_v1:seasons"))
    assert [s["slug"] for s in seasons if s["current"]] == [demo.slug]


# --- Nothing private ----------------------------------------------------------------------


def walk_api(client) -> dict[str, bytes]:
    """Every API resource reachable from the index by the links in the answers."""
    bodies: dict[str, bytes] = {}
    queue = [reverse("api_v1:index")]
    while queue:
        url = queue.pop()
        if url in bodies:
            continue
        response = client.get(url)
        assert response.status_code == 200, url
        bodies[url] = response.content
        if response["Content-Type"].startswith("application/json"):
            found = re.findall(r'"(/api/v1/[^"]*)"', response.content.decode())
            queue += [u for u in found if u not in bodies and "{" not in u]
    return bodies


def test_no_answer_of_the_api_the_embeds_or_the_feed_shows_private_data(client, demo):
    bodies = walk_api(client)
    assert any("/players/" in u for u in bodies) and any("/events/" in u for u in bodies)
    assert len(bodies) > 40
    for name in ("website:embed_standings", "website:embed_pairing", "website:embed_results",
                 "website:feed"):
        bodies[name] = client.get(reverse(name)).content
    assert ClubDutyRequest.objects.filter(note=PRIVATE_NOTE).exists()
    secrets_ = [PRIVATE_NOTE, PRIVATE_REASON, "8123456", "1961-03-17", "@demo.club"]
    secrets_ += list(User.objects.values_list("email", flat=True))
    for url, body in bodies.items():
        text = body.decode()
        leaks = [s for s in secrets_ if s in text]
        assert not leaks, f"{url} shows {leaks}"
    names = {p.member.name for p in Player.objects.select_related("member")}
    assert any(n in bodies[reverse("api_v1:standings", args=[demo.slug, "winter"])].decode()
               for n in names)  # the scan reads real answers


def test_a_signed_in_leader_gets_the_same_public_answers(client, demo):
    url = reverse("api_v1:evening", args=[demo.slug, (TODAY + dt.timedelta(days=4)).isoformat()])
    visitor = client.get(url).content
    client.force_login(User.objects.get(email="leider@demo.club"))
    assert client.get(url).content == visitor


# --- Many clubs: each club's API, embeds and feed its own -------------------------------

PUBLIC = ("api/v1/seasons", "api/v1/seasons/{season}/halves/winter/standings",
          "api/v1/seasons/{season}/calendar", "api/v1/seasons/{season}/events",
          "embed/standings/", "embed/pairing/", "embed/results/", "feed/")


def test_each_clubs_api_embeds_and_feed_are_its_own_also_from_the_page_cache(client, demo, settings):
    """Club B (tests/isolation.py) has a season of the same address as A's: at A's prefix
    every public answer is A's and at B's B's, also when the first was cached."""
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.PAGE_CACHE_SECONDS = 60
    pagecache.cache.clear()
    b = club_b(demo)
    club_a = home_club()
    a_only = [club_a.name, f"/{club_a.slug}/", "Lars Leider", "Arend Arbiter", "Bea Beheer"]
    for path in (p.format(season=demo.slug) for p in PUBLIC):  # the same slug in both clubs
        at_a = client.get(f"/{club_a.slug}/{path}")
        at_b = client.get(f"/{b.club.slug}/{path}")
        assert at_a.status_code == at_b.status_code == 200, path
        assert not markers_in(at_a.content.decode()), path
        assert not [name for name in a_only if name in at_b.content.decode()], path
        assert client.get(f"/{club_a.slug}/{path}").content == at_a.content, path  # cached: A's
    b_seasons = client.get(f"/{b.club.slug}/api/v1/seasons").content.decode()
    assert UNIQUE_SEASON in b_seasons and demo.slug in b_seasons
    assert UNIQUE_EVENTS[1] in client.get(f"/{b.club.slug}/api/v1/seasons/{demo.slug}/events").content.decode()


@override_settings(API_RATE_LIMIT="5/m/ip", RANGLIJST_SINGLE_CLUB=False)
def test_a_client_that_used_up_its_limit_at_club_a_may_still_read_club_b(demo):
    """The limit is per club and client address: a club's website polling its API from a
    shared web host does not use up another club's (docs/architecture.md, "Many clubs")."""
    other = Club.objects.create(name="Schaakclub Beta", slug="beta")
    address = {"REMOTE_ADDR": f"198.18.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}
    a_url, b_url = f"/{home_club().slug}/api/v1/seasons", f"/{other.slug}/api/v1/seasons"
    assert [Client().get(a_url, **address).status_code for _ in range(6)] == [200] * 5 + [429]
    assert Client().get(b_url, **address).status_code == 200
    assert Client().get(a_url, **address).status_code == 429


# --- HTTP: ETag, CORS, methods, rate limit -----------------------------------------------


def test_an_unchanged_answer_is_a_304_and_a_new_result_a_new_etag(client, demo):
    evening = demo.evenings.filter(status=EveningStatus.PUBLISHED).order_by("-date").first()
    url = reverse("api_v1:evening", args=[demo.slug, evening.date.isoformat()])
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('"') and first.status_code == 200
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200
    game = evening.games.order_by("board").first()
    services.result_set(actor=User.objects.get(email="arbiter@demo.club"), game=game,
                        result=Result.DOUBLE_FORFEIT)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_any_site_may_read_the_api_with_get_but_never_with_credentials(client, demo):
    url = reverse("api_v1:seasons")
    response = client.get(url, HTTP_ORIGIN="https://www.schaakclub.nl")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options(url, HTTP_ORIGIN="https://www.schaakclub.nl",
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET")
    assert preflight.status_code == 204
    assert set(preflight["Access-Control-Allow-Methods"].replace(" ", "").split(",")) == {
        "GET", "HEAD", "OPTIONS"}
    head = client.head(url)
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == response["ETag"]
    for method in ("post", "put", "patch", "delete"):
        refused = getattr(client, method)(url)
        assert refused.status_code == 405, method
        assert refused["Access-Control-Allow-Origin"] == "*"


@override_settings(API_RATE_LIMIT="5/m/ip")
def test_a_client_reading_too_fast_is_told_to_wait_and_others_are_not(demo):
    address = {"REMOTE_ADDR": f"198.18.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}
    url = reverse("api_v1:seasons")
    codes = [Client().get(url, **address).status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]
    refused = Client().get(url, **address)
    assert refused["Retry-After"] == "60" and refused["Access-Control-Allow-Origin"] == "*"
    other = {"REMOTE_ADDR": f"198.19.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"}
    assert Client().get(url, **other).status_code == 200


def test_api_answers_are_cached_with_the_pages_data_version(
    client, demo, settings, django_capture_on_commit_callbacks
):
    settings.PAGE_CACHE_SECONDS = 600
    settings.PAGE_STALE_SECONDS = 0
    evening = demo.evenings.filter(status=EveningStatus.PUBLISHED).order_by("-date").first()
    url = reverse("api_v1:evening", args=[demo.slug, evening.date.isoformat()])
    first = client.get(url).content
    game = evening.games.order_by("board").first()
    Game.objects.filter(pk=game.pk).update(note="Written around the services")
    assert client.get(url).content == first  # the cached answer: the data version did not move
    with django_capture_on_commit_callbacks(execute=True):  # the recalculation bumps it
        services.result_set(actor=User.objects.get(email="arbiter@demo.club"), game=game,
                            result=Result.DOUBLE_FORFEIT)
    fresh = json.loads(client.get(url).content)
    assert fresh["games"][0]["result"] == Result.DOUBLE_FORFEIT


def test_an_events_answers_cost_the_same_queries_for_8_and_for_24_entrants(
    client, demo, django_assert_max_num_queries
):
    small = SwissEvent.objects.get(season=demo, name="Snelschaak")
    leader = User.objects.get(email="leider@demo.club")
    arbiter = User.objects.get(email="arbiter@demo.club")
    big = swiss.event_create(actor=leader, season=demo, kind="blitz", name="Groot",
                             date=dt.date(2027, 6, 18))
    for player in demo.players.order_by("start")[:24]:
        swiss.entrant_add(actor=leader, event=big, member=player.member)
    rnd = swiss.round_pair(actor=arbiter, round=swiss.round_open(actor=arbiter, event=big))
    for g in rnd.games.filter(black__isnull=False):
        swiss.game_result_set(actor=arbiter, game=g, white_points=0, black_points=1,
                              expected_version=g.version)
    swiss.round_finish(actor=arbiter, round=rnd)
    def url(name: str, event: SwissEvent) -> str:
        if name == "api_v1:events":  # the season's list, the big event in it
            return reverse(name, args=[demo.slug])
        return reverse(name, args=[event.pk, 1] if name == "api_v1:round" else [event.pk])

    for name in ("api_v1:event", "api_v1:round", "api_v1:events"):
        client.get(url(name, small))
        with CaptureQueriesContext(connection) as measured:
            assert client.get(url(name, small)).status_code == 200
        client.get(url(name, big))
        count = measured.final_queries - measured.initial_queries
        assert count > 0
        with django_assert_max_num_queries(count):
            assert client.get(url(name, big)).status_code == 200
