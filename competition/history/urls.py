from django.urls import path

from . import views

app_name = "history"

urlpatterns = [
    path("", views.archive, name="archive"),
    path("<slug:season>/", views.archive_season, name="season"),
]
