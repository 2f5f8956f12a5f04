"""Bad input tried (hypothesis): forms, result entry and the season-file import never
raise a server error, always give a clear message, and save nothing half-way."""

import datetime as dt
import json

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.models import AuditRecord, Evening, Game, Registration, Season
from competition.season.engine.seasonfile import SeasonFileError, dump_season, load_season
from competition.season.forms import ParametersForm, SeasonSetUpForm
from competition.season.seasonio import SeasonImportError, season_import
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.generate import random_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
FUZZ = settings(
    max_examples=60, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
junk = st.one_of(
    st.text(max_size=30), st.integers(), st.floats(allow_nan=True), st.none(), st.booleans(),
    st.sampled_from(["", "2026-13-01", "1/0", "-1", "9" * 40, "<script>", "2026-09-04", "3/2"]),
)


class Rollback(Exception):
    pass


@FUZZ
@given(data=st.dictionaries(
    st.sampled_from(["name", "opening", "last_day", "system", "knsb_rounds", "closed",
                     "extra_rapid"]), junk))
def test_season_set_up_form_refuses_junk_with_messages(data):
    form = SeasonSetUpForm({k: "" if v is None else str(v) for k, v in data.items()})
    if not form.is_valid():
        assert form.errors and all(form.errors.values())


@FUZZ
@given(data=st.dictionaries(st.sampled_from([
    "method", "top", "step", "own_value_added", "absent_with_notice_limit", "win__basis",
    "win__amount", "draw__amount", "bye__basis", "bye__amount", "loss__amount"]), junk))
def test_parameters_form_refuses_junk_with_messages(data):
    form = ParametersForm({k: "" if v is None else str(v) for k, v in data.items()},
                          system="pion", parameters={})
    if not form.is_valid():
        assert form.errors


@pytest.fixture
def paired():
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return s, evening


@FUZZ
@given(result=junk, version=junk, note=junk)
def test_result_entry_never_fails_and_never_saves_junk(client, paired, result, version, note):
    s, evening = paired
    arbiter = f.arbiter()
    client.force_login(arbiter)
    game = evening.games.order_by("board").first()
    before = (game.result, game.version)
    posted = "" if result is None else str(result)
    try:
        with transaction.atomic():
            response = client.post(
                reverse("competition:enter_result", args=[game.pk]),
                {"result": posted,
                 "version": "" if version is None else str(version),
                 "note": "" if note is None else str(note)},
            )
            assert response.status_code in (302, 400, 403)  # 400: a NUL byte
            game.refresh_from_db()
            valid = posted in {"1-0", "0-1", "1/2-1/2", "1-0F", "0-1F", "0-0F", "postponed", ""}
            valid = valid and str(version).strip() == str(before[1])  # the version is required
            if not valid:
                assert (game.result, game.version) == before
            raise Rollback
    except Rollback:
        pass


@FUZZ
@given(statuses=junk, ids=st.lists(junk, max_size=3))
def test_sign_up_form_refuses_junk_and_saves_nothing(client, paired, statuses, ids):
    s, _ = paired
    player = s.players.order_by("start").first()
    client.force_login(player.member)
    before = set(Registration.objects.values_list("id", "evening_id", "status", "player_id"))
    status = "" if statuses is None else str(statuses)
    posted = ["" if i is None else str(i) for i in ids]
    response = client.post(reverse("competition:signup"), {"status": status, "evenings": posted})
    assert response.status_code in (200, 302, 400)  # 400: a NUL byte
    after = set(Registration.objects.values_list("id", "evening_id", "status", "player_id"))
    offered = {str(pk) for pk in s.evenings.values_list("pk", flat=True)}
    valid = (status in {"present", "absent_with_notice", "request_club_duty"}
             and posted and set(posted) <= offered)
    if not valid:
        # Junk is refused (a page with the message, or 400), and nothing is saved.
        assert response.status_code != 302
        assert after == before
    else:
        # What was saved is his own sign-up, for the evenings he posted and no other.
        changed = after - before
        assert all(player_id == player.pk for _id, _e, _st, player_id in changed)
        assert {str(evening_id) for _id, evening_id, _st, _p in changed} <= set(posted)


def _mutations():
    base = dump_season(random_season(3, players=6, evenings=3, system="pion"))
    paths = [("players", 0, "id"), ("players", 1, "start"), ("evenings", 0, "date"),
             ("evenings", 1, "games", 0, "white"), ("evenings", 1, "games", 0, "result"),
             ("system",), ("evenings", 2, "byes"), ("players", 2, "rating")]
    return base, paths


@FUZZ
@given(which=st.integers(0, 7), value=junk)
def test_season_file_import_refuses_junk_with_one_line_and_saves_nothing(which, value):
    base, paths = _mutations()
    data = json.loads(json.dumps(base))
    target = data
    path = paths[which]
    for key in path[:-1]:
        try:
            target = target[key]
        except (IndexError, KeyError, TypeError):
            return
    try:
        target[path[-1]] = value
    except (IndexError, TypeError):
        return
    Season.objects.filter(name=f"fuzz-{which}").delete()  # from an earlier example
    counts = (Season.objects.count(), Evening.objects.count(), Game.objects.count(),
              AuditRecord.objects.count())
    try:
        season = load_season(data)
        season_import(actor=None, system=True, data=season, name=f"fuzz-{which}")
    except (SeasonFileError, SeasonImportError) as exc:
        assert "\n" not in str(exc) and str(exc)
        assert (Season.objects.count(), Evening.objects.count(), Game.objects.count(),
                AuditRecord.objects.count()) == counts
    else:
        # Accepted: then the value was one the format allows there, and it was stored.
        assert _acceptable(base, path, value), f"{path} = {value!r} was imported"
        assert Season.objects.filter(name=f"fuzz-{which}").exists()


def _acceptable(base, path, value):
    """Whether the season file allows ``value`` at ``path`` (docs/season-file.md)."""
    ids = {p["id"] for p in base["players"]}
    field = path[-1]
    if field == "id":
        return isinstance(value, str) and value.strip() != "" and value not in ids
    if field == "start":
        return type(value) is int and value >= 1
    if field == "date":
        try:
            return isinstance(value, str) and dt.date.fromisoformat(value).isoformat() == value
        except ValueError:
            return False
    if field == "white":
        return value in ids
    if field == "result":
        return value in {"1-0", "0-1", "1/2-1/2", "1-0F", "0-1F", "0-0F", "postponed", None}
    if field == "system":
        return value in {"pion", "classic", "keizer1956", "ladder"}
    if field == "byes":
        return isinstance(value, list) and set(value) <= ids
    if field == "rating":
        return value is None or (type(value) is int and 0 <= value <= 3500)
    return False
