"""The overviews' pages: public, cached whole per version of the club's data."""

from __future__ import annotations

import datetime as dt

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from competition.models import Half, HalfKind
from competition.season import selectors as competition_selectors
from competition.season.selectors import season_or_404
from core.pagecache import cache_public_page, evening_version
from members.clubs.addresses import site_name

from . import selectors

SEASON_PARAM = {"season": None}  # an unknown season is a 404, never stored


def _half(season: str, half: str) -> Half:
    if half not in HalfKind.values:
        raise Http404
    season_obj = season_or_404(season)
    return get_object_or_404(Half.objects.select_related("season__competition"),
                             season=season_obj, kind=half)


@cache_public_page(half=lambda request, season, half: competition_selectors.shown_half_id(season, half))
def cross_table(request: HttpRequest, season: str, half: str) -> HttpResponse:
    context = selectors.half_cross_table(_half(season, half))
    return render(request, "overviews/crosstable.html", context)


@cache_public_page(half=lambda request, season, half: competition_selectors.shown_half_id(season, half))
def evening_matrix(request: HttpRequest, season: str, half: str) -> HttpResponse:
    context = selectors.half_evening_matrix(_half(season, half))
    return render(request, "overviews/matrix.html", context)


@cache_public_page(version=lambda request, date: evening_version(date), params=SEASON_PARAM,
                   half=lambda request, date: competition_selectors.evening_half_id(
                       date, request.GET.get("season")))
def pairing_sheet(request: HttpRequest, date: str) -> HttpResponse:
    try:
        day = dt.date.fromisoformat(date)
    except ValueError as exc:
        raise Http404 from exc
    evening = competition_selectors.evening_by_date(day, request.GET.get("season"))
    if evening is None:
        raise Http404(_("No evening on that date."))
    context = selectors.pairing_sheet(evening)
    context["club_name"] = site_name()
    return render(request, "overviews/sheet.html", context)


@cache_public_page(params=SEASON_PARAM)
def postponed(request: HttpRequest) -> HttpResponse:
    season = season_or_404(request.GET.get("season"))
    today = competition_selectors.club_today()
    return render(request, "overviews/postponed.html", {
        "season": season, "games": selectors.postponed_games(season, today), "today": today,
    })
