from django.contrib import admin
from django.urls import include, path

from competition import views as competition_views
from config import health

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/<str:code>/", competition_views.language, name="language"),
    path("pairing/", include("pairing.urls")),
    path("events/", include("competition.events.urls")),
    path("prizes/", include("competition.prizes.urls")),
    # Before competition.urls, whose leader/<season>/ would take "ratings" for a season.
    path("leader/ratings/", include("competition.ratings.urls")),
    path("leader/members/", include("members.urls")),
    path("", include("competition.urls")),
]
