"""Write a consistent copy of one club (all its seasons) as JSON (docs/operations.md)."""

import gzip
import sys

from django.core.management.base import BaseCommand
from django.db import connection, transaction

from competition.management.clubcopy import club_backup
from members.clubs.commands import add_club_argument, club_from_options


class Command(BaseCommand):
    help = ("Write a consistent copy of one club (all its seasons, its members' accounts) to "
            "FILE (.json or .json.gz); --club names it when the installation has several.")

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write; '-' for standard output")
        add_club_argument(parser)

    def handle(self, *args, file: str, **options):
        club = club_from_options(options)
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            if connection.vendor == "postgresql" and outermost:
                # One snapshot for every table: the copy is consistent even while the
                # site is in use.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            # Primary keys kept (ids inside audit records stay true) and times to the
            # microsecond: the restore gives the same rows, table by table.
            data = club_backup(club)
        if file == "-":
            sys.stdout.write(data)
            return
        opener = gzip.open if file.endswith(".gz") else open
        with opener(file, "wt", encoding="utf-8") as handle:
            handle.write(data)
        self.stderr.write(f"Backup of {club.slug} written to {file}.")
