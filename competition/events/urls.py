"""The Swiss events (rapid, blitz and its playoff); included at ``events/``."""

from django.urls import path

from . import views

app_name = "events"

urlpatterns = [
    path("", views.events, name="events"),
    path("new/", views.event_new, name="event_new"),
    path("import/", views.event_import, name="event_import"),
    path("<int:event_id>/", views.event, name="event"),
    path("<int:event_id>/rounds/<int:number>/", views.round_detail, name="round"),
    path("<int:event_id>/crosstable/", views.cross_table, name="crosstable"),
    path("<int:event_id>/players/<int:number>/", views.player_card, name="card"),
    path("<int:event_id>/trf", views.event_trf, name="trf"),
    path("<int:event_id>/entrants/", views.entrants, name="entrants"),
    path("<int:event_id>/arbiter/", views.arbiter, name="arbiter"),
    path("<int:event_id>/arbiter/open/", views.round_open, name="round_open"),
    path("<int:event_id>/arbiter/rounds/", views.set_rounds, name="set_rounds"),
    path("<int:event_id>/arbiter/playoff/", views.playoff, name="playoff"),
    path("<int:event_id>/arbiter/rounds/<int:number>/present/", views.presence, name="presence"),
    path("<int:event_id>/arbiter/rounds/<int:number>/pair/", views.round_pair, name="round_pair"),
    path("<int:event_id>/arbiter/rounds/<int:number>/finish/", views.round_finish, name="round_finish"),
    path("<int:event_id>/arbiter/games/<int:game_id>/", views.game_result, name="game_result"),
    path("<int:event_id>/arbiter/rounds/<int:number>/correct/", views.round_correct, name="round_correct"),
    path("<int:event_id>/arbiter/games/<int:game_id>/correct/", views.game_correct, name="game_correct"),
]
