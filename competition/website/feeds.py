"""The Atom feed of published pairings and results (Django's syndication framework): an
entry per published evening, updated when its results come in, for a club's news page."""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from competition.models import Evening
from competition.season import selectors
from members.clubs.addresses import site_name

from . import selectors as website_selectors

FEED_ENTRIES = 20


class EveningsFeed(Feed):
    feed_type = Atom1Feed

    def title(self) -> str:
        return _("%(club)s: pairings and results") % {"club": site_name()}

    def subtitle(self) -> str:
        return _("Every published pairing of the internal competition, with its results.")

    def link(self) -> str:
        return reverse("competition:evenings")

    def items(self) -> list[Evening]:
        return website_selectors.published_evenings(FEED_ENTRIES)

    def _games(self, item: Evening) -> list:
        return sorted(item.games.all(), key=lambda g: g.board)

    def item_title(self, item: Evening) -> str:
        games = self._games(item)
        done = bool(games) and all(g.result for g in games)  # postponed is recorded too
        day = date_format(item.date, "l j F Y")
        return (_("Results of %(day)s") if done else _("Pairing of %(day)s")) % {"day": day}

    def item_description(self, item: Evening) -> str:
        """The boards as an HTML list (Atom's summary is HTML), names escaped."""
        lines = [
            format_html("{}. {} – {}: {}", g.board, selectors.public_name(g.white.member),
                        selectors.public_name(g.black.member),
                        g.get_result_display() if g.result else "…")
            for g in self._games(item)
        ]
        bye = getattr(item, "bye", None)
        if bye is not None:
            lines.append(format_html("{}", _("Pairing bye: %(name)s") % {
                "name": selectors.public_name(bye.player.member)}))
        return format_html("<ol>{}</ol>", format_html_join("", "<li>{}</li>", ((line,) for line in lines)))

    def item_link(self, item: Evening) -> str:
        return reverse("competition:evening", args=[item.date.isoformat()])

    def item_pubdate(self, item: Evening):
        return item.published_at

    def item_updateddate(self, item: Evening):
        stamps = [g.updated_at for g in item.games.all()]
        if item.published_at:
            stamps.append(item.published_at)
        return max(stamps) if stamps else None
