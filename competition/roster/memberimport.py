"""Members at once: a member list (``competition.roster.memberfile``) checked row by row against
itself and the club (the preview), and the new members added in one transaction.

The shape is the rating import's (``competition.ratings``): the file's columns are mapped
to fields (a first guess by column name, which the leader confirms), a preview tells per
row what happens, and saving recomputes that preview and refuses while a row is wrong.

Per row the preview says:
- ``new``: he is added (in bulk, as ``competition.roster.services.member_add_within``, the
  single-member form's service, adds one) and invited; without an e-mail address he is a player whom the leader signs up.
  An address that has an account elsewhere on the platform is "new" as well: the preview
  looks only at this club, so it never tells the leader that an address is known.
- ``exists``: a member of this club has the row's KNSB number or e-mail address: skipped.
- ``duplicate``: a member of this club has the row's name (no number or address in
  common): likely the same person, skipped unless the leader ticks "add anyway".
- ``error``: something is wrong with the row (a Dutch sentence per problem), or the row
  repeats an earlier row's number, address or name: nothing can be saved until the file
  is corrected.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from allauth.account.models import EmailAddress
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from competition.audit import Action
from competition.models import AuditRecord, Player, PlayerKind, RatingKind, Season
from competition.ratings.engine.lists import name_keys
from competition.roster.memberfile import Table
from competition.roster.services import PERM, has_address, member_add_within, no_address
from core.permissions import require
from core.singleline import is_single_line
from members.accounts import invitations
from members.clubs.roles import PLAYER
from members.models import Actor, Membership, User, forget_club_parts

NEW, EXISTS, DUPLICATE, ERROR = "new", "exists", "duplicate", "error"
FIELDS = ("knsb_number", "name", "first_name", "infix", "last_name", "email", "rating")
MAX_RATING = 3500
MAX_NAME = 120

# Column names a Dutch member list uses (the KNSB's export first), lowercased.
_GUESSES = {
    "knsb_number": ("relatienummer", "relnr", "rel.nr.", "knsb-nummer", "knsb nummer", "knsb nr",
                    "knsb", "lidnummer knsb", "knsb_number"),
    "name": ("naam", "volledige naam", "name", "speler", "player"),
    "first_name": ("voornaam", "roepnaam", "first name", "firstname"),
    "infix": ("tussenvoegsel", "tussenvoegsels", "tv", "infix"),
    "last_name": ("achternaam", "last name", "lastname", "surname"),
    "email": ("e-mail", "email", "e-mailadres", "emailadres", "e-mail adres", "mail"),
    "rating": ("rating", "knsb rating", "knsb-rating", "rating knsb", "elo", "rtg"),
}


def guess_mapping(header: Iterable[str]) -> dict[str, str]:
    """A first proposal for the mapping, by column name (the leader confirms it)."""
    lowered = {c.strip().lower(): c for c in header if c.strip()}
    mapping: dict[str, str] = {}
    for fld, names in _GUESSES.items():
        for candidate in names:
            column = lowered.get(candidate)
            if column is not None and column not in mapping.values():
                mapping[fld] = column
                break
    return mapping


def check_mapping(table: Table, mapping: dict[str, str]) -> None:
    """The mapping names columns of the file, each once, and a column with the name."""
    used = [c for c in (mapping.get(f, "") for f in FIELDS) if c]
    if any(c not in table.header for c in used):
        raise ValidationError(_("The mapping names a column the file does not have."))
    if len(used) != len(set(used)):
        raise ValidationError(_("A column is chosen for two fields; choose each column once."))
    if not (mapping.get("name") or mapping.get("last_name")):
        raise ValidationError(_(
            "The columns of this file were not recognised: no column holds the name (found: "
            "%(columns)s). Choose below which column holds what. Nothing was saved.")
            % {"columns": ", ".join(table.header) or "–"})


@dataclass
class RowCheck:
    line: int
    name: str
    email: str
    knsb_number: str
    rating: int | None
    status: str = NEW
    problems: list[str] = field(default_factory=list)
    member: str = ""  # the club's member an "exists" or "duplicate" row is (likely) the same as


@dataclass(frozen=True)
class Preview:
    rows: list[RowCheck]

    def count(self, status: str) -> int:
        return sum(1 for r in self.rows if r.status == status)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in (NEW, EXISTS, DUPLICATE, ERROR)}

    @property
    def ok(self) -> bool:
        return not self.count(ERROR)


def _name(cells: dict[str, str]) -> str:
    """The name as the standings show it: "Jan de Vries". A KNSB list writes "Vries, Jan
    de"; separate columns are joined first name, infix, last name."""
    name = cells.get("name", "")
    if not name:
        name = " ".join(p for p in (cells.get("first_name", ""), cells.get("infix", ""),
                                    cells.get("last_name", "")) if p)
    if name.count(",") == 1:
        last, first = (p.strip() for p in name.split(","))
        words = first.split()
        infix = [w for w in words if w.islower()]
        given = [w for w in words if not w.islower()]
        name = " ".join([*given, *infix, last])
    return " ".join(name.split())


def _row(line: int, cells: dict[str, str]) -> RowCheck:
    problems: list[str] = []
    name = _name(cells)
    email = cells.get("email", "").strip().lower()
    number = cells.get("knsb_number", "").strip()
    rating_text = cells.get("rating", "").strip()
    if not name:
        problems.append(_("the name is empty"))
    elif len(name) > MAX_NAME or not is_single_line(name):
        problems.append(_("the name is longer than %(n)s characters or holds a control character")
                        % {"n": MAX_NAME})
    if email:
        try:
            validate_email(email)
        except ValidationError:
            problems.append(_("“%(v)s” is not an e-mail address") % {"v": email[:60]})
    if number:
        if number.isascii() and number.isdigit():
            number = str(int(number))
        else:
            problems.append(_("“%(v)s” is not a KNSB relation number (digits only)")
                            % {"v": number[:20]})
    rating = None
    if rating_text and rating_text != "0":  # a KNSB list writes 0 for "no rating"
        if rating_text.isascii() and rating_text.isdigit() and int(rating_text) <= MAX_RATING:
            rating = int(rating_text)
        else:
            problems.append(_("rating “%(v)s” is not a number from 0 to 3500") % {"v": rating_text[:20]})
    return RowCheck(line=line, name=name, email=email, knsb_number=number, rating=rating,
                    status=ERROR if problems else NEW, problems=problems)


@dataclass(frozen=True)
class _Club:
    """What the preview compares with: the club's members (never another club's)."""

    by_email: dict[str, str]
    by_number: dict[str, str]
    by_name: dict[str, str]


def _club_members(season: Season) -> _Club:
    members = User.objects.filter(
        pk__in=Membership.objects.filter(club_id=season.club_id).values("user_id")
    ).values_list("email", "knsb_number", "name")
    club = _Club({}, {}, {})
    for email, number, name in members:
        club.by_email[email.lower()] = name
        if number:
            club.by_number[number.lstrip("0") or number] = name
        for key in name_keys(name):
            club.by_name.setdefault(key, name)
    return club


def preview(*, season: Season, table: Table, mapping: dict[str, str]) -> Preview:
    """Every row of the file with what saving would do with it; two queries in all."""
    check_mapping(table, mapping)
    columns = {f: table.header.index(c) for f, c in mapping.items() if f in FIELDS and c}
    club = _club_members(season)
    seen_email: dict[str, int] = {}
    seen_number: dict[str, int] = {}
    seen_name: dict[str, int] = {}
    rows = []
    for raw in table.rows:
        row = _row(raw.line, {f: raw.cells[i] for f, i in columns.items()})
        _within_file(row, seen_email, seen_number, seen_name)
        if row.status == NEW:
            _against_club(row, club)
        rows.append(row)
    return Preview(rows)


def _within_file(row: RowCheck, emails: dict[str, int], numbers: dict[str, int],
                 names: dict[str, int]) -> None:
    """A row that repeats an earlier row's number, address or name is an error: the
    file says one person twice, or two people as one."""
    keys = name_keys(row.name) if row.name else frozenset()
    if row.knsb_number and row.knsb_number in numbers:
        row.problems.append(_("KNSB relation number %(v)s is also on row %(first)s")
                            % {"v": row.knsb_number, "first": numbers[row.knsb_number]})
    if row.email and row.email in emails:
        row.problems.append(_("the e-mail address %(v)s is also on row %(first)s")
                            % {"v": row.email, "first": emails[row.email]})
    first = next((names[k] for k in keys if k in names), None)
    if first is not None:
        row.problems.append(_("the name %(v)s is also on row %(first)s")
                            % {"v": row.name, "first": first})
    if row.problems:
        row.status = ERROR
    if row.knsb_number:
        numbers.setdefault(row.knsb_number, row.line)
    if row.email:
        emails.setdefault(row.email, row.line)
    for k in keys:
        names.setdefault(k, row.line)


def _against_club(row: RowCheck, club: _Club) -> None:
    same = club.by_number.get(row.knsb_number) if row.knsb_number else None
    same = same or (club.by_email.get(row.email) if row.email else None)
    if same:
        row.status, row.member = EXISTS, same
        return
    alike = next((club.by_name[k] for k in name_keys(row.name) if k in club.by_name), None)
    if alike:
        row.status, row.member = DUPLICATE, alike


@transaction.atomic(durable=True)
def members_import(*, actor: Actor, season: Season, table: Table, mapping: dict[str, str],
                   add_anyway: Iterable[int] = (), site_url: str) -> list[Player]:
    """The file's new members (and the likely duplicates the leader ticked, by row
    number), written in bulk as the single-member form's service writes one (``_add_all``:
    the same number of queries for 10 members and for 500), all in this one
    transaction: one wrong row and nothing is saved. Their invitations go after commit
    (the outbox). The preview is computed again here: the club may have changed since."""
    require(actor, PERM, of=season)
    season = Season.objects.select_for_update().get(pk=season.pk)
    checked = preview(season=season, table=table, mapping=mapping)
    wrong = [r for r in checked.rows if r.status == ERROR]
    if wrong:
        raise ValidationError(_(
            "%(n)s rows of the file are wrong (the first: row %(line)s, %(problem)s); correct "
            "the file and upload it again. Nothing was saved.")
            % {"n": len(wrong), "line": wrong[0].line, "problem": wrong[0].problems[0]})
    anyway = set(add_anyway)
    chosen = [r for r in checked.rows
              if r.status == NEW or (r.status == DUPLICATE and r.line in anyway)]
    if not chosen:
        raise ValidationError(_("The file holds no new members: nothing to save."))
    return _add_all(actor=actor, season=season, rows=chosen, site_url=site_url)


def _add_all(*, actor: Actor, season: Season, rows: list[RowCheck], site_url: str) -> list[Player]:
    """The chosen rows as members and players, in bulk: a fixed number of queries however
    many rows (an address with an account elsewhere aside: that row goes through
    ``member_add_within``, which invites him to join and tells the leader nothing).
    What the single-member form's service does per member is done here for all at once:
    the member with an unusable password, his membership (player), his unverified address,
    his player at the end of the starting order, the audit trail and his invitation."""
    emails = [r.email for r in rows if r.email]
    known = set(
        User.objects.annotate(lowered=Lower("email")).filter(lowered__in=emails)
        .values_list("lowered", flat=True)
    ) if emails else set()
    elsewhere = [r for r in rows if r.email and r.email in known]
    fresh = [r for r in rows if not (r.email and r.email in known)]
    members = []
    for r in fresh:
        member = User(email=User.objects.normalize_email(r.email).lower() or no_address(),
                      name=r.name, rating=r.rating, knsb_number=r.knsb_number)
        member.set_unusable_password()
        member.full_clean(exclude=["password"], validate_unique=False, validate_constraints=False)
        members.append(member)
    User.objects.bulk_create(members)
    Membership.objects.bulk_create(
        [Membership(user_id=m.pk, club_id=season.club_id, role=PLAYER) for m in members])
    forget_club_parts()
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=m, email=m.email, verified=False, primary=True)
         for m in members if has_address(m)])
    last = Player.objects.filter(season=season).order_by("-start").values_list("start", flat=True).first()
    knsb_start = season.competition.start_rating == RatingKind.KNSB
    players = Player.objects.bulk_create(
        Player(season=season, member=m, kind=PlayerKind.FLEXIBLE,
               rating=m.rating if knsb_start else None, start=(last or 0) + n)
        for n, m in enumerate(members, start=1)
    )
    records = [
        AuditRecord(club_id=season.club_id, actor=_person(actor), action=Action.MEMBER_ADD,
                    season=season, player=p, after={
                        "name": p.member.name, "email": p.member.email, "rating": p.member.rating,
                        "knsb_number": p.member.knsb_number, "kind": p.kind, "start": p.start})
        for p in players
    ]
    records += [
        AuditRecord(club_id=season.club_id, actor=_person(actor), action=Action.MEMBER_INVITE,
                    season=season, player=p, after={"email": p.member.email})
        for p in players if has_address(p.member)
    ]
    AuditRecord.objects.bulk_create(records)
    invitations.queue_many(members=[p.member for p in players if has_address(p.member)],
                           site_url=site_url)
    return players + [
        member_add_within(actor=actor, season=season, name=r.name, email=r.email,
                          rating=r.rating, knsb_number=r.knsb_number, site_url=site_url)
        for r in elsewhere
    ]


def _person(actor: Actor):
    return actor if getattr(actor, "is_authenticated", False) else None
