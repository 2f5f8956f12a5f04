#!/usr/bin/env python
"""Django's command-line utility, with configuration errors reported in one line."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured

    try:
        from django.core.management import execute_from_command_line
        from django.db.utils import OperationalError

        with _platform_work():
            execute_from_command_line(sys.argv)
    except ImproperlyConfigured as exc:
        sys.exit(f"Configuration error: {' '.join(str(exc).split())}")
    except OperationalError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
        sys.exit(f"Database unavailable ({_where()}): {first}")


def _platform_work():
    """The command line is the operator's: the platform's context (core/tenancy/context.py); a
    command for one club enters that club's context itself (``--club``). A served request
    or a task sets its own club."""
    from core.tenancy.context import platform_context  # loads Django's parts only when entered

    return platform_context()


def _where() -> str:
    """The database's host, never its credentials."""
    from urllib.parse import urlsplit

    url = os.environ.get("DATABASE_URL")
    if not url:
        return "SQLite"
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}{parts.path}"


if __name__ == "__main__":
    main()
