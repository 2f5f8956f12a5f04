from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from competition import views as competition_views
from config import health
from members.profile_views import privacy_statement
from members.views import admin_login

# The admin is titled for the club, not "Django-beheer".
admin.site.site_header = admin.site.site_title = getattr(settings, "CLUB_NAME", "") or "Ranglijst"
admin.site.index_title = _("Administration")

handler403 = "members.views.permission_denied"

urlpatterns = [
    # The admin signs in through allauth (its rate limits); see members/views.py.
    path("admin/login/", admin_login, name="admin_login"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/<str:code>/", competition_views.language, name="language"),
    path("pairing/", include("pairing.urls")),
    path("events/", include("competition.events.urls")),
    path("prizes/", include("competition.prizes.urls")),
    path("archive/", include("competition.history.urls")),
    # Before competition.urls, whose leader/<season>/ would take "ratings" for a season.
    path("leader/ratings/", include("competition.ratings.urls")),
    path("leader/members/", include("members.urls")),
    path("me/", include("members.profile_urls")),
    path("privacy/", privacy_statement, name="privacy"),
    path("", include("competition.urls")),
]
