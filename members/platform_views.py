"""The platform's own root page in multi-club mode: the list of its clubs."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .addresses import club_base_url
from .models import Club


def club_list(request: HttpRequest) -> HttpResponse:
    """A club with a host name of its own is linked there; the others by their path on the
    address this page was asked at (``make run`` on any port, a test server), not on
    ``SITE_URL``, which the e-mails need."""
    clubs = Club.objects.prefetch_related("domains").order_by("name")
    return render(request, "members/club_list.html", {
        "clubs": [(club, f"{club_base_url(club)}/" if club.domains.all() else f"/{club.slug}/")
                  for club in clubs],
    })
