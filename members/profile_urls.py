"""A member's own pages; included at ``me/``."""

from django.urls import path

from . import joining_views
from . import profile_views as views

app_name = "me"

urlpatterns = [
    path("", views.details, name="details"),
    path("join/", joining_views.join, name="join"),
    path("data.json", views.data, name="data"),
    path("leave/", views.leave, name="leave"),
    path("calendar/new/", views.calendar_renew, name="calendar_renew"),
    path("calendar/<str:token>.ics", views.calendar, name="calendar"),
]
