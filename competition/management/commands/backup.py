"""Write a consistent, complete copy of the club (all seasons) as JSON."""

import gzip
import io
import sys

from django.core.management import call_command
from django.db import connection, transaction

from members.commands import ClubCommand

# Everything a club is made of; sessions, admin log and content types are rebuilt.
APPS = [
    "auth.group",
    "members",
    "account.emailaddress",
    "competition",
    "pairing",
]


class Command(ClubCommand):
    help = "Write a consistent copy of the whole club (all seasons) to FILE (.json or .json.gz)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="where to write; '-' for standard output")

    def handle(self, *args, file: str, **options):
        buffer = io.StringIO()
        outermost = not connection.in_atomic_block
        with transaction.atomic():
            if connection.vendor == "postgresql" and outermost:
                # One snapshot for every table: the copy is consistent even while the
                # site is in use.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            # Primary keys kept (ids inside audit records stay true) and times to the
            # microsecond: the restore gives the same rows, table by table.
            call_command(
                "dumpdata", *APPS, format="exactjson", natural_foreign=True, indent=1,
                stdout=buffer,
            )
        data = buffer.getvalue()
        if file == "-":
            sys.stdout.write(data)
            return
        opener = gzip.open if file.endswith(".gz") else open
        with opener(file, "wt", encoding="utf-8") as handle:
            handle.write(data)
        self.stderr.write(f"Backup written to {file}.")
