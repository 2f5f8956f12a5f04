"""Every link opens: each role walks the demo club from its home page and follows every
link it is shown (tests/crawler.py). A link that leads to a 403, a 404, a 500 or the
sign-in page is a link the role should not have been shown; a link into the Django admin
is shown to staff only. The failure names the page that showed the link.

Nothing of club B on club A's pages: club B (tests/isolation.py: the decoy with the demo
season's name, dates and player names, the player role's account a member of both, and
names and rows of its own) sits beside the demo club while each role walks A, under A's
prefix (``/<slug>/``, RANGLIJST_SINGLE_CLUB off) and, for the visitor and the member of
both clubs, at ``/`` as a single-club installation, which serves B nowhere: no link to it. Every page, download (iCal, CSV, TRF), the feed, the
embeds and every API answer reached must name nothing of B (its club's name, its
address, its own people, season and events) and link to none of B's rows by id. The
e-mails of a deadline in each club and the season file are checked the same way.

The site's own 403 and 404 pages are in Dutch and keep the site's navigation."""

from __future__ import annotations

import datetime as dt
import re
import secrets
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from core.models import Mail
from members.clubs.context import club_context
from members.clubs.memo import home_club
from members.models import Membership, User
from pairing.services import evening_pair_and_publish
from tests.crawler import MAX_PAGES, crawl, links
from tests.isolation import b_objects_in, club_b, markers_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)  # as test_pages.py: ten winter evenings played
ACCOUNTS = {
    "visitor": None,
    "player": "speler1@demo.club",
    "arbiter": "arbiter@demo.club",
    "leader": "leider@demo.club",
    "administrator": "beheer@demo.club",
}
START = {
    "visitor": ["/"],
    "player": ["/", "/signup/"],
    "arbiter": ["/"],
    "leader": ["/", "/leader/", "/leader/audit/", "/leader/members/"],
    "administrator": ["/", "/leader/", "/leader/audit/", "/leader/members/"],
}


# Where every walk starts besides: the files (a walk of 400 pages may not reach them), and
# for the visitor the feed, the embeds and the API (whose links lead on), the same for
# every role.
FILES = ["calendar.ics", "standings/?export=csv"]
PUBLIC = ["feed/", "embed/standings/", "embed/pairing/", "embed/results/", "api/v1/"]
# The walks: every role under A's prefix, and the visitor and the member of both clubs at
# "/" on a single-club installation (the same views, only the addresses differ: their
# first pages suffice). There B, with no host name of its own, is served nowhere: a link
# to it would answer 404 (issue 38).
WALKS = [(role, "prefix") for role in ACCOUNTS] + [("visitor", "single"), ("player", "single")]
SINGLE_PAGES = 150
# Where a page (its links, forms, scripts' data) or a file (any text: a CSV, an iCal
# feed, JSON) may name a row by its address.
ATTRIBUTE = re.compile(r'(?:href|action|src|data-[\w-]+)="(?:https?://[^/"]+)?(/[^"#]*)"')
PATH = re.compile(r"(?:https?://[^/\s\"'<>]+)?(/[^\s\"'<>#]*)")


B_ONLY_PHONE = "06 4242 4242"
B_ONLY_SECRET = "b-only-" + "s" * 36


@pytest.fixture(scope="module")
def world(demo, django_db_blocker):
    """Club B beside the demo club, the player role's account a member of both, and his
    calendar address set (the walk reads it)."""
    with django_db_blocker.unblock():
        shared = User.objects.get(email=ACCOUNTS["player"])
        Membership.objects.filter(user=shared, club=home_club()).update(
            calendar_token=secrets.token_urlsafe(32))  # A's own feed secret
        b = club_b(demo, shared=shared)
        # B's own part of the shared member: none of it may show on A's pages or files.
        Membership.objects.filter(user=shared, club=b.club).update(
            phone=B_ONLY_PHONE, calendar_token=B_ONLY_SECRET, public_as="initials")
        return b


def _client(role: str) -> Client:
    client = Client(raise_request_exception=False)
    if ACCOUNTS[role]:
        client.force_login(User.objects.get(email=ACCOUNTS[role]))
    return client


def _broken(page) -> str | None:
    if page.status in (403, 404) or page.status >= 500:
        return str(page.status)
    if page.status in (301, 302) and page.location.startswith("/accounts/login/"):
        return "sign-in redirect"
    return None


def _start(role: str, prefix: str, season) -> list[str]:
    played = season.events.filter(round_set__games__isnull=False).distinct().order_by("pk")
    files = FILES + [f"events/{pk}/trf" for pk in played.values_list("pk", flat=True)[:2]]
    files += PUBLIC if role == "visitor" else []
    if role == "player":  # his own calendar, with his games in both clubs' seasons
        token = Membership.objects.get(user__email=ACCOUNTS[role], club=home_club()).calendar_token
        files.append(f"me/calendar/{token}.ics")
    return [prefix + path.lstrip("/") for path in START[role] + files]


# "My clubs" (the footer, and "My details" naming his shared part): the one place a page of
# A names another club, the signed-in person's own (issue 28); only for a member of both,
# and with nothing but that club's name and address.
MY_CLUBS = re.compile(r'<(nav|span)\b[^>]*\bdata-my-clubs>.*?</\1>', re.S)


def _without_my_clubs(page, b) -> tuple[str, str]:
    """The page's text and HTML without its "My other clubs" line, which must name B and
    B's address and nothing else of B."""
    html = page.html or ""
    for found in MY_CLUBS.finditer(html):
        nav = found.group(0)
        assert b.club.shown_name in nav and set(markers_in(nav)) <= {b.club.name, f"/{b.club.slug}/"}, nav
    html = MY_CLUBS.sub("", html)
    text = MY_CLUBS.sub("", page.text) if page.html else page.text
    return text, html


def _club_b_in(page, prefix: str, b, *, member_of_b: bool = False) -> list[str]:
    """What of club B an answer of club A's shows: B's names, or links to B's rows. A member
    of B too is shown B's name and address in "My clubs" (and nowhere else)."""
    text, html = _without_my_clubs(page, b) if member_of_b else (page.text, page.html)
    found = markers_in(text) + [part for part in (B_ONLY_PHONE, B_ONLY_SECRET) if part in page.text]
    paths = set(ATTRIBUTE.findall(html) if html else PATH.findall(text))
    found += [hit for path in paths for hit in b_objects_in(path, prefix, b)]
    return found


@pytest.mark.parametrize(("role", "mode"), WALKS)
def test_every_link_a_role_is_shown_opens_and_shows_nothing_of_club_b(demo, world, role, mode, settings,
                                                                     mailoutbox):
    settings.RANGLIJST_SINGLE_CLUB = mode == "single"
    prefix = f"/{home_club().slug}/" if mode == "prefix" else "/"
    client = _client(role)
    staff = bool(ACCOUNTS[role]) and User.objects.get(email=ACCOUNTS[role]).is_staff
    problems, leaks, visited, files = [], [], 0, set()
    pages = MAX_PAGES if mode == "prefix" else SINGLE_PAGES
    start = _start(role, prefix, demo)
    for page in crawl(client, start, pages, downloads=True, within=prefix):
        visited += 1
        if page.linked_from == "(start)":
            assert page.status == 200, f"{role}: start page {page.url} gives {page.status}"
        elif (why := _broken(page)) is not None:
            problems.append(f"{page.url} ({why}), linked from {page.linked_from}")
        if not staff:
            problems += [
                f"{link} (the admin, for staff only), linked from {page.url}"
                for link in links(page.html, page.url) if link.startswith(("/admin/", f"{prefix}admin/"))
            ]
        if page.text and not page.html or page.linked_from == "(start)" and page.text:
            files.add(page.url)
        leaks += [f"{page.url}: {hit}" for hit in _club_b_in(page, prefix, world,
                                                             member_of_b=role == "player")]
    assert visited > 20, f"{role} reached only {visited} pages"
    unread = [url for url in start[len(START[role]):] if url not in files]
    assert not unread and len(files) >= 3, f"{role}: files not read: {unread}"  # CSV, iCal, TRF ...
    leaks += [f"an e-mail to {m.to}: {hit}" for m in mailoutbox for hit in markers_in(_told(m))]
    assert not problems, f"{role} ({mode}) is shown links it may not follow:\n" + "\n".join(
        sorted(set(problems))
    )
    assert not leaks, f"{role} ({mode}) is shown club B's data:\n" + "\n".join(sorted(set(leaks)))


# --- E-mails and files: club A's name nothing of B, club B's nothing of A -----------------


def _a_markers() -> list[str]:
    """Names only club A (the demo club) has: its name, its address, its staff."""
    club = home_club()
    return [club.name, f"/{club.slug}/", "Bea Beheer", "Lars Leider", "Arend Arbiter",
            "leider@demo.club", "beheer@demo.club"]


def _told(message) -> str:
    """What an e-mail tells: subject, sender, reply-to and every part of its body."""
    parts = [message.subject, message.from_email, " ".join(message.reply_to), message.body]
    parts += [content for content, _ in getattr(message, "alternatives", [])]
    return "\n".join(str(part) for part in parts)


def _next_evening(season):
    return season.evenings.filter(kind="playing", status="open").order_by("date").first()


def test_the_deadline_emails_of_each_club_tell_nothing_of_the_other(
        demo, world, settings, mailoutbox, django_capture_on_commit_callbacks):
    """The deadline of A's next evening and of B's: A's pairing notices (the member of
    both clubs' too) name nothing of B, B's nothing of A; so do the outbox's rows."""
    settings.RANGLIJST_SINGLE_CLUB = False
    told = {}
    for club, season in ((home_club(), demo), (world.club, world.season)):
        mailoutbox.clear()
        with club_context(club):
            evening = _next_evening(season)
            with django_capture_on_commit_callbacks(execute=True):
                evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                         now=evening.deadline)
        told[club.slug] = [(m.to, _told(m)) for m in mailoutbox]
    a_mail, b_mail = told[home_club().slug], told[world.club.slug]
    shared = world.shared.email
    assert len(a_mail) > 10 and len(b_mail) > 10
    assert any(shared in to for to, _ in a_mail) and any(shared in to for to, _ in b_mail)
    assert all(f"/{home_club().slug}/" in text for _, text in a_mail)  # links into A's pages
    leaks = [f"A's e-mail to {to}: {hit}" for to, text in a_mail for hit in markers_in(text)]
    leaks += [f"B's e-mail to {to}: {hit}" for to, text in b_mail
              for hit in _a_markers() if hit in text]
    outbox = Mail.objects.values_list("club_id", "subject", "body", "from_email")  # every club's
    for club_id, *text in outbox:
        text = "\n".join(text)
        if club_id == home_club().pk:
            leaks += [f"A's outbox: {hit}" for hit in markers_in(text)]
        elif club_id == world.club.pk:
            leaks += [f"B's outbox: {hit}" for hit in _a_markers() if hit in text]
    assert not leaks, "\n".join(leaks)


def test_the_season_file_and_the_trf_export_of_club_a_hold_nothing_of_b(demo, world, settings):
    """The season file (``export_season``) of A's season, whose name B's season has too,
    and the TRF export of it for the rating list: A's rows only; B's file is B's."""
    settings.RANGLIJST_SINGLE_CLUB = False
    files = {}
    for club in (home_club(), world.club):
        out = StringIO()
        call_command("export_season", demo.slug, "--club", club.slug, stdout=out)
        files[club.slug] = out.getvalue()
    a_file, b_file = files[home_club().slug], files[world.club.slug]
    assert demo.slug == world.season.slug  # the same address in both clubs
    assert world.alone.name in b_file and world.alone.name not in a_file
    assert not markers_in(a_file)
    assert not [hit for hit in _a_markers() if hit in b_file]
    client = _client("leader")
    trf = client.get(f"/{home_club().slug}/leader/ratings/{demo.slug}/export/?download=1")
    assert trf.status_code == 200 and trf["Content-Disposition"].startswith("attachment")
    text = trf.content.decode()
    assert sum(line.startswith("001 ") for line in text.splitlines()) >= 20  # A's players
    assert not markers_in(text)


# --- The site's own error pages -----------------------------------------------------------


@override_settings(DEBUG=False)
def test_the_404_page_is_the_sites_own_in_dutch(client, demo):
    client.cookies["django_language"] = "nl"
    response = client.get("/players/999999/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Pagina niet gevonden" in html
    assert 'href="/standings/"' in html  # the site's navigation, from base.html
    assert "Not Found" not in html


@override_settings(DEBUG=False)
def test_the_403_page_is_the_sites_own_in_dutch(client, demo):
    client.force_login(User.objects.get(email=ACCOUNTS["player"]))
    client.cookies["django_language"] = "nl"
    response = client.get("/leader/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Geen toegang" in html
    assert 'href="/standings/"' in html
    assert "Forbidden" not in html
