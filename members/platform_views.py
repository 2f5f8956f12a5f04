"""The platform's own root page in multi-club mode: the list of its clubs."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .addresses import club_base_url
from .models import Club


def club_list(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.prefetch_related("domains").order_by("name")
    return render(request, "members/club_list.html", {
        "clubs": [(club, f"{club_base_url(club)}/") for club in clubs],
    })
