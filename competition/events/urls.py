"""The Swiss events (rapid, blitz and its playoff); included at ``events/``."""

from django.urls import path

from . import views

app_name = "events"

urlpatterns = [
    path("", views.events, name="events"),
    path("new/", views.event_new, name="event_new"),
    path("import/", views.event_import, name="event_import"),
    path("<id:event_id>/", views.event, name="event"),
    path("<id:event_id>/rounds/<id:number>/", views.round_detail, name="round"),
    path("<id:event_id>/crosstable/", views.cross_table, name="crosstable"),
    path("<id:event_id>/players/<id:number>/", views.player_card, name="card"),
    path("<id:event_id>/trf", views.event_trf, name="trf"),
    path("<id:event_id>/entrants/", views.entrants, name="entrants"),
    path("<id:event_id>/arbiter/", views.arbiter, name="arbiter"),
    path("<id:event_id>/arbiter/open/", views.round_open, name="round_open"),
    path("<id:event_id>/arbiter/rounds/", views.set_rounds, name="set_rounds"),
    path("<id:event_id>/arbiter/playoff/", views.playoff, name="playoff"),
    path("<id:event_id>/arbiter/rounds/<id:number>/present/", views.presence, name="presence"),
    path("<id:event_id>/arbiter/rounds/<id:number>/pair/", views.round_pair, name="round_pair"),
    path("<id:event_id>/arbiter/rounds/<id:number>/finish/", views.round_finish, name="round_finish"),
    path("<id:event_id>/arbiter/games/<id:game_id>/", views.game_result, name="game_result"),
    path("<id:event_id>/arbiter/rounds/<id:number>/correct/", views.round_correct, name="round_correct"),
    path("<id:event_id>/arbiter/games/<id:game_id>/correct/", views.game_correct, name="game_correct"),
    path("<id:event_id>/arbiter/games/<id:game_id>/undo/", views.game_undo, name="game_undo"),
]
