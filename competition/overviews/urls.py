"""The overviews' addresses, part of the app's ``competition:`` names (competition/urls.py)."""

from django.urls import path

from competition.overviews import views as overviews

urlpatterns = [
    path("standings/<slug:season>/<slug:half>/crosstable/", overviews.cross_table, name="crosstable"),
    path("standings/<slug:season>/<slug:half>/evenings/", overviews.evening_matrix,
         name="evening_matrix"),
    path("postponed/", overviews.postponed, name="postponed"),
    path("evenings/<day:date>/sheet/", overviews.pairing_sheet, name="pairing_sheet"),
]
