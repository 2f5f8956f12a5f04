"""Who is told what, once: the pairing e-mails through an outbox.

A service that changes what a player must be told calls ``pairing_changed`` or
``tempo_decided`` inside its transaction, holding the evening's lock: that writes one
outbox row per player whose news changed (and retires his rows not yet sent), so the
rows commit or roll back with the change itself. After commit a task calls ``deliver``,
which holds no lock: through ``core.mail`` it claims the rows in batches, sends them
over one connection to the mail server and marks each batch sent.
When the mail server fails on the sixth message, the first five are marked sent and the
retry sends the rest; one message that cannot be sent (a bad header) is skipped, retried
on its own and after ``MAX_ATTEMPTS`` given up and shown on the leader's to-do list; two
workers never send the same row (the claim skips rows another worker holds); a worker
killed between sending and marking may, after ``core.mail.CLAIM_SECONDS``, send that
batch again: at least once, never silently lost.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.core.mail import EmailMessage
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, time_format

from competition.models import (
    Attendance,
    Bye,
    Evening,
    EveningStatus,
    Game,
    Player,
    Registration,
    Tempo,
)
from competition.season import links
from core import mail
from core.jobs import enqueue_on_commit
from members.clubs.addresses import club_footer, club_sender, club_subject

from .engine.corrections import BYE, Seat
from .models import GAME_KINDS, NoticeKind, NoticeState, PairingNotice
from .selectors import seat_in_words

log = logging.getLogger(__name__)

DELIVER_TASK = "pairing.tasks.send_pairing_notices"


def _signature(player_id: int, game: Game | None, bye_player: int | None) -> str:
    """What the player has been told: opponent, colours, tempo and board (or the bye).
    The board is part of it, so a player whose board moved is told; the leader's edits
    move no board but the one they change (a withdrawal leaves its board empty)."""
    if bye_player == player_id:
        return "bye"
    if game is None:
        return "none"
    return f"{game.white_id}-{game.black_id}:{game.tempo}@{game.board}"


def _same(told: str | None, signature: str) -> bool:
    """Whether the player knows this already. Rows written before the board was part of
    the signature (no ``@``) compare without it."""
    if told is None:
        return False
    if "@" not in told:
        return told == signature.split("@")[0]
    return told == signature


def _latest(evening: Evening) -> tuple[dict[int, str], dict[int, str]]:
    """Each player's last signature, sent or still to be sent, and his last one sent (ids
    grow): one query."""
    latest: dict[int, str] = {}
    sent: dict[int, str] = {}
    for player_id, signature, state in (
        PairingNotice.objects.filter(evening=evening, kind__in=GAME_KINDS)
        .exclude(state=NoticeState.SUPERSEDED)
        .order_by("id")
        .values_list("player_id", "signature", "state")
    ):
        latest[player_id] = signature
        if state == NoticeState.SENT:
            sent[player_id] = signature
    return latest, sent


# A correction's e-mails wait this long, so that a swap undone (or swapped back) at once
# sends nothing, and several corrections in a row send one e-mail a player: the net change
# (docs/operations.md, "Corrections"). The minute job sends them once it is over.
CORRECTION_HOLD = dt.timedelta(minutes=2)


def _queue(evening: Evening, news: list[tuple[Player, str]], kind: str, hold: bool = False,
           sent: dict[int, str] | None = None) -> None:
    """Replace each player's e-mail not yet sent by the news; a player whom the news puts
    back where his last sent e-mail (``sent``) put him (a swap undone before its e-mail
    went) gets none."""
    changed = [player.pk for player, _sig in news]
    if not changed:
        return
    PairingNotice.objects.filter(
        evening=evening, player_id__in=changed, state=NoticeState.PENDING, kind__in=GAME_KINDS
    ).update(state=NoticeState.SUPERSEDED)
    sent = sent or {}
    send_after = min(timezone.now() + CORRECTION_HOLD, evening.starts_at) if hold else None
    rows = [
        PairingNotice(evening=evening, player=player, signature=signature, kind=kind,
                      send_after=send_after)
        for player, signature in news if not _same(sent.get(player.pk), signature)
    ]
    PairingNotice.objects.bulk_create(rows)
    if rows:
        enqueue_on_commit(DELIVER_TASK, evening.pk)


def pairing_changed(
    evening: Evening, written: tuple[list[Game], Bye | None] | None = None, hold: bool = False,
) -> None:
    """Inside the service's transaction, with the evening locked: queue an e-mail for
    every paired player whose game (or bye) differs from what he was last told.
    ``written``: the evening's whole pairing as the caller has just written it (its games,
    their players and members loaded, and its bye), so it is not read again. ``hold``: a
    leader's correction, whose e-mails wait ``CORRECTION_HOLD``."""
    if written is None:
        games = list(evening.games.select_related("white__member", "black__member"))
        bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    else:
        games = sorted(written[0], key=lambda g: g.board)  # as the evening's games are read
        bye = written[1]
    latest, sent = _latest(evening)
    targets: list[tuple[Player, Game | None]] = []
    for g in games:
        targets += [(g.white, g), (g.black, g)]
    if bye:
        targets.append((bye.player, None))
    news = []
    for player, game in targets:
        signature = _signature(player.pk, game, bye.player_id if bye else None)
        # His choice on "My details": no pairing e-mail when he turned it off.
        if (not _same(latest.get(player.pk), signature) and player.member.email
                and player.member.pairing_mail):
            news.append((player, signature))
    _queue(evening, news, NoticeKind.PAIRING, hold, sent)


def tempo_decided(game: Game) -> None:
    """Inside the service's transaction: both players are told the leader's decision. It
    is also their updated pairing notice, so a later republish does not repeat it."""
    news = [
        (player, _signature(player.pk, game, None))
        for player in (game.white, game.black) if player.member.email and player.member.notice_mail
    ]
    _queue(game.evening, news, NoticeKind.TEMPO)


def withdrawals(evening: Evening, leader_emails: list[str]) -> int:
    """Inside the service's transaction, with the evening locked: a paired player who
    signed off himself after the pairing was published (his game has no result) is news
    for his opponent and for the leaders; each is told once, and told again when he takes
    the sign-off back (``_returns``). Returns the rows queued."""
    signed_off = {
        reg.player_id
        for reg in Registration.objects.filter(evening=evening)
        .exclude(status=Attendance.PRESENT)
        .select_related("player")
        if reg.changed_by_id == reg.player.member_id
    }
    told = set(
        PairingNotice.objects.filter(evening=evening, kind=NoticeKind.WITHDRAWAL)
        .exclude(state=NoticeState.SUPERSEDED)
        .values_list("player_id", "signature", "recipient")
    )
    rows: list[PairingNotice] = []

    def add(player: Player, about: int, recipient: str = "") -> None:
        signature = f"withdrawal:{about}"
        if (player.pk, signature, recipient) not in told:
            rows.append(PairingNotice(evening=evening, player=player, signature=signature,
                                      kind=NoticeKind.WITHDRAWAL, recipient=recipient))

    games = evening.games.select_related("white__member", "black__member")
    seated: list[tuple[Player, Player | None]] = []
    for g in games:
        if not g.has_result:
            seated += [(g.white, g.black), (g.black, g.white)]
    bye = Bye.objects.filter(evening=evening).select_related("player__member").first()
    if bye:
        seated.append((bye.player, None))
    for player, opponent in seated:
        if player.pk not in signed_off:
            continue
        if (opponent is not None and opponent.pk not in signed_off and opponent.member.email
                and opponent.member.notice_mail):
            add(opponent, player.pk)
        for email in leader_emails:
            add(player, player.pk, email)
    rows += _returns(evening, signed_off, seated)
    PairingNotice.objects.bulk_create(rows)
    if rows:
        enqueue_on_commit(DELIVER_TASK, evening.pk)
    return len(rows)


def _returns(evening: Evening, signed_off: set[int],
             seated: list[tuple[Player, Player | None]]) -> list[PairingNotice]:
    """A player who took his sign-off back (signed up again, his seat still his): whoever
    was sent the withdrawal e-mail about him is told he plays after all. Those withdrawal
    rows are then retired, so a new sign-off of his is news again."""
    back = {player.pk for player, _opponent in seated} - signed_off
    told = list(PairingNotice.objects.filter(
        evening=evening, kind=NoticeKind.WITHDRAWAL, state=NoticeState.SENT,
        signature__in=[f"withdrawal:{pid}" for pid in back]))
    if not told:
        return []
    PairingNotice.objects.filter(pk__in=[n.pk for n in told]).update(state=NoticeState.SUPERSEDED)
    return [PairingNotice(evening=evening, player_id=n.player_id, kind=NoticeKind.WITHDRAWAL,
                          signature="return:" + n.signature.split(":")[1], recipient=n.recipient)
            for n in told]


def _withdrawal_message(
    notice: PairingNotice, evening: Evening, texts: dict[str, str],
    still_off: set[int], players: dict[int, Player], *, sender: tuple[str, list[str]],
) -> EmailMessage | None:
    """The opponent's or the leader's e-mail; None when the player is back (signed up
    again before it went)."""
    returned = notice.signature.startswith("return:")
    withdrawn_id = int(notice.signature.split(":")[1])
    if (withdrawn_id in still_off) == returned:  # back before it went, or off again
        return None
    withdrawn = players[withdrawn_id]
    context = {"evening": evening, "player": notice.player, "withdrawn": withdrawn, **texts,
               "returned": returned,
               "to_leader": bool(notice.recipient), **_links(evening, withdrawn),
               "leader_url": links.absolute(reverse("pairing:evening", args=[evening.pk]), evening.season.club)}
    if not notice.recipient:
        context["player_url"] = links.player_url(notice.player, evening.season.club)
    subject, body = mail.render("pairing/withdrawal_email", context)
    return mail.message(club_subject(evening.season.club, subject), body + texts["footer"],
                        [notice.recipient or notice.player.member.email],
                        sender=sender)


def _seat(signature: str | None, player_id: int) -> Seat | None:
    """The seat a signature told the player (``_signature``)."""
    if signature is None or signature == "none":
        return None
    if signature == "bye":
        return BYE
    players, _sep, rest = signature.partition(":")
    white, black = (int(x) for x in players.split("-"))
    board = rest.partition("@")[2]
    return Seat(int(board) if board else None, black if white == player_id else white,
                "W" if white == player_id else "B")


def _pairing_message(
    notice: PairingNotice, evening: Evening, texts: dict[str, str],
    games: dict[int, Game], bye: int | None, sender: tuple[str, list[str]],
    subjects: dict[tuple[str, bool], str], told: str | None = None,
    names: dict[int, str] | None = None,
) -> EmailMessage | None:
    """Subject and body from the evening as it is now; None when the row is out of date
    (a later change queued a newer one). The subject names the evening (and, for a tempo
    decision, whether it was approved), never the player: it is rendered once a batch
    (``subjects``), the body once a message. ``told``: what his last e-mail said; a new
    game after that is a change, said in the subject ("changed") and the body (was, now)."""
    player = notice.player
    game = games.get(player.pk)
    signature = _signature(player.pk, game, bye)
    if not _same(notice.signature, signature):
        return None
    approved = game is not None and game.tempo == Tempo.APPROVED
    context = {"evening": evening, "player": player, "game": game, "bye": game is None, **texts,
               "approved": approved, "player_url": links.player_url(player, evening.season.club)}
    template = f"pairing/{'tempo_email' if notice.kind == NoticeKind.TEMPO else 'email'}"
    if notice.kind == NoticeKind.PAIRING and told is not None and not _same(told, signature):
        template = "pairing/changed_email"
        with mail.club_language():
            context["was"] = seat_in_words(_seat(told, player.pk), names or {})
            context["now"] = seat_in_words(_seat(signature, player.pk), names or {})
    if (template, approved) not in subjects:
        subjects[template, approved] = club_subject(evening.season.club, mail.render_subject(
            template, {"evening": evening, **texts, "approved": approved}))
    body = mail.render_body(template, context) + texts["footer"]
    return mail.message(subjects[template, approved], body, [notice.player.member.email],
                        sender=sender)


def _links(evening: Evening, player: Player) -> dict[str, str]:
    return {"evening_url": links.evening_url(evening), "player_url": links.player_url(player, evening.season.club)}


def _evening_texts(evening: Evening) -> dict[str, str]:
    """The evening's date and time as the e-mails write them, formatted once per batch (in
    the club's language) instead of once per message."""
    with mail.club_language():
        return {"day_long": date_format(evening.date, "l j F"),
                "day_short": date_format(evening.date, "j F"),
                "start_time": time_format(timezone.localtime(evening.starts_at), "H:i"),
                "evening_url": links.evening_url(evening),
                # Under every message: the club, its venue, its home page.
                "footer": club_footer(evening.season.club)}


def _told_before(evening: Evening, rows: list[PairingNotice]) -> dict[int, tuple[int, str]]:
    """Each batch player's last e-mail sent about his own game: (row id, signature)."""
    told: dict[int, tuple[int, str]] = {}
    first: dict[int, int] = {}
    for n in rows:
        first.setdefault(n.player_id, n.pk)
    for pk, player_id, signature in (
        PairingNotice.objects.filter(evening=evening, kind__in=GAME_KINDS, state=NoticeState.SENT,
                                     player_id__in=first.keys())
        .order_by("id").values_list("pk", "player_id", "signature")
    ):
        if pk < first[player_id]:
            told[player_id] = (pk, signature)
    return told


def _builder(evening: Evening):  # type: ignore[no-untyped-def]
    """The messages of a batch of claimed rows, from the evening read once: its games, its
    bye and who is still signed off, so a batch costs a few queries, not four a message."""
    games: dict[int, Game] = {}
    seated: dict[int, Player] = {}  # the players of the games and the bye, members loaded
    for g in evening.games.select_related("white__member", "black__member"):
        games[g.white_id] = games[g.black_id] = g
        seated[g.white_id], seated[g.black_id] = g.white, g.black
    bye_row = Bye.objects.filter(evening=evening).select_related("player__member").first()
    bye = bye_row.player_id if bye_row else None
    if bye_row:
        seated[bye_row.player_id] = bye_row.player
    texts = _evening_texts(evening)
    sender = club_sender(evening.season.club)  # From: the club's name; Reply-To: its address
    subjects: dict[tuple[str, bool], str] = {}
    state: dict[str, object] = {}

    def withdrawn() -> tuple[set[int], dict[int, Player]]:
        if "off" not in state:
            off = set(Registration.objects.filter(evening=evening).exclude(
                status=Attendance.PRESENT).values_list("player_id", flat=True))
            state["off"] = off
            state["players"] = Player.objects.select_related("member").in_bulk(off)
        return state["off"], state["players"]  # type: ignore[return-value]

    def build(ids: list[int]) -> list[mail.Outgoing]:
        out: list[mail.Outgoing] = []
        rows = list(PairingNotice.objects.filter(pk__in=ids).order_by("id"))
        # Each row's player from the evening's games read once; one query for the others
        # (a player who signed off and is no longer seated).
        others = Player.objects.select_related("member").in_bulk(
            {n.player_id for n in rows} - seated.keys())
        told = _told_before(evening, rows)
        names = {pid: p.member.name for pid, p in {**seated, **others}.items()}
        missing = {seat.opponent for pid, (_id, sig) in told.items()
                   if (seat := _seat(sig, pid)) is not None and seat.opponent is not None}
        if missing - names.keys():  # an opponent of before who is no longer seated
            names |= {p.pk: p.member.name for p in Player.objects.select_related("member")
                      .filter(pk__in=missing - names.keys())}
        for notice in rows:  # render() switches to the club's language
            player = seated.get(notice.player_id) or others.get(notice.player_id)
            if player is not None:
                notice.player = player
            if notice.kind == NoticeKind.WITHDRAWAL:
                off, known = withdrawn()
                out.append((notice, _withdrawal_message(notice, evening, texts, off,
                                                        {**seated, **known}, sender=sender)))
            else:
                earlier = told.get(notice.player_id)
                out.append((notice, _pairing_message(
                    notice, evening, texts, games, bye, sender, subjects,
                    told=earlier[1] if earlier and earlier[0] < notice.pk else None,
                    names=names)))
        return out

    return build


def _due(now: dt.datetime) -> Q:
    """Rows whose time has come (a correction's wait over)."""
    return Q(send_after__isnull=True) | Q(send_after__lte=now)


def deliver(evening_id: int, now: dt.datetime | None = None) -> int:
    """Send the evening's e-mails still to be sent, in claimed batches over one connection
    to the mail server, holding no lock (``core.mail.send_rows``). Returns how many were
    sent. A message that cannot be sent is skipped and counted on its row
    (``MESSAGE_ERRORS``) and after ``MAX_ATTEMPTS`` shown on the leader's to-do list; a
    failing mail server raises after marking what went out."""
    evening = Evening.objects.select_related("season__club").filter(pk=evening_id).first()
    if evening is None or evening.status != EveningStatus.PUBLISHED:
        return 0
    pending = PairingNotice.objects.filter(evening=evening, state=NoticeState.PENDING).filter(
        _due(now or timezone.now()))
    return mail.send_rows(pending, _builder(evening), label="pairing e-mail")


# Errors of one message, not of the mail server (core.mail): such a row is skipped, tried
# again by the next delivery (the task's retry, the catch-up job every minute) and given
# up after MAX_ATTEMPTS.
MESSAGE_ERRORS = mail.MESSAGE_ERRORS


def evenings_with_pending(now: dt.datetime | None = None) -> list[int]:
    """Published evenings still to come with e-mails not yet sent (the broker was down,
    or a retry ran out): the catch-up job delivers them."""
    now = now or timezone.now()
    return list(
        PairingNotice.objects.filter(
            state=NoticeState.PENDING, evening__status=EveningStatus.PUBLISHED,
            evening__starts_at__gt=now,
        ).filter(_due(now)).values_list("evening_id", flat=True).distinct()
    )
