"""Competition parameters: presets, validation, the dict format, and plain-words text.

One dict format serves the database, the season file and the admin form, e.g.::

    {"method": "fixpoint", "top": 60, "step": 1, "own_value_added": false,
     "absent_with_notice_limit": 3,
     "win": {"of": "opponent", "factor": 1}, "loss": {"fixed": 0},
     "bye": {"of": "own", "factor": "2/3"}, ...}

Numbers may be JSON numbers or exact fraction strings ("2/3"); they become
`Fraction`s, floats through their shortest decimal form (0.07 -> 7/100).
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from competition.scoring.types import (
    METHODS,
    OUTCOMES_WITH_OPPONENT,
    SCORED_OUTCOMES,
    KeizerParams,
    LadderParams,
    Outcome,
    Rule,
)


class ParamRefusal(enum.Enum):
    """Why parameters are refused: a code the shell words in the member's language
    (``competition.season.texts.parameter_refusal``); the value is the English text."""

    UNKNOWN_SYSTEM = "unknown system '{system}' (known: {known})"
    NOT_A_MAPPING = "the parameters must be a mapping of names to values"
    UNKNOWN_PARAMETER = "unknown parameter '{key}' for the system '{system}'"
    BAD_METHOD = "parameter 'method' must be one of {known}, not {value}"
    TOP_NOT_POSITIVE = "parameter 'top' must be greater than 0"
    STEP_NEGATIVE = "parameter 'step' must not be negative"
    BAD_LIMIT = (
        "parameter 'absent_with_notice_limit' must be a whole number of at least 0, "
        "or null for no limit"
    )
    BAD_RULE = (
        'parameter \'{key}\' must be {{"of": "opponent" or "own", "factor": number}} '
        'or {{"fixed": number}}'
    )
    BAD_RULE_KEYS = (
        "parameter '{key}' must have either the key 'fixed', or the keys 'of' and 'factor' "
        "(it has {keys})"
    )
    BAD_BASIS = "parameter '{key}.of' must be 'opponent' or 'own', not {value}"
    NO_OPPONENT = "parameter '{key}' cannot use the opponent's value: there is no opponent"
    NOT_BOOLEAN = "parameter '{key}' must be true or false, not {value}"
    NOT_A_NUMBER = 'parameter \'{key}\' must be a number or a fraction like "2/3", not {value}'


class ParameterError(ValueError):
    """A parameter is unknown or has a wrong value: ``code`` says which refusal, ``params``
    (strings) fill it in; ``str()`` is the English text (season files, the command line)."""

    def __init__(self, code: ParamRefusal, **params: str) -> None:
        self.code = code
        self.params = params
        super().__init__(code.value.format(**params))


LADDER_SYSTEMS = ("ladder",)

_OUTCOME_KEYS = tuple(o.value for o in SCORED_OUTCOMES)
_KEIZER_KEYS = ("method", "top", "step", "own_value_added", "absent_with_notice_limit") + _OUTCOME_KEYS
_LADDER_KEYS = ("win", "draw", "loss", "place_factor", "bonus", "bonus_for_club_duty", "bonus_for_bye")


def _opp(factor: int | str) -> dict[str, Any]:
    return {"of": "opponent", "factor": factor}


def _own(factor: int | str) -> dict[str, Any]:
    return {"of": "own", "factor": factor}


def _fixed(points: int) -> dict[str, Any]:
    return {"fixed": points}


_CLASSIC: dict[str, Any] = {
    "method": "fixpoint",
    "top": 60,
    "step": 1,
    "own_value_added": False,
    "absent_with_notice_limit": 3,
    "win": _opp(1),
    "draw": _opp("1/2"),
    "loss": _fixed(0),
    "bye": _own("2/3"),
    "absent_with_notice": _own("1/3"),
    "absent_without_notice": _fixed(0),
    "club_duty": _own("1/3"),  # as absent with notice, but outside its limit
    "forfeit_win": _own("2/3"),  # as a pairing bye
    "forfeit_loss": _fixed(0),  # as absent without notice
}

_PRESETS: dict[str, dict[str, Any]] = {
    "pion": {
        **_CLASSIC,
        "absent_with_notice_limit": 5,
        "loss": _fixed(5),
        # Seed 000 configures its program with 0.3333, not 1/3; see docs/standings.md.
        "absent_with_notice": _own("3333/10000"),
        "club_duty": _own("3333/10000"),
        "bye": _own(1),
        "forfeit_win": _own(1),
    },
    "classic": _CLASSIC,
    "keizer1956": {**_CLASSIC, "method": "lagging", "own_value_added": True, "top": 50},
    "ladder": {
        "win": 3,
        "draw": 0,
        "loss": -3,
        "place_factor": "7/100",
        "bonus": "3/10",
        "bonus_for_club_duty": True,
        "bonus_for_bye": False,
    },
}


def preset_names() -> list[str]:
    """The names of the presets, Keizer ones first."""
    return list(_PRESETS)


def preset(name: str) -> dict[str, Any]:
    """A full, JSON-serialisable copy of a preset's parameters."""
    if name not in _PRESETS:
        raise ParameterError(ParamRefusal.UNKNOWN_SYSTEM, system=name, known=", ".join(_PRESETS))
    return parameters_to_dict(parse_parameters(name, None))


def is_ladder(system: str) -> bool:
    return system in LADDER_SYSTEMS


def parse_parameters(system: str, overrides: Mapping[str, Any] | None) -> KeizerParams | LadderParams:
    """Merge `overrides` onto the preset `system` and validate every key and value."""
    if system not in _PRESETS:
        raise ParameterError(ParamRefusal.UNKNOWN_SYSTEM, system=system, known=", ".join(_PRESETS))
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ParameterError(ParamRefusal.NOT_A_MAPPING)
    merged = dict(_PRESETS[system])
    allowed = _LADDER_KEYS if is_ladder(system) else _KEIZER_KEYS
    for key, value in (overrides or {}).items():
        if key not in allowed:
            raise ParameterError(ParamRefusal.UNKNOWN_PARAMETER, key=str(key), system=system)
        merged[key] = value
    if is_ladder(system):
        return _parse_ladder(merged)
    return _parse_keizer(merged)


def normalise_overrides(system: str, overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate overrides and return them in canonical dict form (same keys)."""
    full = parameters_to_dict(parse_parameters(system, overrides))
    return {key: full[key] for key in (overrides or {})}


# ---------------------------------------------------------------------------
# Parsing


def _parse_keizer(raw: Mapping[str, Any]) -> KeizerParams:
    method = raw["method"]
    if method not in METHODS:
        raise ParameterError(ParamRefusal.BAD_METHOD, known=", ".join(METHODS), value=repr(method))
    top = parse_number("top", raw["top"])
    step = parse_number("step", raw["step"])
    if top <= 0:
        raise ParameterError(ParamRefusal.TOP_NOT_POSITIVE)
    if step < 0:
        raise ParameterError(ParamRefusal.STEP_NEGATIVE)
    limit = raw["absent_with_notice_limit"]
    if limit is not None and (not _is_int(limit) or limit < 0):
        raise ParameterError(ParamRefusal.BAD_LIMIT)
    rules = {key: _rule(Outcome(key), raw[key]) for key in _OUTCOME_KEYS}
    return KeizerParams(
        method=method,
        top=top,
        step=step,
        own_value_added=_bool("own_value_added", raw["own_value_added"]),
        absent_with_notice_limit=limit,
        **rules,
    )


def _parse_ladder(raw: Mapping[str, Any]) -> LadderParams:
    return LadderParams(
        win=parse_number("win", raw["win"]),
        draw=parse_number("draw", raw["draw"]),
        loss=parse_number("loss", raw["loss"]),
        place_factor=parse_number("place_factor", raw["place_factor"]),
        bonus=parse_number("bonus", raw["bonus"]),
        bonus_for_club_duty=_bool("bonus_for_club_duty", raw["bonus_for_club_duty"]),
        bonus_for_bye=_bool("bonus_for_bye", raw["bonus_for_bye"]),
    )


def _rule(outcome: Outcome, raw: Any) -> Rule:
    key = outcome.value
    if not isinstance(raw, Mapping):
        raise ParameterError(ParamRefusal.BAD_RULE, key=key)
    if set(raw) == {"fixed"}:
        return Rule("fixed", parse_number(f"{key}.fixed", raw["fixed"]))
    if set(raw) != {"of", "factor"}:
        raise ParameterError(ParamRefusal.BAD_RULE_KEYS, key=key,
                             keys=", ".join(sorted(map(str, raw))) or "none")
    basis = raw["of"]
    if basis not in ("opponent", "own"):
        raise ParameterError(ParamRefusal.BAD_BASIS, key=key, value=repr(basis))
    if basis == "opponent" and outcome not in OUTCOMES_WITH_OPPONENT:
        raise ParameterError(ParamRefusal.NO_OPPONENT, key=key)
    return Rule(basis, parse_number(f"{key}.factor", raw["factor"]))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ParameterError(ParamRefusal.NOT_BOOLEAN, key=key, value=repr(value))
    return value


# A parameter written as text: "-2", "0.3333", "2/3". No exponents, at most 12 digits a part.
NUMBER_TEXT = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,12})?(/[0-9]{1,12})?")
MAX_NUMBER = 10**12


def parse_number(key: str, value: Any) -> Fraction:
    """An exact number from an int, a float (by its shortest decimal) or a string."""
    message = ParameterError(ParamRefusal.NOT_A_NUMBER, key=key, value=repr(value))
    if isinstance(value, bool):
        raise message
    if isinstance(value, str) and not NUMBER_TEXT.fullmatch(value.strip()):
        raise message  # also "1e999999", which would build a huge number
    if isinstance(value, int) and abs(value) > MAX_NUMBER:
        raise message
    if isinstance(value, float) and math.isfinite(value) and abs(value) > MAX_NUMBER:
        raise message
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise message
        return Fraction(repr(value))
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise message from None
    raise message


# ---------------------------------------------------------------------------
# Back to the dict format


def number_to_json(value: Fraction) -> int | float | str:
    """An exact number in JSON: int if whole, a float if its decimal is exact and
    short (0.07), else a fraction string ("2/3"). Parsing it back gives `value`."""
    if value.denominator == 1:
        return value.numerator
    as_float = float(value)
    if Fraction(repr(as_float)) == value:
        return as_float
    return f"{value.numerator}/{value.denominator}"


def _rule_to_dict(rule: Rule) -> dict[str, Any]:
    if rule.basis == "fixed":
        return {"fixed": number_to_json(rule.amount)}
    return {"of": rule.basis, "factor": number_to_json(rule.amount)}


def parameters_to_dict(params: KeizerParams | LadderParams) -> dict[str, Any]:
    """The full dict form; `parse_parameters(system, parameters_to_dict(p)) == p`."""
    if isinstance(params, LadderParams):
        return {
            "win": number_to_json(params.win),
            "draw": number_to_json(params.draw),
            "loss": number_to_json(params.loss),
            "place_factor": number_to_json(params.place_factor),
            "bonus": number_to_json(params.bonus),
            "bonus_for_club_duty": params.bonus_for_club_duty,
            "bonus_for_bye": params.bonus_for_bye,
        }
    result: dict[str, Any] = {
        "method": params.method,
        "top": number_to_json(params.top),
        "step": number_to_json(params.step),
        "own_value_added": params.own_value_added,
        "absent_with_notice_limit": params.absent_with_notice_limit,
    }
    for key in _OUTCOME_KEYS:
        result[key] = _rule_to_dict(getattr(params, key))
    return result


# ---------------------------------------------------------------------------
# Plain words for the public rules page


def format_number(value: Fraction) -> str:
    """A parameter for reading: 3, 0.07, 2/3."""
    if value.denominator == 1:
        return str(value.numerator)
    shown = number_to_json(value)
    return str(shown)
