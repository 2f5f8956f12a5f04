"""Standings tables (django-tables2). Columns as docs/rules.md 9 (Keizer) and 4.2 (ladder)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from competition.models import Standing


def points_text(value: Fraction | Decimal | int | None) -> str:
    """3½, ½, 0: how the club writes points (12,25 with the language's comma)."""
    if value is None:
        return ""
    value = Fraction(value)
    whole, rest = divmod(value, 1)
    if rest == 0:
        return str(int(whole))
    if rest == Fraction(1, 2):
        return f"{int(whole) or ''}½"
    return number_format(Decimal(f"{float(value):g}"))  # "12,25" in Dutch


class ExplainedColumn(tables.Column):
    """A column whose short header says in full what it counts (``explain``), as the
    legend under the table does: ``<abbr title="...">``."""

    def __init__(self, *args, explain=None, **kwargs):
        self.explain = explain
        super().__init__(*args, **kwargs)

    @property
    def header(self):
        if not self.explain:
            return self.verbose_name
        return format_html('<abbr title="{}">{}</abbr>', self.explain, self.verbose_name)


def _explained(verbose_name, explain, *, small_screen=True, medium_screen=True, **kwargs):
    css = "num hide-sm" if not small_screen else "num" if medium_screen else "num hide-md"
    attrs = kwargs.pop("attrs", {"td": {"class": css}, "th": {"class": css}})
    return ExplainedColumn(verbose_name=verbose_name, explain=explain, attrs=attrs, **kwargs)


class _Base(tables.Table):
    rank = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(
        verbose_name=_("Name"), accessor="player__member__name", order_by=("player__member__name",),
        attrs={"td": {"class": "name"}},
    )

    def render_name(self, value, record):
        mark = ""
        if getattr(record, "eligible", True) is False:
            mark = format_html(
                ' <span class="badge warn" title="{0}" aria-label="{0}">*</span>',
                _("not (yet) eligible for a prize"),
            )
        rating = record.player.member.rating
        return format_html(
            '<a href="{}">{}</a>{}{}', reverse("competition:player", args=[record.player_id]),
            record.player.member.shown_name,
            format_html(' <span class="rating">{}</span>', rating) if rating else "", mark,
        )

    def render_rank(self, value, record):
        """The place, and how it moved since the evening before (▲2, ▼1), computed by
        the selector from the stored standings."""
        change = getattr(record, "change", None)
        if not change:
            return value
        up = change > 0
        label = (ngettext("up %(n)s place", "up %(n)s places", change) if up
                 else ngettext("down %(n)s place", "down %(n)s places", -change)) % {"n": abs(change)}
        return format_html(
            '{} <span class="change {}" data-change="{}" title="{}" aria-label="{}">{}{}</span>',
            value, "up" if up else "down", change, label, label, "▲" if up else "▼", abs(change),
        )

    def render_score(self, value):
        return number_format(value, 2)

    class Meta:
        model = Standing
        fields: tuple[str, ...] = ()
        orderable = True
        attrs = {"class": "standings"}
        row_attrs = {"data-player": lambda record: record.player_id}


def _num(verbose_name, *, small_screen=True, medium_screen=True, **kwargs):
    """A number column; ``small_screen=False`` shows it from 601 px on, ``medium_screen=False``
    from 901 px on (a phone keeps the columns that matter: place, name, points, value)."""
    css = "num hide-sm" if not small_screen else "num" if medium_screen else "num hide-md"
    return tables.Column(
        verbose_name=verbose_name, attrs={"td": {"class": css}, "th": {"class": css}}, **kwargs
    )


class KeizerTable(_Base):
    score = _num(_("Points"))
    value = _num(_("Value"))
    games = _num(_("Games"))
    won = _num(_("W"), small_screen=False)
    drawn = _num(_("D"), small_screen=False)
    lost = _num(_("L"), small_screen=False)
    percentage = _num(_("%"), orderable=False, default="–", small_screen=False)
    colour_balance = _num(_("W−B"), orderable=False, medium_screen=False)
    whites_blacks = tables.Column(
        verbose_name=_("W/B"), empty_values=(), orderable=False,
        attrs={"td": {"class": "num hide-md"}, "th": {"class": "num hide-md"}},
    )
    byes = _num(_("Byes"), medium_screen=False)
    absent_with_notice = _num(_("Absent with notice"), medium_screen=False)
    absent_without_notice = _num(_("Absent without notice"), medium_screen=False)
    club_duty = _num(_("Club duty"), medium_screen=False)

    def render_whites_blacks(self, record):
        return f"{record.whites}/{record.blacks}"

    def render_colour_balance(self, value):
        return f"{value:+d}" if value else "0"

    def render_value(self, value):
        return f"{value:.0f}" if value == int(value) else number_format(value, 2)

    def render_percentage(self, value):
        return number_format(value, 0)

    class Meta(_Base.Meta):
        pass


def _ladder(header):
    return pgettext_lazy("ladder column", header)


# What each ladder column counts: the header's title and the legend under the table.
LADDER_EXPLAINED = {
    "rank": _("position in the ladder now"),
    "start": _("starting position of the season"),
    "group": _("group of the period championship (1 to 4, by starting position)"),
    "points": _("ladder points: start points plus score"),
    "score": _("progress in ladder points since the start of the season"),
    "games_played": _("game points (1 a win, ½ a draw) and games played"),
    "colour_balance": _("games with white minus games with black"),
}


class LadderTable(_Base):
    # The headers as the club's ladder writes them, each explained (LADDER_EXPLAINED).
    rank = ExplainedColumn(verbose_name=_ladder("Pos."), explain=LADDER_EXPLAINED["rank"],
                           attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    start = _explained(_ladder("From"), LADDER_EXPLAINED["start"], accessor="player__start",
                       small_screen=False)
    group = _explained(_ladder("Group"), LADDER_EXPLAINED["group"], empty_values=(),
                       orderable=False, attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    points = _explained(_ladder("Ladder"), LADDER_EXPLAINED["points"])
    score = _explained(_ladder("Score"), LADDER_EXPLAINED["score"])
    games_played = _explained(
        _ladder("Games"), LADDER_EXPLAINED["games_played"], empty_values=(), orderable=False,
        attrs={"td": {"class": "num hide-sm"}, "th": {"class": "num hide-sm"}})
    colour_balance = _explained(_("W−B"), LADDER_EXPLAINED["colour_balance"], orderable=False,
                                medium_screen=False)

    def render_points(self, value):
        return number_format(value, 2)

    def render_group(self, record):
        return getattr(record, "group", "")

    def render_games_played(self, record):
        return f"{points_text(record.game_points)}/{record.games}"

    def render_colour_balance(self, value):
        return f"{value:+d}" if value else "0"

    class Meta(_Base.Meta):
        pass


# (attribute, column name); the names are translated with the context "CSV column".
KEIZER_CSV = [
    ("rank", "place"), ("name", "name"), ("score", "points"), ("value", "value"),
    ("games", "games"), ("won", "won"), ("drawn", "drawn"), ("lost", "lost"),
    ("percentage", "percentage"), ("colour_balance", "colour_balance"), ("whites", "white"),
    ("blacks", "black"), ("byes", "byes"), ("absent_with_notice", "absent_with_notice"),
    ("absent_without_notice", "absent_without_notice"), ("club_duty", "club_duty"),
]
LADDER_CSV = [
    ("rank", "pos"), ("start", "van"), ("name", "name"), ("points", "ranglijst"),
    ("score", "score"), ("pairing_points", "pairing_points"), ("game_points", "game_points"),
    ("games", "games"), ("colour_balance", "colour_balance"),
]
