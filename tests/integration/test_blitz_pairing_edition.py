"""Which edition of the FIDE Dutch system a blitz is paired by (docs/swiss.md, "Dutch
editions"): the one in force on the event's date, unless one is chosen for the event."""

from __future__ import annotations

import datetime as dt

import pytest

from competition.events.services import pairing_edition
from competition.models import EventKind, PairingEdition, SwissEvent


@pytest.mark.parametrize(
    ("date", "chosen", "edition"),
    [
        (dt.date(2025, 12, 19), PairingEdition.BY_DATE, "2017"),
        (dt.date(2026, 2, 1), PairingEdition.BY_DATE, "2026"),
        (None, PairingEdition.BY_DATE, "2026"),
        (dt.date(2026, 12, 4), PairingEdition.FIDE_2017, "2017"),
        (dt.date(2025, 12, 19), PairingEdition.FIDE_2026, "2026"),
    ],
)
def test_the_date_decides_unless_an_edition_is_chosen(
    date: dt.date | None, chosen: PairingEdition, edition: str
) -> None:
    event = SwissEvent(kind=EventKind.BLITZ, name="Blitz", date=date, pairing_edition=chosen)
    assert pairing_edition(event) == edition


def test_a_new_event_follows_its_date() -> None:
    assert SwissEvent(kind=EventKind.BLITZ, name="Blitz").pairing_edition == PairingEdition.BY_DATE
