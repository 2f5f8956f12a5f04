"""Members at once (issue 31): a member list from the KNSB's export, a CSV or a
spreadsheet, its preview (new, already a member, likely duplicate, wrong, per row) counted
against the file, and saving in one transaction through the single-member form's service.
Every bad file has one Dutch message and saves nothing; club B's members are never told."""

from __future__ import annotations

import codecs
import io
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse
from openpyxl import Workbook

from competition.models import AuditRecord, Player
from competition.roster import memberimport, services
from competition.roster.memberfile import read_table
from core.models import Mail
from members.models import Membership, User
from tests import factories as f
from tests.decoy import SHARED_EMAIL, decoy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("in_home_club")]

SITE = "http://testserver"
KNSB_EXPORT = (
    "Relatienummer;Naam;Rating;E-mail;Geboortedatum\n"
    "8100001;Vries, Jan de;1850;jan@example.org;1-2-1970\n"
    "8100002;Bakker, Anna;1920;anna@example.org;3-4-1985\n"
    "8100003;Smit, Piet;0;;5-6-2010\n"
)


@pytest.fixture
def season():
    return f.season(players=4, flexible=0)


@pytest.fixture
def leader():
    return f.leader()


def _preview(season, content: bytes | str, name: str = "leden.csv", mapping=None):
    raw = content.encode() if isinstance(content, str) else content
    table = read_table(raw, name)
    return table, memberimport.preview(season=season, table=table,
                                       mapping=mapping or memberimport.guess_mapping(table.header))


def _import(season, leader, content: bytes | str, name: str = "leden.csv", **kwargs):
    table, _ = _preview(season, content, name)
    return memberimport.members_import(actor=leader, season=season, table=table,
                                       mapping=memberimport.guess_mapping(table.header),
                                       site_url=SITE, **kwargs)


def _counts(season):
    return (User.objects.count(), Player.objects.filter(season=season).count(),
            Mail.objects.count(), Membership.objects.count())


# --- The formats -----------------------------------------------------------------------


def test_the_knsb_export_is_read_with_its_names_turned_and_its_zero_rating_none(season):
    _, preview = _preview(season, KNSB_EXPORT)
    assert [(r.line, r.name, r.knsb_number, r.email, r.rating, r.status) for r in preview.rows] == [
        (2, "Jan de Vries", "8100001", "jan@example.org", 1850, "new"),
        (3, "Anna Bakker", "8100002", "anna@example.org", 1920, "new"),
        (4, "Piet Smit", "8100003", "", None, "new"),
    ]


@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
@pytest.mark.parametrize("bom", [b"", codecs.BOM_UTF8])
def test_a_csv_with_any_of_its_delimiters_and_with_or_without_bom_reads_alike(season, delimiter, bom):
    text = "\n".join(delimiter.join(cells) for cells in [
        ("Voornaam", "Tussenvoegsel", "Achternaam", "Email", "KNSB"),
        ("Jan", "de", "Vries", "jan@example.org", "8100001"),
        ("Ëlla", "", "Özdemir", "ella@example.org", ""),
    ])
    _, preview = _preview(season, bom + text.encode())
    assert [(r.name, r.email, r.knsb_number) for r in preview.rows] == [
        ("Jan de Vries", "jan@example.org", "8100001"), ("Ëlla Özdemir", "ella@example.org", "")]


def _xlsx(rows) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_spreadsheet_is_read_with_its_numbers_as_written(season):
    content = _xlsx([["Naam", "Relatienummer", "Rating", "E-mailadres"],
                     ["Jan de Vries", 8100001, 1850.0, "jan@example.org"],
                     [None, None, None, None],
                     ["Anna Bakker", 8100002, None, "anna@example.org"]])
    _, preview = _preview(season, content, "leden.xlsx")
    assert [(r.line, r.name, r.knsb_number, r.rating) for r in preview.rows] == [
        (2, "Jan de Vries", "8100001", 1850), (4, "Anna Bakker", "8100002", None)]


# --- The preview, counted against the file ----------------------------------------------


def test_the_preview_counts_new_existing_duplicates_and_wrong_rows_as_the_file_has_them(season):
    existing = season.players.select_related("member").order_by("start")
    first, second, third = (p.member for p in existing[:3])
    first.knsb_number = "8200001"
    first.save()
    rows = [
        "Relatienummer;Naam;E-mail;Rating",
        "8200001;Iemand Anders;;1500",                 # 2 exists: first's number
        f";Nog Iemand;{second.email};",                 # 3 exists: second's address
        f";{third.name};;",                            # 4 duplicate: third's name
        "8300001;Karel Nieuw;karel@example.org;1700",   # 5 new
        "8300002;Lies Nieuw;;",                        # 6 new, no address
        "8300003;;lies@example.org;",                  # 7 error: no name
        "abc;Mark Fout;mark@example;4000",              # 8 error: number, address, rating
        "8300001;Karel Twee;;",                        # 9 error: number of row 5
        ";Lies Nieuw;;",                               # 10 error: name of row 6
        ";Kees Derde;KAREL@example.org;",               # 11 error: address of row 5
    ]
    _, preview = _preview(season, "\n".join(rows))
    status = {r.line: r.status for r in preview.rows}
    assert status == {2: "exists", 3: "exists", 4: "duplicate", 5: "new", 6: "new", 7: "error",
                      8: "error", 9: "error", 10: "error", 11: "error"}
    assert preview.counts == {"new": 2, "exists": 2, "duplicate": 1, "error": 5}
    assert sum(preview.counts.values()) == len(rows) - 1
    wrong = {r.line: r.problems for r in preview.rows if r.problems}
    assert len(wrong[8]) == 3
    assert wrong[9] == ["KNSB relation number 8300001 is also on row 5"]
    assert wrong[10] == ["the name Lies Nieuw is also on row 6"]
    assert wrong[11] == ["the e-mail address karel@example.org is also on row 5"]


def test_the_preview_says_each_problem_in_dutch_with_the_row_number(season, leader, client):
    client.force_login(leader)
    content = "Relatienummer;Naam;E-mail\nabc;Jan;jan@example.org\n8300001;Jan;\n"
    with override_settings(LANGUAGE_CODE="nl"):
        page = client.post(reverse("members:import", args=[season.slug]),
                           {"file": SimpleUploadedFile("leden.csv", content.encode())},
                           HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "rij 2:" in page and "is geen KNSB-relatienummer" in page
    assert "rij 3:" in page and "de naam Jan staat ook op rij 2" in page
    assert "Er kan nog niets worden opgeslagen" in page


def test_an_address_of_another_clubs_member_is_new_and_never_said(season):
    club_b = decoy()
    shared = User.objects.get(email=SHARED_EMAIL)
    only_b = User.objects.filter(memberships__club=club_b).exclude(email=SHARED_EMAIL).first()
    only_b.knsb_number = "8999999"
    only_b.save()
    content = (f"Naam;E-mail;Relatienummer\nBuiten Club;{only_b.email};8999999\n"
               "Wie Dan Ook;nieuw@example.org;\n")
    _, preview = _preview(season, content)
    assert [r.status for r in preview.rows] == ["new", "new"]
    assert all(not r.member for r in preview.rows)
    assert shared.memberships.filter(club=club_b).exists()  # B is as it was


# --- Saving ------------------------------------------------------------------------------


def test_saving_adds_the_new_members_invites_them_after_commit_and_skips_the_rest(
        season, leader, django_capture_on_commit_callbacks):
    existing = season.players.select_related("member").order_by("start").first().member
    content = KNSB_EXPORT + f";{existing.name};;\n"
    users, players, mails, _ = _counts(season)
    with django_capture_on_commit_callbacks() as callbacks:
        added = _import(season, leader, content)
    assert [p.member.name for p in added] == ["Jan de Vries", "Anna Bakker", "Piet Smit"]
    assert _counts(season)[:3] == (users + 3, players + 3, mails + 2)
    assert callbacks  # the invitations go after commit, through the outbox
    assert sorted(Mail.objects.values_list("to", flat=True))[-2:] == [["anna@example.org"],
                                                                     ["jan@example.org"]]
    piet = User.objects.get(name="Piet Smit")
    assert not services.has_address(piet) and piet.knsb_number == "8100003"
    assert not Mail.objects.filter(member=piet).exists()
    assert AuditRecord.objects.filter(action="member.add").count() == 3
    assert all(p.member.memberships.filter(club=season.club).exists() for p in added)


def test_a_likely_duplicate_is_added_only_when_ticked(season, leader):
    existing = season.players.select_related("member").order_by("start").first().member
    content = f"Naam;E-mail\n{existing.name};tweede@example.org\n"
    with pytest.raises(ValidationError, match="no new members"):
        _import(season, leader, content)
    [added] = _import(season, leader, content, add_anyway=[2])
    assert added.member.email == "tweede@example.org"


def test_a_failure_while_saving_saves_nothing(season, leader, monkeypatch):
    before = _counts(season)

    def refused(*args, **kwargs):
        raise ValidationError("refused")

    monkeypatch.setattr(memberimport.invitations, "queue_many", refused)  # after every insert
    with pytest.raises(ValidationError):
        _import(season, leader, KNSB_EXPORT)
    assert _counts(season) == before
    assert not User.objects.filter(name="Jan de Vries").exists()


def test_a_player_cannot_import_members(season):
    player = season.players.select_related("member").first().member
    table, _ = _preview(season, KNSB_EXPORT)
    with pytest.raises(PermissionDenied):
        memberimport.members_import(actor=player, season=season, table=table,
                                    mapping=memberimport.guess_mapping(table.header), site_url=SITE)
    assert not User.objects.filter(name="Jan de Vries").exists()


IMPORT_QUERIES = 20  # the same for 10 and 50 members: nothing is written per member


@pytest.mark.parametrize("n", [10, 50])
def test_saving_takes_the_same_queries_for_10_and_50_members(season, leader, n,
                                                              django_assert_max_num_queries):
    content = "Naam;E-mail;Relatienummer\n" + "".join(
        f"Lid {i:04d} Nieuw;{f'lid{i}@example.org' if i % 5 else ''};{8400000 + i}\n"
        for i in range(n))
    table, _ = _preview(season, content)
    with django_assert_max_num_queries(IMPORT_QUERIES):
        added = memberimport.members_import(actor=leader, season=season, table=table,
                                            mapping=memberimport.guess_mapping(table.header),
                                            site_url=SITE)
    assert len(added) == n
    starts = sorted(Player.objects.filter(season=season).values_list("start", flat=True))
    assert starts == list(range(1, 4 + n + 1))
    assert Mail.objects.filter(member__name__startswith="Lid ").count() == n - n // 5
    assert AuditRecord.objects.filter(action="member.add").count() >= n
    # the invitation's link is allauth's own: it lets the member set his password
    from allauth.account.forms import default_token_generator

    invitation = Mail.objects.filter(member__name="Lid 0001 Nieuw").get()
    token = re.search(r"/key/[0-9a-z]+-([0-9a-z]+-[0-9a-f]+)/", invitation.body).group(1)
    assert default_token_generator.check_token(invitation.member, token)


def test_the_preview_takes_the_same_queries_for_5_and_500_rows(season, django_assert_max_num_queries):
    big = "Naam;E-mail\n" + "".join(f"Lid {i:04d};l{i}@example.org\n" for i in range(500))
    with django_assert_max_num_queries(3):
        _preview(season, big)


# --- Bad files: one Dutch message, nothing saved -------------------------------------------


def _upload(client, season, content: bytes, name: str = "leden.csv") -> str:
    with override_settings(LANGUAGE_CODE="nl"):
        response = client.post(reverse("members:import", args=[season.slug]),
                               {"file": SimpleUploadedFile(name, content)},
                               HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200
    return response.content.decode()


def _save(client, season, page: str) -> str:
    import re

    table = re.search(r'name="table" value="([^"]+)"', page).group(1)
    mapping = dict(re.findall(r'<select name="(\w+)"[^>]*>(?:(?!</select>).)*?<option value="([^"]*)" selected',
                              page, re.S))
    with override_settings(LANGUAGE_CODE="nl"):
        response = client.post(reverse("members:import", args=[season.slug]),
                               {"table": table, "save": "1", **mapping}, HTTP_ACCEPT_LANGUAGE="nl",
                               follow=True)
    return response.content.decode()


BAD_FILES = {
    "wrong columns": (b"Kolom A;Kolom B\n1;2\n", "De kolommen van dit bestand zijn niet herkend"),
    "duplicate numbers": (b"Relatienummer;Naam\n8100001;Jan de Vries\n8100001;Anna Bakker\n",
                          "KNSB-relatienummer 8100001 staat ook op rij 2"),
    "a name twice": (b"Naam;E-mail\nJan de Vries;a@example.org\nVries, Jan de;b@example.org\n",
                     "de naam Jan de Vries staat ook op rij 2"),
    "not utf-8": ("Naam;E-mail\nJosé Müller;jose@example.org\n".encode("cp1252"),
                  "Het bestand is niet in UTF-8 geschreven"),
    "10 MB": (b"Naam;E-mail\n" + b"Jan de Vries;jan@example.org\n" * (10 * 2**20 // 28),
              "Het bestand is groter dan 2 MB"),
    "empty": (b"", "Het bestand is leeg"),
    "header only": (b"Naam;E-mail\n", "geen leden eronder"),
}


@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_bad_file_gets_one_dutch_message_and_saves_nothing(season, leader, client, kind):
    content, message = BAD_FILES[kind]
    client.force_login(leader)
    before = _counts(season)
    page = _upload(client, season, content)
    assert page.count(message) == 1, page
    if 'name="table"' in page:  # read, but wrong: saving it all the same is refused
        assert 'name="save" value="1"' not in page
        page = _save(client, season, page)
        assert "Er is niets opgeslagen" in page or "Nothing was saved" in page or message in page
    assert _counts(season) == before


def test_the_leader_uploads_maps_and_saves_on_his_own_page(season, leader, client):
    client.force_login(leader)
    page = _upload(client, season, KNSB_EXPORT.encode())
    assert 'data-status="new"' in page and "Jan de Vries" in page
    page = _save(client, season, page)
    assert "3 leden toegevoegd" in page
    assert User.objects.filter(name__in=["Jan de Vries", "Anna Bakker", "Piet Smit"]).count() == 3
    assert reverse("members:import", args=[season.slug]) in client.get(
        reverse("members:index", args=[season.slug])).content.decode()


def test_no_mail_is_queued_to_an_address_that_can_never_be_delivered():
    from core import mail

    assert mail.queue(key="x:1", subject="s", body="b", to=["lid-1@geen-adres.invalid"]) is None
    kept = mail.queue(key="x:2", subject="s", body="b", to=["jan@example.org", "x@leden.invalid"])
    assert kept.to == ["jan@example.org"] and Mail.objects.count() == 1
