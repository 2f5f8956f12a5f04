"""The UI speaks Dutch by default (production settings), English on request."""

import pytest
from django.test import override_settings
from django.urls import reverse

from config import settings as production

pytestmark = pytest.mark.django_db


def test_production_default_language_is_dutch_with_english_available():
    assert production.LANGUAGE_CODE == "nl"
    assert [code for code, _ in production.LANGUAGES] == ["nl", "en"]


@override_settings(LANGUAGE_CODE="nl")
def test_a_visitor_without_preference_reads_dutch(client):
    page = client.get(reverse("competition:rules"), HTTP_ACCEPT_LANGUAGE="")
    assert page.status_code in (200, 404)
    home = client.get(reverse("competition:home")).content.decode()
    assert 'lang="nl"' in home and ">Stand<" in home and ">Kalender<" in home


@override_settings(LANGUAGE_CODE="nl")
def test_english_is_chosen_with_the_language_link_and_remembered(client):
    response = client.get(reverse("language", args=["en"]) + "?next=/rules/", follow=True)
    assert response.redirect_chain[-1][0] == "/rules/"
    page = client.get(reverse("competition:home")).content.decode()
    assert 'lang="en"' in page and ">Standings<" in page


def test_language_link_refuses_unknown_languages_and_foreign_targets(client):
    assert client.get(reverse("language", args=["xx"])).status_code == 404
    response = client.get(reverse("language", args=["nl"]) + "?next=https://evil.example/")
    assert response.status_code == 302 and response["Location"] == "/"
