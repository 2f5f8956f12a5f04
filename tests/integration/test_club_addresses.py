"""Clubs and their addresses (members/clubs/middleware.py): every club at /<slug>/ with the list
of clubs at "/" (RANGLIJST_SINGLE_CLUB off), a club's own host name at its root, and the
platform's pages at the root under both modes."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import get_script_prefix, reverse
from django.utils import timezone

from competition.season.selectors import season_or_404
from core.pagecache import page_key
from members.clubs.addresses import (
    club_base_url,
    club_home_url,
    club_sender,
    club_url,
    reserved_slugs,
)
from members.clubs.context import club_context, current_club
from members.clubs.memo import home_club
from members.clubs.middleware import ClubMiddleware
from members.models import Club, ClubDomain
from pairing import notices
from pairing import services as pairing_services
from tests import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

# Where a page of a club may link at the root: the platform's pages and static files.
PLATFORM = ("/static/", "/accounts/", "/language/", "/i18n/", "/admin/", "/healthz")
HREF = re.compile(r'(?:href|action|src)="(/[^"]*)"')


@pytest.fixture
def clubs(settings):
    settings.RANGLIJST_SINGLE_CLUB = False
    settings.SITE_URL = "https://ranglijst.example"
    alfa = Club.objects.create(name="Schaakclub Alfa", slug="alfa", venue="Buurthuis Alfa, Utrecht",
                               sender_name="Competitieleider Alfa", reply_to="leider@alfa.example")
    beta = Club.objects.create(name="Schaakclub Beta", slug="beta", venue="Dorpshuis Beta",
                               time_zone="America/Curacao")
    return alfa, beta


def _season(club: Club):
    # A club's season is set up in the club's work: its administrator's role counts there only.
    with club_context(club):
        return factories.season(players=4, club=club)


def _links(response) -> list[str]:
    return HREF.findall(response.content.decode())


def _club_links_only_under(response, prefix: str) -> None:
    links = _links(response)
    assert links, "the page has links"
    for link in links:
        assert link.startswith(prefix) or link.startswith(PLATFORM), f"{link} is not under {prefix}"


def test_root_lists_the_clubs_with_their_place_and_address(client, clubs):
    alfa, beta = clubs
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    client.cookies["django_language"] = "nl"
    response = client.get("/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'href="/alfa/"' in page  # on the address the page was asked at
    assert 'href="https://intern.beta.example/"' in page  # its own host name
    assert "Buurthuis Alfa, Utrecht" in page and "Schaakclub Beta" in page
    assert "Kies je club" in page  # Dutch
    assert response.context["CLUB"] is None and "Standings" not in page  # no club's menu


def test_pages_under_a_prefix_link_only_under_that_prefix(client, clubs):
    alfa, _ = clubs
    _season(alfa)
    for path in ("/alfa/", "/alfa/standings/", "/alfa/evenings/", "/alfa/calendar/", "/alfa/rules/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.context["CLUB"] == alfa
        assert "Schaakclub Alfa" in response.content.decode()
        _club_links_only_under(response, "/alfa/")
    assert get_script_prefix() == "/"  # restored after every response


def test_the_same_season_slug_in_two_clubs_is_each_clubs_own(client, clubs):
    alfa, beta = clubs
    a, b = _season(alfa), _season(beta)
    b.slug, b.name = a.slug, a.name
    with club_context(beta):
        b.save(update_fields=["slug", "name"])
    for club, season in ((alfa, a), (beta, b)):
        response = client.get(f"/{club.slug}/leader/{season.slug}/", follow=False)
        # The leader's season page asks for a leader; the season is found in its club
        # first (a slug of another club would be a 404 before the sign-in).
        assert response.status_code in (302, 403), response.status_code
    with club_context(beta):
        assert season_or_404(a.slug) == b
    with club_context(alfa):
        assert season_or_404(a.slug) == a


def test_an_unknown_club_is_not_found_and_a_bare_slug_gets_its_slash(client, clubs):
    assert client.get("/nergens/").status_code == 404
    assert client.get("/nergens/standings/").status_code == 404
    assert client.get("/standings/").status_code == 404  # no club at the root
    response = client.get("/alfa")
    assert response.status_code == 301 and response["Location"] == "/alfa/"


def test_a_club_host_serves_the_club_without_prefix(client, clubs, settings):
    _, beta = clubs
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "intern.beta.example"]
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    _season(beta)
    response = client.get("/standings/", HTTP_HOST="Intern.Beta.Example:443")
    assert response.status_code == 200
    assert response.context["CLUB"] == beta
    assert not any(link.startswith("/beta/") for link in _links(response))
    assert 'href="/standings/"' in response.content.decode()
    assert client.get("/accounts/login/", HTTP_HOST="intern.beta.example").context["CLUB"] == beta


def test_platform_pages_at_the_root_have_no_club_and_under_a_prefix_keep_it(client, clubs):
    alfa, _ = clubs
    assert client.get("/healthz").status_code == 200
    login = client.get("/accounts/login/")
    assert login.status_code == 200 and login.context["CLUB"] is None
    assert client.get("/language/nl/?next=/alfa/").status_code == 302
    under = client.get("/alfa/accounts/login/")
    assert under.status_code == 200 and under.context["CLUB"] == alfa
    admin = client.get("/alfa/admin/")
    assert admin.status_code == 302 and admin["Location"] == "/admin/"


def test_platform_pages_in_single_club_mode(client):
    assert client.get("/healthz").status_code == 200
    login = client.get("/accounts/login/")
    assert login.status_code == 200 and login.context["CLUB"] == home_club()
    assert client.get(f"/{home_club().slug}/").status_code == 404  # no prefixes: one club at /


def test_sign_in_returns_to_the_club_page_it_came_from(client, clubs):
    alfa, _ = clubs
    _season(alfa)
    page = client.get("/alfa/standings/").content.decode()
    assert 'href="/alfa/accounts/login/?next=/alfa/standings/"' in page
    member = factories.member(name="Els Alfa")
    member.set_password("geheim-wachtwoord-1")
    member.save()
    EmailAddress.objects.create(user=member, email=member.email, verified=True, primary=True)
    response = client.post("/accounts/login/?next=/alfa/standings/",
                           {"login": member.email, "password": "geheim-wachtwoord-1"})
    assert response.status_code == 302 and response["Location"] == "/alfa/standings/"


def test_the_middleware_restores_prefix_club_and_time_zone_when_the_view_raises(clubs):
    _, beta = clubs
    seen = {}

    def view(request):
        seen.update(prefix=get_script_prefix(), club=current_club(), path=request.path_info,
                    tz=timezone.get_current_timezone_name(), url=reverse("competition:standings"))
        raise RuntimeError("boom")

    outer = current_club()  # the test's own club (tests/conftest.py), restored after
    request = RequestFactory().get("/beta/standings/")
    with pytest.raises(RuntimeError):
        ClubMiddleware(view)(request)
    assert seen == {"prefix": "/beta/", "club": beta, "path": "/standings/", "tz": "America/Curacao",
                    "url": "/beta/standings/"}
    assert request.path == "/beta/standings/"  # the full address: redirects, next, page cache
    assert get_script_prefix() == "/" and current_club() == outer != beta
    assert timezone.get_current_timezone_name() != "America/Curacao"

    ok = ClubMiddleware(lambda request: HttpResponse(reverse("competition:standings")))
    assert ok(RequestFactory().get("/beta/standings/")).content == b"/beta/standings/"
    assert get_script_prefix() == "/"


def test_club_url_is_the_same_from_a_request_and_from_a_worker(clubs):
    alfa, beta = clubs
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    worker = club_url(alfa, reverse("competition:standings"))
    assert worker == "https://ranglijst.example/alfa/standings/"
    seen = {}

    def view(request):
        seen["url"] = club_url(alfa, reverse("competition:standings"))
        return HttpResponse()

    ClubMiddleware(view)(RequestFactory().get("/alfa/"))
    assert seen["url"] == worker
    assert club_url(beta, "/standings/") == "https://intern.beta.example/standings/"
    assert club_base_url(beta) == "https://intern.beta.example"


def test_club_url_in_single_club_mode_is_the_site_url(settings):
    settings.SITE_URL = "https://depion.example"
    assert club_url(home_club(), "/standings/") == "https://depion.example/standings/"


def test_a_club_is_linked_where_it_is_served_and_nowhere_else(clubs, settings):
    """``club_home_url``, the address "My clubs" and the list of clubs link: a club's own
    host name in either mode; ``/<slug>/`` among many clubs (whole from a club's own host,
    where a path is that club's); on a single-club installation ``/`` for its club and
    nothing for a club beside it without a host name (it is served nowhere: issue 38)."""
    alfa, beta = clubs
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    assert club_home_url(alfa) == "/alfa/"
    assert club_home_url(beta) == "https://intern.beta.example/"
    assert club_home_url(alfa, from_host="intern.beta.example") == "https://ranglijst.example/alfa/"
    assert club_home_url(alfa, from_host="ranglijst.example") == "/alfa/"
    settings.RANGLIJST_SINGLE_CLUB = True
    assert club_home_url(home_club()) == "/"
    assert club_home_url(home_club(), from_host="intern.beta.example") == "https://ranglijst.example/"
    assert club_home_url(alfa) is None
    assert club_home_url(alfa, from_host="intern.beta.example") is None
    assert club_home_url(beta) == "https://intern.beta.example/"


def test_a_single_club_installation_links_a_members_other_club_only_at_its_own_host(
        client, clubs, settings):
    """The footer's "My other clubs" and "My details" of a member of three clubs where one
    club is served at "/": the club with a host name of its own is linked there, the one
    without is not linked (the footer leaves it out, "My details" names it)."""
    alfa, beta = clubs
    settings.RANGLIJST_SINGLE_CLUB = True
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    _season(home_club())
    member = factories.member(name="Els Drie", club=home_club())
    factories.join(member, club=alfa)
    factories.join(member, club=beta)
    client.force_login(member)
    for path in ("/standings/", "/me/"):
        page = client.get(path)
        assert page.status_code == 200, path
        html = page.content.decode()
        assert 'href="https://intern.beta.example/"' in html, path
        assert "/alfa/" not in html, path
    assert beta.shown_name in client.get("/standings/").content.decode()
    details = client.get("/me/").content.decode()
    assert alfa.shown_name in details and beta.shown_name in details


def test_club_sender_is_the_platform_address_under_the_clubs_name(clubs, settings):
    alfa, beta = clubs
    settings.DEFAULT_FROM_EMAIL = "Ranglijst <competitie@ranglijst.example>"
    assert club_sender(alfa) == ("Competitieleider Alfa <competitie@ranglijst.example>",
                                 ["leider@alfa.example"])
    # Without a sender name of its own: the club's name, never the platform's "Ranglijst".
    assert club_sender(beta) == (f"{beta.shown_name} <competitie@ranglijst.example>", [])
    assert club_sender(None) == ("Ranglijst <competitie@ranglijst.example>", [])


def test_a_club_cannot_take_a_platform_or_page_address():
    reserved = reserved_slugs()
    assert {"admin", "accounts", "static", "standings", "me", "api", "leader"} <= reserved


def test_a_clubs_pairing_email_links_to_the_club_and_comes_from_its_sender(clubs, mailoutbox):
    alfa, _ = clubs
    season = _season(alfa)
    with club_context(alfa):
        evening = factories.playing_evenings(season)[0]
        pairing_services.evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True)
        notices.deliver(evening.pk)
    assert mailoutbox
    for message in mailoutbox:
        assert message.from_email == "Competitieleider Alfa <competitie@localhost>"
        assert message.reply_to == ["leider@alfa.example"]
        links = re.findall(r"https?://\S+", message.body)
        assert links and all(link.startswith("https://ranglijst.example/alfa/") for link in links), links


def test_two_clubs_pages_at_the_same_path_have_their_own_cache_keys(clubs, settings):
    """By the club of the address (the host's or the slug's), not the host string: a
    spelling of the same host (port, letter case) is the same page (issue 30)."""
    alfa, beta = clubs
    settings.ALLOWED_HOSTS = ["ranglijst.example", "intern.alfa.example", "intern.beta.example"]
    ClubDomain.objects.create(club=alfa, host="intern.alfa.example")
    ClubDomain.objects.create(club=beta, host="intern.beta.example")
    factory = RequestFactory()

    def key(host: str, path: str) -> str:  # the key inside the club the middleware finds
        middleware = ClubMiddleware(lambda request: HttpResponse(page_key(request, {})))
        return middleware(factory.get(path, HTTP_HOST=host)).content.decode()

    keys = {key(host, path)
            for host, path in (("intern.alfa.example", "/standings/"), ("intern.beta.example", "/standings/"),
                               ("ranglijst.example", "/alfa/standings/"), ("ranglijst.example", "/beta/standings/"))}
    assert len(keys) == 4
    assert key("Intern.Alfa.Example:8443", "/standings/") == key("intern.alfa.example", "/standings/")


def test_each_clubs_pairing_emails_are_in_the_clubs_language(clubs, mailoutbox):
    """Club.language: a club's e-mails are written in its language, whoever's action sends
    them (alfa Dutch, beta English, in one process)."""
    alfa, beta = clubs
    alfa.language, beta.language = "nl", "en"
    alfa.save(update_fields=["language"])
    beta.save(update_fields=["language"])
    subjects = {}
    for club in (alfa, beta):
        season = _season(club)
        mailoutbox.clear()
        with club_context(club):
            evening = factories.playing_evenings(season)[0]
            pairing_services.evening_pair_and_publish(evening_id=evening.pk, actor=None, system=True)
            notices.deliver(evening.pk)
        subjects[club.slug] = {message.subject.split("] ", 1)[1].split(" ")[0] for message in mailoutbox}
    assert subjects == {"alfa": {"Indeling"}, "beta": {"Pairing"}}
