"""Walk the site as one role would: start at the pages a role starts from, follow every
same-site link (GET only, never a form), and hand back each page reached.

Used by the crawl tests (every link a role sees opens for that role; no English on the
Dutch site). A page is visited once per role; query strings that only re-sort or page a
table are visited once per path (the first two variants), so the walk stays bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.test import Client

# Links that are not pages of the site, or that act (sign out, switch language).
SKIP = re.compile(
    r"^/(static|media)/|^/accounts/logout|^/language/|^/i18n/|\.ics$|\.csv$|\.trf$|/trf$"
    r"|^/admin/"
)
MAX_PAGES = 400
VARIANTS_PER_PATH = 2


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def links(html: str, base: str) -> list[str]:
    """The same-site GET links of a page, absolute paths with their query, no fragment."""
    parser = _Links()
    parser.feed(html)
    found = []
    for href in parser.links:
        if href.startswith(("mailto:", "tel:", "javascript:", "#")):
            continue
        url = urlsplit(urljoin(base, href))
        if url.netloc and url.netloc not in ("testserver", ""):
            continue
        path = url.path + (f"?{url.query}" if url.query else "")
        found.append(path)
    return found


@dataclass(frozen=True)
class Page:
    url: str
    status: int
    location: str  # the redirect target, if any
    html: str
    linked_from: str


def crawl(client: Client, start: list[str], max_pages: int = MAX_PAGES) -> Iterator[Page]:
    """Every page reachable from ``start`` by links, each once, breadth first."""
    seen: set[str] = set()
    variants: dict[str, int] = {}
    queue: list[tuple[str, str]] = [(url, "(start)") for url in start]
    visited = 0
    while queue and visited < max_pages:
        url, origin = queue.pop(0)
        if url in seen or SKIP.search(urlsplit(url).path):
            continue
        path = urlsplit(url).path
        if "?" in url:
            if variants.get(path, 0) >= VARIANTS_PER_PATH:
                continue
            variants[path] = variants.get(path, 0) + 1
        seen.add(url)
        visited += 1
        response = client.get(url)
        content_type = response.get("Content-Type", "")
        html = response.content.decode() if "html" in content_type else ""
        yield Page(url, response.status_code, response.get("Location", ""), html, origin)
        if response.status_code == 200 and html:
            queue += [(link, url) for link in links(html, url) if link not in seen]
