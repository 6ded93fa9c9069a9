"""The report's charts: SVG drawn by pygal (the ``report`` extra), inline in the page.

pygal draws axes, scales, labels and legends, so none of that is pixel arithmetic of ours.
Charts are drawn without pygal's tooltip script (which it would load from a CDN): the page
needs no network, and the SVG reads with JavaScript off. Each chart has a title and its
data as a table beside it, for screen readers and for print.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pygal
from pygal.style import Style

from replay.tools.report import NEW_COLOR, OLD_COLOR

_BASE: dict[str, Any] = dict(
    background="white",
    plot_background="white",
    foreground="#1a1a1a",
    foreground_strong="#1a1a1a",
    foreground_subtle="#d0d0d0",
    font_family="system-ui, sans-serif",
    title_font_size=15,
    label_font_size=12,
    legend_font_size=12,
    value_font_size=11,
)
_SIDES = Style(colors=(OLD_COLOR, NEW_COLOR), **_BASE)
_POINTS = Style(colors=("#1a1a1a", "#999999"), **_BASE)
"""Pairs as dark points over a grey diagonal: the per-pair charts have no OLD/NEW series."""
_COMMON = {
    "js": [],
    "disable_xml_declaration": True,
    "width": 460,
    "height": 300,
    "explicit_size": True,
    "truncate_label": -1,  # pygal's default cut "0.005" to "0...."
    # Whole labels then overlap where pygal puts a tick every 0.02: six labelled, the rest lines.
    "x_labels_major_count": 6,
    "y_labels_major_count": 6,
    "show_minor_x_labels": False,
    "show_minor_y_labels": False,
    "value_formatter": lambda value: f"{value:.3g}",
}


def totals(
    title: str,
    old: Mapping[str, float],
    new: Mapping[str, float],
    measures: Sequence[tuple[str, str, str]],
) -> str:
    """Grouped bars, OLD beside NEW, one group per measure (``(name, label, _)``)."""
    chart = pygal.Bar(
        title=title, print_values=True, legend_at_bottom=True, style=_SIDES, **_COMMON
    )
    chart.x_labels = [label for _, label, _ in measures]
    chart.add("OLD", [old.get(name) for name, _, _ in measures])
    chart.add("NEW", [new.get(name) for name, _, _ in measures])
    return _stable(chart.render(is_unicode=True), measures[0][0])


def per_pair(title: str, points: Sequence[tuple[float, float]]) -> str:
    """A scatter of pairs, OLD across and NEW up, with the diagonal where nothing changed."""
    chart = pygal.XY(
        title=title,
        stroke=False,
        legend_at_bottom=True,
        x_title="OLD",
        y_title="NEW",
        dots_size=3,
        style=_POINTS,
        x_value_formatter=lambda value: f"{value:.3g}",
        **_COMMON,
    )
    top = max(max(x, y) for x, y in points) or 1
    chart.add("pairs", [(float(x), float(y)) for x, y in points])
    chart.add("unchanged", [(0.0, 0.0), (float(top), float(top))], stroke=True, show_dots=False)
    return _stable(chart.render(is_unicode=True), title)


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_MADE_ON = re.compile(r" on \d{4}-\d{2}-\d{2}-->")


def _stable(svg: str, name: str) -> str:
    """The same chart for the same data: pygal names each chart by a random uuid (its CSS and
    script are scoped by it) and dates it; the name of what it shows replaces the one, and the
    date goes, so a report of the same recordings is the same file."""
    found = _UUID.search(svg)
    if found is not None:
        slug = "-".join(re.findall(r"[a-z0-9]+", name.lower()))
        svg = svg.replace(found.group(), slug)
    return _MADE_ON.sub("-->", svg)
