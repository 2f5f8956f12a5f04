"""Last season from a file (issue 31): the leader brings his club's past along.

A TRF file or a games CSV (``historyfile``) becomes an earlier season of the club: its
evenings by date, its games and pairing byes, its players matched to the club's members
(``matching``; the leader confirms or corrects every match in the preview, and a name
he does not map becomes a former player: a person of the club's past with no membership
and no address, shown as the club shows former members). The season is scored by the
club's rules (the current season's system and parameters), so its standings are in the
archive and its games in every member's head-to-head.

``history_preview`` reads the file and matches the names (two queries, however many
players); ``history_import`` reads it again, checks the leader's choices and writes the
season in one transaction, with its standings: a wrong file, a wrong choice, or anything
the database refuses, and nothing is saved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext as _

from competition import audit
from competition.audit import Action
from competition.models import Season
from competition.roster.services import no_address
from competition.scoring import types as t
from competition.scoring.params import is_ladder, parse_parameters
from competition.season.seasonio import SeasonImportError, write_season
from competition.season.selectors import current_season
from competition.season.standings import recalculate_season
from core.pagecache import pages_changed
from core.permissions import Perm, require
from core.singleline import is_single_line
from core.tenancy.context import club_in_hand
from members.models import Actor, Membership, User

from .historyfile import HistoryFile, read_history
from .matching import Known, Match, Wanted, match_names

PERM = Perm.MANAGE_CALENDAR  # the leader's: he sets up his club's calendar and its past
DEFAULT_SYSTEM = "classic"
NEW = ""  # the leader's choice for a name: a former player, not one of the members


@dataclass(frozen=True)
class HistoryPreview:
    file: HistoryFile
    matches: list[Match]
    members: list[Known]  # the club's members, for the leader's choices
    name: str  # the season's proposed name
    system: str

    @property
    def matched(self) -> int:
        return sum(1 for m in self.matches if m.member is not None)

    @property
    def unmatched(self) -> int:
        return len(self.matches) - self.matched


def _club_members() -> list[Known]:
    club = club_in_hand()
    return [
        Known(pk, name, knsb or "", fide or "")
        for pk, name, knsb, fide in User.objects.filter(
            pk__in=Membership.objects.filter(club=club).values("user_id"), is_active=True
        ).order_by("name").values_list("pk", "name", "knsb_number", "fide_id")
    ]


def _season_name(file: HistoryFile) -> str:
    first, last = file.evenings[0].date.year, file.evenings[-1].date.year
    return f"{first}-{last}" if last != first else str(first)


def _rules() -> tuple[str, dict | None]:
    """The club's rules: those of its current season (a first club: the preset)."""
    season = current_season()
    if season is None or not hasattr(season, "competition"):
        return DEFAULT_SYSTEM, None
    return season.competition.system, season.competition.parameters


def _check_place(file: HistoryFile, name: str) -> None:
    """The season is before the club's current one (else it would not be its past), and
    its name is free."""
    if not name.strip() or len(name) > 40 or not slugify(name) or not is_single_line(name):
        raise ValidationError(_("The season's name needs letters or digits, at most 40 "
                                "characters. Nothing was saved."))
    current = current_season()
    if current is not None and file.evenings[-1].date >= current.start_date:
        raise ValidationError(_(
            "The file's last evening (%(last)s) is not before the start of season %(season)s: "
            "only an earlier season can be imported. Nothing was saved.")
            % {"last": _day(file.evenings[-1].date), "season": current.name})
    if Season.objects.filter(Q(name=name) | Q(slug=slugify(name))).exists():
        raise ValidationError(_("A season named %(name)s exists already; choose another name. "
                                "Nothing was saved.") % {"name": name})


def _day(date: dt.date) -> str:
    from django.utils.formats import date_format

    return date_format(date, "j F Y")


def history_preview(*, raw: bytes, filename: str, name: str = "") -> HistoryPreview:
    """The file read and every name matched, with nothing saved."""
    file = read_history(raw, filename)
    name = " ".join((name or _season_name(file)).split())
    _check_place(file, name)
    members = _club_members()
    wanted = [Wanted(p.key, p.name, p.number) for p in file.players]
    system, _parameters = _rules()
    return HistoryPreview(file, match_names(wanted, members), members, name, system)


def _halves(file: HistoryFile, system: str) -> list[t.Half | None]:
    """Keizer: the evenings of the first evening's calendar year are the winter half, the
    rest the summer half; the ladder: one period."""
    if is_ladder(system):
        return [None] * len(file.evenings)
    first_year = file.evenings[0].date.year
    winter: t.Half = "winter"
    summer: t.Half = "summer"
    return [winter if e.date.year == first_year else summer for e in file.evenings]


def _season_input(file: HistoryFile, system: str, parameters: dict | None,
                  ratings: Mapping[int, int | None]) -> t.SeasonInput:
    order = sorted(file.players, key=lambda p: (-(ratings.get(p.key) or 0), p.key))
    players = tuple(
        t.Player(p.key, p.name, ratings.get(p.key), start, False)
        for start, p in enumerate(order, start=1)
    )
    evenings = tuple(
        t.Evening(date=e.date, half=half,
                  games=tuple(t.Game(w, b, r) for w, b, r in e.games),
                  byes=tuple(e.byes[:1]), absent_with_notice=tuple(e.absent_with_notice))
        for e, half in zip(file.evenings, _halves(file, system), strict=True)
    )
    return t.SeasonInput(system, parse_parameters(system, parameters), {}, players, evenings)


@transaction.atomic(durable=True)
def history_import(*, actor: Actor, raw: bytes, filename: str, choices: Mapping[int, str],
                   name: str = "") -> Season:
    """Write the file as an earlier season of the club. ``choices`` says for every player
    of the file (by his key) the member's id as text, or ``NEW`` for a former player; a
    player the choices do not mention keeps the preview's match (or is a former player)."""
    require(actor, PERM)
    preview = history_preview(raw=raw, filename=filename, name=name)
    club_ids = {m.id: m for m in preview.members}
    chosen: dict[int, int | None] = {}
    for match in preview.matches:
        key = match.wanted.key
        value = choices.get(key, str(match.member.id) if match.member else NEW)
        if value == NEW:
            chosen[key] = None
        elif value.isdigit() and int(value) in club_ids:
            chosen[key] = int(value)
        else:
            raise ValidationError(_("The choice for %(name)s is not one of your members. Nothing "
                                    "was saved.") % {"name": match.wanted.name})
    twice = [k for k, v in chosen.items() if v is not None and list(chosen.values()).count(v) > 1]
    if twice:
        names = sorted(m.wanted.name for m in preview.matches if m.wanted.key in twice)
        raise ValidationError(_("%(names)s are chosen as the same member; a member can be one "
                                "player of the file. Nothing was saved.")
                              % {"names": ", ".join(names)})
    members = {u.pk: u for u in User.objects.filter(pk__in=[v for v in chosen.values() if v])}
    former = [
        _former(p.name, p.rating) for p in preview.file.players if chosen[p.key] is None
    ]
    User.objects.bulk_create(former)
    new = iter(former)
    by_key = {p.key: members[chosen[p.key]] if chosen[p.key] else next(new)  # type: ignore[index]
              for p in preview.file.players}
    ratings = {p.key: p.rating if p.rating is not None else by_key[p.key].rating
               for p in preview.file.players}
    system, parameters = _rules()
    data = _season_input(preview.file, system, parameters, ratings)
    try:
        with transaction.atomic():
            season = write_season(data, preview.name, club_in_hand(), members=by_key)
            audit.record(actor=actor, action=Action.SEASON_IMPORT, season=season, after={
                "name": preview.name, "players": len(data.players),
                "evenings": len(data.evenings), "from": preview.file.kind,
                "former_players": len(former),
            })
            pages_changed()
            recalculate_season(season.pk, today=data.evenings[-1].date)
    except (DatabaseError, SeasonImportError) as error:
        raise ValidationError(_("The season could not be saved (%(why)s). Nothing was saved.")
                              % {"why": " ".join(str(error).split())[:200]}) from None
    return season


def _former(name: str, rating: int | None) -> User:
    """A player of the club's past who is no member: no address, no password, no
    membership (the club's pages show him as a former member)."""
    user = User(email=no_address(), name=name, rating=rating)
    user.set_unusable_password()
    return user
