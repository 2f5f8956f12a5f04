"""Forms of the leader's evening page and the tempo request: they turn input into
service arguments; the services decide and give the messages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from competition.models import Attendance, Evening, Game, Player


class _PlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:  # type: ignore[override]
        return obj.member.name


class _GameChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Game) -> str:  # type: ignore[override]
        return f"{obj.board}. {obj.white.member.name} – {obj.black.member.name}"


class RegistrationOnBehalfForm(forms.Form):
    """The leader sets one player's status for the evening (e-mail, phone, force majeure)."""

    player = _PlayerChoice(label=_("Player"), queryset=Player.objects.none())
    status = forms.ChoiceField(label=_("Status"), choices=Attendance.choices)
    force_majeure = forms.BooleanField(label=_("Force majeure"), required=False)

    def __init__(self, *args: Any, evening: Evening, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(
            season_id=evening.season_id
        ).select_related("member")


class BulkRegistrationForm(forms.Form):
    """The leader gives several players of the evening one status at once."""

    players = forms.ModelMultipleChoiceField(
        label=_("Players"), queryset=Player.objects.none(),
        error_messages={"required": _("Choose at least one player.")},
    )
    status = forms.ChoiceField(label=_("Status"), choices=Attendance.choices)
    force_majeure = forms.BooleanField(label=_("Force majeure"), required=False)

    def __init__(self, *args: Any, evening: Evening, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = Player.objects.filter(season_id=evening.season_id)


class PlayerEveningsForm(forms.Form):
    """The leader signs one player up or off for several evenings at once."""

    evenings = forms.ModelMultipleChoiceField(
        label=_("Evenings"), queryset=Evening.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one evening.")},
    )
    status = forms.ChoiceField(label=_("Status"), choices=Attendance.choices)
    force_majeure = forms.BooleanField(label=_("Force majeure"), required=False)

    def __init__(self, *args: Any, evenings: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["evenings"].queryset = evenings
        self.fields["evenings"].label_from_instance = lambda e: e.date.strftime("%d-%m-%Y")


class PlayerForm(forms.Form):
    """One player of the season: the one to remove from or add to the pairing."""

    player = _PlayerChoice(label=_("Player"), queryset=Player.objects.none())

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players


class SwapOpponentsForm(forms.Form):
    """Two games of the evening whose black players change places."""

    game_a = _GameChoice(label=_("First game"), queryset=Game.objects.none())
    game_b = _GameChoice(label=_("Second game"), queryset=Game.objects.none())

    def __init__(self, *args: Any, evening: Evening, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = evening.games.select_related("white__member", "black__member").order_by("board")
        self.fields["game_a"].queryset = games
        self.fields["game_b"].queryset = games

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("game_a") and data.get("game_a") == data.get("game_b"):
            raise forms.ValidationError(_("Choose two different games."))
        return data


class TempoRequestForm(forms.Form):
    opponent_agrees = forms.BooleanField(
        label=_("My opponent agrees to play 40 moves in 90 minutes, then 15 minutes"),
        required=False,  # the service says why it must be ticked
    )


class TempoDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"), choices=[("approve", _("Approve")), ("refuse", _("Refuse"))]
    )
