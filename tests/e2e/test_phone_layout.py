"""Every page fits a 360 px phone: the page body never scrolls sideways; wide tables
scroll inside their ``.table-wrap``. Screenshots of each page at both widths."""

import pytest

from .conftest import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Diagnostics for a failure: elements reaching past the right edge, except content that
# scrolls inside a .table-wrap (absolutely positioned ones escape it, so they count).
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const escapes = el => !(el.parentElement && el.parentElement.closest('.table-wrap'))
    || ['absolute', 'fixed'].includes(getComputedStyle(el).position);
  return [...document.querySelectorAll('body *')]
    .filter(el => escapes(el) && el.getBoundingClientRect().right > width + 0.5)
    .map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
               + (typeof el.className === 'string' && el.className.trim()
                  ? '.' + el.className.trim().split(/\\s+/).join('.') : ''))
    .slice(0, 6);
}"""


def fits_phone(page, path, screenshot, name):
    page.set_viewport_size(PHONE)
    response = page.goto(path)
    assert response.ok, f"{path}: HTTP {response.status}"
    screenshot(name)  # first: a failing page is the one worth looking at
    page.set_viewport_size(PHONE)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    culprits = page.evaluate(OVERFLOWING)
    assert scroll_width <= PHONE["width"], f"{path} is {scroll_width}px wide: {culprits}"


def public_pages(demo):
    from competition.models import Evening

    evening = Evening.objects.filter(season=demo, status="published").order_by("-date").first()
    player = demo.players.order_by("start").first()
    return {
        "home": "/",
        "standings": "/standings/",
        "standings-all": "/standings/?all=1",
        "evenings": "/evenings/",
        "evening": f"/evenings/{evening.date.isoformat()}/",
        "player": f"/players/{player.pk}/",
        "calendar": "/calendar/",
        "rules": "/rules/",
        "sign-in": "/accounts/login/",
        "account-sign-up": "/accounts/signup/",
    }


def test_public_pages_fit_a_phone(page, demo, screenshot, subtests):
    for name, path in public_pages(demo).items():
        with subtests.test(msg=name):
            fits_phone(page, path, screenshot, name)


def test_member_sign_up_page_fits_a_phone(page, demo, screenshot, sign_in):
    sign_in("speler1@demo.club")
    fits_phone(page, "/signup/", screenshot, "sign-up")


def test_leader_pages_fit_a_phone(page, demo, screenshot, sign_in, subtests):
    sign_in("leider@demo.club")
    for name, path in {"leader": "/leader/", "leader-season": f"/leader/{demo.slug}/"}.items():
        with subtests.test(msg=name):
            fits_phone(page, path, screenshot, name)


def test_arbiter_result_forms_fit_a_phone(page, demo, screenshot, sign_in):
    from competition.models import Evening

    evening = Evening.objects.filter(season=demo, status="published").order_by("-date").first()
    sign_in("arbiter@demo.club")
    fits_phone(page, f"/evenings/{evening.date.isoformat()}/", screenshot, "evening-arbiter")
