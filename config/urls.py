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
    path("events/", include("competition.swiss_urls")),
    path("prizes/", include("competition.prizes_urls")),
    path("", include("competition.urls")),
]
