"""Last season from a file (issue 31): a TRF file or a games CSV becomes an earlier season
of the club, its names matched to the members in a preview, saved in one transaction with
its standings; a bad file has one Dutch message naming the line and saves nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from competition.history import importing
from competition.history.historyfile import MAX_BYTES
from competition.history.selectors import archive_index
from competition.models import Game, Player, Season, Standing
from members.models import Membership, User
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

FIRST = dt.date(2025, 9, 5)
GAMES_CSV = (
    "datum;wit;zwart;uitslag\n"
    "5-9-2025;de Haan, Yvonne;Piet Smit;1-0\n"
    "5-9-2025;Oud Lid;Anna Bakker;½-½\n"
    "12-9-2025;Piet Smit;Oud Lid;0-1\n"
    "12-9-2025;Anna Bakker;Yvonne de Haan;1-0r\n"
)


@pytest.fixture
def club():
    season = f.season(players=0)
    members = {name: f.member(name=name) for name in ("Yvonne de Haan", "Piet Smit", "Anna Bakker")}
    return season, members


def _counts():
    return (Season.objects.count(), Game.objects.count(), Player.objects.count(),
            User.objects.count(), Standing.objects.count())


def test_a_games_csv_becomes_an_archived_season_with_its_standings(club):
    current, members = club
    leader = f.leader()
    preview = importing.history_preview(raw=GAMES_CSV.encode(), filename="vorig.csv")
    assert [(m.wanted.name, m.member.name if m.member else None) for m in preview.matches] == [
        ("de Haan, Yvonne", "Yvonne de Haan"), ("Piet Smit", "Piet Smit"),
        ("Oud Lid", None), ("Anna Bakker", "Anna Bakker")]
    assert (preview.matched, preview.unmatched, preview.file.games) == (3, 1, 4)
    season = importing.history_import(actor=leader, raw=GAMES_CSV.encode(), filename="vorig.csv",
                                      choices={})
    assert season.name == "2025" and season.start_date == FIRST
    assert season in [a.season for a in archive_index()]
    games = Game.objects.filter(evening__season=season)
    assert sorted(games.values_list("result", flat=True)) == sorted(["1-0", "1-0F", "1/2-1/2", "0-1"])
    assert Player.objects.get(season=season, member=members["Yvonne de Haan"])
    former = Player.objects.get(season=season, member__name="Oud Lid").member
    assert not former.has_usable_password() and not Membership.objects.filter(user=former).exists()
    ranks = Standing.objects.filter(snapshot__half__season=season)
    assert ranks.count() >= 4


def test_the_leader_maps_an_unmatched_name_to_a_member(club):
    _current, members = club
    other = f.member(name="Klaas Lid")
    season = importing.history_import(actor=f.leader(), raw=GAMES_CSV.encode(), filename="g.csv",
                                      choices={3: str(other.pk)}, name="Vorig seizoen")
    assert Player.objects.filter(season=season, member=other).exists()
    assert not User.objects.filter(name="Oud Lid").exists()


def test_a_trf_file_matches_names_in_fide_order_and_imports_every_round(club):
    _current, members = club
    names = ["Yvonne de Haan", "Piet Smit", "Anna Bakker", "Jan Nieuw", "Oud Lid"]
    text = f.trf_season(names, evenings=6, first=FIRST)
    assert "De Haan, Yvonne" in text
    preview = importing.history_preview(raw=text.encode(), filename="sevilla.trf")
    assert preview.matched == 3 and len(preview.file.evenings) == 6
    season = importing.history_import(actor=f.leader(), raw=text.encode(), filename="sevilla.trf",
                                      choices={})
    assert season.evenings.count() == 6
    assert Game.objects.filter(evening__season=season).count() == 6 * 2  # five: two boards, a bye
    assert Standing.objects.filter(snapshot__half__season=season, rank=1).exists()


def test_a_player_cannot_import(club):
    with pytest.raises(PermissionDenied):
        importing.history_import(actor=f.member(), raw=GAMES_CSV.encode(), filename="g.csv",
                                 choices={})


def test_one_member_chosen_twice_saves_nothing(club):
    _current, members = club
    leader = f.leader()
    before = _counts()
    pk = str(members["Piet Smit"].pk)
    with pytest.raises(ValidationError, match="same member"):
        importing.history_import(actor=leader, raw=GAMES_CSV.encode(), filename="g.csv",
                                 choices={2: pk, 3: pk})
    assert _counts() == before


@pytest.mark.parametrize(("content", "message"), [
    (b"", "is leeg"),
    (b"datum;wit;uitslag\n5-9-2025;A;1-0\n", "zwart"),
    (b"datum;wit;zwart;uitslag\n5-9-2025;A;B;1-0\n32-9-2025;A;B;2-0\n", "regel 3"),
    (b"datum;wit;zwart;uitslag\n5-9-2025;A;B;1-0\n5-9-2025;C;A;2-0\n", "regel 3"),
    (b"datum;wit;zwart;uitslag\n5-9-2025;A;B;1-0\n5-9-2025;C;A;0-1\n", "tweemaal"),
    (b"012 Club\n" + b"001    1      A".ljust(91) + b"   2 w 1\n", "regel 2"),  # no player 2
    (bytes(range(256)) * 8, "geen tekstbestand"),  # binary junk
    (b"datum;wit;zwart;uitslag\n5-9-2025;A\x81;B;1-0\n", "geen tekstbestand"),  # no cp1252
    (b"PK\x03\x04" + b"xl/workbook.xml" * 10, "sla de spreadsheet op als CSV"),  # an .xlsx
    ("BIG", "groter dan 2 MB"),  # one byte above the limit
    ("NAME TWICE", "dezelfde naam, Jan Smit"),  # a TRF naming one player twice
])
def test_a_bad_file_has_one_dutch_message_with_the_line_and_saves_nothing(club, client, content,
                                                                          message):
    if content == "BIG":
        line = b"5-9-2025;Anna Bakker;Piet Smit;1-0\n"
        content = b"datum;wit;zwart;uitslag\n" + line * (MAX_BYTES // len(line) + 1)
        content = content[:MAX_BYTES + 1]
    elif content == "NAME TWICE":
        content = f.trf_season(["Jan Smit", "Piet Smit", "Jan Smit"], evenings=2).encode()
    client.force_login(f.leader())
    before = _counts()
    with override_settings(LANGUAGE_CODE="nl"):
        response = client.post(reverse("history_import:upload"),
                               {"file": SimpleUploadedFile("vorig.csv", content)},
                               HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200
    errors = list(response.context["upload"].errors.get("file", []))
    assert len(errors) == 1 and message in errors[0] and "Er is niets opgeslagen" in errors[0], errors
    assert _counts() == before


def test_the_leader_previews_and_confirms_in_the_browser_pages(club, client):
    client.force_login(f.leader())
    url = reverse("history_import:upload")
    with override_settings(LANGUAGE_CODE="nl"):
        page = client.post(url, {"file": SimpleUploadedFile("g.csv", GAMES_CSV.encode())})
        assert page.context["preview"].unmatched == 1
        kept = page.context["kept"]
        assert _counts()[0] == 1  # nothing saved by the preview
        done = client.post(url, {"kept": kept, "save": "1", "player-1": page.context["preview"]
                                 .matches[0].member.id, "player-3": ""})
    assert done.status_code == 302
    assert Season.objects.filter(name="2025").exists()


@pytest.mark.parametrize("n", [6, 20])
def test_the_import_takes_the_same_queries_for_6_and_20_players(n, django_assert_max_num_queries):
    f.season(players=0)
    leader = f.leader()
    names = [f"Speler {i:02d}" for i in range(n)]
    for name in names[: n // 2]:
        f.member(name=name)
    text = f.trf_season(names, evenings=5, first=FIRST).encode()
    with django_assert_max_num_queries(80):  # 76, for 6 players as for 20
        season = importing.history_import(actor=leader, raw=text, filename="s.trf", choices={})
    assert season.players.count() == n


def test_the_next_season_from_an_imported_season_starts_in_its_final_order():
    """A club without a season here: last season from a TRF, then the leader's next season
    from it; its starting order is the imported final standings (the members; a former
    player, no member of the club, stays in the archive)."""
    from competition.prizes import services as prizes

    names = ["Yvonne de Haan", "Piet Smit", "Anna Bakker", "Jan Nieuw", "Oud Lid"]
    for name in names[:4]:
        f.member(name=name)
    # The start order is by rating (the lowest first here), the final order by the games.
    text = f.trf_season(names, evenings=6, first=FIRST,
                        ratings=[1500, 1600, 1700, 1800, 1900]).encode()
    leader = f.leader()
    old = importing.history_import(actor=leader, raw=text, filename="sevilla.trf", choices={})
    last = old.evenings.order_by("date").last()
    final = [s.player.member.name for s in Standing.objects.filter(snapshot__evening=last)
             .order_by("rank").select_related("player__member")]
    assert set(final) == set(names) and final != list(old.players.order_by("start")
                                                      .values_list("member__name", flat=True))
    proposal = prizes.next_season_proposal(old)
    new = prizes.season_start_next(actor=leader, season=old, name="2026-2027",
                                   opening=proposal["opening"], last_day=proposal["last_day"])
    order = list(new.players.order_by("start").values_list("member__name", flat=True))
    assert order == [n for n in final if n != "Oud Lid"]


def test_an_imported_game_is_in_the_head_to_head_and_the_season_on_the_players_page(club, client):
    current, members = club
    from competition.season import services as season_services

    me = season_services.player_add(actor=f.admin(), season=current,
                                    member=members["Yvonne de Haan"], kind="fixed")
    old = importing.history_import(actor=f.leader(), raw=GAMES_CSV.encode(), filename="g.csv",
                                   choices={})
    page = client.get(reverse("competition:player", args=[me.pk]))
    lines = {line.name: line.record for line in page.context["head_to_head"]}
    piet, anna = lines["Piet Smit"], lines["Anna Bakker"]  # won 1-0; lost by forfeit (1-0r)
    assert (piet.won, piet.games, piet.last_met) == (1, 1, FIRST)
    assert (anna.games, anna.forfeits) == (0, 1)
    assert old in {line.season for line in page.context["member_seasons"]}


def test_a_club_moving_in_takes_its_first_seasons_order_from_the_imported_standings(client):
    """The move-in's order: the first season is set up (the member import needs it), then
    last season comes from a TRF; the members page then takes this season's starting order
    from the imported final standings, a member who did not play there after them by
    rating (issue 31: "whose final order can be the new season's starting order")."""
    from competition.season import services as season_services

    current = f.season(players=0)
    names = ["Yvonne de Haan", "Piet Smit", "Anna Bakker", "Jan Nieuw", "Oud Lid"]
    members = {name: f.member(name=name) for name in names[:4]}
    newcomers = [f.member(name="Kees Laag", rating=1200), f.member(name="Bram Hoog", rating=2100)]
    leader = f.leader()
    for member in [*members.values(), *newcomers]:
        season_services.player_add(actor=f.admin(), season=current, member=member)
    text = f.trf_season(names, evenings=6, first=FIRST,
                        ratings=[1500, 1600, 1700, 1800, 1900]).encode()
    old = importing.history_import(actor=leader, raw=text, filename="sevilla.trf", choices={})
    last = old.evenings.order_by("date").last()
    final = [s.player.member.name for s in Standing.objects.filter(snapshot__evening=last)
             .order_by("rank").select_related("player__member")]
    client.force_login(leader)
    page = client.get(reverse("members:index", args=[current.slug])).content.decode()
    assert reverse("prizes:order_from_season", args=[current.slug]) in page
    assert f'<option value="{old.slug}">' in page
    response = client.post(reverse("prizes:order_from_season", args=[current.slug]),
                           {"source": old.slug}, follow=True)
    order = list(current.players.order_by("start").values_list("member__name", flat=True))
    assert order == [n for n in final if n != "Oud Lid"] + ["Bram Hoog", "Kees Laag"]
    assert "4 van de 6 spelers" in response.content.decode() or "4 of the 6 players" in response.content.decode()


def test_the_order_comes_only_from_an_earlier_season_and_before_the_first_game():
    from competition.prizes import services as prizes

    season = f.season(players=4)
    later = f.season(players=2, opening=dt.date(2027, 9, 3), last_day=dt.date(2028, 7, 13))
    before = list(season.players.order_by("start").values_list("pk", flat=True))
    with pytest.raises(ValidationError, match="earlier season"):
        prizes.starting_order_from_season(actor=f.leader(), season=season, source=later)
    with pytest.raises(ValidationError, match="no final standings"):
        prizes.starting_order_from_season(actor=f.leader(), season=later, source=season)
    with pytest.raises(PermissionDenied):
        prizes.starting_order_from_season(actor=f.member(), season=later, source=season)
    assert list(season.players.order_by("start").values_list("pk", flat=True)) == before
