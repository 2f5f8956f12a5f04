"""The leader brings last season along: upload a TRF file or a games CSV, check every
name's match in the preview, save (``importing``)."""

from __future__ import annotations

import base64

from django import forms
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.web import refusal
from members.clubs.decorators import any_permission_required

from . import importing
from .historyfile import MAX_BYTES

FILE_SALT = "history.import.file"
FILE_MAX_AGE = 24 * 3600


class HistoryFileForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Last season's file"), allow_empty_file=True,
        help_text=gettext_lazy("A TRF file (Sevilla: export for the KNSB) or a CSV file with "
                               "the columns datum, wit, zwart, uitslag."))
    name = forms.CharField(label=gettext_lazy("Name of the season"), required=False, max_length=40,
                           help_text=gettext_lazy("Empty: the years of its evenings, e.g. 2025-2026."))


def _kept(request: HttpRequest) -> tuple[bytes, str, str] | None:
    """The uploaded file, kept in the page between the preview and saving (signed)."""
    try:
        data = signing.loads(request.POST.get("kept", ""), salt=FILE_SALT, max_age=FILE_MAX_AGE)
        return base64.b64decode(data["raw"]), str(data["filename"]), str(data["name"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


@any_permission_required(importing.PERM)
def history_import(request: HttpRequest) -> HttpResponse:
    upload = HistoryFileForm(request.POST or None, request.FILES or None)
    context: dict = {"upload": upload}
    kept = None
    if request.method == "POST" and "kept" in request.POST:
        kept = _kept(request)
        if kept is None:
            messages.error(request, _("The uploaded file has expired; upload it again."))
    elif request.method == "POST" and upload.is_valid():
        file = upload.cleaned_data["file"]
        kept = file.read(MAX_BYTES + 1), file.name, upload.cleaned_data["name"]
    if kept is None:
        return render(request, "history/import.html", context)
    raw, filename, name = kept
    with refusal(request, form=upload, field="file") as refused:
        preview = importing.history_preview(raw=raw, filename=filename, name=name)
    if refused:
        return render(request, "history/import.html", context)
    if request.POST.get("save") == "1":
        choices = {m.wanted.key: request.POST.get(f"player-{m.wanted.key}", importing.NEW)
                   for m in preview.matches}
        with refusal(request) as refused:
            season = importing.history_import(actor=request.user, raw=raw, filename=filename,
                                              choices=choices, name=name)
        if not refused:
            messages.success(request, _("Season %(name)s is in the archive, with its standings.")
                             % {"name": season.name})
            return redirect(reverse("history:season", args=[season.slug]))
    context.update(preview=preview, kept=signing.dumps(
        {"raw": base64.b64encode(raw).decode(), "filename": filename, "name": name},
        salt=FILE_SALT, compress=True))
    return render(request, "history/import.html", context)
