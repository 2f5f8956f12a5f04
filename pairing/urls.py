"""The leader's evening pages and the tempo request; included at ``pairing/``."""

from django.urls import path

from . import views

app_name = "pairing"

urlpatterns = [
    path("evenings/", views.evenings, name="evenings"),
    path("evenings/<id:evening_id>/", views.evening, name="evening"),
    path("evenings/<id:evening_id>/registration/", views.registration, name="registration"),
    path("evenings/<id:evening_id>/registrations/", views.registration_bulk,
         name="registration_bulk"),
    path("evenings/<id:evening_id>/players/<id:player_id>/", views.player_evenings,
         name="player_evenings"),
    path("evenings/<id:evening_id>/publish/", views.publish, name="publish"),
    path("evenings/<id:evening_id>/preview/", views.preview, name="preview"),
    path("evenings/<id:evening_id>/swap-opponents/", views.swap_opponents, name="swap_opponents"),
    path("evenings/<id:evening_id>/undo/", views.undo_correction, name="undo_correction"),
    path("evenings/<id:evening_id>/remove/", views.remove_player, name="remove_player"),
    path("evenings/<id:evening_id>/add/", views.add_player, name="add_player"),
    path("games/<id:game_id>/swap-colours/", views.swap_colours, name="swap_colours"),
    path("games/<id:game_id>/tempo/", views.tempo_request, name="tempo_request"),
    path("games/<id:game_id>/tempo/decide/", views.tempo_decide, name="tempo_decide"),
]
