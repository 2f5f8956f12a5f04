"""The count of skipped tests (tests/skips.py, printed at the end of every run by
tests/conftest.py): a run that skips 5 % of its tests or more fails."""

from __future__ import annotations

import pytest

from tests.skips import LIMIT, SkipCount, count, outcome


def test_a_tests_outcome_is_its_worst_phase():
    assert outcome(None, "passed") == "passed"
    assert outcome(None, "skipped") == "skipped"  # skipped at its setup: no call, no more
    assert outcome("passed", "failed") == "failed"  # its teardown failed
    assert outcome("skipped", "passed") == "skipped"  # the teardown after a skip
    assert outcome("skipped", "failed") == "failed"
    assert outcome("failed", "passed") == "failed"


def test_the_count_is_of_tests_not_of_reports():
    outcomes = {"a": "passed", "b": "skipped", "c": "failed", "d": "skipped"}
    assert count(outcomes) == SkipCount(skipped=2, total=4)


@pytest.mark.parametrize(
    "skipped, total, too_many",
    [(0, 0, False), (0, 10, False), (4, 100, False), (49, 1000, False), (50, 1000, True),
     (51, 1000, True), (1, 1, True), (58, 3907, False), (196, 3907, True)],
)
def test_a_run_fails_from_five_percent_of_its_tests_skipped(skipped, total, too_many):
    assert LIMIT == 0.05
    assert SkipCount(skipped, total).too_many is too_many


@pytest.mark.parametrize(
    "skipped, total, shown",
    [(58, 3907, "58 of 3907 tests skipped (1.4 %; a run fails at 5 %)"),
     (0, 3907, "0 of 3907 tests skipped (0.0 %; a run fails at 5 %)"),
     # Rounded down: just under the limit never reads as at it.
     (499, 10000, "499 of 10000 tests skipped (4.9 %; a run fails at 5 %)"),
     (0, 0, "0 of 0 tests skipped (0.0 %; a run fails at 5 %)")],
)
def test_the_line_says_how_many_of_how_many_and_the_share(skipped, total, shown):
    assert SkipCount(skipped, total).line() == shown
