"""Public pages are cached for visitors per version of the club's data: a visitor never
reads a page older than the last change."""

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse

from competition.pages.views import STANDINGS_PARAMS
from competition.season import services
from core.pagecache import cache
from tests import factories as f

pytestmark = pytest.mark.django_db


@override_settings(PAGE_CACHE_SECONDS=600)
def test_a_second_visit_is_served_from_the_cache_without_queries(
    client, paired_club, django_assert_max_num_queries
):
    url = reverse("competition:standings")
    first = client.get(url)
    assert first.status_code == 200 and not first.cookies
    with django_assert_max_num_queries(0):
        second = client.get(url)
    assert second.content == first.content
    assert second["Content-Security-Policy"]


@override_settings(PAGE_CACHE_SECONDS=600)
def test_a_new_result_is_visible_at_once(client, paired_club, django_capture_on_commit_callbacks):
    s, evening = paired_club
    url = reverse("competition:evening", args=[evening.date.isoformat()])
    before = client.get(url).content.decode()
    game = evening.games.order_by("board").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=f.arbiter(), game=game, result="0-1")
    after = client.get(url).content.decode()
    assert after != before and 'data-result="0-1"' in after


@override_settings(PAGE_CACHE_SECONDS=600)
def test_signed_in_members_and_other_languages_get_their_own_page(client, paired_club):
    url = reverse("competition:home")
    visitor = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="nl"' in visitor and 'lang="en"' in english
    s, _ = paired_club
    client.force_login(s.players.first().member)
    member = client.get(url).content.decode()
    assert member != visitor and "Sign out" in member or "Uitloggen" in member


@override_settings(PAGE_CACHE_SECONDS=600)
def test_public_pages_set_no_cookie_so_they_can_be_cached(client, paired_club):
    for name in ("competition:home", "competition:standings", "competition:calendar",
                 "competition:rules", "competition:evenings"):
        response = client.get(reverse(name))
        assert response.status_code == 200 and not response.cookies, name


@override_settings(PAGE_CACHE_SECONDS=600)
def test_a_sign_off_before_the_pairing_refreshes_its_evening_page_only(
    client, paired_club, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    s, _ = paired_club
    later = f.playing_evenings(s)[-1]
    evening_url = reverse("competition:evening", args=[later.date.isoformat()])
    standings_url = reverse("competition:standings")
    client.get(evening_url)
    client.get(standings_url)
    player = s.players.order_by("start").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.registration_set(actor=f.leader(), player=player, evenings=[later],
                                  status="absent_with_notice")
    assert player.member.name in client.get(evening_url).content.decode()
    with django_assert_max_num_queries(0):
        client.get(standings_url)  # still served from the cache


@override_settings(PAGE_CACHE_SECONDS=600)
def test_while_one_visitor_renders_a_new_version_the_others_get_the_previous_one(
    client, paired_club, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    from core import pagecache
    _season, evening = paired_club
    url = reverse("competition:standings")
    old = client.get(url).content
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.standings_changed([evening.half_id])
    request = RequestFactory().get(url)
    request.LANGUAGE_CODE = "en"
    key = pagecache.page_key(request, STANDINGS_PARAMS)
    current = pagecache.half_version(evening.half_id) + "."
    cache.add(f"{key}:rendering:{current}", 1, 10)  # somebody is rendering it right now
    with django_assert_max_num_queries(0):
        assert client.get(url).content == old
    cache.delete(f"{key}:rendering:{current}")
    with django_capture_on_commit_callbacks(execute=True):
        pagecache.standings_changed([evening.half_id])
    assert client.get(url).status_code == 200  # the next visitor renders the new version


@override_settings(PAGE_CACHE_SECONDS=600, PAGE_STALE_SECONDS=5)
def test_a_change_reaches_visitors_within_the_stale_window(
    client, paired_club, django_capture_on_commit_callbacks, monkeypatch
):
    import time as clock

    s, evening = paired_club
    url = reverse("competition:evening", args=[evening.date.isoformat()])
    before = client.get(url).content.decode()
    game = evening.games.order_by("board").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=f.arbiter(), game=game, result="0-1")
    assert client.get(url).content.decode() == before  # within the window: the stored page
    now = clock.time()
    monkeypatch.setattr("core.pagecache.time.time", lambda: now + 6)
    assert 'data-result="0-1"' in client.get(url).content.decode()  # after it: the new one


@override_settings(PAGE_CACHE_SECONDS=600)
def test_signed_in_members_reuse_the_standings_body_and_render_only_their_header(
    client, paired_club, django_assert_max_num_queries
):
    s, _evening = paired_club
    first, second = (p.member for p in s.players.order_by("start")[:2])
    url = reverse("competition:standings_half", args=[s.slug, "winter"])
    client.force_login(first)
    page = client.get(url).content.decode()
    client.force_login(second)
    # Session, user, his permissions and his player (his page, "Sign up/off") for the
    # menu, and his other clubs ("My clubs", the footer): the standings themselves come
    # from the body rendered for the first member (no query for the season, half or rows).
    with django_assert_max_num_queries(6) as queries:
        again = client.get(url).content.decode()
    assert not any("competition_standing" in q["sql"] for q in queries.captured_queries)
    body = page[page.index("<main"):]
    assert again[again.index("<main"):] == body
    assert first.name in body and second.name in body  # every row: signed in sees all


# --- Keys on the parameters a page uses (issue 12, finding 3) ---------------------------------


@override_settings(PAGE_CACHE_SECONDS=600)
def test_junk_query_strings_are_served_from_one_stored_page(client, paired_club, monkeypatch):
    """A hundred ``?cb=N`` visits render the page once and store one entry."""
    from core import pagecache
    stored: list[str] = []
    real_set = pagecache.cache.set

    def counting_set(key, *args, **kwargs):
        if key.startswith("page:"):
            stored.append(key)
        return real_set(key, *args, **kwargs)

    monkeypatch.setattr(pagecache.cache, "set", counting_set)
    url = reverse("competition:rules")
    first = client.get(url).content
    for n in range(100):
        assert client.get(url, {"cb": n, "season": "", "x" * 10: "y"}).content == first
    assert len(stored) == 1


@override_settings(PAGE_CACHE_SECONDS=600)
def test_the_parameters_a_page_uses_still_give_their_own_page(client, paired_club):
    s, _ = paired_club
    url = reverse("competition:standings_half", args=[s.slug, "winter"])
    short = client.get(url).content
    long = client.get(url, {"all": "1"}).content
    assert long != short
    assert client.get(url, {"all": "1", "cb": "7"}).content == long
    assert client.get(url, {"all": "2"}).content == short  # a value the page ignores
    csv = client.get(url, {"export": "csv"})
    assert csv["Content-Type"].startswith("text/csv")


def test_page_key_normalises_order_and_drops_unknown_and_overlong_values(rf):
    from core.pagecache import page_key

    params = {"season": None, "all": {"1"}}
    base = rf.get("/standings/", {"season": "s", "all": "1"})
    same = rf.get("/standings/", {"all": "1", "cb": "9", "season": "s"})
    assert page_key(base, params) == page_key(same, params)
    assert page_key(rf.get("/standings/", {"all": "2"}), params) == page_key(
        rf.get("/standings/"), params)
    assert page_key(rf.get("/standings/", {"season": "x" * 100}), params) == page_key(
        rf.get("/standings/"), params)
    assert page_key(rf.get("/standings/", {"season": "t"}), params) != page_key(base, params)


@override_settings(PAGE_CACHE_SECONDS=600)
def test_a_result_in_one_half_leaves_the_other_halfs_pages_cached(
    client, in_home_club, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """The page-cache bump is per half: after a summer result the winter half's
    standings, cross table and evening pages are served from the cache without a query,
    while the summer's standings and the pages that show every half are made anew."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from pairing.services import evening_pair_and_publish

    cache.clear()
    s = f.season(players=6)
    arbiter = f.arbiter()
    winter, summer = f.playing_evenings(s, "winter")[0], f.playing_evenings(s, "summer")[0]
    with django_capture_on_commit_callbacks(execute=True):
        for evening in (winter, summer):
            evening_pair_and_publish(actor=None, system=True, evening_id=evening.pk,
                                     now=evening.deadline)
            for game in evening.games.all():
                services.result_set(actor=arbiter, game=game, result="1-0")
    kept = [reverse("competition:standings_half", args=[s.slug, "winter"]),
            reverse("competition:crosstable", args=[s.slug, "winter"]),
            reverse("competition:evening", args=[winter.date.isoformat()])]
    fresh = [reverse("competition:standings_half", args=[s.slug, "summer"]),
             reverse("competition:evening", args=[summer.date.isoformat()]),
             reverse("competition:home")]
    before = {url: client.get(url).content for url in kept + fresh}
    with django_capture_on_commit_callbacks(execute=True):
        services.result_set(actor=arbiter, game=summer.games.order_by("board").first(),
                            result="0-1")
    for url in kept:
        with django_assert_max_num_queries(0):
            assert client.get(url).content == before[url], url
    for url in fresh:
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        assert page.status_code == 200 and len(queries) > 0, url  # made anew
    assert client.get(fresh[0]).content != before[fresh[0]]
