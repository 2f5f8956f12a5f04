"""Each pairing e-mail once (STYLE "side effects after commit, once"): the e-mails are
written to an outbox with the pairing and sent after commit, without the evening's lock;
a mail server that fails part-way makes a retry send only what is missing."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core import mail
from django.db import connection

from pairing import notices
from pairing.models import NoticeState, PairingNotice
from pairing.services import evening_pair_and_publish, pairing_swap_colours
from tests import factories as f

pytestmark = pytest.mark.django_db


class FailingAfter:
    """A mail backend's send that refuses the message after ``n`` good ones."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.in_transaction: list[bool] = []

    def __call__(self, subject, body, sender, to, **kwargs):
        self.in_transaction.append(connection.in_atomic_block)
        if self.left == 0:
            raise ConnectionRefusedError("SMTP went away")
        self.left -= 1
        mail.outbox.append(mail.EmailMessage(subject, body, sender, to))
        return 1


def publish(players: int = 8):
    s = f.season(players=players)
    evening = f.playing_evenings(s)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return s, evening


def test_publishing_writes_one_pending_notice_per_player_and_sends_nothing_yet():
    s, evening = publish(8)  # on_commit callbacks are not run: the transaction is open
    rows = PairingNotice.objects.filter(evening=evening)
    assert rows.count() == 8 and set(rows.values_list("state", flat=True)) == {"pending"}
    assert mail.outbox == []


def test_a_mail_server_failing_on_the_sixth_message_loses_and_repeats_nothing(monkeypatch):
    _s, evening = publish(8)
    failing = FailingAfter(5)
    monkeypatch.setattr(notices, "send_mail", failing)
    with pytest.raises(ConnectionRefusedError):
        notices.deliver(evening.pk)
    assert len(mail.outbox) == 5
    assert PairingNotice.objects.filter(evening=evening, state=NoticeState.SENT).count() == 5

    failing.left = 100  # the server is back: the retry sends the three that are missing
    assert notices.deliver(evening.pk) == 3
    assert notices.deliver(evening.pk) == 0  # and a doubled retry sends nothing
    recipients = Counter(to for m in mail.outbox for to in m.to)
    assert len(recipients) == 8 and set(recipients.values()) == {1}


def test_no_e_mail_is_sent_inside_a_transaction(monkeypatch):
    _s, evening = publish(6)
    recorder = FailingAfter(100)
    monkeypatch.setattr(notices, "send_mail", recorder)
    notices.deliver(evening.pk)
    # pytest-django wraps the test in one transaction; deliver opens none of its own.
    assert recorder.in_transaction == [connection.in_atomic_block] * 6


def test_a_notice_replaced_before_it_was_sent_is_not_sent():
    s, evening = publish(4)
    game = evening.games.order_by("board").first()
    pairing_swap_colours(actor=f.leader(), game_id=game.pk)
    notices.deliver(evening.pk)
    # Four players, each told once: the two of the swapped game only their new colours.
    assert len(mail.outbox) == 4
    superseded = PairingNotice.objects.filter(evening=evening, state=NoticeState.SUPERSEDED)
    assert set(superseded.values_list("player_id", flat=True)) == {game.white_id, game.black_id}
    white_mail = next(m for m in mail.outbox if m.to == [game.black.member.email])
    assert "white" in white_mail.body.lower()


def test_a_claimed_notice_is_not_sent_by_a_second_worker():
    _s, evening = publish(2)
    row = PairingNotice.objects.filter(evening=evening).first()
    from django.utils import timezone

    assert notices._claim(row.pk, timezone.now())
    assert not notices._claim(row.pk, timezone.now())
    assert notices.deliver(evening.pk) == 1  # the other one; the claimed one waits
