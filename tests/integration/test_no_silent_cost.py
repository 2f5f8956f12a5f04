"""Nothing silently costs points (issue 23): a sign-off past the season's limit of
absences with notice is said before it is saved (one evening, several, a club duty
request) and the sign-up page shows how many are used; a changed result asks first,
says what changed and can be undone for a few minutes; publishing early says what can
still be done; the home page offers no button that then fails; result buttons wait for
the evening's start; the playoffs are not offered before the summer half is complete."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Attendance, AuditRecord, Registration
from competition.scoring.keizer import absence_with_notice_scores
from competition.season import services
from competition.season.engine.signup import absences_beyond_limit
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
DAY = dt.timedelta(days=1)


def signed_in(client, user):
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def fixed_player(s):
    return s.players.filter(kind="fixed").select_related("member").order_by("start").first()


def sign_off(client, evenings, status="absent_with_notice", **extra):
    return client.post(reverse("competition:signup"), {
        "evenings": [str(e.pk) for e in evenings], "status": status, **extra,
    })


@pytest.fixture
def five_used(at):
    """A pion season (5 absences with notice score) whose first fixed player has used
    all five on the first evenings; the clock is a day before the first deadline."""
    s = f.season(players=6)
    evenings = f.playing_evenings(s)
    me = fixed_player(s)
    at(evenings[0].deadline - DAY)
    services.registration_set(actor=me.member, player=me, evenings=evenings[:5],
                              status=Attendance.ABSENT_WITH_NOTICE)
    return s, evenings, me


# --- The rule, once ---------------------------------------------------------------------


def test_only_the_first_limit_absences_with_notice_of_a_season_score():
    days = [dt.date(2026, 9, 4) + 7 * i * DAY for i in range(7)]
    assert absences_beyond_limit(reversed(days), 5) == (days[5], days[6])
    assert absences_beyond_limit(days, None) == ()
    assert absence_with_notice_scores(4, 5) and not absence_with_notice_scores(5, 5)


# --- The sixth sign-off -----------------------------------------------------------------


def test_a_sixth_sign_off_says_it_scores_nothing_and_saves_nothing_until_confirmed(client, five_used):
    s, evenings, me = five_used
    response = sign_off(signed_in(client, me.member), [evenings[5]])
    page = response.content.decode()
    assert response.status_code == 200
    assert "Only the first 5 absences with notice of the season score." in page
    assert "This is your absence with notice number 6: it scores nothing." in page
    assert f'data-over-limit="{evenings[5].pk}"' in page
    assert not Registration.objects.filter(player=me, evening=evenings[5]).exists()

    sign_off(client, [evenings[5]], confirm="1")
    assert Registration.objects.get(player=me, evening=evenings[5]).status == Attendance.ABSENT_WITH_NOTICE


def test_the_fifth_sign_off_is_saved_without_a_question(client, at):
    s = f.season(players=6)
    evenings = f.playing_evenings(s)
    me = fixed_player(s)
    at(evenings[0].deadline - DAY)
    services.registration_set(actor=me.member, player=me, evenings=evenings[:4],
                              status=Attendance.ABSENT_WITH_NOTICE)
    response = sign_off(signed_in(client, me.member), [evenings[4]])
    assert response.status_code == 302
    assert Registration.objects.get(player=me, evening=evenings[4]).status == Attendance.ABSENT_WITH_NOTICE


def test_several_evenings_at_once_name_each_one_beyond_the_limit(client, at):
    s = f.season(players=6)
    evenings = f.playing_evenings(s)
    me = fixed_player(s)
    at(evenings[0].deadline - DAY)
    services.registration_set(actor=me.member, player=me, evenings=evenings[:4],
                              status=Attendance.ABSENT_WITH_NOTICE)
    page = sign_off(signed_in(client, me.member), evenings[4:7]).content.decode()
    assert f'data-over-limit="{evenings[4].pk}"' not in page
    assert f'data-over-limit="{evenings[5].pk}"' in page
    assert f'data-over-limit="{evenings[6].pk}"' in page
    assert "number 7: it scores nothing" in page
    assert not Registration.objects.filter(player=me, evening__in=evenings[4:7]).exists()


def test_a_club_duty_request_beyond_the_limit_says_what_it_scores_until_approved(client, five_used):
    s, evenings, me = five_used
    response = sign_off(signed_in(client, me.member), [evenings[6]], status="request_club_duty",
                        duty_note="KNSB team")
    page = response.content.decode()
    assert response.status_code == 200
    assert "number 6: it scores nothing" in page
    assert "scores outside this limit" in page
    assert not AuditRecord.objects.filter(player=me, action="club_duty.request").exists()


def test_the_sign_up_page_shows_how_many_absences_are_used(client, five_used):
    s, evenings, me = five_used
    page = signed_in(client, me.member).get(reverse("competition:signup")).content.decode()
    assert 'data-absences-used="5"' in page
    assert "Absences with notice this season: 5 of the 5 that score." in page


def test_the_sign_up_page_says_which_absences_score_beyond_the_limit(client, five_used):
    s, evenings, me = five_used
    services.registration_set(actor=me.member, player=me, evenings=evenings[5:7],
                              status=Attendance.ABSENT_WITH_NOTICE)
    page = signed_in(client, me.member).get(reverse("competition:signup")).content.decode()
    assert "Absences with notice this season: 7, of which the first 5 score." in page
    assert "7 of the 5" not in page


# --- Changing a result ------------------------------------------------------------------


@pytest.fixture
def drawn(at):
    """An evening under way whose first board has ½-½, entered by the arbiter."""
    from pairing.services import evening_pair_and_publish

    s = f.season(players=4)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    at(evening.starts_at + dt.timedelta(hours=1))
    arbiter = f.arbiter()
    game = evening.games.order_by("board").first()
    services.result_set(actor=arbiter, game=game, result="1/2-1/2")
    game.refresh_from_db()
    return game, arbiter


def enter(client, game, result, **extra):
    return client.post(reverse("competition:enter_result", args=[game.pk]),
                       {"result": result, "version": str(game.version), **extra})


def evening_page(client, game):
    return client.get(reverse("competition:evening", args=[game.evening.date.isoformat()])).content.decode()


def test_changing_an_existing_result_asks_first_showing_old_and_new(client, drawn):
    game, arbiter = drawn
    client.force_login(arbiter)
    response = enter(client, game, "1-0")
    page = response.content.decode()
    assert response.status_code == 200
    assert "½-½ → 1-0" in page
    game.refresh_from_db()
    assert game.result == "1/2-1/2"
    # The buttons carry the same question for the dialog.
    assert "Board 1: ½-½ → 1-0." in evening_page(client, game)


def test_a_confirmed_change_says_what_changed_and_one_tap_undoes_it(client, drawn):
    game, arbiter = drawn
    client.force_login(arbiter)
    response = enter(client, game, "1-0", confirm="1")
    assert response.status_code == 302
    page = evening_page(client, game)
    assert "Board 1 changed: ½-½ → 1-0." in page
    assert f'data-undo="{game.pk}"' in page
    assert f'data-previous-result="{game.pk}"' in page and "was ½-½" in page
    response = client.post(reverse("competition:undo_result", args=[game.pk]), follow=True)
    assert "Board 1 undone: 1-0 → ½-½." in response.content.decode()
    game.refresh_from_db()
    assert game.result == "1/2-1/2"
    assert AuditRecord.objects.filter(action="game.result", after__undo=True).count() == 1
    assert f'data-undo="{game.pk}"' not in response.content.decode()


def test_the_first_result_of_a_board_needs_no_confirmation(client, drawn):
    game, arbiter = drawn
    other = game.evening.games.exclude(pk=game.pk).first()
    client.force_login(arbiter)
    assert enter(client, other, "0-1").status_code == 302
    other.refresh_from_db()
    assert other.result == "0-1"


def test_undo_is_refused_after_a_few_minutes_or_for_somebody_else(client, drawn, at):
    game, arbiter = drawn
    services.result_set(actor=arbiter, game=game, result="1-0")
    game.refresh_from_db()
    client.force_login(f.leader())
    assert f'data-undo="{game.pk}"' not in evening_page(client, game)  # not his change
    client.post(reverse("competition:undo_result", args=[game.pk]))
    game.refresh_from_db()
    assert game.result == "1-0"
    at(timezone.now() + dt.timedelta(minutes=6))
    client.force_login(arbiter)
    assert f'data-undo="{game.pk}"' not in evening_page(client, game)
    response = client.post(reverse("competition:undo_result", args=[game.pk]), follow=True)
    assert "can no longer be undone" in response.content.decode()
    game.refresh_from_db()
    assert game.result == "1-0"


def test_the_leader_follows_the_previous_result_to_the_audit_trail(client, drawn):
    game, arbiter = drawn
    services.result_set(actor=arbiter, game=game, result="0-1")
    client.force_login(f.leader())
    page = evening_page(client, game)
    assert f'?evening={game.evening_id}">was ½-½</a>' in page


def test_a_note_longer_than_the_form_allows_is_refused_not_cut(client, drawn):
    game, arbiter = drawn
    other = game.evening.games.exclude(pk=game.pk).first()
    client.force_login(arbiter)
    response = enter(client, other, "1-0", note="x" * 100_000)
    assert "at most 200 characters; this one has 100000" in client.get(response.url).content.decode()
    other.refresh_from_db()
    assert (other.result, other.note) == ("", "")


def test_result_buttons_wait_for_the_evenings_start(client, drawn, at):
    game, arbiter = drawn
    at(game.evening.starts_at - dt.timedelta(hours=2))
    client.force_login(arbiter)
    assert 'class="results"' not in evening_page(client, game)
    client.force_login(f.leader())
    page = evening_page(client, game)
    assert 'class="early-result"' in page  # the leader's explicit way in, folded away


# --- Publishing early -------------------------------------------------------------------


@pytest.fixture
def published_early(at):
    from pairing.services import evening_pair_and_publish

    s = f.season(players=6, flexible=2)
    evening = f.playing_evenings(s)[0]
    at(evening.deadline - DAY)
    evening_pair_and_publish(actor=f.leader(), evening_id=evening.pk, now=evening.deadline - DAY)
    return s, evening


def test_publishing_early_says_players_can_still_sign_off(client, at):
    s = f.season(players=6)
    evening = f.playing_evenings(s)[0]
    at(evening.deadline - DAY)
    client.force_login(f.leader())
    response = client.post(reverse("pairing:publish", args=[evening.pk]))
    page = response.content.decode()
    assert "nobody can sign up or off" not in page
    assert "Players can still sign off online" in page
    assert "signing up online closes now" in page


def test_the_home_page_offers_no_sign_up_once_the_pairing_is_published(client, published_early):
    s, evening = published_early
    flexible = s.players.filter(kind="flexible").select_related("member").first()
    page = signed_in(client, flexible.member).get(reverse("competition:home")).content.decode()
    assert f'name="evenings" value="{evening.pk}"' not in page
    assert f'data-published="{evening.pk}"' in page
    # The next evening, not yet paired, still offers it.
    following = f.playing_evenings(s)[1]
    assert f'name="evenings" value="{following.pk}"' in page
    # And signing up there is what the service refuses.
    response = client.post(reverse("competition:signup"),
                           {"evenings": [str(evening.pk)], "status": "present"}, follow=True)
    assert "is published; ask the competition leader" in response.content.decode()
    assert not Registration.objects.filter(player=flexible, evening=evening).exists()
