"""Standings tables (django-tables2). Columns as docs/rules.md 9 (Keizer) and 4.2 (ladder)."""

from __future__ import annotations

from decimal import Decimal

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from competition.models import Standing


def short_number(value) -> str:
    """3.50 as "3,5" in Dutch, 10.00 as "10": no trailing zeros, the language's comma."""
    text = format(Decimal(value), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return number_format(Decimal(text))


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


class LadderTable(_Base):
    rank = tables.Column(verbose_name=_("pos"), attrs={"td": {"class": "num"}})
    start = _num(_("from"), accessor="player__start", small_screen=False)
    group = tables.Column(verbose_name=_("group"), empty_values=(), orderable=False,
                          attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    points = _num(_("ladder"))
    score = _num(_("score"))
    games_played = tables.Column(verbose_name=_("games"), empty_values=(), orderable=False,
                                 attrs={"td": {"class": "hide-sm"}, "th": {"class": "hide-sm"}})
    colour_balance = _num(_("W/B"), orderable=False, medium_screen=False)

    def render_points(self, value):
        return number_format(value, 2)

    def render_group(self, record):
        return getattr(record, "group", "")

    def render_games_played(self, record):
        return f"{short_number(record.game_points)} / {record.games}"

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
