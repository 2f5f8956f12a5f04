"""The embeds (small pages for an ``<iframe>`` on the club's own site) and the leader's
page with the snippets. Only the embeds may be framed, and only by the sites the leader
lists; every other page keeps refusing (``frame-ancestors 'none'``, ``X-Frame-Options``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.prizes import selectors as prize_selectors
from competition.season import selectors
from core.pagecache import cache_public_page
from core.permissions import Perm
from core.web import refusal

from . import selectors as website_selectors
from . import services
from .forms import EmbedOriginsForm

EMBEDS = ("website:embed_standings", "website:embed_pairing", "website:embed_results")


def embeddable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Lets the leader's sites frame the page: CSP ``frame-ancestors`` from his list and
    no ``X-Frame-Options``. Outside the page cache, so a cached body never carries an
    old list; with no site listed the page refuses framing like every other."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        origins = website_selectors.embed_origins()
        if origins:
            response._csp_replace = {"frame-ancestors": origins}  # type: ignore[attr-defined]
            response.xframe_options_exempt = True  # type: ignore[attr-defined]
        return response

    return wrapper


def _season_context() -> dict:
    season = selectors.current_season()
    return {"season": season, "now": timezone.now()}


@embeddable
@cache_public_page
def embed_standings(request: HttpRequest) -> HttpResponse:
    context = _season_context()
    season = context["season"]
    half = selectors.running_half(season) if season else None
    snapshot, rows = selectors.standings_after(half) if half else (None, [])
    marks = prize_selectors.eligibility_marks(half) if rows else {}
    for row in rows:
        row.public_name = selectors.public_name(row.player.member)  # type: ignore[attr-defined]
        row.eligible = marks.get(row.player_id, True)  # type: ignore[attr-defined]
    context.update(half=half, snapshot=snapshot, rows=rows,
                   ladder=bool(season and season.competition.is_ladder),
                   ineligible=not all(row.eligible for row in rows))  # type: ignore[attr-defined]
    return render(request, "website/embed_standings.html", context)


def _boards(evening) -> dict:
    page = selectors.evening_page(evening)
    for game in page["games"]:
        game.white_name = selectors.public_name(game.white.member)
        game.black_name = selectors.public_name(game.black.member)
    if page["bye"]:
        page["bye"].public_name = selectors.public_name(page["bye"].player.member)
    return page


def _evening_embed(request: HttpRequest, which: Callable[[Any], Any], template: str) -> HttpResponse:
    """An embed of one evening's boards: ``which`` picks the evening of the season."""
    context = _season_context()
    season = context["season"]
    evening = which(season) if season else None
    if evening is not None:
        context.update(_boards(evening))
    context["evening"] = evening
    return render(request, template, context)


@embeddable
@cache_public_page
def embed_pairing(request: HttpRequest) -> HttpResponse:
    return _evening_embed(request, website_selectors.next_evening, "website/embed_pairing.html")


@embeddable
@cache_public_page
def embed_results(request: HttpRequest) -> HttpResponse:
    return _evening_embed(request, website_selectors.last_results_evening,
                          "website/embed_results.html")


@login_required
@permission_required(Perm.MANAGE_CALENDAR, raise_exception=True)
def website(request: HttpRequest) -> HttpResponse:
    """The leader's page: which sites may show the embeds, and what to paste there."""
    current = website_selectors.club_website()
    form = EmbedOriginsForm(request.POST or None,
                            initial={"origins": "\n".join(current.embed_origins)})
    if request.method == "POST" and form.is_valid():
        with refusal(request) as refused:
            services.website_embed_origins_set(actor=request.user, origins=form.lines())
        if not refused:
            messages.success(request, _("The list of websites is saved."))
            return redirect("website:leader")
    absolute = request.build_absolute_uri
    snippets = [
        {"name": name, "url": absolute(reverse(name)),
         "height": 640 if name == "website:embed_standings" else 420}
        for name in EMBEDS
    ]
    return render(request, "website/leader.html", {
        "form": form, "origins": current.embed_origins, "snippets": snippets,
        "site_origin": absolute("/").rstrip("/"),
        "feed_url": absolute(reverse("website:feed")),
        "api_url": absolute(reverse("api_v1:index")),
        "docs_url": absolute(reverse("api_v1:openapi-view")),
    })

