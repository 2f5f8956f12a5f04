"""``manage.py compute_standings FILE [--history]``: the standings of a season file as JSON.

Touches no database. A bad file gives one line naming the place, and exit code 2.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.prizes.engine.report import compute
from competition.season.engine.seasonfile import SeasonFileError
from competition.season.seasonio import read_season_file

BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Compute the standings of a season file (docs/season-file.md) and print them as JSON; "
        "the database is not used."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a season file (season/1, JSON)")
        parser.add_argument(
            "--history", action="store_true", help="also the standings after every evening"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            season = read_season_file(options["file"])
        except SeasonFileError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        report = compute(season, history=options["history"])
        self.stdout.write(json.dumps(report, indent=2, ensure_ascii=False))
