"""A server-rendered SVG of a player's place after each evening (readable without JS)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, PAD = 640, 240, 36


def place_chart_svg(places: Sequence[tuple[dt.date, int, str]], *, title: str) -> SafeString:
    """Place 1 at the top; one point per evening, a line per half."""
    if not places:
        return mark_safe("")
    worst = max(rank for _, rank, _ in places)
    n = len(places)
    step_x = (WIDTH - 2 * PAD) / max(n - 1, 1)

    def y(rank: int) -> float:
        return PAD + (rank - 1) * (HEIGHT - 2 * PAD) / max(worst - 1, 1)

    parts = [
        f'<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="chart-title">{escape(title)}</title>',
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<text x="4" y="{PAD + 4}" font-size="14">1</text>',
        f'<text x="4" y="{HEIGHT - PAD + 4}" font-size="14">{worst}</text>',
    ]
    segments: dict[str, list[str]] = {}
    for i, (day, rank, half) in enumerate(places):
        x = PAD + i * step_x
        segments.setdefault(half, []).append(f"{x:.1f},{y(rank):.1f}")
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y(rank):.1f}" r="4" fill="#0b5394">'
            f"<title>{day.isoformat()}: {rank}</title></circle>"
        )
        if i in (0, n - 1) or n <= 12 or i % 4 == 0:
            parts.append(
                f'<text x="{x:.1f}" y="{HEIGHT - 10}" font-size="13" text-anchor="middle">'
                f"{day:%d-%m}</text>"
            )
    for points in segments.values():
        parts.append(
            f'<polyline fill="none" stroke="#0b5394" stroke-width="2" points="{" ".join(points)}"/>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))
