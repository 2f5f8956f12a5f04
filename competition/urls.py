from django.urls import path

from competition.club import views as club_views
from competition.overviews import urls as overviews_urls
from competition.pages import views as pages
from competition.season import views

app_name = "competition"

urlpatterns = [
    path("", pages.home, name="home"),
    path("standings/", pages.standings, name="standings"),
    path("standings/<slug:season>/<slug:half>/", pages.standings, name="standings_half"),
    path("evenings/", views.evenings, name="evenings"),
    path("evenings/<day:date>/", views.evening, name="evening"),
    path("games/<id:game_id>/result/", views.enter_result, name="enter_result"),
    path("games/<id:game_id>/undo/", views.undo_result, name="undo_result"),
    path("players/<id:player_id>/", pages.player, name="player"),
    path("calendar/", views.calendar, name="calendar"),
    path("calendar.ics", views.calendar_feed, name="calendar_ics"),
    path("rules/", views.rules, name="rules"),
    path("signup/", pages.signup, name="signup"),
    path("leader/", views.leader, name="leader"),
    path("settings/", club_views.club_settings, name="club_settings"),
    path("leader/audit/", views.audit_log, name="audit"),
    path("leader/club-duty/<id:request_id>/", views.club_duty_decide, name="club_duty_decide"),
    path("leader/<slug:season>/", pages.leader_season, name="leader_season"),
    path("leader/evenings/<id:evening_id>/", views.leader_evening_update, name="leader_evening_update"),
    path("leader/evenings/<id:evening_id>/move/", views.leader_evening_move, name="leader_evening_move"),
    path("leader/<slug:season>/evenings/add/", views.leader_evening_add, name="leader_evening_add"),
    *overviews_urls.urlpatterns,
]
