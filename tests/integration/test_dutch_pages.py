"""No English on the Dutch site: every page a visitor and a player reach, with Dutch
active, is free of the English source strings of the project's own catalogue (and the
English site of their Dutch translations). Dates in running text are written out, never
ISO; signing in is "inloggen"; the admin speaks Dutch and is titled for the club."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from competition.models import EveningKind
from members.models import User
from tests.crawler import crawl
from tests.demo_snapshot import demo_season
from tests.transactions import rolled_back
from tests.unit.i18n.test_translations import _entries

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("club_today")]

TODAY = dt.date(2026, 11, 30)
LOCALE = Path(__file__).resolve().parents[2] / "locale"
ROLES = {"visitor": None, "player": "speler1@demo.club"}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), rolled_back():
        season = demo_season(TODAY)
        # One evening of every kind, so the walk reaches how each one reads.
        evenings = list(season.evenings.filter(date__gt=TODAY).order_by("date"))
        for evening, kind in zip(evenings[-4:], (EveningKind.RAPID, EveningKind.CLOSED,
                                                  EveningKind.FREE, EveningKind.PLAYOFF), strict=True):
            evening.kind = kind
            evening.save(update_fields=["kind"])
        yield season


@pytest.fixture(autouse=True)
def _language_restored():
    """A Dutch request leaves Dutch active in this thread; the next module expects English."""
    from django.utils import translation

    yield
    translation.deactivate()


def telling(msgid: str, msgstr: str) -> bool:
    """A catalogue string that gives a language away: translated differently, not a
    placeholder pattern, and long enough not to be a name, a number or an abbreviation
    both languages share ("TPR", "W", "%")."""
    msgid = msgid.rsplit("\x04", 1)[-1]  # without its context ("colour letter: white")
    if not msgstr or msgid == msgstr or "\x00" in msgid:
        return False
    if re.search(r"%\(|%s|<|\{", msgid) or re.fullmatch(r"[DjMYlFbHi: ]+", msgid):
        return False
    return len(msgid) >= 8 and " " in msgid.strip() or len(msgid) >= 10


def catalogue(lang: str) -> list[tuple[str, str]]:
    """The telling pairs; a word both languages use ("score", "byes") tells nothing."""
    entries = _entries(LOCALE / lang / "LC_MESSAGES" / "django.po")
    msgids = {msgid for msgid, _, _ in entries}
    msgstrs = {msgstr for _, msgstr, _ in entries}
    return [
        (msgid, msgstr)
        for msgid, msgstr, _ in entries
        if telling(msgid, msgstr) and msgid not in msgstrs and msgstr not in msgids
    ]


def page_text(html: str) -> str:
    """What a reader sees: the text, titles and labels, without markup or scripts."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    attributes = " ".join(re.findall(r'(?:title|aria-label|placeholder|alt)="([^"]*)"', html))
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", htmllib.unescape(f"{text} {attributes}"))


def found_in(text: str, phrase: str) -> bool:
    """The phrase as words of their own (a substring test first: thousands of phrases a
    page, and most are not there at all)."""
    return phrase in text and re.search(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", text) is not None


def client_for(role: str, lang: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    if ROLES[role]:
        client.force_login(User.objects.get(email=ROLES[role]))
    return client


@pytest.fixture(scope="module")
def walks() -> dict:
    """The walks made so far, by (role, language): the module's demo is only read, so each
    walk is made once and read by every test that needs it."""
    return {}


def walk(walks: dict, role: str, lang: str):
    if (role, lang) not in walks:
        start = ["/", "/accounts/login/", "/accounts/signup/", "/calendar/"]
        pages = [p for p in crawl(client_for(role, lang), start, max_pages=300) if p.status == 200]
        assert len(pages) > 20, f"the walk as {role} reached only {[p.url for p in pages]}"
        walks[role, lang] = pages
    return walks[role, lang]


@pytest.mark.parametrize("role", sorted(ROLES))
def test_the_dutch_site_shows_no_english_string_of_the_catalogue(demo, walks, role):
    english = catalogue("nl")
    leaks = []
    for page in walk(walks, role, "nl"):
        text = page_text(page.html)
        leaks += [f"{page.url}: {msgid!r}" for msgid, _ in english if found_in(text, msgid)]
    assert leaks == [], "\n".join(leaks)


@pytest.mark.parametrize("role", sorted(ROLES))
def test_the_english_site_shows_no_dutch_translation(demo, walks, role):
    dutch = catalogue("nl")
    leaks = []
    for page in walk(walks, role, "en"):
        text = page_text(page.html)
        leaks += [f"{page.url}: {msgstr!r}" for _, msgstr in dutch if found_in(text, msgstr)]
    assert leaks == [], "\n".join(leaks)


@pytest.mark.parametrize("role", sorted(ROLES))
def test_dates_in_dutch_running_text_are_written_out_never_iso(demo, walks, role):
    iso = []
    for page in walk(walks, role, "nl"):
        text = page_text(page.html)
        iso += [f"{page.url}: {m}" for m in re.findall(r"\b20\d\d-\d\d-\d\d\b", text)]
    assert iso == [], "\n".join(iso)


def test_month_abbreviations_are_lower_case_in_dutch(client, demo):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    text = page_text(client.get("/evenings/").content.decode())
    assert re.search(r"\bvr \d{1,2} (sep|okt|nov|dec)\b", text)
    assert not re.search(r"\b(Sep|Okt|Nov|Dec)\b", text)


def test_sign_in_reads_inloggen_and_sign_out_uitloggen(client, demo):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    text = page_text(client.get("/accounts/login/").content.decode())
    assert "Inloggen" in text
    assert "Aanmelden" not in text
    client.force_login(User.objects.get(email="speler1@demo.club"))
    text = page_text(client.get("/accounts/logout/").content.decode())
    assert "Uitloggen" in text and "Afmelden" not in text


def test_a_late_flexible_sign_up_is_refused_in_dutch_with_the_date_written_out(demo):
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from competition.models import Player
    from competition.season import services

    player = Player.objects.filter(season=demo, kind="flexible").select_related("member").first()
    evening = demo.evenings.filter(kind=EveningKind.PLAYING, date__gt=TODAY).order_by("date").first()
    late = dt.datetime.combine(evening.date, dt.time(19), tzinfo=timezone.get_current_timezone())
    with translation.override("nl"), pytest.raises(ValidationError) as caught:
        services.registration_set(actor=player.member, player=player, evenings=[evening],
                                  status="present", now=late)
    message = caught.value.messages[0]
    assert message == (
        f"vr {evening.date.day} dec: De aanmeldtermijn is verstreken; "
        "vraag de competitieleider je toe te voegen."
    )


def test_the_admin_speaks_dutch_and_is_titled_for_the_club(demo):
    admin = User.objects.filter(is_superuser=True).first() or User.objects.get(email="beheer@demo.club")
    client = client_for("visitor", "nl")
    client.force_login(admin)
    body = client.get("/admin/").content.decode()
    assert "<title>Beheer | Ranglijst</title>" in body  # the admin is the platform's
    assert "Django" not in page_text(body)
    for english in ("Playoff brackets", "Standings snapshots", "Event games"):
        assert english not in body
    assert "Playoffschema's" in page_text(body)
    response = client.get("/admin/competition/evening/")
    assert response.status_code == 200
    for label in ("Pairing seed", "Published at"):
        assert label not in response.content.decode()


def test_every_page_links_the_favicon(client, demo):
    assert 'rel="icon"' in client.get("/").content.decode()
    assert (Path(settings.BASE_DIR) / "static" / "favicon.svg").exists()


STAFF = {"arbiter": "arbiter@demo.club", "leader": "leider@demo.club",
         "administrator": "beheer@demo.club"}


@pytest.mark.parametrize("role", sorted(STAFF))
def test_the_staffs_dutch_pages_write_dates_out_with_lower_case_months(demo, role):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    client.force_login(User.objects.get(email=STAFF[role]))
    wrong = []
    for page in crawl(client, ["/", "/leader/"], max_pages=150):
        if page.status != 200 or page.url.startswith("/admin/"):
            continue
        text = page_text(page.html)
        wrong += [f"{page.url}: {m}" for m in re.findall(r"\b(?:Sep|Okt|Nov|Dec)\b", text)]
        wrong += [f"{page.url}: {m}" for m in re.findall(r"\b20\d\d-\d\d-\d\d\b", text)]
    assert wrong == [], "\n".join(wrong[:20])
