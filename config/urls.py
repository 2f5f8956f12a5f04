from django.contrib import admin
from django.urls import include, path, register_converter
from django.utils.translation import gettext_lazy as _

from competition.api.http import public_urls
from competition.api.v1 import endpoints as api_v1
from competition.pages import views as pages
from competition.pages.me.views import allauth_email, privacy_statement
from config import health
from config.converters import DayConverter, IdConverter
from members.accounts.views import admin_login, email_undo

# Before any include(): every app's patterns write numbers as <id:...> (no leading zeros)
# and dates as <day:...> (YYYY-MM-DD): one URL per object (config/converters.py).
register_converter(IdConverter, "id")
register_converter(DayConverter, "day")

# The admin is the platform's, for every club: "Ranglijst", not "Django-beheer".
admin.site.site_header = admin.site.site_title = "Ranglijst"
admin.site.index_title = _("Administration")

handler403 = "members.accounts.views.permission_denied"

urlpatterns = [
    # The admin signs in through allauth (its rate limits); see members/accounts/views.py.
    path("admin/login/", admin_login, name="admin_login"),
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/email/undo/<str:token>/", email_undo, name="members_email_undo"),
    # allauth's e-mail page would add an address without the password: his own page does it.
    path("accounts/email/", allauth_email),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/<str:code>/", pages.language, name="language"),
    path("pairing/", include("pairing.urls")),
    path("events/", include("competition.events.urls")),
    path("prizes/", include("competition.prizes.urls")),
    path("archive/", include("competition.history.urls")),
    # Before competition.urls, whose leader/<season>/ would take "ratings" for a season.
    path("leader/ratings/", include("competition.ratings.urls")),
    path("leader/members/", include("competition.roster.urls")),
    path("leader/history/", include("competition.history.leader_urls")),
    # The read API; each version its own module, v1 stays when v2 comes.
    path("api/v1/", public_urls(api_v1.api.urls, api_v1.PARAMS)),
    # Embeds, feed and the leader's website page; before competition.urls (leader/<season>/).
    path("", include("competition.website.urls")),
    path("me/", include("competition.pages.me.urls")),
    path("privacy/", privacy_statement, name="privacy"),
    path("", include("competition.urls")),
]

# The database down: a Dutch 503 "try again" instead of a bare 500 (config/health.py).
handler500 = "config.health.server_error"
