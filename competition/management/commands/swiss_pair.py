"""``manage.py swiss_pair FILE.trf``: pair the next round of a single-game Swiss (Dutch);
``--explain`` says why it is paired so (docs/swiss.md, "Why this pairing")."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.events.engine.dutch import BlitzPairingError, pair_blitz_round
from competition.events.engine.explain import Reason, RoundExplanation, explain_round
from competition.events.engine.report import first_white, pairing_report, read_next_round
from competition.events.engine.tiebreaks import Tournament
from competition.events.engine.trf import TrfError
from competition.management.commands.swiss_tiebreaks import BAD_INPUT, read_text
from competition.season.tables import points_text


def topic_text(topic: str) -> str:
    """What a quality criterion of C.04.3 asks, in the reader's language."""
    texts = {
        "pairs": _("as many pairs as possible"),
        "psd": _("score differences between opponents as small as possible"),
        "next_bracket": _("the next score group paired as well as possible"),
        "bye_unplayed_games": _("the bye to whoever has the fewest unplayed games"),
        "topscorer_colour_difference": _("no topscorer with a colour difference above 2"),
        "topscorer_same_colour": _("no topscorer with the same colour three times running"),
        "colour_preference": _("as many colour preferences met as possible"),
        "strong_colour_preference": _("as many strong colour preferences met as possible"),
        "downfloat_previous": _("no one floating down who floated down the round before"),
        "upfloat_previous": _("no one floating up who floated up the round before"),
        "downfloat_two_before": _("no one floating down who floated down two rounds before"),
        "upfloat_two_before": _("no one floating up who floated up two rounds before"),
        "downfloat_previous_score": _("the score of who floats down again after the round before as low as possible"),
        "upfloat_previous_score": _("the score difference of who floats up again after the round before as small as possible"),
        "downfloat_two_before_score": _("the score of who floats down again after two rounds before as low as possible"),
        "upfloat_two_before_score": _("the score difference of who floats up again after two rounds before as small as possible"),
    }
    return texts[topic]


def reason_text(reason: Reason) -> str:
    """Why the alternative lost, with the article of the edition."""
    if reason.kind == "criterion":
        return f"{reason.article}: {topic_text(reason.topic)}"
    texts = {
        "complete": _("otherwise the round cannot be completed (C.4)"),
        "order": _("no criterion tells them apart: the order of the score group decides (D.1-D.3)"),
        "played": _("they have played each other (C.1)"),
        "colour": _("both must have the same colour (C.3)"),
        "alone": _("there is nobody in his score group he may still play"),
        "unexplained": _("no reason found"),
    }
    if reason.kind == "bye":
        if reason.article == "C.5":
            return _("otherwise a player with more points gets the bye (C.5)")
        return _("otherwise the bye goes to a player who had a bye or a win without playing (C.2)")
    return texts[reason.kind]


def explanation_text(e: RoundExplanation, tournament: Tournament) -> str:
    """The explanation as an arbiter reads it out: per score group its players, each pair
    and each floater with what decided it, then the asked player's candidates."""

    def who(number: int) -> str:
        name = tournament.entrant(number).name
        return f"{number} {name}".strip()

    def numbers(players: tuple[int, ...]) -> str:
        return ", ".join(who(p) for p in players)

    lines = [
        _("Round %(round)d, FIDE Dutch system (C.04.3, edition %(edition)s)")
        % {"round": e.round, "edition": e.edition},
        _("Per pair and per floater, what decided it: the first rule by which every other choice is worse."),
    ]
    for b in e.brackets:
        lines.append("")
        heading = ngettext("Score group %(points)s point: %(players)s", "Score group %(points)s points: %(players)s",
                           1 if b.score == 1 else 2) % {"points": points_text(b.score), "players": numbers(b.residents) or "-"}
        lines.append(heading)
        if b.mdps:
            lines.append("  " + _("floated down to it: %(players)s") % {"players": numbers(b.mdps)})
        if b.penultimate:
            lines.append("  " + _("the score groups below are joined to it (C.4)"))
        if not b.completed:
            lines.append("  " + _("with these players floating down the round cannot be completed (C.4): "
                                  "the score groups below are joined and this one is paired again"))
            continue
        for pair in b.pairs:
            lines.append("  " + _("%(white)s - %(black)s: %(reason)s") % {
                "white": who(pair.white), "black": who(pair.black), "reason": reason_text(pair.reason),
            })
        for f in b.floats:
            template = _("%(player)s gets the bye: %(reason)s") if f.bye else _(
                "%(player)s floats down: %(reason)s")
            lines.append("  " + template % {"player": who(f.player), "reason": reason_text(f.reason)})
    if e.player is not None:
        lines += ["", ngettext("%(player)s, in the score group of %(points)s point:",
                               "%(player)s, in the score group of %(points)s points:",
                               1 if e.player.score == 1 else 2) % {
            "player": who(e.player.player), "points": points_text(e.player.score),
        }]
        for c in e.player.candidates:
            if c.reason is None:
                lines.append("  " + _("against %(player)s: paired") % {"player": who(c.opponent)})
            else:
                lines.append("  " + _("against %(player)s: not, %(reason)s") % {
                    "player": who(c.opponent), "reason": reason_text(c.reason),
                })
        if not any(c.reason is None for c in e.player.candidates):
            outcome = (_("he gets the bye") if e.pairing.bye == e.player.player
                       else _("he floats down and is paired lower"))
            lines.append("  " + outcome)
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Pair the next round of a single-game Swiss by the FIDE Dutch system and print JSON "
        "{games: [{white, black}], bye} by start numbers. Players on an XXZ record are absent; "
        "XXR gives the planned number of rounds. --explain prints why the round is paired so."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a TRF16 / TRF-26 file with the rounds played so far")
        parser.add_argument("--edition", choices=("2017", "2026"), default="2026",
                            help="C.04.3 edition: 2017 (until 31 January 2026) or 2026 (default)")
        parser.add_argument("--explain", action="store_true",
                            help="print the score groups, the floaters and the criterion that decided each pair")
        parser.add_argument("--player", type=int, metavar="N",
                            help="with --explain: every opponent start number N could have had, and why not")
        parser.add_argument("--language", choices=("nl", "en"), default="nl", help="language of --explain")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        if options["player"] is not None and not options["explain"]:
            raise CommandError("--player needs --explain", returncode=BAD_INPUT)
        text = read_text(path)
        try:
            next_round = read_next_round(text)
        except (TrfError, ValueError) as error:
            raise CommandError(f"{path}: {error}", returncode=BAD_INPUT) from None
        t = next_round.tournament
        player = options["player"]
        if player is not None and player not in next_round.present:
            known = any(e.number == player for e in t.entrants)
            problem = "is absent (XXZ)" if known else "is not in the file"
            raise CommandError(f"{path}: --player {player} {problem}", returncode=BAD_INPUT)
        edition = options["edition"]
        white = first_white(t)
        try:
            if not options["explain"]:
                pairing = pair_blitz_round(t, next_round.present, next_round.total_rounds, edition,
                                           first_white=white)
                self.stdout.write(json.dumps(pairing_report(pairing), indent=2))
                return
            explanation = explain_round(t, next_round.present, next_round.total_rounds, edition,
                                        first_white=white, player=player)
        except BlitzPairingError as error:
            raise CommandError(str(error), returncode=1) from None
        with translation.override(options["language"]):
            self.stdout.write(explanation_text(explanation, t))
