"""``manage.py swiss_tiebreaks FILE.trf``: the FIDE tie-breaks and final order as JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.events.engine.report import (
    DEFAULT_ORDER,
    parse_order,
    read_tournament,
    tiebreak_report,
)
from competition.events.engine.trf import TrfError

BAD_INPUT = 2


def read_text(path: str) -> str:
    """The file's text (UTF-8, else Latin-1 as older pairing programs write); exit 2 if unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"{path}: cannot read the file ({error.strerror})", returncode=BAD_INPUT) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class Command(BaseCommand):
    help = "Print the FIDE tie-breaks (C.07) and the final order of a TRF tournament as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a TRF16 / TRF-26 file with single games")
        parser.add_argument("--rules", choices=("2024", "2026"), default="2024", help="C.07 edition")
        parser.add_argument(
            "--order",
            default=",".join(DEFAULT_ORDER),
            help="ranking criteria, comma-separated (default %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        rules = options["rules"]
        try:
            order = parse_order(options["order"], rules)
        except ValueError as error:
            raise CommandError(f"--order: {error}", returncode=BAD_INPUT) from None
        text = read_text(path)
        try:
            tournament = read_tournament(text)
        except TrfError as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        except ValueError as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        report = tiebreak_report(tournament, rules, order)
        self.stdout.write(json.dumps(report, ensure_ascii=False, indent=2))
