"""``manage.py pair_evening SEASON_FILE --date D --present id,id,...``: pair one evening
from a season file, without the database, and print the pairing as JSON.

The order is the standings after the file's evenings before D (an evening on D in the
file is paired as if it had not been played); see pairing/engine/fromfile.py.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.season.engine.seasonfile import SeasonFileError
from competition.season.seasonio import read_season_file
from pairing.engine.fromfile import PairingInputError, pair_from_season
from pairing.engine.keizer import result_to_dict

BAD_INPUT = 2


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--date: {text!r} is not a date like 2026-10-09", returncode=BAD_INPUT) from None


def _ids(text: str) -> list[int]:
    ids = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            ids.append(int(part))
        except ValueError:
            raise CommandError(
                f"--present: {part!r} is not a player id (give ids like 3,17,5)", returncode=BAD_INPUT
            ) from None
    return ids


class Command(BaseCommand):  # a file tool: no club, no database
    help = (
        "Pair an evening from a season file (docs/season-file.md) without the database and "
        'print {"games": [{"board", "white", "black"}], "bye", "bye_drawn_from", "relaxed"}.'
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a season file (season/1, JSON)")
        parser.add_argument("--date", required=True, help="the evening to pair, YYYY-MM-DD")
        parser.add_argument(
            "--present", required=True, help="the ids of the players present, comma-separated"
        )
        parser.add_argument(
            "--half",
            choices=("winter", "summer"),
            help="Keizer: the evening's half (default: the file's evening on that date, "
            "else the half of the last evening before it)",
        )
        parser.add_argument(
            "--seed", help="seed of a drawn bye (default: the date; the database uses SLUG:DATE)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        date = _date(options["date"])
        present = _ids(options["present"])
        try:
            season = read_season_file(options["file"])
            result = pair_from_season(
                season, date, present, half=options["half"], seed=options["seed"]
            )
        except SeasonFileError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        except PairingInputError as error:
            raise CommandError(str(error), returncode=BAD_INPUT) from None
        self.stdout.write(json.dumps(result_to_dict(result), indent=2))
