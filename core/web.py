"""The views' repeated shape, written once: find the season of a page, turn a service's
refusal into a message on the form or the page (``refusal``) and a form's errors into
messages, run a service and say what it did.

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


class refusal:  # noqa: N801 - read as a phrase: ``with refusal(request) as refused:``
    """A service's refusal (``ValidationError``) turned into what the member reads, the
    one way every view does it::

        with refusal(request, form=form) as refused:
            season = services.season_set_up(...)
        if not refused:
            messages.success(request, ...)

    With ``form`` each reason goes on the form (on ``field``, else on the field the
    refusal names when ``by_field`` and the form has it, else the form's own errors);
    without, one message on the page per reason, after ``prefix``. Any other exception
    passes through."""

    def __init__(self, request: HttpRequest, *, form: forms.BaseForm | None = None,
                 field: str | None = None, by_field: bool = False, prefix: str = "") -> None:
        self.request, self.form, self.field, self.by_field, self.prefix = request, form, field, by_field, prefix
        self.error: ValidationError | None = None

    def __enter__(self) -> refusal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool:
        if not isinstance(exc, ValidationError):
            return False
        self.error = exc
        form = self.form
        if form is None:
            error_messages(self.request, exc, self.prefix)
        elif self.by_field and hasattr(exc, "error_dict"):
            for name, errors in exc.error_dict.items():
                for error in errors:
                    form.add_error(name if name in form.fields else None, error)
        else:
            for message in exc.messages:
                form.add_error(self.field, message)
        return True

    def __bool__(self) -> bool:
        """Whether the service refused."""
        return self.error is not None

    @property
    def messages(self) -> list[str]:
        return list(self.error.messages) if self.error is not None else []


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
    with refusal(request) as refused:
        call()
    if refused:
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
