from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class EmbedOriginsForm(forms.Form):
    """The sites that may show the embeds, one a line (checked by the service)."""

    origins = forms.CharField(
        label=_("Websites that may show the embeds"), required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "https://www.schaakclub.nl"}),
        help_text=_("One address a line, such as https://www.schaakclub.nl. "
                    "Empty: no other site may show them."),
        max_length=4000,
    )

    def lines(self) -> list[str]:
        return self.cleaned_data["origins"].splitlines()
