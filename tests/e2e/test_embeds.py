"""The embeds in Chromium, framed by the club's own site at 360 px (docs/operations.md):
a listed site shows each embed, which fits the phone without scrolling sideways and sets
its frame's height; a site not listed gets nothing (the browser enforces the CSP
``frame-ancestors``). The club's site is a small server of the test's own on 127.0.0.1.
The API's documentation page renders offline; the leader's website page fits 360 px."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, SCREENSHOTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EMBEDS = ("/embed/standings/", "/embed/pairing/", "/embed/results/")
# The leader's optional script (templates/website/leader.html), for the live server.
RESIZE = ('addEventListener("message",function(e){if(e.origin!=="%s"||!e.data||'
          '!e.data.ranglijstHeight)return;document.querySelectorAll("iframe[data-ranglijst]")'
          '.forEach(function(f){if(f.contentWindow===e.source)f.style.height='
          'e.data.ranglijstHeight+"px"})});')


@pytest.fixture
def club_site(live_server) -> Iterator[dict]:
    """The club's own site: a server of its own on 127.0.0.1 (a free port, stopped after
    the test) whose page holds the snippet of one embed; ``show(path)`` chooses which."""
    shown = {"path": EMBEDS[0]}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            body = (f'<!DOCTYPE html><html><body style="margin:0"><h1>Onze club</h1>'
                    f'<iframe src="{live_server.url}{shown["path"]}" width="100%" height="150" '
                    f'style="border:0;max-width:100%" data-ranglijst></iframe>'
                    f'<script>{RESIZE % live_server.url}</script></body></html>').encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    shown["origin"] = f"http://127.0.0.1:{server.server_address[1]}"
    yield shown
    server.shutdown()
    server.server_close()


def show(page, club_site: dict, path: str) -> None:
    club_site["path"] = path
    page.goto(club_site["origin"] + "/ranglijst")


def test_a_listed_site_shows_each_embed_at_phone_width(page, live_server, demo, club_site):
    from competition.website.services import website_embed_origins_set
    from members.models import User

    website_embed_origins_set(actor=User.objects.get(email="leider@demo.club"),
                              origins=[club_site["origin"]])
    page.set_viewport_size(PHONE)
    for path in EMBEDS:
        show(page, club_site, path)
        frame = page.frame_locator("iframe[data-ranglijst]")
        expect(frame.locator("main h1")).to_be_visible()
        embed = next(f for f in page.frames if f.url.startswith(live_server.url))
        expect(frame.locator("html")).to_have_attribute("lang", "nl")
        width = embed.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width}px wide in its frame"
        # The frame grew to the embed's height (the embed told the club's page).
        content = embed.evaluate("document.documentElement.scrollHeight")
        expect(page.locator("iframe[data-ranglijst]")).to_have_attribute(
            "style", f"border: 0px; max-width: 100%; height: {content}px;")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # At the phone's size (a full-page shot leaves a cross-origin frame blank).
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"embed-{path.split('/')[2]}-phone.png"))
    show(page, club_site, EMBEDS[0])
    rows = page.frame_locator("iframe[data-ranglijst]").locator("tbody tr")
    expect(rows).to_have_count(30)


def test_a_site_not_listed_gets_no_embed(page, live_server, demo, club_site):
    from competition.website.services import website_embed_origins_set
    from members.models import User

    website_embed_origins_set(actor=User.objects.get(email="leider@demo.club"),
                              origins=["https://elders.example.org"])
    page.set_viewport_size(PHONE)
    show(page, club_site, EMBEDS[0])
    # goto waited for the page's load event, which waits for its frames, refused or not.
    assert page.frame_locator("iframe[data-ranglijst]").locator("main").count() == 0


def test_the_api_documentation_page_works_without_internet(page, live_server):
    """Swagger UI from django-ninja's own static files, under the site's CSP (scripts and
    styles from the site only): every endpoint of the document is listed."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: problems.append(r.url) if not r.url.startswith(live_server.url)
            else None)
    page.goto("/api/v1/docs")
    expect(page.locator(".opblock")).to_have_count(9)
    assert problems == []


def test_the_leaders_website_page_fits_a_phone(page, demo, sign_in, screenshot):
    from .test_phone_layout import fits_phone

    sign_in("leider@demo.club")
    fits_phone(page, "/leader/website/", screenshot, "leader-website")
    expect(page.locator("textarea.snippet")).to_have_count(4)
