"""``/healthz``: is this web process able to serve? One query, never cached.

The container's healthcheck (``scripts/healthcheck.py``) asks it every 30 seconds; a TLS
proxy or a monitor may too. It answers 200 ``ok`` when the database answers, 503 when it
does not; it reads no session and renders no template.
"""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

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
