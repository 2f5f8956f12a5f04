"""Issue 19 §3: one failing e-mail never blocks the others.

Before: a member name with a line break put a newline in an e-mail's subject, sending
raised ``BadHeaderError``, and ``deliver`` stopped at the first failure: the players after
it were never told, and the catch-up failed on the same row every minute. Now the row is
skipped, counted, retried on its own and given up after ``MAX_ATTEMPTS``, and then the
leader's to-do page names it."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail import BadHeaderError

from members.models import User
from pairing import notices
from pairing.models import MAX_ATTEMPTS, NoticeState, PairingNotice
from pairing.services import evening_pair_and_publish
from tests import factories as f
from tests.mailfakes import patch_send

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]


class RefusingOne:
    """The mail library refusing one address's message (as it refuses a header with a
    line break); every other message goes."""

    def __init__(self, refused: str) -> None:
        self.refused = refused
        self.tries = 0

    def __call__(self, subject, body, sender, to, **kwargs):
        if to == [self.refused]:
            self.tries += 1
            raise BadHeaderError("Header values can't contain newlines")
        mail.outbox.append(mail.EmailMessage(subject, body, sender, to))
        return 1


def _published(players: int):
    season = f.season(players=players)
    evening = f.playing_evenings(season)[0]
    evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk, now=evening.deadline)
    return season, evening


def test_a_bad_header_on_the_first_of_five_rows_sends_the_other_four_then_retries_and_reports(
    monkeypatch, client,
):
    season, evening = _published(players=5)  # two games and a bye: five rows
    rows = list(PairingNotice.objects.filter(evening=evening).order_by("id").select_related("player__member"))
    assert len(rows) == 5
    first = rows[0]
    refusing = RefusingOne(first.player.member.email)
    patch_send(monkeypatch, refusing)

    assert notices.deliver(evening.pk) == 4
    assert sorted(to for m in mail.outbox for to in m.to) == sorted(r.player.member.email for r in rows[1:])
    first.refresh_from_db()
    assert (first.state, first.attempts) == (NoticeState.PENDING, 1)
    assert "BadHeaderError" in first.last_error

    # Retried apart (the task's retry, the catch-up every minute): only that one is tried.
    for attempt in range(2, MAX_ATTEMPTS + 1):
        assert notices.deliver(evening.pk) == 0
        first.refresh_from_db()
        assert first.attempts == attempt
    assert first.state == NoticeState.FAILED and refusing.tries == MAX_ATTEMPTS
    assert len(mail.outbox) == 4  # nobody got a second copy
    assert notices.deliver(evening.pk) == 0 and not PairingNotice.objects.filter(state=NoticeState.PENDING).exists()
    assert refusing.tries == MAX_ATTEMPTS  # given up: no longer tried
    assert evening.pk not in notices.evenings_with_pending(now=evening.starts_at.replace(year=2000))

    client.force_login(f.leader())
    page = client.get("/leader/").content.decode()
    assert 'id="todo-failed-mail"' in page and first.player.member.name in page


def test_a_name_with_a_line_break_from_before_the_checks_no_longer_stops_the_withdrawal_mail(
    monkeypatch, client,
):
    """The probe's case, end to end with the real mail library: the withdrawal e-mail's
    subject carries the name; the leader and the opponent's notices still go."""
    season, evening = _published(players=4)
    game = evening.games.select_related("white__member").first()
    User.objects.filter(pk=game.white.member_id).update(name="Jan\nJansen")  # stored before the checks
    mail.outbox.clear()
    PairingNotice.objects.update(state=NoticeState.SENT)
    from competition.models import Registration
    from pairing.notices import withdrawals

    Registration.objects.update_or_create(
        player=game.white, evening=evening,
        defaults={"status": "absent_with_notice", "changed_by_id": game.white.member_id})
    withdrawals(evening, ["leider@example.org"])
    sent = notices.deliver(evening.pk)
    # The opponent's e-mail and the leader's both carry the name in the subject: both refused,
    # counted, and the delivery did not raise.
    assert sent == 0
    assert set(PairingNotice.objects.filter(kind="withdrawal").values_list("attempts", flat=True)) == {1}
