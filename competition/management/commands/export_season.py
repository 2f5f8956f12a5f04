"""``manage.py export_season SEASON_SLUG [-o FILE] [--club SLUG]``: a season of the club
(the only one unless named) from the database as a season file (season/1). Results not yet entered are written as postponed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.models import Season
from competition.season.engine.seasonfile import SeasonFileError
from competition.season.seasonio import season_export
from members.clubs.commands import add_club_argument, club_from_options
from members.clubs.context import club_context

BAD_INPUT = 2


class Command(BaseCommand):
    help = "Write a season from the database as a season file (docs/season-file.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the season's slug, e.g. 2026-2027")
        parser.add_argument("-o", "--output", help="write to this file instead of standard output")
        add_club_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_from_options(options)
        with club_context(club):  # the season is the club's; its rows are read in its scope
            self._export(club, options)

    def _export(self, club: Any, options: dict[str, Any]) -> None:
        slug = options["slug"]
        seasons = Season.objects.filter(club=club)
        season = seasons.filter(slug=slug).select_related("competition").first()
        if season is None:
            known = ", ".join(seasons.order_by("slug").values_list("slug", flat=True))
            raise CommandError(
                f"no season with slug {slug!r} (known: {known or 'none'})", returncode=BAD_INPUT
            )
        if not hasattr(season, "competition"):
            raise CommandError(f"season {slug!r} has no competition", returncode=BAD_INPUT)
        try:
            exported = season_export(season)
        except SeasonFileError as error:  # a name the file must not carry (one line)
            raise CommandError(f"season {slug!r}: {error}", returncode=BAD_INPUT) from None
        text = json.dumps(exported, indent=2, ensure_ascii=False) + "\n"
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(
                    f"{options['output']}: cannot write the file ({error.strerror})",
                    returncode=BAD_INPUT,
                ) from None
        else:
            self.stdout.write(text, ending="")
