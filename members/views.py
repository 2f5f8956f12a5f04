"""The Django admin signs in through allauth, so that its sign-in has the same rate
limits (and the same form) as the site's: ``/admin/login/`` only redirects."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme


def admin_login(request: HttpRequest) -> HttpResponseRedirect:
    if request.user.is_authenticated:
        if not request.user.is_staff:  # signed in, but not for the admin: no redirect loop
            raise PermissionDenied
        return HttpResponseRedirect(reverse("admin:index"))
    target = request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("admin:index")
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': target})}")
