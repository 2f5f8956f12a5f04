from django.contrib import admin
from django.urls import include, path

from competition import views as competition_views
from members.views import admin_login

urlpatterns = [
    # The admin signs in through allauth (its rate limits); see members/views.py.
    path("admin/login/", admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("language/<str:code>/", competition_views.language, name="language"),
    path("pairing/", include("pairing.urls")),
    path("events/", include("competition.swiss_urls")),
    path("prizes/", include("competition.prizes_urls")),
    path("", include("competition.urls")),
]
