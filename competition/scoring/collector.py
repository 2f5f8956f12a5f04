"""The cyclic garbage collector paused while the engine computes (docs/standings.md, "How fast").

A season's computation allocates thousands of lists, tuples and dicts (the history's
tables and rows, the explanation's lines) that all survive it: they are the result.
Every 700 such allocations Python's collector walks the young containers, finding
nothing to free; in a 100-player season that is a tenth of a millisecond a pass. The
engine makes no garbage cycles of its own beyond its deferred closures, which the next
pass after the computation frees.

`paused()` turns the collector off for the duration and back on only if it was on when
entered, so a computation inside another (or in another thread) cannot leave it off.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def paused() -> Iterator[None]:
    """The collector off while the block runs; on again after if it was on before."""
    was_on = gc.isenabled()
    if was_on:
        gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def without_collection(function: Callable[P, R]) -> Callable[P, R]:
    """`function` run with the collector `paused`."""

    @wraps(function)
    def paused_function(*args: P.args, **kwargs: P.kwargs) -> R:
        with paused():
            return function(*args, **kwargs)

    return paused_function
