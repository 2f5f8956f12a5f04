from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("", views.index, name="index"),
    path("<id:import_id>/", views.detail, name="detail"),
    path("<id:import_id>/save/", views.save, name="save"),
    path("<slug:season>/start-order/", views.season_start, name="season_start"),
    path("<slug:season>/export/", views.export, name="export"),
    path("<slug:season>/competition-ratings/", views.competition_ratings, name="competition_ratings"),
]
