"""The platform's own root page in multi-club mode: the list of its clubs."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from members.clubs.addresses import club_home_url
from members.models import Club, JoinKind, JoinRequest, Membership


def club_list(request: HttpRequest) -> HttpResponse:
    """A club with a host name of its own is linked there; the others by their path on the
    address this page was asked at (``make run`` on any port, a test server), not on
    ``SITE_URL``, which the e-mails need."""
    clubs = Club.objects.prefetch_related("domains").order_by("name")
    user = request.user if request.user.is_authenticated else None
    mine = set(Membership.objects.filter(user=user).values_list("club_id", flat=True)
               ) if user is not None else set()
    # The clubs that invite him to join (members.accounts.joining), with the way to his answer.
    invited = set(JoinRequest.objects.filter(user=user, kind=JoinKind.INVITATION)
                  .values_list("club_id", flat=True)) - mine if user is not None else set()
    # A signed-in person's own clubs first, marked ("My clubs"); then his invitations; then the others.
    ordered = sorted(clubs, key=lambda club: (club.pk not in mine, club.pk not in invited))
    return render(request, "members/club_list.html", {
        "clubs": [(club, club_home_url(club), club.pk in mine, club.pk in invited) for club in ordered],
        "has_mine": bool(mine),
    })
