"""The club's own website (docs/operations.md): the embeds may be framed only by the
sites the leader lists (CSP frame-ancestors), every other page refuses framing; the list
is checked before it is saved; the leader's page gives the snippets; the Atom feed has
an entry per published evening."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from competition.models import (
    AuditAction,
    AuditRecord,
    ClubWebsite,
    Evening,
    EveningKind,
    EveningStatus,
)
from competition.website.services import website_embed_origins_set
from members.models import User
from tests.demo_snapshot import demo_season
from tests.transactions import rolled_back

pytestmark = pytest.mark.django_db

TODAY = dt.date(2026, 11, 30)
EMBEDS = ("website:embed_standings", "website:embed_pairing", "website:embed_results")
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), rolled_back():
        yield demo_season(TODAY)


@pytest.fixture(autouse=True)
def club_today(monkeypatch):
    real_now = timezone.now
    offset = TODAY - timezone.localdate(real_now())
    monkeypatch.setattr(timezone, "now", lambda: real_now() + offset)


def leader() -> User:
    return User.objects.get(email="leider@demo.club")


def frame_ancestors(response) -> str:
    directives = [d.strip() for d in response["Content-Security-Policy"].split(";")]
    return next(d for d in directives if d.startswith("frame-ancestors"))


# --- Framing --------------------------------------------------------------------------------


def test_without_a_listed_site_no_page_may_be_framed_not_even_an_embed(client, demo):
    for name in EMBEDS:
        response = client.get(reverse(name))
        assert response.status_code == 200
        assert frame_ancestors(response) == "frame-ancestors 'none'"
        assert response["X-Frame-Options"] == "DENY"


def test_the_embeds_may_be_framed_by_the_listed_sites_and_nothing_else_may(client, demo):
    website_embed_origins_set(actor=leader(), origins=[
        "https://www.schaakclub.nl/", "HTTPS://Club.Example.org:8443", "https://*.pion.nl"])
    for name in EMBEDS:
        response = client.get(reverse(name))
        assert frame_ancestors(response) == (
            "frame-ancestors https://www.schaakclub.nl https://club.example.org:8443 https://*.pion.nl")
        assert "X-Frame-Options" not in response
    for url in ("/", "/standings/", reverse("api_v1:seasons"), reverse("website:feed"),
                reverse("api_v1:openapi-view"), "/accounts/login/"):
        response = client.get(url)
        assert frame_ancestors(response) == "frame-ancestors 'none'", url
        assert response["X-Frame-Options"] == "DENY", url


def test_the_list_applies_to_embeds_already_in_the_page_cache(client, demo, settings,
                                                               django_capture_on_commit_callbacks):
    settings.PAGE_CACHE_SECONDS = 600
    url = reverse("website:embed_standings")
    assert frame_ancestors(client.get(url)) == "frame-ancestors 'none'"
    with django_capture_on_commit_callbacks(execute=True):
        website_embed_origins_set(actor=leader(), origins=["https://www.schaakclub.nl"])
    assert frame_ancestors(client.get(url)) == "frame-ancestors https://www.schaakclub.nl"


# --- The list of sites ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [
    "www.schaakclub.nl",                                  # no scheme
    "ftp://www.schaakclub.nl",                            # not a web address
    "https://www.schaakclub.nl/ranglijst",                # a path
    "https://www.schaakclub.nl?x=1",                      # a query
    "https://evil.nl; script-src *",                      # another directive
    "https://evil.nl 'unsafe-inline'",                    # a keyword
    "'self'",
    "*",
    "https://*",                                          # every site
    "https://*.nl",                                       # a whole top-level domain
    "https://user@www.schaakclub.nl",
    "https://www.schaak_club.nl",
    "https://www.schaakclub.nl:99999",
])
def test_a_bad_site_is_refused_with_a_message_and_nothing_is_saved(demo, bad):
    website_embed_origins_set(actor=leader(), origins=["https://www.schaakclub.nl"])
    records = AuditRecord.objects.count()
    with pytest.raises(ValidationError) as refused:
        website_embed_origins_set(actor=leader(), origins=["https://ok.example.org", bad])
    assert bad.strip() in " ".join(refused.value.messages)
    assert ClubWebsite.objects.get().embed_origins == ["https://www.schaakclub.nl"]
    assert AuditRecord.objects.count() == records


def test_only_the_leader_sets_the_list_and_it_is_audited(demo):
    player = User.objects.get(email="speler1@demo.club")
    with pytest.raises(PermissionDenied):
        website_embed_origins_set(actor=player, origins=["https://www.schaakclub.nl"])
    with pytest.raises(PermissionDenied):
        website_embed_origins_set(actor=None, origins=[])
    assert not ClubWebsite.objects.exists()
    website_embed_origins_set(actor=leader(), origins=["https://www.schaakclub.nl", "",
                                                       "https://www.schaakclub.nl/"])
    assert ClubWebsite.objects.get().embed_origins == ["https://www.schaakclub.nl"]
    record = AuditRecord.objects.get(action=AuditAction.WEBSITE_EMBED_ORIGINS)
    assert record.before == {"embed_origins": []}
    assert record.after == {"embed_origins": ["https://www.schaakclub.nl"]}


def test_the_leaders_page_saves_the_list_and_gives_the_snippets(client, demo):
    client.force_login(leader())
    url = reverse("website:leader")
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    for name in EMBEDS:
        assert f"&lt;iframe src=&quot;http://testserver{reverse(name)}&quot;" in html or (
            f"&lt;iframe src=\"http://testserver{reverse(name)}\"" in html)
    assert f"http://testserver{reverse('website:feed')}" in html
    assert f"http://testserver{reverse('api_v1:index')}" in html
    refused = client.post(url, {"origins": "https://www.schaakclub.nl\nhttps://evil.nl/pad"})
    assert refused.status_code == 200
    assert "https://evil.nl/pad is not a website address" in refused.content.decode()
    assert not ClubWebsite.objects.exists()
    saved = client.post(url, {"origins": "https://www.schaakclub.nl\n\nhttps://pion.nl"})
    assert saved.status_code == 302
    assert ClubWebsite.objects.get().embed_origins == ["https://www.schaakclub.nl", "https://pion.nl"]
    assert "https://pion.nl" in client.get(url).content.decode()


def test_the_leaders_page_links_to_the_website_page(client, demo):
    client.force_login(leader())
    assert reverse("website:leader") in client.get(reverse("competition:leader")).content.decode()


# --- The embeds ---------------------------------------------------------------------------


def test_the_embeds_show_the_standings_the_next_pairing_and_the_last_results(client, demo):
    standings = client.get(reverse("website:embed_standings")).content.decode()
    assert standings.count("data-player=") == demo.players.count()
    assert "<header" not in standings and "<nav" not in standings  # its own minimal page
    last = demo.evenings.filter(status=EveningStatus.PUBLISHED).order_by("-date").first()
    results = client.get(reverse("website:embed_results")).content.decode()
    assert results.count('id="board-') == last.games.count()
    assert f'href="{reverse("competition:evening", args=[last.date.isoformat()])}"' in results
    pairing = client.get(reverse("website:embed_pairing")).content.decode()
    assert "The pairing is published after the sign-up deadline" in pairing


def test_the_embeds_are_dutch_by_default(client, demo):
    html = client.get(reverse("website:embed_standings"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in html and "Meer op de site van de competitie" in html


# --- The feed -----------------------------------------------------------------------------


def test_the_feed_has_an_entry_per_published_evening_newest_first(client, demo):
    response = client.get(reverse("website:feed"))
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    entries = feed.findall(f"{ATOM}entry")
    published = list(Evening.objects.filter(  # every season's: the club's news
        kind=EveningKind.PLAYING, status=EveningStatus.PUBLISHED).order_by("-date"))
    assert len(entries) == min(len(published), 20)
    first = entries[0]
    assert first.find(f"{ATOM}link").get("href").endswith(
        reverse("competition:evening", args=[published[0].date.isoformat()]))
    assert first.find(f"{ATOM}title").text.startswith("Results of")
    game = published[0].games.select_related("white__member").order_by("board").first()
    assert game.white.member.name in first.find(f"{ATOM}summary").text
    ids = [e.find(f"{ATOM}id").text for e in entries]
    assert len(set(ids)) == len(ids)
