"""The account's pages that are no club's: the admin's sign-in (through allauth), the
access-denied page, and the old address's undo of an e-mail address change."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from members.accounts import email_change
from members.clubs.roles import role_label


def admin_login(request: HttpRequest) -> HttpResponse:
    """The Django admin signs in through allauth, so that its sign-in has the same rate
    limits (and the same form) as the site's: ``/admin/login/`` only redirects."""
    if request.user.is_authenticated:
        if not request.user.is_staff:  # signed in, but not for the admin: no redirect loop
            raise PermissionDenied
        return HttpResponseRedirect(reverse("admin:index"))
    target = request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("admin:index")
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': target})}")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The access-denied page names the visitor's own role, never as the one that may."""
    role = role_label(request.user) if request.user.is_authenticated else ""
    return render(request, "403.html", {"role": role}, status=403)


def email_undo(request: HttpRequest, token: str) -> HttpResponse:
    """The old address's link: undo a change of e-mail address (members.accounts.email_change).
    No sign-in needed (the link is the proof); GET asks, POST does it."""
    data = email_change.read_undo_token(token)
    context: dict[str, object] = {"old": data["old"], "new": data["new"]} if data else {}
    if data is None:
        context["error"] = _("This link is not valid (any more).")
    elif request.method == "POST":
        try:
            context["done"] = email_change.undo(token=token)
        except ValidationError as exc:
            context["error"] = " ".join(exc.messages)
    return render(request, "members/email_undo.html", context)
