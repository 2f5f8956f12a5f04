"""A member's own pages; included at ``me/``."""

from django.urls import path

from competition.pages.me import joining_views, views

app_name = "me"

urlpatterns = [
    path("", views.details, name="details"),
    path("join/", joining_views.join, name="join"),
    path("email/", views.email, name="email"),
    path("data.json", views.data, name="data"),
    path("leave/", views.leave, name="leave"),
    path("delete/", views.delete_account, name="delete"),
    path("calendar/new/", views.calendar_renew, name="calendar_renew"),
    path("calendar/<str:token>.ics", views.calendar, name="calendar"),
]
