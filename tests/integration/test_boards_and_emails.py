"""Boards and e-mails (issue 14): a withdrawal moves no other board, whoever's board
moves is told, and every e-mail links to the evening's page and the player's own page."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import override_settings

from competition.models import Bye, Game
from pairing import notices, services
from pairing.models import NoticeState, PairingNotice
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]
SITE = "https://ranglijst.example.nl"


@pytest.fixture
def published(django_capture_on_commit_callbacks):
    def publish(players: int, keep_mail: bool = False):
        s = f.season(players=players)
        evening = f.playing_evenings(s)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.evening_pair_and_publish(
                actor=None, system=True, evening_id=evening.pk, now=evening.deadline
            )
        if not keep_mail:
            mail.outbox.clear()
        return s, evening

    return publish


def boards(evening) -> dict[int, tuple[int, int]]:
    return {b: (w, bl) for b, w, bl in evening.games.values_list("board", "white_id", "black_id")}


def recipients() -> set[str]:
    return {to for m in mail.outbox for to in m.to}


def test_removing_a_player_leaves_his_board_empty_and_moves_no_other_board(
    published, django_capture_on_commit_callbacks
):
    _s, evening = published(8)  # four games, no bye
    before = boards(evening)
    game = evening.games.get(board=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_remove_player(
            actor=f.leader(), evening_id=evening.pk, player_id=game.white_id
        )
    after = boards(evening)
    assert sorted(after) == [1, 3, 4]  # the gap stays
    assert all(after[b] == before[b] for b in after)  # the top player is still on board 1
    assert Bye.objects.get(evening=evening).player_id == game.black_id
    assert recipients() == {game.black.member.email}  # only the opponent is told


def test_removing_a_player_when_somebody_has_the_bye_seats_him_on_the_same_board(
    published, django_capture_on_commit_callbacks
):
    _s, evening = published(9)
    waiting = Bye.objects.get(evening=evening).player
    game = evening.games.get(board=1)
    with django_capture_on_commit_callbacks(execute=True):
        services.pairing_remove_player(
            actor=f.leader(), evening_id=evening.pk, player_id=game.black_id
        )
    assert evening.games.get(board=1).black_id == waiting.pk
    assert sorted(boards(evening)) == [1, 2, 3, 4]
    assert recipients() == {game.white.member.email, waiting.member.email}


def test_a_late_player_fills_the_empty_board(published, django_capture_on_commit_callbacks):
    s, evening = published(8)
    leader = f.leader()
    removed = evening.games.get(board=2)
    services.pairing_remove_player(actor=leader, evening_id=evening.pk, player_id=removed.white_id)
    waiting = Bye.objects.get(evening=evening).player
    late = f.member(name="Late Arrival")
    from competition.season.services import player_add

    newcomer = player_add(actor=f.admin(), season=s, member=late)
    services.pairing_add_player(actor=leader, evening_id=evening.pk, player_id=newcomer.pk)
    assert evening.games.get(board=2).black_id == waiting.pk


def test_a_player_whose_board_moved_is_told_and_nobody_else(published):
    _s, evening = published(8)
    notices.deliver(evening.pk)
    mail.outbox.clear()
    game = evening.games.get(board=4)
    Game.objects.filter(pk=game.pk).update(board=9)  # the board moved, nothing else
    notices.pairing_changed(evening)
    notices.deliver(evening.pk)
    assert recipients() == {game.white.member.email, game.black.member.email}
    assert "board 9" in mail.outbox[0].body


def test_a_notice_written_before_boards_were_in_the_signature_is_not_repeated(published):
    _s, evening = published(4)
    notices.deliver(evening.pk)
    mail.outbox.clear()
    # As an older release stored it: without the board.
    for notice in PairingNotice.objects.filter(evening=evening):
        notice.signature = notice.signature.split("@")[0]
        notice.save(update_fields=["signature"])
    notices.pairing_changed(evening)
    assert not PairingNotice.objects.filter(evening=evening, state=NoticeState.PENDING).exists()


@override_settings(SITE_URL=SITE)
def test_every_pairing_e_mail_links_to_the_evening_and_the_players_own_page(published):
    s, evening = published(4, keep_mail=True)  # sent after commit
    assert len(mail.outbox) == 4
    evening_link = f"{SITE}/evenings/{evening.date.isoformat()}/?season={s.slug}"
    for message in mail.outbox:
        player = s.players.get(member__email=message.to[0])
        assert evening_link in message.body
        assert f"{SITE}/players/{player.pk}/" in message.body


@override_settings(SITE_URL=SITE)
def test_the_tempo_e_mail_links_to_the_evening_and_the_players_own_page(published):
    s, evening = published(4)
    notices.deliver(evening.pk)
    mail.outbox.clear()
    game = evening.games.get(board=1)
    services.tempo_request(
        actor=game.white.member, game=game, opponent_agrees=True, now=evening.deadline
    )
    services.tempo_decide(actor=f.leader(), game=game, approve=True)
    notices.deliver(evening.pk)
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        player = s.players.get(member__email=message.to[0])
        assert f"{SITE}/evenings/{evening.date.isoformat()}/" in message.body
        assert f"{SITE}/players/{player.pk}/" in message.body


def test_each_pairing_e_mail_tells_its_own_player_his_game_under_the_evenings_subject(published):
    """The subject is the evening's (rendered once for all its e-mails), the body each
    player's own: his name, his board and colour, or the bye."""
    from django.utils.formats import date_format

    s, evening = published(5, keep_mail=True)  # two games and the bye, sent after commit
    assert len(mail.outbox) == 5
    bye = Bye.objects.get(evening=evening).player
    games = {p: g for g in Game.objects.filter(evening=evening).select_related(
        "white__member", "black__member") for p in (g.white_id, g.black_id)}
    for message in mail.outbox:
        player = s.players.select_related("member").get(member__email=message.to[0])
        assert message.subject == f"[{s.club.shown_name}] Pairing for {date_format(evening.date, 'j F')}"
        assert message.body.startswith(f"Dear {player.member.name},")
        if player == bye:
            assert "you have the pairing bye" in message.body and "board" not in message.body
            continue
        game = games[player.pk]
        assert f"you play on board {game.board}:" in message.body
        assert f"{game.white.member.name} (white) – {game.black.member.name} (black)" in message.body
        colour = "white" if game.white_id == player.pk else "black"
        assert f"You play {colour}." in message.body
