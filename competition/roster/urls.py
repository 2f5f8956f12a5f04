"""The leader's member pages; included at ``leader/members/`` (URL namespace ``members``,
as before they moved here from the members app)."""

from django.urls import path

from competition.roster import views

app_name = "members"

urlpatterns = [
    path("", views.index, name="current"),
    path("roles/", views.roles, name="roles"),
    path("roles/<id:member_id>/", views.role_set, name="role_set"),
    path("registrations/<id:member_id>/", views.registration_decide, name="registration_decide"),
    path("mails/<id:mail_id>/again/", views.mail_again, name="mail_again"),
    path("<slug:season>/", views.index, name="index"),
    path("<slug:season>/add/", views.add, name="add"),
    path("<slug:season>/import/", views.import_members, name="import"),
    path("<slug:season>/order-by-rating/", views.order_by_rating, name="order_by_rating"),
    path("<slug:season>/players/<id:player_id>/", views.edit, name="edit"),
    path("<slug:season>/players/<id:player_id>/move/", views.move, name="move"),
    path("<slug:season>/players/<id:player_id>/invite/", views.invite, name="invite"),
    path("<slug:season>/players/<id:player_id>/remove/", views.remove, name="remove"),
]
