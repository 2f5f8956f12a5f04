"""``manage.py import_season FILE [--name NAME] [--club SLUG]``: a whole season file into
the database, in the club (the only one unless named).

All or nothing: on any error nothing is saved, one line says why, exit code 2.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.season.engine.seasonfile import SeasonFileError
from competition.season.seasonio import SeasonImportError, read_season_file, season_import
from members.clubs.commands import add_club_argument, club_from_options
from members.clubs.context import club_context

BAD_INPUT = 2


class Command(BaseCommand):
    help = (
        "Import a season file (docs/season-file.md): season, competition, halves, evenings, "
        "members, players, games, byes and sign-ups, then its standings. All or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a season file (season/1, JSON)")
        parser.add_argument(
            "--name", help="the season's name (default: the years of its first and last evening)"
        )
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            data = read_season_file(path)
            with club_context(club_from_options(options)):
                season = season_import(actor=None, system=True, data=data, name=options["name"])
        except SeasonFileError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        except SeasonImportError as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        games = sum(len(e.games) for e in data.evenings)
        self.stdout.write(
            f"Imported season {season.name} (slug {season.slug}): {len(data.players)} players, "
            f"{len(data.evenings)} evenings, {games} games."
        )
