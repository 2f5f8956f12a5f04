"""Ratings in and out through the leader's pages: upload, read (task), preview, save;
bad files; permissions; the starting order from ratings; the TRF export; the TPR."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition.events.engine import trf
from competition.models import AuditRecord, Game, RatingImport, RatingImportStatus
from competition.ratings import services
from competition.season import services as competition_services
from members.models import User
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

DATA = Path(__file__).resolve().parents[1] / "data" / "ratings"


def upload(name: str, content: bytes | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content if content is not None else (DATA / name).read_bytes())


@pytest.fixture(autouse=True)
def uploads(settings, tmp_path):
    settings.RATINGS_UPLOAD_DIR = str(tmp_path / "uploads")
    return tmp_path / "uploads"


@pytest.fixture
def club():
    """Members of the sample lists: numbers for some, none for Pieter Jansen; a KNSB
    rating for each, a FIDE rating (a different number) for those with a FIDE id."""
    people = {
        "Anna Bakker": (1900, "8000001", "1000001", 1950),
        "Jan de Vries": (2100, "8000002", "", None),
        "Pieter Jansen": (1700, "", "", None),
        "Kees Mulder": (1600, "8000004", "1000004", 1620),
        "Ruud Onbekend": (1500, "8000050", "", None),
    }
    out = {}
    for name, (rating, knsb, fide, fide_rating) in people.items():
        m = f.member(name=name, rating=rating)
        m.knsb_number, m.fide_id, m.fide_rating = knsb, fide, fide_rating
        m.save()
        out[name] = m
    return out


@pytest.fixture
def leader_client(client):
    client.force_login(f.leader())
    return client


def ratings() -> dict[str, int | None]:
    return dict(User.objects.values_list("name", "rating"))


def test_csv_upload_map_preview_and_save(leader_client, club):
    response = leader_client.post(reverse("ratings:index"),
                                  {"file": upload("knsb.csv"), "number_kind": "knsb"})
    ri = RatingImport.objects.get()
    assert response.url == reverse("ratings:detail", args=[ri.pk])
    assert ri.status == RatingImportStatus.MAPPING
    page = leader_client.get(response.url).content.decode()
    assert 'value="Relatienummer" selected' in page  # the guessed mapping
    leader_client.post(response.url, {"number_kind": "knsb", "number": "Relatienummer",
                                      "name": "Naam", "rating": "Rating",
                                      "birth_year": "Geboortejaar", "federation": ""})
    ri.refresh_from_db()
    assert ri.status == RatingImportStatus.READY and ri.progress == 100
    assert not ri.path  # the upload is gone once read
    before = ratings()
    preview = leader_client.get(response.url).content.decode()
    assert "1995" in preview and "Anna Bakker" in preview  # old -> new
    assert "8000003" in preview  # Pieter Jansen's lookalike to confirm
    assert "Ruud Onbekend" in preview  # not found
    assert ratings() == before  # nothing saved by looking

    lookalike = next(lk for lk in ri.matching["lookalikes"] if lk["number"] == "8000003")
    leader_client.post(reverse("ratings:save", args=[ri.pk]),
                       {"confirm": [f"{lookalike['member_id']}:8000003"]})
    after = ratings()
    assert (after["Anna Bakker"], after["Jan de Vries"], after["Pieter Jansen"]) == (1995, 2120, 1780)
    assert after["Ruud Onbekend"] == 1500
    assert User.objects.get(name="Pieter Jansen").knsb_number == "8000003"
    record = AuditRecord.objects.get(action="ratings.apply")
    assert record.before[str(club["Anna Bakker"].pk)] == {"rating": 1900, "rating_date": None}
    ri.refresh_from_db()
    assert ri.status == RatingImportStatus.APPLIED


def test_a_list_is_saved_once(leader_client, club):
    leader_client.post(reverse("ratings:index"), {"file": upload("fide_standard.txt"),
                                                  "number_kind": "knsb"})
    ri = RatingImport.objects.get()
    leader_client.post(reverse("ratings:save", args=[ri.pk]))
    response = leader_client.post(reverse("ratings:save", args=[ri.pk]), follow=True)
    assert "saved already" in response.content.decode()
    assert AuditRecord.objects.filter(action="ratings.apply").count() == 1


@pytest.mark.parametrize("name", ["fide_standard.txt", "fide_standard.xml"])
def test_fide_lists_match_by_fide_id_and_are_read_at_once(leader_client, club, name):
    leader_client.post(reverse("ratings:index"), {"file": upload(name), "number_kind": "knsb"})
    ri = RatingImport.objects.get()
    assert (ri.status, ri.number_kind) == (RatingImportStatus.READY, "fide")
    matched = {m["name"]: (m["old"], m["new"]) for m in ri.matching["matched"]}
    assert matched == {"Anna Bakker": (1950, 1987), "Kees Mulder": (1620, 1650)}  # FIDE ratings


@pytest.mark.parametrize(("name", "message"), [
    ("bad_rating.txt", "rating 3600 is outside 0–3500"),
    ("bad_missing_column.txt", "The column “rating” is missing"),
    ("bad_truncated.xml", "The file is damaged near line"),
])
def test_a_bad_fide_list_shows_one_message_and_saves_nothing(leader_client, club, name, message):
    before = ratings()
    response = leader_client.post(reverse("ratings:index"), {"file": upload(name),
                                                             "number_kind": "knsb"}, follow=True)
    page = response.content.decode()
    assert page.count(message) == 1 and "Traceback" not in page
    assert RatingImport.objects.get().status == RatingImportStatus.FAILED
    assert ratings() == before
    assert not AuditRecord.objects.filter(action="ratings.apply").exists()


def test_a_duplicate_number_in_a_csv_is_refused(leader_client, club):
    leader_client.post(reverse("ratings:index"), {"file": upload("bad_duplicate.csv"),
                                                  "number_kind": "knsb"})
    ri = RatingImport.objects.get()
    response = leader_client.post(
        reverse("ratings:detail", args=[ri.pk]),
        {"number_kind": "knsb", "number": "Relatienummer", "name": "Naam", "rating": "Rating"},
        follow=True)
    assert "number 8000002 appears already on line 3" in response.content.decode()
    assert ratings()["Jan de Vries"] == 2100


def test_a_csv_without_a_rating_column_cannot_be_mapped(leader_client, club):
    leader_client.post(reverse("ratings:index"), {"file": upload("bad_missing_column.csv"),
                                                  "number_kind": "knsb"})
    ri = RatingImport.objects.get()
    response = leader_client.post(reverse("ratings:detail", args=[ri.pk]),
                                  {"number_kind": "knsb", "number": "Relatienummer", "name": "Naam"})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    ri.refresh_from_db()
    assert ri.status == RatingImportStatus.MAPPING
    with pytest.raises(ValidationError, match="rating"):
        services.rating_import_set_mapping(actor=f.leader(), rating_import=ri, number_kind="knsb",
                                           mapping={"number": "Relatienummer", "name": "Naam"})


def test_an_unknown_format_is_refused_at_the_upload_and_nothing_is_kept(leader_client, club):
    response = leader_client.post(reverse("ratings:index"),
                                  {"file": upload("bad_unknown_format.dat"), "number_kind": "knsb"})
    assert response.status_code == 200
    assert "not a rating list we can read" in response.content.decode()
    assert not RatingImport.objects.exists()
    assert not any(Path(services.upload_dir()).iterdir())


def test_the_upload_size_is_capped(leader_client, club, settings):
    settings.RATINGS_UPLOAD_MAX_BYTES = 100
    response = leader_client.post(reverse("ratings:index"),
                                  {"file": upload("fide_standard.txt"), "number_kind": "knsb"})
    assert "at most 0 MB" in response.content.decode()
    assert not RatingImport.objects.exists()


def test_the_progress_page_refreshes_itself_without_a_script(leader_client):
    ri = RatingImport.objects.create(file_name="big.txt", format="fide_txt", number_kind="fide",
                                     status=RatingImportStatus.READING, progress=42)
    page = leader_client.get(reverse("ratings:detail", args=[ri.pk])).content.decode()
    assert '<meta http-equiv="refresh"' in page and 'value="42"' in page
    assert "<script>" not in page


def test_reading_twice_reads_once(club):
    leader = f.leader()
    ri = services.rating_import_create(actor=leader, upload=upload("fide_standard.txt"))
    services.rating_import_read(import_id=ri.pk)
    ri.refresh_from_db()
    first = ri.matching
    assert services.rating_import_read(import_id=ri.pk).matching == first


@pytest.mark.parametrize("role", ["player", "arbiter"])
def test_only_the_leader_and_the_administrator_may_import(client, club, role):
    client.force_login(f.member(role=role))
    assert client.get(reverse("ratings:index")).status_code == 403
    assert client.post(reverse("ratings:index"), {"file": upload("knsb.csv")}).status_code == 403
    assert not RatingImport.objects.exists()
    with pytest.raises(PermissionDenied):
        services.rating_import_create(actor=f.member(role=role), upload=upload("knsb.csv"))


def test_a_visitor_is_sent_to_sign_in(client):
    response = client.get(reverse("ratings:index"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_administrator_may_import(client, club):
    client.force_login(f.admin())
    assert client.get(reverse("ratings:index")).status_code == 200


def test_a_player_cannot_save_a_leaders_list(client, club):
    ri = services.rating_import_create(actor=f.leader(), upload=upload("fide_standard.txt"))
    services.rating_import_read(import_id=ri.pk)
    client.force_login(f.member(role="player"))
    assert client.post(reverse("ratings:save", args=[ri.pk])).status_code == 403
    assert ratings()["Anna Bakker"] == 1900


# --- Starting order from ratings ----------------------------------------------------------


def test_the_starting_order_follows_the_members_new_ratings():
    admin = f.admin()
    season = f.season(players=4, actor=admin)
    last = season.players.get(start=4)
    User.objects.filter(pk=last.member_id).update(rating=2600)
    services.season_start_from_ratings(actor=admin, season=season)
    last.refresh_from_db()
    assert (last.start, last.rating) == (1, 2600)
    assert AuditRecord.objects.filter(action="ratings.season_start").exists()


def test_the_starting_order_is_not_changed_once_games_exist():
    admin = f.admin()
    season = f.season(players=4, actor=admin)
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    User.objects.filter(players__season=season, players__start=4).update(rating=2600)
    with pytest.raises(ValidationError, match="games already"):
        services.season_start_from_ratings(actor=admin, season=season)
    assert season.players.get(start=4).rating != 2600


def test_the_leader_may_not_reorder_the_season(client):
    season = f.season(players=4)
    leader = f.leader()
    with pytest.raises(PermissionDenied):
        services.season_start_from_ratings(actor=leader, season=season)


# --- Export and TPR ---------------------------------------------------------------------


@pytest.fixture
def played(django_capture_on_commit_callbacks):
    season = f.season(players=6)
    arbiter = f.arbiter()
    evenings = f.playing_evenings(season, "winter")[:2]
    for evening in evenings:
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    first = list(evenings[0].games.order_by("board"))
    second = list(evenings[1].games.order_by("board"))
    with django_capture_on_commit_callbacks(execute=True):
        for g in first:
            competition_services.result_set(actor=arbiter, game=g, result="1-0")
        competition_services.result_set(actor=arbiter, game=second[0], result="postponed")
        competition_services.result_set(actor=arbiter, game=second[1], result="0-1F")
    return season, first, second


def test_the_export_page_lists_left_out_games_and_why(leader_client, played):
    season, _first, second = played
    winter = season.halves.get(kind="winter")
    url = reverse("ratings:export", args=[season.slug])
    page = leader_client.get(url, {"half": winter.pk, "id_kind": "knsb"}).content.decode()
    assert "postponed: no result yet" in page
    assert "not played: no result entered" in page  # the third game of evening 2
    assert second[0].white.member.name in page
    download = leader_client.get(url, {"half": winter.pk, "id_kind": "knsb", "download": "1"})
    assert download["Content-Disposition"].endswith('.trf"')
    parsed = trf.parse(download.content.decode())
    assert parsed.header("XXR") == "2" and len(parsed.players) == 6
    codes = sorted(r.result for p in parsed.players for r in p.rounds[1:])
    assert codes.count("+") == 1 and codes.count("-") == 1 and codes.count("Z") == 4


def test_the_leader_sets_what_the_trf_says_of_the_club_and_the_export_follows(leader_client, played):
    from competition.models import AuditRecord, Competition

    season = played[0]
    url = reverse("ratings:export", args=[season.slug])
    page = leader_client.get(url).content.decode()
    assert 'name="city"' in page and 'name="arbiter"' in page and 'name="rating"' in page
    response = leader_client.post(url, {"city": "Utrecht", "arbiter": "Haan, Yvonne de", "rating": "knsb"})
    assert response.status_code == 302
    competition = Competition.objects.get(season=season)
    assert (competition.venue_city, competition.chief_arbiter, competition.trf_rating) == (
        "Utrecht", "Haan, Yvonne de", "knsb")
    record = AuditRecord.objects.filter(season=season).latest("pk")
    assert record.after == {"venue_city": "Utrecht", "chief_arbiter": "Haan, Yvonne de", "trf_rating": "knsb"}
    winter = season.halves.get(kind="winter")
    download = leader_client.get(url, {"half": winter.pk, "download": "1"})
    parsed = trf.parse(download.content.decode())
    assert parsed.header("022") == "Utrecht" and parsed.header("102") == "Haan, Yvonne de"
    assert parsed.header("172") == "NED NRO" and len(parsed.national) == 6  # KNSB, as set
    fide = trf.parse(leader_client.get(url, {"half": winter.pk, "id_kind": "fide", "download": "1"})
                     .content.decode())
    assert fide.national == ()


def test_a_control_character_in_the_trf_settings_is_refused_and_nothing_saved(leader_client, played):
    from competition.models import Competition

    season = played[0]
    url = reverse("ratings:export", args=[season.slug])
    response = leader_client.post(url, {"city": "Utrecht", "arbiter": "Haan\n001 forged", "rating": "fide"})
    assert response.status_code == 200
    assert Competition.objects.get(season=season).chief_arbiter == ""


def test_a_member_name_with_a_line_break_gives_a_message_not_a_forged_trf(leader_client, played):
    season, first, _second = played
    member = first[0].white.member
    User.objects.filter(pk=member.pk).update(name="Eve\n001    9 m    Forged")
    url = reverse("ratings:export", args=[season.slug])
    response = leader_client.get(url, {"half": season.halves.get(kind="winter").pk, "download": "1"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "control characters (U+000A)" in page
    assert "attachment" not in response.get("Content-Disposition", "")


def test_only_leaders_export(client, played):
    season = played[0]
    client.force_login(f.arbiter())
    assert client.get(reverse("ratings:export", args=[season.slug])).status_code == 403


def test_the_players_page_shows_a_tpr_per_half(client, played):
    season, first, _second = played
    winner = first[0].white
    opponent_rating = first[0].black.rating
    page = client.get(reverse("competition:player", args=[winner.pk])).content.decode()
    assert f"<span data-tpr>{opponent_rating + 800}</span>" in page
    assert Game.objects.filter(result="1-0").count() == 3
