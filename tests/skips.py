"""How many tests a run skipped, and whether that is too many (tests/conftest.py).

A skipped test is a test that did not run. The only skips the suite allows are the
PostgreSQL-only tests (``@pytest.mark.postgres``) on SQLite, the developers' default, and
those stay under ``LIMIT`` of the tests run: a run that skips more fails, so the embedded
default cannot quietly become a run that tests little. Where every test must run (CI:
``RANGLIJST_REQUIRE_SERVICES=1``) a skip is a failure of its own test."""

from __future__ import annotations

from dataclasses import dataclass

LIMIT = 0.05  # of the tests run: a run that skips this share or more fails


@dataclass(frozen=True)
class SkipCount:
    skipped: int
    total: int

    @property
    def share(self) -> float:
        return self.skipped / self.total if self.total else 0.0

    @property
    def too_many(self) -> bool:
        return self.skipped > 0 and self.share >= LIMIT

    def line(self) -> str:
        """``58 of 3907 tests skipped (1.4 %; a run fails at 5 %)``: the share rounded
        down, so that a run just under the limit never reads as at it."""
        shown = self.skipped * 1000 // self.total / 10 if self.total else 0.0
        return (f"{self.skipped} of {self.total} tests skipped ({shown:.1f} %; "
                f"a run fails at {LIMIT * 100:.0f} %)")


def count(outcomes: dict[str, str]) -> SkipCount:
    """From each test's outcome (its node id: "passed", "failed" or "skipped")."""
    return SkipCount(sum(o == "skipped" for o in outcomes.values()), len(outcomes))


def outcome(previous: str | None, report_outcome: str) -> str:
    """A test's outcome from its reports, one per phase (setup, call, teardown), in order:
    a failure in any phase is the test's failure; a skip (at setup, or in the test) is its
    skip unless a later phase failed."""
    if previous == "failed" or report_outcome == "failed":
        return "failed"
    if previous == "skipped" or report_outcome == "skipped":
        return "skipped"
    return "passed"
