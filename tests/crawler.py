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
SKIP = re.compile(r"^/(static|media)/|^/accounts/logout|^/language/|^/i18n/|^/admin/")
# Downloads (iCal, CSV, TRF): fetched only when the walk asks for them (``downloads``).
DOWNLOAD = re.compile(r"\.ics$|\.csv$|\.trf$|/trf$")
JSON_LINK = re.compile(r'"(/[^"\s{}]*)"')  # not an OpenAPI template
MAX_PAGES = 400
VARIANTS_PER_PATH = 2
API_PER_KIND = 3


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
    text: str = ""  # the body of any text answer (a page, a CSV, an iCal or TRF file, JSON)


def crawl(client: Client, start: list[str], max_pages: int = MAX_PAGES, *,
          downloads: bool = False, within: str = "/") -> Iterator[Page]:
    """Every page reachable from ``start`` by links, each once, breadth first; with
    ``downloads`` the files linked (iCal, CSV, TRF) too. Links outside ``within`` (a
    club's prefix) are not followed, nor are the platform's own pages besides."""
    seen: set[str] = set()
    variants: dict[str, int] = {}
    queue: list[tuple[str, str]] = [(url, "(start)") for url in start]
    visited = 0
    while queue and visited < max_pages:
        url, origin = queue.pop(0)
        path = urlsplit(url).path
        inside = "/" + path[len(within):] if path.startswith(within) else path
        if url in seen or SKIP.search(inside) or (not downloads and DOWNLOAD.search(path)):
            continue
        if origin != "(start)" and not path.startswith(within):
            continue
        if "/api/" in path:  # the API: a few answers of each kind (its pages are walked whole)
            shape = re.sub(r"\d+", "N", path)
            if variants.get(shape, 0) >= API_PER_KIND:
                continue
            variants[shape] = variants.get(shape, 0) + 1
        if "?" in url:
            if variants.get(path, 0) >= VARIANTS_PER_PATH:
                continue
            variants[path] = variants.get(path, 0) + 1
        seen.add(url)
        visited += 1
        response = client.get(url)
        content_type = response.get("Content-Type", "")
        textual = any(kind in content_type for kind in ("text", "json", "xml", "calendar"))
        text = response.content.decode() if textual and not response.streaming else ""
        html = text if "html" in content_type else ""
        yield Page(url, response.status_code, response.get("Location", ""), html, origin, text)
        if response.status_code == 200 and html:
            queue += [(link, url) for link in links(html, url) if link not in seen]
        elif response.status_code == 200 and "json" in content_type:  # the API's own links
            queue += [(link, url) for link in JSON_LINK.findall(text) if link not in seen]
