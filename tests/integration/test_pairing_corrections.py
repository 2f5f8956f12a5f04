"""The leader's corrections of a published pairing (issue 32): a preview that changes
nothing and names every rule the corrected pairing breaks, a confirm, an undo before the
evening begins, and e-mail only to the players whose board, opponent or colour changed,
saying "changed" and what changed, held a moment so that an undo sends nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditRecord, Evening
from members.clubs.context import club_context
from pairing import notices, services
from pairing.models import NoticeState, PairingNotice
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
MINUTE = dt.timedelta(minutes=1)
LATER = notices.CORRECTION_HOLD + MINUTE


def pairing(evening: Evening):
    return sorted(evening.games.values_list("board", "white_id", "black_id"))


@pytest.fixture
def rematch(django_capture_on_commit_callbacks):
    """Six players in a season still to come; evenings 1 and 2 published. Two players who
    met on evening 1 sit on two boards of evening 2, one with white and one with black:
    swapping the black players of those boards makes them meet again."""
    s = f.season(players=6, opening=dt.date(2027, 9, 3), last_day=dt.date(2028, 7, 13))
    first, second = f.playing_evenings(s)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_pair_and_publish(actor=None, system=True, evening_id=first.pk,
                                          now=first.deadline)
    # Evening 1's games count as meetings before their results are in (postponed ones do).
    with django_capture_on_commit_callbacks(execute=True):
        services.evening_pair_and_publish(actor=None, system=True, evening_id=second.pk,
                                          now=second.deadline)
    notices.deliver(second.pk, now=second.deadline)
    mail.outbox.clear()
    second.refresh_from_db()
    white_on = {g.white_id: g for g in second.games.all()}
    black_on = {g.black_id: g for g in second.games.all()}
    found = [(white_on[p], black_on[q]) for g in first.games.all()
             for p, q in ((g.white_id, g.black_id), (g.black_id, g.white_id))
             if p in white_on and q in black_on]
    assert found  # the colour rule alternates: one of them has white tonight, the other black
    white_board, black_board = found[0]
    return second, white_board, black_board


def leader_client(client):
    leader = f.leader()
    client.force_login(leader)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_preview_of_a_swap_changes_nothing_and_names_the_rule_it_breaks(rematch, client):
    evening, a, b = rematch
    before = pairing(evening)
    page = leader_client(client).post(reverse("pairing:swap_opponents", args=[evening.pk]),
                                      {"game_a": a.pk, "game_b": b.pk})
    html = page.content.decode()
    assert page.status_code == 200 and "data-correction-preview" in html
    assert pairing(evening) == before  # nothing saved
    assert not PairingNotice.objects.filter(evening=evening, state=NoticeState.PENDING).exists()
    assert not AuditRecord.objects.filter(evening=evening, action="pairing.swap_opponents").exists()
    assert 'data-rule="max_meetings_per_half"' in html
    assert "breaks the rule: at most 1 meeting of the same two players in a half." in html
    assert "at least 5 playing evenings between two meetings" in html
    # What changes for whom: the four players of the two boards, and no one else.
    assert html.count("data-changed-player=") == 4
    assert (f"{a.black.member.name}: was board {a.board} against {a.white.member.name} with "
            f"black; now board {b.board} against {b.white.member.name} with black.") in html


def test_confirmed_swap_mails_only_the_changed_players_with_what_changed(
        rematch, client, django_capture_on_commit_callbacks):
    evening, a, b = rematch
    untouched = evening.games.exclude(pk__in=[a.pk, b.pk]).get()
    names = {g.board: (g.white.member.name, g.black.member.name) for g in (a, b)}
    with django_capture_on_commit_callbacks(execute=True):
        response = leader_client(client).post(
            reverse("pairing:swap_opponents", args=[evening.pk]),
            {"game_a": a.pk, "game_b": b.pk, "confirm": "1", "version": evening.version})
    assert response.status_code == 302
    assert notices.deliver(evening.pk, now=timezone.now()) == 0  # held a moment
    assert notices.deliver(evening.pk, now=timezone.now() + LATER) == 4
    to = {m.to[0]: m for m in mail.outbox}
    assert set(to) == {a.white.member.email, a.black.member.email,
                       b.white.member.email, b.black.member.email}
    assert untouched.white.member.email not in to and untouched.black.member.email not in to
    message = to[a.black.member.email]
    assert message.subject.startswith(f"[{evening.season.club.shown_name}] Pairing changed for ")
    assert (f"Was: board {a.board} against {names[a.board][0]} with black\n"
            f"Now: board {b.board} against {names[b.board][0]} with black") in message.body
    # The corrected pairing's broken rule is on the leader's page afterwards as well.
    page = client.get(reverse("pairing:evening", args=[evening.pk])).content.decode()
    assert 'data-rule="max_meetings_per_half"' in page and "data-undo" in page


def test_undo_before_the_evening_restores_the_pairing_and_mails_nobody(
        rematch, django_capture_on_commit_callbacks):
    evening, a, b = rematch
    before = pairing(evening)
    leader = f.leader()
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_swap_opponents(actor=leader, game_a=a.pk, game_b=b.pk)
    assert pairing(evening) != before
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_correction_undo(actor=leader, evening_id=evening.pk,
                                         now=evening.starts_at - MINUTE)
    assert pairing(evening) == before
    assert AuditRecord.objects.filter(evening=evening).latest("id").action == "pairing.undo"
    assert notices.deliver(evening.pk, now=timezone.now() + LATER) == 0
    assert mail.outbox == []
    # Nothing left to undo: an undo is not undone.
    with pytest.raises(ValidationError, match="no correction to undo"):
        services.pairing_correction_undo(actor=leader, evening_id=evening.pk,
                                         now=evening.starts_at - MINUTE)


def test_a_swap_back_after_the_mail_went_mails_the_net_change_saying_changed(
        rematch, django_capture_on_commit_callbacks):
    evening, a, b = rematch
    leader = f.leader()
    game = evening.games.get(pk=a.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_swap_colours(actor=leader, game_id=game.pk)
    notices.deliver(evening.pk, now=timezone.now() + LATER)
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_swap_colours(actor=leader, game_id=game.pk)
    notices.deliver(evening.pk, now=timezone.now() + 2 * LATER)
    assert len(mail.outbox) == 4 and all("Pairing changed" in m.subject for m in mail.outbox)
    assert {m.to[0] for m in mail.outbox} == {a.white.member.email, a.black.member.email}
    last = [m for m in mail.outbox if m.to[0] == a.white.member.email][-1]
    assert f"Was: board {a.board} against {a.black.member.name} with black" in last.body
    assert f"Now: board {a.board} against {a.black.member.name} with white" in last.body


def test_undo_is_refused_once_the_evening_has_begun(rematch):
    evening, a, b = rematch
    leader = f.leader()
    services.pairing_swap_opponents(actor=leader, game_a=a.pk, game_b=b.pk)
    with pytest.raises(ValidationError, match="no correction to undo"):
        services.pairing_correction_undo(actor=leader, evening_id=evening.pk,
                                         now=evening.starts_at)


def test_a_confirm_of_a_pairing_changed_since_the_preview_is_refused(rematch):
    evening, a, b = rematch
    with pytest.raises(ValidationError, match="changed since you looked"):
        services.pairing_swap_opponents(actor=f.leader(), game_a=a.pk, game_b=b.pk,
                                        version=evening.version - 1)


def test_the_changed_mail_in_dutch_says_gewijzigd_and_the_club(
        rematch, django_capture_on_commit_callbacks):
    evening, a, b = rematch
    club = evening.season.club
    club.language = "nl"
    club.save(update_fields=["language"])
    with club_context(club), django_capture_on_commit_callbacks(execute=True):
        services.pairing_swap_colours(actor=f.leader(), game_id=a.pk)
    with club_context(club):  # the club as saved: its language
        notices.deliver(evening.pk, now=timezone.now() + LATER)
    message = next(m for m in mail.outbox if m.to[0] == a.white.member.email)
    assert evening.season.club.shown_name in message.subject
    assert "Indeling gewijzigd voor" in message.subject
    assert f"Was: bord {a.board} tegen {a.black.member.name} met wit" in message.body
    assert f"Nu: bord {a.board} tegen {a.black.member.name} met zwart" in message.body
