"""The pages of the demo club: each renders, the exports are well formed, unknown things
are 404, and the standings show 8 rows to the public and all of them on request
(docs/rules.md 9 and 10)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.conf import settings
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from competition.models import Evening, EveningKind, EveningStatus, Game, Player, Standing
from members.models import User
from tests.demo_snapshot import demo_season
from tests.transactions import rolled_back

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 30)  # a Monday: ten winter evenings played, summer to come
PLAYERS = 30


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The demo club, built once for this module and rolled back after it; each test runs
    in a savepoint inside this transaction."""
    with django_db_blocker.unblock(), rolled_back():
        season = demo_season(TODAY)
        yield season


@pytest.fixture(autouse=True)
def club_today(monkeypatch):
    """The site's today is TODAY, whatever day the suite runs."""
    real_now = timezone.now
    offset = TODAY - timezone.localdate(real_now())
    monkeypatch.setattr(timezone, "now", lambda: real_now() + offset)


def member(email: str) -> User:
    return User.objects.get(email=email)


def last_evening(season) -> Evening:
    return season.evenings.filter(status=EveningStatus.PUBLISHED).order_by("-date").first()


def top_standing(season) -> Standing:
    snapshot = (
        season.halves.get(kind="winter").snapshots.order_by("-evening__date").first()
    )
    return snapshot.rows.select_related("player__member").get(rank=1)


def table_rows(html: str) -> list[str]:
    """The body rows of the first table inside a .table-wrap."""
    wrap = html[html.index('class="table-wrap"'):]
    body = wrap[wrap.index("<tbody"):wrap.index("</tbody>")]
    return re.findall(r"<tr\b.*?</tr>", body, flags=re.S)


# --- Each page renders ----------------------------------------------------------------


def test_home_page_shows_the_top_eight_and_the_next_evening(client, demo):
    response = client.get("/")
    assertContains(response, settings.CLUB_NAME)
    assertContains(response, top_standing(demo).player.member.name)
    assert len(response.context["top"]) == 8
    assertContains(response, 'href="/evenings/2026-12-04/"')  # the first summer evening
    assertNotContains(response, 'id="me-title"')


def test_home_page_shows_a_signed_in_member_his_own_status(client, demo):
    client.force_login(member("speler1@demo.club"))
    response = client.get("/")
    assertContains(response, 'id="me-title"')
    assert len(response.context["my_statuses"]) == 4
    assertContains(response, 'href="/signup/"')


def test_standings_page_shows_the_running_half_after_the_last_evening(client, demo):
    response = client.get("/standings/")
    assertContains(response, top_standing(demo).player.member.name)
    assert response.context["half"].kind == "winter"
    assert response.context["snapshot"].evening.date == dt.date(2026, 11, 27)
    assertContains(response, "?export=csv")


def test_standings_of_the_other_half_by_its_address(client, demo):
    response = client.get(f"/standings/{demo.slug}/summer/")
    assert response.status_code == 200
    assert response.context["half"].kind == "summer"
    assert response.context["snapshot"] is None  # not a summer evening played yet


def test_evenings_page_lists_every_playing_and_playoff_evening(client, demo):
    response = client.get("/evenings/")
    shown = set(re.findall(r'href="/evenings/(\d{4}-\d\d-\d\d)/"', response.content.decode()))
    expected = {
        e.date.isoformat()
        for e in demo.evenings.filter(kind__in=[EveningKind.PLAYING, EveningKind.PLAYOFF])
    }
    assert shown == expected


def test_evening_page_shows_every_board_with_its_result(client, demo):
    evening = last_evening(demo)
    response = client.get(f"/evenings/{evening.date.isoformat()}/")
    games = list(evening.games.select_related("white__member", "black__member"))
    assert games
    for game in games:
        assertContains(response, f'id="board-{game.board}"')
        assertContains(response, game.white.member.name)
        assertContains(response, f'data-result="{game.result}"')
    assertNotContains(response, 'class="results"')  # result forms are for the arbiter only


def test_evening_page_gives_the_arbiter_a_result_form_per_board(client, demo):
    evening = last_evening(demo)
    client.force_login(member("arbiter@demo.club"))
    response = client.get(f"/evenings/{evening.date.isoformat()}/")
    assertContains(response, 'class="results"', count=evening.games.count())


def test_player_page_shows_games_explanation_and_chart(client, demo):
    row = top_standing(demo)
    response = client.get(f"/players/{row.player_id}/")
    assertContains(response, row.player.member.name)
    assertContains(response, '<table class="explanation">')
    assertContains(response, "<svg")
    assertContains(response, '<title id="chart-title">')
    games = Game.objects.filter(evening__season=demo).filter(
        white=row.player
    ).count() + Game.objects.filter(evening__season=demo, black=row.player).count()
    assert len(response.context["games"]) == games


def test_calendar_page_lists_the_season_and_links_the_feed(client, demo):
    response = client.get("/calendar/")
    assertContains(response, 'href="/calendar.ics"')
    assert len(response.context["evenings"]) == demo.evenings.count()
    assertContains(response, 'href="/evenings/2026-11-27/"')


def test_rules_page_states_the_competition_and_its_parameters(client, demo):
    response = client.get("/rules/")
    assertContains(response, str(demo))
    lines = response.context["lines"]
    assert lines
    for term, _text in lines:
        assertContains(response, str(term), html=False)


def test_sign_up_page_offers_each_coming_evening(client, demo):
    client.force_login(member("speler1@demo.club"))
    response = client.get("/signup/")
    coming = demo.evenings.filter(kind=EveningKind.PLAYING, date__gte=TODAY).count()
    assertContains(response, 'name="evenings"', count=coming)
    assertContains(response, 'name="status"')


def test_sign_up_page_sends_a_visitor_to_sign_in(client, demo):
    response = client.get("/signup/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_leader_pages_render_for_the_leader_and_refuse_a_player(client, demo):
    client.force_login(member("leider@demo.club"))
    assertContains(client.get("/leader/"), f'href="/leader/{demo.slug}/"')
    assertContains(client.get(f"/leader/{demo.slug}/"), "ev-form-", status_code=200)
    client.force_login(member("speler1@demo.club"))
    assert client.get("/leader/").status_code == 403


def test_sign_in_page_renders(client, demo):
    response = client.get("/accounts/login/")
    assertContains(response, 'name="login"')
    assertContains(response, 'name="password"')


# --- Standings rows: eight for the public, all on request or signed in -----------------


def test_public_standings_show_eight_rows(client, demo):
    response = client.get("/standings/")
    assert len(table_rows(response.content.decode())) == 8
    assertContains(response, 'href="?all=1"')


def test_public_standings_show_all_rows_on_request(client, demo):
    response = client.get("/standings/?all=1")
    assert len(table_rows(response.content.decode())) == PLAYERS
    assertNotContains(response, 'href="?all=1"')


def test_signed_in_member_sees_all_rows(client, demo):
    client.force_login(member("speler7@demo.club"))
    response = client.get("/standings/")
    assert len(table_rows(response.content.decode())) == PLAYERS


def test_standings_rows_carry_the_player_for_highlighting(client, demo):
    # tables.py declares the class and a data-player attribute on every row.
    html = client.get("/standings/?all=1").content.decode()
    assert 'class="standings' in html
    rows = table_rows(html)
    ids = [int(m) for row in rows for m in re.findall(r'data-player="(\d+)"', row[:200])]
    assert sorted(ids) == sorted(Player.objects.filter(season=demo).values_list("pk", flat=True))


# --- CSV export (docs/rules.md 9) -------------------------------------------------------------

RULES_9_COLUMNS = [
    "place", "name", "points", "value", "games", "won", "drawn", "lost", "percentage",
    "colour_balance", "white", "black", "byes", "absent_with_notice", "absent_without_notice",
    "club_duty",  # so a row adds up to the evenings (issue 23)
]


def test_standings_csv_has_the_rules_9_columns_for_every_player(client, demo):
    response = client.get("/standings/?export=csv")
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith("attachment;")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header, body = rows[0], rows[1:]
    # Place, name, points, value, games, won, drawn, lost, score percentage, colour
    # balance, games with white / black, byes, absences (with and without notice).
    assert header == RULES_9_COLUMNS
    assert len(body) == PLAYERS  # the export is never cut to eight
    top = top_standing(demo)
    first = dict(zip(header, body[0], strict=True))
    assert first["place"] == "1"
    assert first["name"] == top.player.member.name
    assert first["points"] == f"{top.score:.2f}"  # machine-readable: a point, never a comma
    for line in body:
        row = dict(zip(header, line, strict=True))
        assert int(row["colour_balance"]) == int(row["white"]) - int(row["black"])
        assert int(row["games"]) >= int(row["won"]) + int(row["drawn"]) + int(row["lost"])


# --- iCalendar feed ----------------------------------------------------------------------


def test_ics_feed_is_valid_with_one_event_per_club_evening(client, demo):
    response = client.get("/calendar.ics")
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
    lines = body.split("\r\n")[:-1]
    assert all(len(line.encode()) <= 75 for line in lines), "lines are folded at 75 octets"
    unfolded = re.sub(r"\r\n ", "", body).split("\r\n")
    assert "VERSION:2.0" in unfolded and any(x.startswith("PRODID:") for x in unfolded)

    evenings = demo.evenings.filter(
        kind__in=[EveningKind.PLAYING, EveningKind.RAPID, EveningKind.PLAYOFF]
    )
    assert unfolded.count("BEGIN:VEVENT") == unfolded.count("END:VEVENT") == evenings.count()
    uids = [x for x in unfolded if x.startswith("UID:")]
    assert len(set(uids)) == len(uids)
    starts = [x.removeprefix("DTSTART:") for x in unfolded if x.startswith("DTSTART")]
    assert all(re.fullmatch(r"\d{8}T\d{6}Z", s) for s in starts), "DTSTART in UTC"
    expected = {e.starts_at.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ") for e in evenings}
    assert set(starts) == expected
    # Friday 27 November 2026, 20:15 in Amsterdam (CET) is 19:15 UTC.
    assert "20261127T191500Z" in starts


# --- Unknown things are 404 ----------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/evenings/2026-11-28/",  # a Saturday: no evening
        "/evenings/2026-02-30/",  # not a date
        "/evenings/next-friday/",
        "/players/999999/",
        "/standings/2026-2027/spring/",
        "/standings/no-such-season/winter/",
        "/evenings/?season=no-such-season",
        "/calendar/?season=no-such-season",
    ],
)
def test_unknown_dates_and_ids_give_404(client, demo, path):
    assert client.get(path).status_code == 404


def test_result_for_an_unknown_game_gives_404(client, demo):
    client.force_login(member("arbiter@demo.club"))
    assert client.post("/games/999999/result/", {"result": "1-0"}).status_code == 404


def test_unknown_season_on_the_leader_page_gives_404(client, demo):
    client.force_login(member("leider@demo.club"))
    assert client.get("/leader/no-such-season/").status_code == 404
