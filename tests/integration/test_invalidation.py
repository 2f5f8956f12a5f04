"""One invalidation story (docs/architecture.md): every committed write moves visitors'
pages on exactly once; the pages that show standings move on only when the
recalculation has stored the new standings; the audit trail only records."""

from __future__ import annotations

from unittest import mock

import pytest

from competition import audit
from competition.models import Result
from competition.season import services
from competition.season.standings import standings_behind
from core import pagecache
from pairing.services import tempo_request
from tests import factories as f

pytestmark = pytest.mark.django_db


def version() -> int:
    """The club's data version as one number (its two parts added)."""
    return sum(int(part) for part in pagecache.data_version().split("."))


def test_a_result_moves_the_pages_on_once_and_only_after_the_standings_are_stored(
    paired_club, django_capture_on_commit_callbacks
):
    """At the commit the result's evening page moves on (it shows the result beside the
    standings before the evening, which the result does not change); then one bump of
    the club's standings version and one of the result's half, both by the
    recalculation once it has stored the standings. The club's writes version stays."""
    s, evening = paired_club
    game = evening.games.order_by("board").first()
    seen: list[tuple[str, bool]] = []  # (key, standings stored?) at every bump
    real_bump = pagecache._bump

    def bump(key: str) -> None:
        stored = not standings_behind(s.pk)  # the standings include the result
        real_bump(key)
        seen.append((key.split(":", 1)[1], stored))

    before = version()
    writes = pagecache.writes_version()
    with mock.patch.object(pagecache, "_bump", bump), \
            django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=f.arbiter(), game=game, result=Result.WHITE_WINS)
    assert version() == before + 1
    assert pagecache.writes_version() == writes
    assert seen == [(f"evening-version:{evening.date.isoformat()}", False),
                    ("standings-version", True), (f"half-version:{evening.half_id}", True)]


def test_a_write_that_does_not_recalculate_moves_the_pages_on_once(
    paired_club, django_capture_on_commit_callbacks, monkeypatch
):
    s, evening = paired_club
    game = evening.games.order_by("board").first()
    before = version()
    with django_capture_on_commit_callbacks(execute=True):
        tempo_request(actor=game.white.member, game=game, opponent_agrees=True,
                      now=evening.deadline)
    assert version() == before + 1


def test_a_sign_off_for_several_unpaired_evenings_moves_only_those_evenings_pages(
    paired_club, django_capture_on_commit_callbacks
):
    s, _evening = paired_club
    later = f.playing_evenings(s)[-3:]  # still to come: not counted, not paired
    player = s.players.order_by("start").first()
    before = version()
    evenings_before = [pagecache.evening_version(e.date.isoformat()) for e in later]
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_set(actor=f.leader(), player=player, evenings=later,
                                  status="absent_with_notice")
    assert version() == before
    assert [int(pagecache.evening_version(e.date.isoformat())) for e in later] == [
        int(v) + 1 for v in evenings_before
    ]


def test_a_rolled_back_write_moves_nothing(paired_club, django_capture_on_commit_callbacks):
    from django.db import transaction

    before = version()
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            pagecache.pages_changed()
            raise RuntimeError("the write failed")
    assert version() == before


def test_the_audit_trail_only_records(paired_club, django_capture_on_commit_callbacks):
    s, evening = paired_club
    before = version()
    with django_capture_on_commit_callbacks(execute=True):
        audit.record(actor=None, action=audit.Action.EVENING_UPDATE, evening=evening)
    assert version() == before


def test_a_note_alone_moves_only_its_evenings_page_and_recalculates_nothing(
    paired_club, django_capture_on_commit_callbacks, monkeypatch
):
    """A note on a result changes no standings: the evening's page shows it at the
    commit, nothing is recalculated, and no other page moves."""
    s, evening = paired_club
    game = evening.games.order_by("board").first()
    arbiter = f.arbiter()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=game, result=Result.WHITE_WINS)
    before, day = version(), pagecache.evening_version(evening.date.isoformat())
    queued: list[tuple] = []
    monkeypatch.setattr("core.jobs.enqueue", lambda task, *args: queued.append((task, *args)) or True)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=game, result=Result.WHITE_WINS, note="Klok stuk")
    assert queued == []
    assert version() == before
    assert int(pagecache.evening_version(evening.date.isoformat())) == int(day) + 1


def test_a_write_that_also_recalculates_moves_the_pages_at_its_commit_and_the_standings_after(
    paired_club, django_capture_on_commit_callbacks
):
    """An evening's note (evening_update) shows on the calendar, and the update schedules
    a recalculation: the club's writes version moves on at the commit, whatever the
    recalculation then finds."""
    s, evening = paired_club
    writes = int(pagecache.writes_version())
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_update(actor=f.leader(), evening=evening, kind=evening.kind,
                                half=evening.half, note="Zaal 2")
    assert int(pagecache.writes_version()) == writes + 1
