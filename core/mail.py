"""Every application e-mail goes out through here: rendered in the club's language, queued
in an outbox row in the transaction of the change it tells of, claimed and sent after
commit, once.

Two kinds of outbox rows share the columns this module works on (``state``,
``claimed_at``, ``sent_at``, ``attempts``, ``last_error``): the pairing notices
(``pairing.PairingNotice``, which also remember what each player was told) and the
``core.Mail`` rows of every other e-mail (invitations, e-mail address changes, club duty
decisions), queued with ``queue``.

Sending (``send_rows``) holds no lock while it talks to the mail server:

- it claims up to ``BATCH_SIZE`` rows in one short transaction (``SELECT ... FOR UPDATE
  SKIP LOCKED`` on PostgreSQL, so two workers take different rows without waiting; a
  plain select-and-update on SQLite, whose write transactions are serialised), builds
  their messages, sends them over ONE connection to the mail server for the whole call,
  and marks the batch sent in one UPDATE;
- a message the mail library or the server refuses on its own (a line break in a header,
  every recipient refused: ``MESSAGE_ERRORS``) is counted on its row and skipped; the next
  call tries it again, and after ``MAX_ATTEMPTS`` it is given up (``failed``);
- a failing mail server stops the call: what went out is marked sent, the rest of the
  batch is released for the retry, and the exception is raised (the task retries);
- a worker killed between sending and marking may, after ``CLAIM_SECONDS``, send that
  batch again: at least once, never silently lost.
"""

from __future__ import annotations

import datetime as dt
import logging
import smtplib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection, models, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from core.jobs import enqueue_on_commit
from core.models import MAX_ATTEMPTS, Mail, MailState
from core.tenancy.context import current_tenant

log = logging.getLogger(__name__)

SEND_TASK = "core.tasks.send_mails"
# The Celery queue of every e-mail task (config/settings.py routes them; the worker
# consumes it: scripts/serve.py, docker-compose.yml).
QUEUE = "mail"
CLAIM_SECONDS = 600
BATCH_SIZE = 50

# Errors of one message, not of the mail server: a header the mail library refuses
# (BadHeaderError is a ValueError: a line break in a name), text it cannot encode, every
# recipient refused.
MESSAGE_ERRORS: tuple[type[Exception], ...] = (ValueError, smtplib.SMTPRecipientsRefused)

# The kinds of core.Mail (the first part of its key) shown on the leader's to-do list when
# given up: they tell a member of a decision or let him in, so the leader must know that
# they never arrived. An e-mail address change concerns the member alone (his new address
# is to prove itself): given up, it is logged and shown to nobody.
INVITATION = "invitation"
CLUB_DUTY = "club-duty"
LEADER_KINDS = (INVITATION, CLUB_DUTY)

# A row and its message; None when the row is out of date and is not to be sent.
Outgoing = tuple[Any, EmailMessage | None]


def club_language() -> translation.override:
    """Texts of an e-mail are in the club's language (``Club.language``, where the site
    speaks it; else the site's own), whoever's action sends it."""
    tenant = current_tenant()
    language = tenant.language if tenant is not None else ""
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    return translation.override(language)


def render(template: str, context: dict[str, Any]) -> tuple[str, str]:
    """Subject and body of ``<template>_subject.txt`` and ``<template>_body.txt``, in the
    club's language, whatever the language of the person whose action sends it."""
    with club_language():
        subject = render_to_string(f"{template}_subject.txt", context).strip()
        body = render_to_string(f"{template}_body.txt", context)
    return subject, body


def render_subject(template: str, context: dict[str, Any]) -> str:
    """The subject alone (``render``), for a batch whose messages share it."""
    with club_language():
        return render_to_string(f"{template}_subject.txt", context).strip()


def render_body(template: str, context: dict[str, Any]) -> str:
    """The body alone (``render``)."""
    with club_language():
        return render_to_string(f"{template}_body.txt", context)


def message(subject: str, body: str, to: Sequence[str], cc: Sequence[str] = (), *,
            sender: tuple[str | None, list[str]] = (None, [])) -> EmailMessage:
    """One e-mail, from ``sender`` (From and Reply-To: the club's, ``members.clubs.addresses.
    club_sender``; the platform's default address without one); without a ``to`` the copy
    is the addressee."""
    cc = [c for c in cc if c not in to]
    from_email, reply_to = sender
    return EmailMessage(subject, body, from_email, list(to) or cc, cc=cc if to else [],
                        reply_to=reply_to)


def _deliverable(addresses: Sequence[str]) -> list[str]:
    return [a for a in addresses if not a.lower().endswith(".invalid")]


def queue(*, key: str, subject: str, body: str, to: Sequence[str],
          cc: Sequence[str] = (), member: Any = None,
          sender: tuple[str | None, list[str]] = (None, [])) -> Mail | None:
    """In the caller's transaction: one outbox row, sent after commit. Queueing the same
    key twice writes one row; None when it was queued already or has no recipient.
    ``member`` is the member the mail is about (the leader's to-do list names him);
    ``sender`` its From and Reply-To (the club's: ``members.clubs.addresses.club_sender``).
    An address in the reserved domain ``.invalid`` (a member without an address, a removed
    one, an imported season's player) is no recipient: it could never be delivered."""
    to, cc = _deliverable(to), _deliverable(cc)
    if not to and not cc:
        return None
    from_email, reply_to = sender
    mail, created = Mail.objects.get_or_create(
        key=key[:200], defaults={"subject": subject[:300], "body": body,
                                 "to": list(to), "cc": list(cc), "member": member,
                                 "from_email": from_email or "", "reply_to": list(reply_to)},
    )
    if not created:
        return None
    enqueue_on_commit(SEND_TASK, [mail.pk])
    return mail


def deliverable(addresses: Sequence[str]) -> list[str]:
    """The addresses a mail can go to (not the reserved domain ``.invalid``)."""
    return _deliverable(addresses)


def sent_after_commit(mail_ids: list[int]) -> None:
    """Send outbox rows written in bulk (``members.accounts.invitations.queue_many``) after
    commit, ``BATCH_SIZE`` a task."""
    for start in range(0, len(mail_ids), BATCH_SIZE):
        enqueue_on_commit(SEND_TASK, mail_ids[start:start + BATCH_SIZE])


def claim(pending: models.QuerySet, now: dt.datetime, limit: int = BATCH_SIZE) -> list[int]:
    """Claim up to ``limit`` of the ``pending`` rows that nobody holds (or whose claim is
    older than ``CLAIM_SECONDS``: a killed worker); returns their ids, oldest first."""
    stale = now - dt.timedelta(seconds=CLAIM_SECONDS)
    free = pending.filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=stale)).order_by("pk")
    with transaction.atomic():
        if connection.features.has_select_for_update_skip_locked:
            free = free.select_for_update(skip_locked=True)
        ids = list(free.values_list("pk", flat=True)[:limit])
        if ids:
            pending.model.objects.filter(pk__in=ids).update(claimed_at=now)
    return ids


def send_rows(
    pending: models.QuerySet, build: Callable[[list[int]], Iterable[Outgoing]],
    *, batch_size: int = BATCH_SIZE, label: str = "e-mail",
) -> int:
    """Send the ``pending`` rows (a queryset of rows in state pending) in claimed batches
    over one connection to the mail server; ``build`` turns a batch of claimed ids into
    (row, message) pairs. Returns how many were sent."""
    model = pending.model
    sent = 0
    skipped: list[int] = []  # refused this time: tried again by the next call, not this one
    server = None
    try:
        while True:
            ids = claim(pending.exclude(pk__in=skipped), timezone.now(), batch_size)
            if not ids:
                break
            done: list[int] = []
            stale: list[int] = []
            outgoing = list(build(ids))
            try:
                for row, email in outgoing:
                    if email is None:
                        stale.append(row.pk)
                        continue
                    if server is None:
                        server = get_connection()
                        server.open()
                    try:
                        server.send_messages([email])
                    except MESSAGE_ERRORS as exc:  # this e-mail only: the others still go
                        _failed(model, row, exc, label)
                        skipped.append(row.pk)
                        continue
                    done.append(row.pk)
            except Exception:  # the mail server: mark what went, release the rest, stop
                _mark(model, done, stale)
                model.objects.filter(pk__in=ids, state=MailState.PENDING).exclude(
                    pk__in=skipped).update(claimed_at=None)
                raise
            _mark(model, done, stale)
            sent += len(done)
            missing = set(ids) - {row.pk for row, _email in outgoing}
            if missing:  # rows gone from under us (deleted): release nothing, they are gone
                log.info("%s rows %s vanished while being sent", label, sorted(missing))
            if len(ids) < batch_size:  # a short claim took every claimable row: no query for an empty one
                break
    finally:
        if server is not None:
            server.close()
    return sent


def _mark(model: type[models.Model], done: list[int], stale: list[int]) -> None:
    if done:
        model.objects.filter(pk__in=done).update(  # type: ignore[attr-defined]
            state=MailState.SENT, sent_at=timezone.now())
    if stale:
        model.objects.filter(pk__in=stale).update(  # type: ignore[attr-defined]
            state=MailState.SUPERSEDED)


def _failed(model: type[models.Model], row: Any, exc: Exception, label: str) -> None:
    attempts = row.attempts + 1
    given_up = attempts >= MAX_ATTEMPTS
    model.objects.filter(pk=row.pk).update(  # type: ignore[attr-defined]
        attempts=attempts, claimed_at=None, last_error=f"{type(exc).__name__}: {exc}"[:200],
        state=MailState.FAILED if given_up else MailState.PENDING,
    )
    log.warning("%s %s failed, attempt %s of %s%s: %s", label, row.pk, attempts, MAX_ATTEMPTS,
                " (given up)" if given_up else "", type(exc).__name__)
    if given_up and isinstance(row, Mail) and row.kind not in LEADER_KINDS:
        # Nobody's to-do list shows it (it concerns the member alone): the log must.
        log.error("mail %s (%s) of member %s given up, shown to nobody: %s",
                  row.pk, row.kind, row.member_id, type(exc).__name__)


def error_in_words(last_error: str) -> str:
    """Why a given-up e-mail could not be sent, in plain words (``last_error`` is
    "<exception name>: <its text>", see ``_failed``)."""
    name = last_error.split(":", 1)[0]
    if name == "SMTPRecipientsRefused":
        return str(_("the mail server refused the address"))
    if name in ("BadHeaderError", "ValueError"):
        return str(_("the mail library refused it; check the name for a line break"))
    if "Unicode" in name:
        return str(_("it contains a character the mail library cannot send"))
    return str(_("the mail server refused it"))


def retry(mail: Mail) -> bool:
    """In the caller's transaction: a given-up mail back to pending, its attempts counted
    anew, sent after commit. False (and nothing changed) when it is not given up."""
    if not Mail.objects.filter(pk=mail.pk, state=MailState.FAILED).update(
            state=MailState.PENDING, attempts=0, claimed_at=None):
        return False
    enqueue_on_commit(SEND_TASK, [mail.pk])
    return True


def replaced(mail: Mail) -> bool:
    """In the caller's transaction: a given-up mail replaced by a new one (a new
    invitation): off the to-do list. False when it is not given up."""
    return bool(Mail.objects.filter(pk=mail.pk, state=MailState.FAILED).update(
        state=MailState.SUPERSEDED))


def _build_mails(ids: list[int]) -> list[Outgoing]:
    return [(m, message(m.subject, m.body, m.to, m.cc, sender=(m.from_email or None, m.reply_to)))
            for m in Mail.objects.filter(pk__in=ids).order_by("pk")]


def deliver(mail_ids: Sequence[int] | None = None) -> int:
    """Send the outbox's pending mails (those of ``mail_ids``, or all); returns how many."""
    pending = Mail.objects.filter(state=MailState.PENDING)
    if mail_ids is not None:
        pending = pending.filter(pk__in=list(mail_ids))
    return send_rows(pending, _build_mails, label="mail")


def pending(now: dt.datetime | None = None, *, older_than: int = 30) -> list[tuple[int, int | None]]:
    """(mail, club) of the mails ``pending_ids`` names, for the catch-up's queueing per club."""
    now = now or timezone.now()
    return list(
        Mail.objects.filter(state=MailState.PENDING,
                            created_at__lt=now - dt.timedelta(seconds=older_than))
        .order_by("pk").values_list("pk", "club_id")
    )


def pending_ids(now: dt.datetime | None = None, *, older_than: int = 30) -> list[int]:
    """Mails still to be sent whose task was probably lost (queued more than
    ``older_than`` seconds ago): the catch-up job sends them."""
    now = now or timezone.now()
    return list(
        Mail.objects.filter(state=MailState.PENDING,
                            created_at__lt=now - dt.timedelta(seconds=older_than))
        .order_by("pk").values_list("pk", flat=True)
    )
