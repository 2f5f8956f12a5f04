"""Fakes of the mail server for the outbox tests: patch the test mail backend's sending
(``core.mail`` sends every message through one backend connection) and count the
connections it opens."""

from __future__ import annotations

from collections.abc import Callable

from django.core.mail.backends import locmem


def patch_send(monkeypatch, send: Callable[..., int]) -> None:
    """Every message goes through ``send(subject, body, sender, to)`` (which may raise, as
    a mail server does, and appends to ``mail.outbox`` itself when it sends)."""

    def send_messages(self, messages):
        return sum(send(m.subject, m.body, m.from_email, m.to) for m in messages)

    monkeypatch.setattr(locmem.EmailBackend, "send_messages", send_messages)


def count_connections(monkeypatch) -> list[int]:
    """A list that grows by one each time a connection to the mail server is opened."""
    opened: list[int] = []
    original = locmem.EmailBackend.open

    def open_(self):
        opened.append(1)
        return original(self)

    monkeypatch.setattr(locmem.EmailBackend, "open", open_)
    return opened
