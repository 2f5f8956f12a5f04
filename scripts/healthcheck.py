"""The web container's healthcheck: GET /healthz from gunicorn, as the TLS proxy asks.

Standard library only (the image has no curl). The request carries the first of
DJANGO_ALLOWED_HOSTS as its Host and ``X-Forwarded-Proto: https``, so the production
settings neither refuse the host nor redirect to HTTPS. Exit code 0 when the answer is
200 ``ok``, 1 otherwise (with one line saying why).
"""

from __future__ import annotations

import os
import sys
import urllib.request
from collections.abc import Mapping


def request_for(environ: Mapping[str, str]) -> urllib.request.Request:
    hosts = [h.strip() for h in environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")]
    # ".example.nl" allows the domain and its subdomains; "*" names no host to send.
    host = next((h.lstrip(".") for h in hosts if h and h != "*"), "localhost")
    port = environ.get("PORT", "8000")
    return urllib.request.Request(
        f"http://127.0.0.1:{port}/healthz",
        headers={"Host": host, "X-Forwarded-Proto": "https"},
    )


def main(environ: Mapping[str, str] = os.environ) -> int:
    try:
        with urllib.request.urlopen(request_for(environ), timeout=5) as response:
            body = response.read()
    except OSError as exc:  # refused, timed out, or an HTTP error status
        print(f"unhealthy: {exc}", file=sys.stderr)
        return 1
    if body != b"ok":
        print(f"unhealthy: unexpected answer {body[:80]!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
