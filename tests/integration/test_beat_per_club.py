"""The beat's jobs run from no club (as the beat does) and do each club's work in that
club's context: the catch-up of a lost recalculation moves the club's own page version,
so a visitor of the club sees the new standings at once (core/jobs.py, docs/architecture.md
"Jobs")."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.cache import caches
from django.urls import reverse

from competition.models import Season
from competition.season.services import result_set
from competition.season.standings import standings_behind
from competition.season.tasks import recalculate_stale_seasons
from members.clubs.context import club_context
from pairing.services import evening_pair_and_publish
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


def _lost_recalculation(django_capture_on_commit_callbacks):
    """A season of club A whose first evening was paired and whose result was saved, but
    whose recalculation task was lost (its message never reached a worker)."""
    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    with django_capture_on_commit_callbacks(execute=True):
        evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                 now=evening.deadline)
    game = evening.games.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=False):  # the task is lost
        result_set(actor=f.arbiter(), game=game, result="1-0")
    assert standings_behind(s.pk)
    Season.objects.filter(pk=s.pk).update(  # changed minutes ago: the catch-up's
        inputs_changed_at=Season.objects.get(pk=s.pk).inputs_changed_at - dt.timedelta(minutes=5))
    return s


def test_catch_up_from_no_club_makes_the_clubs_visitor_page_fresh(
        client, settings, django_capture_on_commit_callbacks):
    settings.PAGE_CACHE_SECONDS = 600  # visitors' pages cached, as in production
    s = _lost_recalculation(django_capture_on_commit_callbacks)
    url = reverse("competition:standings_half", args=[s.slug, "winter"])
    stale = client.get(url).content  # the visitor's page, cached before the catch-up
    assert client.get(url).content == stale
    with club_context(None), django_capture_on_commit_callbacks(execute=True):
        recalculate_stale_seasons.delay()  # the beat sends it: no club of its own
    assert not standings_behind(s.pk)
    shown = client.get(url).content
    caches["pages"].clear()
    fresh = client.get(url).content
    assert shown == fresh != stale  # the club's own version moved, not a "platform" one


def test_catch_up_from_no_club_recalculates_each_clubs_season_in_its_own_club(
        django_capture_on_commit_callbacks):
    s = _lost_recalculation(django_capture_on_commit_callbacks)
    b = f.decoy_club(s)
    with club_context(b["club"]):
        Season.objects.filter(pk=b["season"].pk).update(
            inputs_version=5, inputs_changed_at=s.inputs_changed_at)
    with club_context(None), django_capture_on_commit_callbacks(execute=True):
        recalculate_stale_seasons.delay()
    assert not standings_behind(s.pk)
    with club_context(b["club"]):
        assert not standings_behind(b["season"].pk)


def test_deadline_job_from_no_club_pairs_each_clubs_evening_in_its_own_club(
        django_capture_on_commit_callbacks, monkeypatch):
    from competition.models import Evening
    from members.clubs.context import current_club
    from pairing import services as pairing_services

    s = f.season(players=4)
    b = f.decoy_club(s)
    ours = f.playing_evenings(s)[0]
    with club_context(b["club"]):
        theirs = Evening.objects.get(season=b["season"], date=ours.date)
    paired_in: dict[int, str] = {}
    pair = pairing_services.evening_pair_and_publish

    def spy(*, evening_id, **kwargs):
        paired_in[evening_id] = current_club().slug
        return pair(evening_id=evening_id, **kwargs)

    monkeypatch.setattr(pairing_services, "evening_pair_and_publish", spy)
    from unittest import mock

    from pairing.tasks import close_due_evenings

    now = ours.deadline + dt.timedelta(minutes=1)
    with mock.patch("django.utils.timezone.now", return_value=now), club_context(None), \
            django_capture_on_commit_callbacks(execute=True):
        close_due_evenings.delay()
    assert paired_in[ours.pk] == s.club.slug
    assert paired_in[theirs.pk] == b["club"].slug


def test_pending_mails_from_no_club_are_sent_each_in_its_own_club(
        django_capture_on_commit_callbacks, mailoutbox, monkeypatch):
    """The outbox's catch-up, from no club as the beat runs it: each club's lost mail is
    sent by a task in that club, which sends that club's mail and no other's."""
    from django.utils import timezone

    from core import mail
    from core.models import Mail
    from core.tasks import send_mails_pending
    from members.clubs.context import current_club

    s = f.season(players=2)
    b = f.decoy_club(s)
    queued = {}
    for club, key in ((s.club, "lost-a"), (b["club"], "lost-b")):
        with club_context(club), django_capture_on_commit_callbacks(execute=False):  # lost
            queued[key] = mail.queue(key=key, subject=f"Uitslag {club.name}", body=key,
                                     to=[f"{key}@example.org"]).pk
            Mail.objects.filter(pk=queued[key]).update(
                created_at=timezone.now() - dt.timedelta(minutes=5))
    sent_in: dict[str, list[int]] = {}
    deliver = mail.deliver

    def spy(ids=None):
        sent_in[current_club().slug] = sorted(ids or [])
        return deliver(ids)

    monkeypatch.setattr(mail, "deliver", spy)
    with club_context(None), django_capture_on_commit_callbacks(execute=True):
        send_mails_pending.delay()
    assert sent_in == {s.club.slug: [queued["lost-a"]], b["club"].slug: [queued["lost-b"]]}
    assert sorted(m.subject for m in mailoutbox) == sorted(
        [f"Uitslag {s.club.name}", f"Uitslag {b['club'].name}"])


def test_stuck_rating_imports_from_no_club_end_each_in_its_own_club(settings, tmp_path, monkeypatch):
    """The rating lists' catch-up, from no club as the beat runs it: each club's stuck
    reading ends in that club's context, with its message."""
    from django.utils import timezone

    from competition.models import RatingImport, RatingImportStatus
    from competition.ratings import services as rating_services
    from competition.ratings.tasks import end_stuck_rating_imports
    from members.clubs.context import current_club

    settings.RATINGS_UPLOAD_DIR = str(tmp_path / "uploads")
    (tmp_path / "uploads").mkdir()
    s = f.season(players=2)
    b = f.decoy_club(s)
    stuck = {}
    for club in (s.club, b["club"]):
        with club_context(club):
            stuck[club.slug] = RatingImport.objects.create(
                file_name="standard_sep25frl.txt", format="fide", number_kind="fide").pk
            RatingImport.objects.filter(pk=stuck[club.slug]).update(
                updated_at=timezone.now() - dt.timedelta(hours=1))
    ended_in: dict[str, list[int]] = {}
    end = rating_services.rating_imports_end

    def spy(ids):
        ended_in[current_club().slug] = list(ids)
        return end(ids)

    monkeypatch.setattr(rating_services, "rating_imports_end", spy)
    with club_context(None):
        end_stuck_rating_imports.delay()
    assert ended_in == {slug: [pk] for slug, pk in stuck.items()}
    for club in (s.club, b["club"]):
        with club_context(club):
            assert RatingImport.objects.get(pk=stuck[club.slug]).status == RatingImportStatus.FAILED
