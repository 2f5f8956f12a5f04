"""Parameters: presets (docs/rules.md 4.1 table), the dict format, validation, plain words."""

import json
from fractions import Fraction

import pytest

from competition.scoring.params import (
    ParameterError,
    parameters_to_dict,
    parse_parameters,
    preset,
    preset_names,
)
from competition.scoring.types import KeizerParams, LadderParams, Rule


def test_the_four_presets_exist() -> None:
    assert preset_names() == ["pion", "classic", "keizer1956", "ladder"]


def test_pion_preset_follows_seed_000() -> None:
    p = parse_parameters("pion", None)
    assert isinstance(p, KeizerParams)
    assert (p.method, p.top, p.step, p.absent_with_notice_limit) == ("fixpoint", 60, 1, 5)
    assert p.win == Rule("opponent", Fraction(1))
    assert p.draw == Rule("opponent", Fraction(1, 2))
    assert p.loss == Rule("fixed", Fraction(5))
    assert p.absent_with_notice == Rule("own", Fraction(3333, 10000))
    assert p.absent_without_notice == Rule("fixed", Fraction(0))
    assert p.bye == Rule("own", Fraction(1))


def test_classic_preset_follows_seed_002() -> None:
    p = parse_parameters("classic", None)
    assert isinstance(p, KeizerParams)
    assert (p.method, p.top, p.step, p.absent_with_notice_limit) == ("fixpoint", 60, 1, 3)
    assert p.loss == Rule("fixed", Fraction(0))
    assert p.absent_with_notice == Rule("own", Fraction(1, 3))
    assert p.bye == Rule("own", Fraction(2, 3))


def test_defaults_not_in_the_seeds_forfeit_win_as_bye_forfeit_loss_as_absent_club_duty_as_absence() -> None:
    for name in ("pion", "classic"):
        p = parse_parameters(name, None)
        assert isinstance(p, KeizerParams)
        assert p.forfeit_win == p.bye
        assert p.forfeit_loss == p.absent_without_notice
        assert p.club_duty == p.absent_with_notice


def test_keizer1956_is_lagging_with_own_value_added_and_top_50() -> None:
    p = parse_parameters("keizer1956", None)
    assert isinstance(p, KeizerParams)
    assert (p.method, p.own_value_added, p.top, p.step) == ("lagging", True, 50, 1)
    assert p.bye == parse_parameters("classic", None).bye  # type: ignore[union-attr]


def test_ladder_preset_follows_seed_001() -> None:
    p = parse_parameters("ladder", None)
    assert p == LadderParams(Fraction(3), Fraction(0), Fraction(-3), Fraction(7, 100), Fraction(3, 10), True, False)


@pytest.mark.parametrize("name", ["pion", "classic", "keizer1956", "ladder"])
def test_preset_dict_is_json_and_round_trips_exactly(name: str) -> None:
    data = preset(name)
    assert json.loads(json.dumps(data)) == data
    params = parse_parameters(name, None)
    assert parameters_to_dict(params) == data
    assert parse_parameters(name, json.loads(json.dumps(data))) == params


def test_overrides_merge_onto_the_preset() -> None:
    p = parse_parameters("classic", {"top": 80, "bye": {"of": "own", "factor": "1/2"}, "method": "frozen"})
    assert isinstance(p, KeizerParams)
    assert (p.top, p.bye, p.method, p.step) == (80, Rule("own", Fraction(1, 2)), "frozen", 1)


def test_decimal_numbers_become_exact_fractions() -> None:
    p = parse_parameters("ladder", {"place_factor": 0.07, "bonus": "0.3"})
    assert isinstance(p, LadderParams)
    assert (p.place_factor, p.bonus) == (Fraction(7, 100), Fraction(3, 10))


def test_odd_fractions_round_trip_as_fraction_strings() -> None:
    p = parse_parameters("classic", {"draw": {"of": "opponent", "factor": "5/7"}})
    assert parameters_to_dict(p)["draw"] == {"of": "opponent", "factor": "5/7"}


@pytest.mark.parametrize(
    ("system", "overrides", "message"),
    [
        ("swiss", None, "unknown system 'swiss'"),
        ("classic", {"wn": {"fixed": 1}}, "unknown parameter 'wn' for the system 'classic'"),
        ("ladder", {"top": 60}, "unknown parameter 'top' for the system 'ladder'"),
        ("classic", {"method": "magic"}, "parameter 'method' must be one of fixpoint, lagging, frozen"),
        ("classic", {"top": "many"}, "parameter 'top' must be a number"),
        ("classic", {"top": 0}, "parameter 'top' must be greater than 0"),
        ("classic", {"step": -1}, "parameter 'step' must not be negative"),
        ("classic", {"top": True}, "parameter 'top' must be a number"),
        ("classic", {"own_value_added": "yes"}, "parameter 'own_value_added' must be true or false"),
        ("classic", {"absent_with_notice_limit": 2.5}, "parameter 'absent_with_notice_limit' must be a whole"),
        ("classic", {"absent_with_notice_limit": -1}, "parameter 'absent_with_notice_limit' must be a whole"),
        ("classic", {"win": 60}, "parameter 'win' must be"),
        ("classic", {"win": {"factor": 1}}, "parameter 'win' must have either the key 'fixed'"),
        ("classic", {"win": {"of": "neighbour", "factor": 1}}, "parameter 'win.of' must be 'opponent' or 'own'"),
        ("classic", {"draw": {"of": "own", "factor": "1/0"}}, "parameter 'draw.factor' must be a number"),
        ("classic", {"bye": {"of": "opponent", "factor": 1}}, "parameter 'bye' cannot use the opponent's value"),
        ("classic", {"loss": {"fixed": float("nan")}}, "parameter 'loss.fixed' must be a number"),
        ("ladder", {"bonus_for_club_duty": 1}, "parameter 'bonus_for_club_duty' must be true or false"),
    ],
)
def test_bad_parameters_name_the_offending_key(system: str, overrides: dict | None, message: str) -> None:
    with pytest.raises(ParameterError) as caught:
        parse_parameters(system, overrides)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_absent_with_notice_limit_may_be_null_for_no_limit() -> None:
    p = parse_parameters("classic", {"absent_with_notice_limit": None})
    assert isinstance(p, KeizerParams)
    assert p.absent_with_notice_limit is None
    assert parameters_to_dict(p)["absent_with_notice_limit"] is None
