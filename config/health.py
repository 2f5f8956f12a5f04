"""``/healthz``: is this web process able to serve? One query, never cached. And the
server-error page, which says the same (503, try again) when the database is down.

The container's healthcheck (``scripts/healthcheck.py``) asks it every 30 seconds; a TLS
proxy or a monitor may too. It answers 200 ``ok`` when the database answers, 503 when it
does not; it reads no session and renders no template.
"""

from __future__ import annotations

import logging
import sys

from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from members.clubs.addresses import site_name

log = logging.getLogger(__name__)


@require_safe
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        log.warning("healthz: database unavailable: %s", exc.__class__.__name__)
        return HttpResponse("database unavailable", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


# What a database that is down or restarting raises (SQLite's "database is locked" too):
# the request can simply be tried again. Any other error is a real 500.
UNAVAILABLE = (OperationalError, InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a Dutch 503 that says to try again when the database did not
    answer (as ``/healthz`` says 503), Django's plain 500 for anything else. The page is
    rendered without the site's base template or a request context: those read the
    session and the club from the database."""
    exc = sys.exc_info()[1]
    if not isinstance(exc, UNAVAILABLE):
        return defaults.server_error(request)
    log.warning("database unavailable during %s %s: %s", request.method, request.path,
                exc.__class__.__name__)
    body = loader.get_template("503.html").render({"club": site_name()})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = "60"
    response["Cache-Control"] = "no-store"
    return response
