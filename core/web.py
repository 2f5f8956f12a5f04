"""The views' repeated shape, written once: find the season of a page, turn a service's
refusal or a form's errors into messages, run a service and say what it did.

Every feature's ``views.py`` (the season, events, prizes, the evening's pairing) uses
these, so a view reads as: parse the form, call one service, redirect.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def error_messages(request: HttpRequest, exc: ValidationError, prefix: str = "") -> None:
    """A service's refusal, one message per reason."""
    for message in exc.messages:
        messages.error(request, f"{prefix}{message}")


def form_error_messages(request: HttpRequest, form: forms.BaseForm) -> None:
    for errors in form.errors.values():
        for message in errors:
            messages.error(request, str(message))


def run_service(request: HttpRequest, call: Callable[[], Any], success: str) -> bool:
    """Run a service; say ``success`` when it did its work, or why it refused."""
    try:
        call()
    except ValidationError as exc:
        error_messages(request, exc)
        return False
    messages.success(request, success)
    return True


# --- A confirmation step before what cannot be taken back --------------------------------
# A form that e-mails people, throws work away or fixes a result says so and asks first.
# With script its ``data-confirm`` text opens a <dialog> (static/js/confirm.js) and the
# form is sent with ``confirm=1``; without script, or without the flag, the view answers
# with ``confirmation_page`` and nothing is saved.


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


def confirmation_page(
    request: HttpRequest, *, title: str, consequences: list[str], cancel: str, button: str,
    choice: str = "", choices: Sequence[tuple[str, str]] = (),
) -> HttpResponse:
    """The page that says what the form will do, and sends it again with ``confirm=1``.
    With ``choices`` ((value, label), ...) it offers one button per choice instead, each
    sending its value as the field ``choice`` (the first is the main one)."""
    fields = [
        (name, value)
        for name in request.POST
        if name not in ("csrfmiddlewaretoken", "confirm", choice)
        for value in request.POST.getlist(name)
    ]
    return render(request, "confirm.html", {
        "title": title, "consequences": consequences, "fields": fields,
        "action": request.path, "cancel": cancel, "button": button,
        "choice": choice, "choices": list(choices),
    })
