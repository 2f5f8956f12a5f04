"""The web server's access log without the personal calendar feed's secret.

A member's feed is ``…/me/calendar/<secret>.ics`` (competition/pages/me/urls.py): whoever reads
the access log could subscribe to his games and evenings. gunicorn's access log (the
format we ship: ``config/gunicorn.py``, used by the Dockerfile and docker-compose.yml)
writes that path part as ``<hidden>``, in the request line, the path and every other
field (a Referer, the raw URI); docs/operations.md gives the same for nginx."""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

# The secret: the last path part of …/me/calendar/<secret>.ics (``new/`` is no secret).
FEED_SECRET = re.compile(r"(/me/calendar/)[^/?#\s\"]+(\.ics)")
HIDDEN = r"\1<hidden>\2"


def masked(text: str) -> str:
    return FEED_SECRET.sub(HIDDEN, text)


class TokenMaskingLogger(Logger):
    """gunicorn's logger, its access log atoms masked (see above)."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict[str, Any]:
        found = super().atoms(resp, req, environ, request_time)
        return {name: masked(value) if isinstance(value, str) else value
                for name, value in found.items()}
