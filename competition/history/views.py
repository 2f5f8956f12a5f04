"""The archive of earlier seasons: public pages, cached whole like the standings."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from competition.season.selectors import season_or_404
from core.pagecache import cache_public_page

from . import selectors


@cache_public_page(params={})
def archive(request: HttpRequest) -> HttpResponse:
    return render(request, "history/archive.html", {"seasons": selectors.archive_index()})


@cache_public_page(params={})
def archive_season(request: HttpRequest, season: str) -> HttpResponse:
    season_obj = season_or_404(season)
    return render(request, "history/archive_season.html",
                  {"archived": selectors.archive_season(season_obj), "season": season_obj})
