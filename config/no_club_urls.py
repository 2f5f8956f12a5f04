"""No club at this address (``/<unknown-slug>/…``): every path is a 404, rendered with the
session and user known, as every other 404 (members/clubs/middleware.py). The site's URLs
follow the catch-all only so that the 404 page can name them (sign-in, language)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import re_path
from django.utils.translation import gettext as _

from config.urls import handler403, handler500
from config.urls import urlpatterns as site_urlpatterns

__all__ = ["handler403", "handler500", "urlpatterns"]


def no_club(request: HttpRequest, **kwargs: object) -> HttpResponse:
    raise Http404(_("There is no club at this address."))


urlpatterns = [re_path(r"", no_club), *site_urlpatterns]
