"""Rating lists, round three: bad uploads end with one clear message, nothing saved and no
file left in the upload folder; every failure of the reading ends the import; the catch-up
ends imports stuck in reading (docs/trust.md "Uploads"). And never a wrong rating: FIDE
and KNSB ratings apart, FIDE's 0 is no rating, rapid/blitz lists only by the leader's
choice, the competition's rating for its start, the TPR from the season's rating."""

from __future__ import annotations

import datetime as dt
import os
import time
import zipfile
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditRecord, Competition, RatingImport, RatingImportStatus
from competition.ratings import selectors, services
from competition.ratings.tasks import end_stuck_rating_imports
from competition.season import services as competition_services
from members.models import User
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

DATA = Path(__file__).resolve().parents[1] / "data" / "ratings"
FIDE_TXT = (DATA / "fide_standard.txt").read_bytes()
KNSB_CSV = (DATA / "knsb.csv").read_text(encoding="utf-8")
MAPPING = {"number_kind": "knsb", "number": "Relatienummer", "name": "Naam", "rating": "Rating"}


@pytest.fixture(autouse=True)
def uploads(settings, tmp_path):
    settings.RATINGS_UPLOAD_DIR = str(tmp_path / "uploads")
    return tmp_path / "uploads"


@pytest.fixture
def leader_client(client):
    client.force_login(f.leader())
    return client


@pytest.fixture
def anna():
    m = f.member(name="Anna Bakker", rating=1900)
    m.knsb_number, m.fide_id, m.fide_rating = "8000001", "1000001", 1876
    m.save()
    return m


def post(client, name: str, content: bytes, number_kind: str = "knsb"):
    return client.post(reverse("ratings:index"),
                       {"file": SimpleUploadedFile(name, content), "number_kind": number_kind},
                       follow=True)


def files(folder: Path) -> list[Path]:
    return sorted(folder.iterdir()) if folder.exists() else []


def zipped(tmp_path, *, flags: int = 0, method: int | None = None) -> bytes:
    archive = tmp_path / "list.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("standard_sep25frl.txt", FIDE_TXT)
    data = bytearray(archive.read_bytes())
    central = data.index(b"PK\x01\x02")
    for flag_at, method_at in ((6, 8), (central + 8, central + 10)):
        data[flag_at] |= flags
        if method is not None:
            data[method_at:method_at + 2] = method.to_bytes(2, "little")
    return bytes(data)


# --- Bad uploads: one message, nothing saved, no file ------------------------------------


@pytest.mark.parametrize(("kw", "message"), [
    ({"flags": 0x1}, "protected with a password"),
    ({"method": 99}, "compression method that cannot be read"),
])
def test_an_encrypted_or_exotic_zip_is_refused_at_the_upload(leader_client, anna, uploads,
                                                              tmp_path, kw, message):
    response = post(leader_client, "standard_sep25frl.zip", zipped(tmp_path, **kw))
    assert response.status_code == 200
    assert response.content.decode().count(message) == 1
    assert not RatingImport.objects.exists() and files(uploads) == []


def test_a_nul_in_the_csv_header_is_refused_at_the_upload(leader_client, anna, uploads):
    response = post(leader_client, "leden.csv", KNSB_CSV.replace("Naam", "Na\x00am").encode())
    assert "Line 1 holds a control character (U+0000)" in response.content.decode()
    assert not RatingImport.objects.exists() and files(uploads) == []


def test_a_failure_after_the_file_is_written_leaves_no_file(leader_client, anna, uploads,
                                                            monkeypatch):
    def broken(**_kw):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services.audit, "record", broken)
    response = post(leader_client, "standard_sep25frl.txt", FIDE_TXT)
    assert response.status_code == 200 and "not a rating list we can read" in response.content.decode()
    assert not RatingImport.objects.exists() and files(uploads) == []


def test_excels_unicode_text_is_read_and_saved(leader_client, anna, uploads):
    data = KNSB_CSV.replace(";", "\t").encode("utf-16")  # Excel's "Unicode text": BOM, tabs
    post(leader_client, "leden.txt", data)
    ri = RatingImport.objects.get()
    assert ri.status == RatingImportStatus.MAPPING
    assert ri.columns == ["Relatienummer", "Naam", "Rating", "Geboortejaar", "Federatie"]
    leader_client.post(reverse("ratings:detail", args=[ri.pk]), MAPPING)
    ri.refresh_from_db()
    assert ri.status == RatingImportStatus.READY
    leader_client.post(reverse("ratings:save", args=[ri.pk]))
    assert User.objects.get(pk=anna.pk).rating == 1995
    assert files(uploads) == []


@pytest.mark.parametrize(("row", "message"), [
    ("8000001²;Anna Bakker;1995;1982;NED", "Line 2: “8000001²” is not a federation number."),
    ("8000001;Anna Bakker;١٩٠٠;1982;NED", "Line 2: rating ١٩٠٠ is outside 0–3500"),
    ("8000001;Anna Bakker;٣;1982;NED", "Line 2: rating ٣ is outside 0–3500"),
    ("8000001;" + "A" * 140_000 + ";1995;1982;NED", "Line 2: a field is longer than 128 KB"),
])
def test_a_bad_csv_ends_the_reading_with_its_message(leader_client, anna, uploads, row, message):
    header = KNSB_CSV.splitlines()[0]
    post(leader_client, "leden.csv", f"{header}\n{row}\n".encode())
    ri = RatingImport.objects.get()
    response = leader_client.post(reverse("ratings:detail", args=[ri.pk]), MAPPING, follow=True)
    ri.refresh_from_db()
    assert ri.status == RatingImportStatus.FAILED and ri.progress == 100
    assert response.content.decode().count(message) == 1
    assert User.objects.get(pk=anna.pk).rating == 1900 and files(uploads) == []


def test_any_failure_of_the_reading_ends_the_import_with_a_message(leader_client, anna, uploads,
                                                                   monkeypatch):
    def broken(*_a, **_kw):
        raise MemoryError

    monkeypatch.setattr(services, "read_list", broken)
    response = post(leader_client, "standard_sep25frl.txt", FIDE_TXT)
    ri = RatingImport.objects.get()
    assert ri.status == RatingImportStatus.FAILED
    assert "could not be read to the end" in response.content.decode()
    assert files(uploads) == []


def test_the_catch_up_ends_an_import_stuck_in_reading(anna, uploads):
    ri = services.rating_import_create(actor=f.leader(), upload=SimpleUploadedFile(
        "standard_sep25frl.txt", FIDE_TXT))  # its task was never run (the worker died)
    fresh = services.rating_import_create(actor=f.leader(), upload=SimpleUploadedFile(
        "standard_oct25frl.txt", FIDE_TXT))
    RatingImport.objects.filter(pk=ri.pk).update(
        updated_at=timezone.now() - dt.timedelta(minutes=16))
    orphan, young = uploads / "orphan", uploads / "young"
    orphan.write_bytes(b"x")
    young.write_bytes(b"x")
    day_ago = time.time() - 25 * 3600
    os.utime(orphan, (day_ago, day_ago))

    assert end_stuck_rating_imports() == [ri.pk]
    ri.refresh_from_db()
    fresh.refresh_from_db()
    assert (ri.status, ri.path, ri.error["code"]) == (RatingImportStatus.FAILED, "", "not_read")
    assert fresh.status == RatingImportStatus.READING and Path(fresh.path).exists()
    assert not orphan.exists() and young.exists()
    assert services.rating_import_read(import_id=ri.pk).status == RatingImportStatus.FAILED


def test_the_catch_up_runs_from_the_beat(settings):
    jobs = {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "competition.ratings.tasks.end_stuck_rating_imports" in jobs


@pytest.mark.parametrize("rating", ["٣", "١٩٠٠", "1900²"])
def test_the_member_form_takes_ratings_in_ascii_digits_only(leader_client, rating):
    season = f.season(players=2)
    player = season.players.select_related("member").first()
    before = player.member.rating
    response = leader_client.post(
        reverse("members:edit", args=[season.slug, player.pk]),
        {"name": player.member.name, "email": player.member.email, "rating": rating,
         "knsb_number": "", "kind": player.kind})
    assert response.status_code == 200
    assert "Write the rating in the digits 0–9." in response.content.decode()
    assert User.objects.get(pk=player.member_id).rating == before


# --- Never a wrong rating ------------------------------------------------------------------


def read_and_save(client, name: str, content: bytes, **extra) -> RatingImport:
    post(client, name, content)
    ri = RatingImport.objects.latest("pk")
    client.post(reverse("ratings:save", args=[ri.pk]), extra)
    ri.refresh_from_db()
    return ri


def test_fides_zero_leaves_the_rating_as_it_is_and_the_preview_says_so(leader_client, anna):
    unrated = FIDE_TXT.replace(b" 1987   0", b"    0   0")
    post(leader_client, "standard_sep25frl.txt", unrated)
    ri = RatingImport.objects.get()
    page = leader_client.get(reverse("ratings:detail", args=[ri.pk])).content.decode()
    assert "1 member is in the list without a rating: his rating stays as it is." in page
    leader_client.post(reverse("ratings:save", args=[ri.pk]))
    anna.refresh_from_db()
    assert (anna.fide_rating, anna.rating) == (1876, 1900)


def test_a_fide_list_writes_the_fide_rating_and_its_date(leader_client, anna):
    ri = read_and_save(leader_client, "standard_sep25frl.txt", FIDE_TXT)
    assert ri.status == RatingImportStatus.APPLIED
    anna.refresh_from_db()
    assert (anna.fide_rating, anna.fide_rating_date) == (1987, dt.date(2025, 9, 1))
    assert (anna.rating, anna.rating_date) == (1900, None)  # the KNSB rating is another number


def test_a_knsb_list_writes_the_knsb_rating_and_its_date(leader_client, anna):
    post(leader_client, "KNSB-rating-2025-11.csv", KNSB_CSV.encode())
    ri = RatingImport.objects.get()
    leader_client.post(reverse("ratings:detail", args=[ri.pk]), MAPPING)
    page = leader_client.get(reverse("ratings:detail", args=[ri.pk])).content.decode()
    assert "This list writes the members' KNSB rating, dated 1 November 2025." in page
    leader_client.post(reverse("ratings:save", args=[ri.pk]))
    anna.refresh_from_db()
    assert (anna.rating, anna.rating_date) == (1995, dt.date(2025, 11, 1))
    assert (anna.fide_rating, anna.fide_rating_date) == (1876, None)


def test_a_list_without_a_month_is_dated_the_first_of_the_upload_month(leader_client, anna):
    post(leader_client, "leden.csv", KNSB_CSV.encode())
    ri = RatingImport.objects.get()
    leader_client.post(reverse("ratings:detail", args=[ri.pk]), MAPPING)
    leader_client.post(reverse("ratings:save", args=[ri.pk]))
    anna.refresh_from_db()
    assert anna.rating_date == timezone.localdate().replace(day=1)


@pytest.mark.parametrize("name", ["rapid_sep25frl.txt", "blitz_sep25frl.txt"])
def test_a_rapid_or_blitz_list_is_saved_only_by_the_leaders_choice(leader_client, anna, name):
    ri = read_and_save(leader_client, name, FIDE_TXT)
    assert ri.status == RatingImportStatus.READY and ri.list_kind in ("rapid", "blitz")
    page = leader_client.get(reverse("ratings:detail", args=[ri.pk])).content.decode()
    assert "This is a rapid or blitz list, not the standard rating list." in page
    assert 'name="accept_kind"' in page
    anna.refresh_from_db()
    assert anna.fide_rating == 1876
    leader_client.post(reverse("ratings:save", args=[ri.pk]), {"accept_kind": "1"})
    anna.refresh_from_db()
    assert anna.fide_rating == 1987


def test_the_starting_order_uses_the_competitions_rating_kind():
    admin = f.admin()
    season = f.season(players=3, actor=admin)
    Competition.objects.filter(season=season).update(start_rating="fide")
    players = list(season.players.select_related("member").order_by("start"))
    for p, (knsb, fide) in zip(players, [(2200, 1500), (2100, 1600), (2000, 1700)], strict=True):
        User.objects.filter(pk=p.member_id).update(rating=knsb, fide_rating=fide)
    services.season_start_from_ratings(actor=admin, season=season)
    ordered = list(season.players.order_by("start").values_list("member_id", "rating"))
    assert ordered == [(players[2].member_id, 1700), (players[1].member_id, 1600),
                       (players[0].member_id, 1500)]


def test_the_leader_sets_the_starting_orders_rating_on_the_settings_page(leader_client):
    """The season's page sets the rating of the starting order; the TRF export's rating is
    set in one place, with the export (where the rating officer looks), and the season's
    page shows it with a link there. A posted trf_rating changes nothing."""
    season = f.season(players=2)
    page = leader_client.get(reverse("competition:leader_season", args=[season.slug])).content.decode()
    assert 'name="start_rating"' in page and 'name="trf_rating"' not in page
    assert reverse("ratings:export", args=[season.slug]) in page
    leader_client.post(reverse("ratings:competition_ratings", args=[season.slug]),
                       {"start_rating": "fide", "trf_rating": "knsb"})
    competition = Competition.objects.get(season=season)
    assert (competition.start_rating, competition.trf_rating) == ("fide", "fide")
    record = AuditRecord.objects.get(action="competition.ratings")
    assert record.before == {"start_rating": "knsb", "trf_rating": "fide"}
    assert record.after == {"start_rating": "fide", "trf_rating": "fide"}
    with pytest.raises(PermissionDenied):
        services.competition_set_ratings(actor=f.member(role="arbiter"), competition=competition,
                                         start_rating="knsb", trf_rating="knsb")


def test_the_season_page_shows_the_trf_exports_rating_as_set_with_the_export(leader_client):
    season = f.season(players=2)
    leader_client.post(reverse("ratings:export", args=[season.slug]),
                       {"city": "", "arbiter": "", "rating": "knsb"})
    assert Competition.objects.get(season=season).trf_rating == "knsb"
    page = leader_client.get(reverse("competition:leader_season", args=[season.slug]),
                             HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    shown = page[page.index('id="trf-rating"'):]
    shown = shown[:shown.index("</p>")]
    assert "KNSB" in shown and "export voor de ratingverwerking" in shown


def test_a_member_edit_with_a_fide_start_keeps_the_rating_on_1_september(leader_client):
    season = f.season(players=2)
    Competition.objects.filter(season=season).update(start_rating="fide")
    player = season.players.select_related("member").first()
    player.rating = 1700
    player.save()
    leader_client.post(reverse("members:edit", args=[season.slug, player.pk]),
                       {"name": player.member.name, "email": player.member.email, "rating": "2222",
                        "knsb_number": "", "kind": player.kind})
    player.refresh_from_db()
    assert (player.rating, User.objects.get(pk=player.member_id).rating) == (1700, 2222)


def test_the_members_page_shows_both_ratings_with_their_dates(leader_client):
    season = f.season(players=2)
    player = season.players.select_related("member").first()
    User.objects.filter(pk=player.member_id).update(
        rating=1840, rating_date=dt.date(2025, 11, 1), fide_rating=1795,
        fide_rating_date=dt.date(2025, 9, 1), fide_id="1000001")
    page = leader_client.get(reverse("members:edit", args=[season.slug, player.pk])).content.decode()
    assert "1840 · list of 1 November 2025" in page
    assert "1795 · list of 1 September 2025 · FIDE id 1000001" in page


def test_an_opponent_without_a_rating_on_the_rating_date_is_unrated_for_the_tpr(
        django_capture_on_commit_callbacks):
    season = f.season(players=4)
    evening = f.playing_evenings(season, "winter")[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    games = list(evening.games.order_by("board").select_related("white", "black"))
    arbiter = f.arbiter()
    with django_capture_on_commit_callbacks(execute=True):
        for g in games:
            competition_services.result_set(actor=arbiter, game=g, result="1-0")
    first, second = games
    # The first board's loser had no rating on 1 September; he has one today.
    type(first.black).objects.filter(pk=first.black_id).update(rating=None)
    User.objects.filter(pk=first.black.member_id).update(rating=2400)
    assert selectors.half_performances(first.white) == {evening.half_id: None}
    assert selectors.half_performances(second.white) == {evening.half_id: second.black.rating + 800}


def test_the_refusals_and_the_preview_speak_dutch(leader_client, anna, tmp_path, settings):
    leader_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    page = post(leader_client, "lijst.zip", zipped(tmp_path, flags=0x1)).content.decode()
    assert "Het zipbestand is met een wachtwoord beveiligd" in page
    post(leader_client, "standard_sep25frl.txt", FIDE_TXT.replace(b" 1987   0", b"    0   0"))
    ri = RatingImport.objects.get()
    page = leader_client.get(reverse("ratings:detail", args=[ri.pk])).content.decode()
    assert "Deze lijst vult de FIDE-rating van de leden in, met als datum 1 september 2025." in page
    assert "1 lid staat in de lijst zonder rating: zijn rating blijft zoals hij is." in page


def test_a_player_added_to_a_fide_start_season_gets_his_fide_rating():
    admin = f.admin()
    season = f.season(players=2, actor=admin)
    Competition.objects.filter(season=season).update(start_rating="fide")
    season.refresh_from_db()
    newcomer = f.member(name="Nieuw Lid", rating=1500)
    User.objects.filter(pk=newcomer.pk).update(fide_rating=1720)
    newcomer.refresh_from_db()
    player = competition_services.player_add(actor=admin, season=season, member=newcomer)
    assert player.rating == 1720
