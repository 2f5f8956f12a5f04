"""The platform's root in multi-club mode (``RANGLIJST_SINGLE_CLUB`` off): ``/`` lists the
clubs; every other URL is the site's, so a page without a club (sign-in) still reverses
the club pages' names (members/clubs/middleware.py)."""

from django.urls import path

from config.urls import handler403, handler500
from config.urls import urlpatterns as site_urlpatterns
from members.platform.views import club_list

__all__ = ["handler403", "handler500", "urlpatterns"]

urlpatterns = [
    path("", club_list, name="club_list"),
    *site_urlpatterns,
]
