from django.urls import path

from . import views

app_name = "prizes"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:season>/", views.season_prizes, name="season"),
    path("<slug:season>/playoffs/", views.playoffs, name="playoffs"),
    path("<slug:season>/playoffs/create/", views.playoffs_create, name="playoffs_create"),
    path("<slug:season>/playoffs/result/", views.playoff_result, name="playoff_result"),
    path("<slug:season>/playoffs/date/", views.playoff_date, name="playoff_date"),
    path("<slug:season>/playoffs/withdraw/", views.playoff_result_withdraw,
         name="playoff_result_withdraw"),
    path("<slug:season>/playoffs/prizes/", views.playoff_prizes, name="playoff_prizes"),
    path("<slug:season>/manage/", views.manage, name="manage"),
    path("<slug:season>/manage/override/", views.override_set, name="override"),
    path("<slug:season>/manage/override/clear/", views.override_clear, name="override_clear"),
    path("<slug:season>/manage/confirm/", views.confirm, name="confirm"),
    path("<slug:season>/manage/player-kind/", views.player_kind, name="player_kind"),
    path("<slug:season>/manage/next-season/", views.next_season, name="next_season"),
    path("<slug:season>/next-season/", views.next_season_preview, name="next_season_preview"),
    path("<slug:season>/order-from-season/", views.order_from_season, name="order_from_season"),
]
