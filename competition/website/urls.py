"""The embeds, the feed and the leader's website page; included at the site's root
(before competition.urls, whose leader/<season>/ would take "website" for a season)."""

from django.urls import path

from core.pagecache import cache_public_page

from . import views
from .feeds import EveningsFeed

app_name = "website"

urlpatterns = [
    path("embed/standings/", views.embed_standings, name="embed_standings"),
    path("embed/pairing/", views.embed_pairing, name="embed_pairing"),
    path("embed/results/", views.embed_results, name="embed_results"),
    path("feed/", cache_public_page(EveningsFeed()), name="feed"),
    path("leader/website/", views.website, name="leader"),
]
