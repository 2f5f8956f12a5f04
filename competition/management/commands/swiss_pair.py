"""``manage.py swiss_pair FILE.trf``: pair the next round of a single-game Swiss (Dutch)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.events.engine.dutch import BlitzPairingError, pair_blitz_round
from competition.events.engine.report import pairing_report, read_next_round
from competition.events.engine.trf import TrfError
from competition.management.commands.swiss_tiebreaks import BAD_INPUT, read_text


class Command(BaseCommand):
    help = (
        "Pair the next round of a single-game Swiss by the FIDE Dutch system and print JSON "
        "{games: [{white, black}], bye} by start numbers. Players on an XXZ record are absent; "
        "XXR gives the planned number of rounds."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a TRF16 / TRF-26 file with the rounds played so far")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        text = read_text(path)
        try:
            next_round = read_next_round(text)
        except TrfError as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        except ValueError as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        try:
            pairing = pair_blitz_round(next_round.tournament, next_round.present, next_round.total_rounds)
        except BlitzPairingError as error:
            raise CommandError(str(error), returncode=1) from None
        self.stdout.write(json.dumps(pairing_report(pairing), indent=2))
