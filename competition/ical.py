"""The season calendar as an iCalendar feed (RFC 5545) members can subscribe to."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.utils import timezone

from .models import Evening, EveningKind, Season

KIND_SUMMARY = {
    EveningKind.PLAYING: "Interne competitie",
    EveningKind.RAPID: "Rapidavond",
    EveningKind.PLAYOFF: "Play-offs",
}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _fold(line: str) -> str:
    """Lines longer than 75 octets are folded (RFC 5545 3.1)."""
    out, data = [], line.encode()
    while len(data) > 75:
        cut = 75
        while (data[cut] & 0xC0) == 0x80:  # do not split a UTF-8 sequence
            cut -= 1
        out.append(data[:cut].decode())
        data = b" " + data[cut:]
    out.append(data.decode())
    return "\r\n".join(out)


def calendar_ics(season: Season, evenings: Iterable[Evening], *, host: str) -> str:
    stamp = _utc(timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Ranglijst//Club calendar//NL",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{_escape(f'Schaakclub {season.name}')}",
        "X-WR-TIMEZONE:Europe/Amsterdam",
    ]
    for e in evenings:
        summary = KIND_SUMMARY.get(e.kind)
        if summary is None:
            continue
        description = e.note or ""
        if e.kind == EveningKind.PLAYING:
            local_deadline = timezone.localtime(e.deadline)
            description = f"Aanmelden/afmelden tot {local_deadline:%d-%m %H:%M}. {description}".strip()
        lines += [
            "BEGIN:VEVENT",
            f"UID:evening-{e.pk}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(e.starts_at)}",
            f"DTEND:{_utc(e.starts_at + dt.timedelta(hours=3, minutes=45))}",
            f"SUMMARY:{_escape(summary)}",
            f"DESCRIPTION:{_escape(description)}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(line) for line in lines) + "\r\n"
