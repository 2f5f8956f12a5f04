"""The pages people read (issue 15): sorting sorts every row, the eligibility mark has a
visible legend, absences are split, the explanation adds up on screen, the place chart
spans the field, and evenings that are not playing evenings say what they are."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from competition.models import EveningKind, Standing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)


@pytest.fixture(autouse=True)
def _language_restored():
    """A Dutch request leaves Dutch active in this thread; the next module expects English."""
    from django.utils import translation

    yield
    translation.deactivate()


def body_rows(html: str) -> list[str]:
    table = html[html.index("<tbody"):html.index("</tbody>")]
    return re.findall(r"<tr\b.*?</tr>", table, flags=re.S)


def test_sorting_the_public_standings_sorts_every_player_not_the_first_eight(client, demo):
    html = client.get("/standings/", {"sort": "-games"}).content.decode()
    assert len(body_rows(html)) == demo.players.count()


def test_the_unsorted_public_standings_still_show_eight(client, demo):
    assert len(body_rows(client.get("/standings/").content.decode())) == 8


def test_the_eligibility_mark_is_explained_in_a_visible_legend(client, demo):
    html = client.get("/standings/", {"all": "1"}).content.decode()
    assert 'class="badge warn"' in html  # some players are not (yet) eligible
    legend = html[html.index("data-legend"):]
    legend = legend[:legend.index("</dl>")]
    assert "not (yet) eligible for a prize" in legend


def test_absences_are_split_into_with_and_without_notice(client, demo):
    html = client.get("/standings/", {"all": "1"}).content.decode()
    head = html[html.index("<thead"):html.index("</thead>")]
    assert "Absent with notice" in head and "Absent without notice" in head


def test_the_explanation_adds_up_on_screen_with_a_rounding_line(client, demo):
    rounded = [
        row for row in Standing.objects.filter(snapshot__half__season=demo).exclude(explanation=[])
        if sum(Decimal(line["points"]) for line in row.lines()) != row.score
    ]
    assert rounded, "the demo has a player whose lines do not add up exactly"
    row = rounded[-1]
    html = client.get(f"/players/{row.player_id}/").content.decode()
    assert "data-rounding=" in html
    assert "Rounding" in html


def test_the_place_chart_spans_the_field_and_names_the_evenings(client, demo):
    first = Standing.objects.filter(snapshot__half__season=demo, rank=1).first()
    html = client.get(f"/players/{first.player_id}/").content.decode()
    svg = html[html.index("<svg class=\"chart\""):html.index("</svg>")]
    assert f'data-field="{demo.players.count()}"' in svg
    assert re.search(r'data-evening="2026-\d\d-\d\d">\d{1,2} \w{3}<', svg)
    assert 'viewBox="0 0 640 180"' in svg  # compact, not page high (room for labels legible on a phone)


@pytest.mark.parametrize("kind,says", [
    (EveningKind.CLOSED, "The venue is closed this evening"),
    (EveningKind.FREE, "No competition this evening."),
    (EveningKind.RAPID, "A rapid evening"),
    (EveningKind.PLAYOFF, "A playoff evening"),
])
def test_an_evening_that_is_not_a_playing_evening_says_what_it_is(client, demo, kind, says):
    evening = demo.evenings.filter(date__gt=TODAY, kind=EveningKind.PLAYING).order_by("-date").first()
    evening.kind = kind
    evening.save(update_fields=["kind"])
    html = client.get(f"/evenings/{evening.date.isoformat()}/").content.decode()
    assert says in html
    assert "games start" not in html and "published after the sign-up deadline" not in html


def test_a_rapid_evening_links_to_its_events_rounds(client, demo):
    from competition.events import services as swiss
    from members.models import User

    evening = demo.evenings.filter(date__gt=TODAY, kind=EveningKind.PLAYING).order_by("-date").first()
    evening.kind = EveningKind.RAPID
    evening.save(update_fields=["kind"])
    leader = User.objects.get(email="leider@demo.club")
    event = swiss.event_create(actor=leader, season=demo, kind="rapid", name="Rapid winter",
                               half=demo.halves.get(kind="winter"))
    arbiter = User.objects.get(email="arbiter@demo.club")
    rnd = swiss.round_open(actor=arbiter, event=event, evening=evening)
    html = client.get(f"/evenings/{evening.date.isoformat()}/").content.decode()
    assert f'href="/events/{event.pk}/rounds/{rnd.number}/"' in html


def dutch(client):
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    return client


def test_the_rules_page_writes_numbers_and_the_deadline_as_the_dutch_do(client, demo):
    html = dutch(client).get("/rules/").content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    # A half as a club writes it; pion's 0,3333 says it rounds a third (issue 32).
    assert "½ × het waardecijfer" in text and "0,3333 (⅓, afgerond) × het eigen waardecijfer" in text
    assert "0.5" not in text and "0.3333" not in text
    assert "donderdag 18:00" in text


def test_the_rules_page_repeats_no_label_in_its_text_and_no_term_twice(client, demo):
    html = dutch(client).get("/rules/").content.decode()
    pairs = re.findall(r"<dt><strong>(.*?)</strong></dt><dd>(.*?)</dd>", html, flags=re.S)
    terms = [term for term, _ in pairs]
    assert len(terms) == len(set(terms)), terms
    assert [t for t, text in pairs if text.startswith(f"{t}:")] == []


def test_no_page_heading_is_shown_twice(client, demo):
    for url in ("/", "/standings/", "/rules/", "/calendar/", "/evenings/"):
        html = dutch(client).get(url).content.decode()
        headings = [re.sub(r"<[^>]+>|\s+", " ", h).strip()
                    for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", html, flags=re.S)]
        assert len(headings) == len(set(headings)), (url, headings)


def test_a_swiss_event_explains_de_in_a_visible_legend_and_leaves_it_empty_before_a_round(client):
    from tests.integration.test_swiss_pages import blitz_event

    event, _, _ = blitz_event(6, finished_rounds=0, live=True)
    html = dutch(client).get(f"/events/{event.pk}/").content.decode()
    legend = html[html.index("data-legend"):]
    assert "lager is beter" in legend[:legend.index("</dl>")]
    rows = body_rows(html)
    assert rows and all(
        re.findall(r'<td class="num">(.*?)</td>', row, flags=re.S)[2].strip() == "" for row in rows
    )


def test_swiss_tiebreak_decimals_are_written_with_a_comma_in_dutch():
    from fractions import Fraction

    from django.utils import translation

    from competition.events.selectors import points_text

    with translation.override("nl"):
        assert points_text(Fraction(49, 4)) == "12,25"
        assert points_text(Fraction(7, 2)) == "3½"
    with translation.override("en"):
        assert points_text(Fraction(49, 4)) == "12.25"
