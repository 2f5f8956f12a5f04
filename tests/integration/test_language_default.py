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
def test_english_is_chosen_with_the_language_form(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)
    page = response.content.decode()
    assert 'lang="en"' in page and ">Standings<" in page
