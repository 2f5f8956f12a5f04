from django.urls import path

from . import views
from .overviews import views as overviews

app_name = "competition"

urlpatterns = [
    path("", views.home, name="home"),
    path("standings/", views.standings, name="standings"),
    path("standings/<slug:season>/<slug:half>/", views.standings, name="standings_half"),
    path("standings/<slug:season>/<slug:half>/crosstable/", overviews.cross_table, name="crosstable"),
    path("standings/<slug:season>/<slug:half>/evenings/", overviews.evening_matrix,
         name="evening_matrix"),
    path("postponed/", overviews.postponed, name="postponed"),
    path("evenings/", views.evenings, name="evenings"),
    path("evenings/<day:date>/sheet/", overviews.pairing_sheet, name="pairing_sheet"),
    path("evenings/<day:date>/", views.evening, name="evening"),
    path("games/<id:game_id>/result/", views.enter_result, name="enter_result"),
    path("games/<id:game_id>/undo/", views.undo_result, name="undo_result"),
    path("players/<id:player_id>/", views.player, name="player"),
    path("calendar/", views.calendar, name="calendar"),
    path("calendar.ics", views.calendar_feed, name="calendar_ics"),
    path("rules/", views.rules, name="rules"),
    path("signup/", views.signup, name="signup"),
    path("leader/", views.leader, name="leader"),
    path("leader/audit/", views.audit_log, name="audit"),
    path("leader/club-duty/<id:request_id>/", views.club_duty_decide, name="club_duty_decide"),
    path("leader/<slug:season>/", views.leader_season, name="leader_season"),
    path("leader/evenings/<id:evening_id>/", views.leader_evening_update, name="leader_evening_update"),
]
