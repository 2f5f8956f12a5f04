"""The club's settings page (its administrator's): the form and the service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.permissions import Perm
from core.web import refusal
from members.clubs.context import current_club
from members.models import Club

from . import services
from .forms import FIELDS, ClubSettingsForm


@login_required
@permission_required(Perm.MANAGE_SEASON, raise_exception=True)
def club_settings(request: HttpRequest) -> HttpResponse:
    club = current_club()
    if club is None:
        raise Http404
    # A copy: the form writes its values into its instance, the service saves them.
    form = ClubSettingsForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        with refusal(request, form=form) as refused:
            services.club_settings_update(
                actor=request.user, club=club, changes={f: form.cleaned_data[f] for f in FIELDS})
        if not refused:
            messages.success(request, _("The club's settings are saved."))
            return redirect("competition:club_settings")
    return render(request, "competition/club_settings.html", {"form": form, "club": club})
