"""A server-rendered SVG of a player's place after each evening (readable without JS)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 34, 12, 12, 38


def place_chart_svg(
    places: Sequence[tuple[dt.date, int, str]], *, title: str, field: int | None = None
) -> SafeString:
    """Place 1 at the top and the last place of the field at the bottom, so a player who
    was 1st or 2nd shows as a line along the top, not a page-high zigzag. One point per
    evening, a line per half; the evenings' dates on the axis."""
    if not places:
        return mark_safe("")
    worst = max(field or 0, max(rank for _, rank, _ in places), 2)
    n = len(places)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step_x = plot_w / max(n - 1, 1)

    def x(i: int) -> float:
        return LEFT + (i * step_x if n > 1 else plot_w / 2)

    def y(rank: int) -> float:
        return TOP + (rank - 1) * plot_h / (worst - 1)

    parts = [
        f'<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg" data-field="{worst}">'
        f'<title id="chart-title">{escape(title)}</title>',
    ]
    ticks = sorted({1, worst, *([(worst + 1) // 2] if worst > 4 else [])})
    for rank in ticks:
        parts.append(
            f'<line x1="{LEFT}" y1="{y(rank):.1f}" x2="{WIDTH - RIGHT}" y2="{y(rank):.1f}" '
            f'stroke="#ddd"/><text x="{LEFT - 6}" y="{y(rank) + 4:.1f}" font-size="12" '
            f'text-anchor="end">{rank}</text>'
        )
    every = max(1, round(n / 8))  # at most about eight dates fit a phone
    segments: dict[str, list[str]] = {}
    for i, (day, rank, half) in enumerate(places):
        label = date_format(day, _("j M"))
        segments.setdefault(half, []).append(f"{x(i):.1f},{y(rank):.1f}")
        parts.append(
            f'<circle cx="{x(i):.1f}" cy="{y(rank):.1f}" r="3.5" fill="#0b5394">'
            f"<title>{escape(label)}: {rank}</title></circle>"
        )
        if i % every == 0 or i == n - 1:
            # Every other date gives way on a phone (counted from the last, which stays), where
            # the labels are drawn larger.
            alt = ' class="alt"' if ((n - 1 - i) // every) % 2 == 1 else ""
            anchor = "end" if i == n - 1 and n > 1 else "middle"  # the last one inside the box
            parts.append(
                f'<text x="{x(i) + (4 if anchor == "end" else 0):.1f}" y="{HEIGHT - 6}" font-size="12" '
                f'text-anchor="{anchor}"{alt} '
                f'data-evening="{day.isoformat()}">{escape(label)}</text>'
            )
    for points in segments.values():
        parts.append(
            f'<polyline fill="none" stroke="#0b5394" stroke-width="2" points="{" ".join(points)}"/>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
