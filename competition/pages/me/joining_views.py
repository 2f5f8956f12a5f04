"""The person's answer to an invitation to join a club (``members.accounts.joining``): signed in,
at the club's address, he reads what joining means and accepts or declines it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.web import run_service
from members.accounts import joining
from members.clubs.context import current_club


@login_required
def join(request: HttpRequest) -> HttpResponse:
    club = current_club()
    invitation = joining.open_invitation(request.user, club)
    if request.method == "POST" and invitation is not None and club is not None:
        name = club.shown_name
        answer = request.POST.get("answer")
        if answer == "accept":
            if run_service(request, lambda: joining.join_accept(actor=request.user, club=club),
                           _("Welcome: you are a member of %(club)s now.") % {"club": name}):
                return redirect("competition:home")
        elif answer == "decline":
            run_service(request, lambda: joining.join_decline(actor=request.user, club=club),
                        _("You declined the invitation of %(club)s; nothing changed.") % {"club": name})
            return redirect("competition:home")
        else:
            messages.error(request, _("Choose to join or to decline."))
    return render(request, "members/join.html", {
        "invitation": invitation, "club": club,
        "member_already": club is not None and joining.is_member_of(request.user, club),
    })
