"""A rating history as an inline SVG line chart, drawn on the server (no script, no CDN)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 180, 32


@dataclass(frozen=True)
class Chart:
    points: str  # the polyline's "x,y x,y ..."
    dots: list[tuple[float, float, str]]  # x, y, title (one per game)
    low: int
    high: int
    y_low: float
    y_high: float
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(history: list[tuple[str, float]]) -> Chart | None:
    """`history`: (when, rating after the game) oldest first; with the start at 1500 put in
    front. None for no game."""
    if not history:
        return None
    values = [1500.0] + [rating for _, rating in history]
    labels = ["start"] + [when for when, _ in history]
    low, high = min(values) - 20, max(values) + 20
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)

    def y(value: float) -> float:
        return round(HEIGHT - PAD - (value - low) / (high - low) * (HEIGHT - 2 * PAD), 1)

    coords = [(round(PAD + i * step, 1), y(v)) for i, v in enumerate(values)]
    dots = [
        (x, yy, f"{when}: {round(v)}")
        for (x, yy), when, v in zip(coords, labels, values, strict=True)
    ]
    return Chart(
        points=" ".join(f"{x},{yy}" for x, yy in coords),
        dots=dots,
        low=round(low + 20),
        high=round(high - 20),
        y_low=y(low + 20),
        y_high=y(high - 20),
    )
