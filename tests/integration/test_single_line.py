"""Issue 19 §3: names and every one-line field refuse control characters where they enter
(forms, the admin's model forms, services, the season file and its import), and every file
writer (CSV, iCal, the season file) refuses or escapes them itself, whatever reached the
database before the checks. The TRF writer and reader are checked apart (events/TRF)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse

from competition.events import services as events
from competition.models import AuditRecord, Game, Season
from competition.roster import services as member_services
from competition.season import services
from competition.season.engine.seasonfile import SeasonFileError, load_season
from competition.season.standings import recalculate_season
from members.clubs.memo import home_club
from members.models import User
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
BAD = ["Jan\nJansen", "Jan\rJansen", "Jan\x1b[31mJansen", "Jan\u2028Jansen", "Jan\x85Jansen", "Jan\x00"]


@pytest.mark.parametrize("name", BAD)
def test_the_leaders_member_form_refuses_a_name_with_a_control_character(client, name):
    season = f.season(players=2)
    client.force_login(f.leader())
    users = User.objects.count()
    response = client.post(reverse("members:add", args=[season.slug]), {
        "name": name, "email": "nieuw@example.org", "rating": "", "knsb_number": "", "kind": "flexible"})
    if "\x00" in name:
        assert response.status_code == 400  # the NUL guard comes first
    else:
        assert response.status_code == 200 and "one line of text" in response.content.decode()
    assert User.objects.count() == users


def test_the_member_edit_form_and_the_service_refuse_it_and_nothing_changes(client):
    season = f.season(players=2)
    player = season.players.first()
    client.force_login(f.leader())
    m = player.member
    response = client.post(reverse("members:edit", args=[season.slug, player.pk]), {
        "name": "Jan\nJansen", "email": m.email, "rating": m.rating, "knsb_number": "", "kind": player.kind})
    assert "one line of text" in response.content.decode()
    audits = AuditRecord.objects.count()
    with pytest.raises(ValidationError, match="one line"):
        member_services.member_update(actor=f.leader(), player=player, name="Jan\tJansen", email=m.email,
                                      rating=m.rating, knsb_number="", kind=player.kind, site_url="http://t/")
    m.refresh_from_db()
    assert "\n" not in m.name and "\t" not in m.name and AuditRecord.objects.count() == audits


@override_settings(LANGUAGE_CODE="nl")
def test_the_message_is_dutch_and_names_the_character():
    from django.utils import translation

    from core.validators import single_line

    with translation.override("nl"), pytest.raises(ValidationError) as caught:
        single_line("Jan\nJansen")
    assert caught.value.messages == [
        "Dit moet één regel tekst zijn: er staat een regelovergang of een ander stuurteken in (U+000A)."]


def test_the_sign_up_refuses_a_name_with_a_line_break(client):
    response = client.post(reverse("account_signup"), {
        "name": "Yvonne\r\nde Haan", "email": "y@example.org", "password1": "Lang-genoeg-1!", "password2": "Lang-genoeg-1!"})
    assert response.status_code == 200 and not User.objects.filter(email="y@example.org").exists()


def test_the_admins_model_forms_refuse_it_through_the_model_fields():
    """The admin's change forms are model forms: the field validator is theirs too."""
    member = f.member()
    member.name = "Jan\nJansen"
    with pytest.raises(ValidationError) as caught:
        member.full_clean(exclude=["password"])
    assert "name" in caught.value.message_dict
    season = f.season(players=0)
    season.name = "2026\n2027"
    with pytest.raises(ValidationError):
        season.full_clean()


def test_a_competition_name_in_the_admin_is_refused_with_the_message(client):
    admin = User.objects.create_superuser(email="root@example.org", password="x", name="Root")
    season = f.season(players=0)
    client.force_login(admin)
    url = reverse("admin:competition_competition_change", args=[season.competition.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dt.date))}
    data.update({"name": "Interne\nvals"})
    bound = type(form)(data=data, instance=season.competition)
    assert not bound.is_valid() and "name" in bound.errors


def test_services_refuse_event_names_notes_and_reasons():
    season = f.season(players=4)
    evening = f.playing_evenings(season)[0]
    admin = f.admin()
    with pytest.raises(ValidationError, match="one line"):
        events.event_create(actor=admin, season=season, kind="rapid", name="Rapid\nkampioenschap")
    with pytest.raises(ValidationError, match="one line"):
        services.evening_update(actor=admin, evening=evening, kind=evening.kind, half=evening.half, note="dicht\x07")
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    game = evening.games.first()
    with pytest.raises(ValidationError, match="one line"):
        services.result_set(actor=f.arbiter(), game=game, result="1-0", note="remise\naangeboden")
    game.refresh_from_db()
    assert game.result != "1-0" and game.note == ""


def test_a_season_file_with_a_control_character_in_a_name_is_refused_in_one_line(tmp_path):
    data = {"format": "season/1", "system": "classic",
            "players": [{"id": 1, "name": "Jan\u2028Jansen", "rating": 1500, "start": 1, "fixed": True}],
            "evenings": []}
    with pytest.raises(SeasonFileError, match=r"'name' of player 1 contains control characters \(U\+2028\)"):
        load_season(data)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_season", str(path), "--club", home_club().slug, stdout=StringIO())
    assert caught.value.returncode == 2 and "\n" not in str(caught.value)
    assert not Season.objects.exists()


def test_import_season_refuses_a_season_name_with_a_line_break(tmp_path):
    data = {"format": "season/1", "system": "classic",
            "players": [{"id": 1, "name": "Jan", "rating": 1500, "start": 1, "fixed": True}],
            "evenings": [{"date": "2026-10-02", "half": "winter", "games": [], "byes": [1]}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as caught:
        call_command("import_season", str(path), "--name", "2026\n2027", "--club", home_club().slug,
                     stdout=StringIO())
    assert "one line" in str(caught.value) and not Season.objects.exists()


def _legacy_name(member: User, name: str) -> None:
    User.objects.filter(pk=member.pk).update(name=name)  # stored before the checks existed


def test_the_season_file_writer_refuses_a_stored_name_with_a_line_break():
    season = f.season(players=2)
    _legacy_name(season.players.first().member, "Jan\nJansen")
    with pytest.raises(CommandError) as caught:
        call_command("export_season", season.slug, "--club", home_club().slug, stdout=StringIO())
    assert caught.value.returncode == 2 and "contains control characters (U+000A)" in str(caught.value)


def test_the_csv_export_writes_one_line_per_player_whatever_the_stored_name(client):
    season = f.season(players=4)
    players = list(season.players.order_by("start"))
    _legacy_name(players[0].member, "Jan\r\n001    1 m    Vals")
    _legacy_name(players[1].member, "Piet\u2028Puk")
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    for game in Game.objects.filter(evening=evening):
        services.result_set(actor=f.arbiter(), game=game, result="1-0")
    recalculate_season(season.pk)
    response = client.get(reverse("competition:standings_half", args=[season.slug, "winter"]), {"export": "csv"})
    text = response.content.decode()
    assert len(text.splitlines()) == 1 + 4  # the header and one line per player
    rows = list(csv.reader(io.StringIO(text)))
    names = {row[rows[0].index("name")] for row in rows[1:]}
    assert "Jan  001    1 m    Vals" in names and "Piet Puk" in names


def test_the_ical_feed_carries_no_control_character_but_its_line_breaks(client):
    season = f.season(players=2)
    evening = f.playing_evenings(season)[0]
    evening.note = "Zaal\x07 dicht\x1b[2J"
    evening.save(update_fields=["note"])
    Season.objects.filter(pk=season.pk).update(name="2026\n2027")
    body = client.get("/calendar.ics", {"season": season.slug}).content.decode()
    assert "\x07" not in body and "\x1b" not in body
    calname = [line for line in body.split("\r\n") if line.startswith("X-WR-CALNAME")]
    assert len(calname) == 1 and "\\n" not in calname[0]
