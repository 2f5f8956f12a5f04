from django.urls import path

from . import leader_views

app_name = "history_import"

urlpatterns = [
    path("import/", leader_views.history_import, name="upload"),
]
