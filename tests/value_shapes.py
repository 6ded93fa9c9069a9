"""Shapes of the values normalization replaces, and of the JSON around them (hypothesis).

A *shape* is drawn once; its fill draws a fresh value of that shape on every call, as two
calls to a real API give two values: RFC 3339 times in every form servers write, numbers of
random width in each form, and JSON laid out in any spacing a server may use. Normalizing
two fills of one shape must give the same bytes, and the same shape back (:func:`skeleton`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from hypothesis import strategies as st

Fill = Callable[[st.DrawFn], str]
"""Draws one value of a shape: a fresh random value each call, as a server would send."""

MOMENTS = st.datetimes(datetime(1970, 1, 1), datetime(2100, 1, 1))


@st.composite
def time_shapes(draw: st.DrawFn) -> Fill:
    """RFC 3339 in every form: ``T``, ``t`` or a space; 0 to 9 decimals; ``Z``, ``z``,
    ``+00:00``, or any offset with or without its colon (and none, as some servers write)."""
    separator = draw(st.sampled_from(["T", "t", " "]))
    decimals = draw(st.integers(0, 9))
    offset_form = draw(st.sampled_from(["Z", "z", "+00:00", "+HH:MM", "+HHMM", ""]))

    def fill(draw: st.DrawFn) -> str:
        moment = draw(MOMENTS).strftime(f"%Y-%m-%d{separator}%H:%M:%S")
        if decimals:
            moment += "." + "".join(draw(st.lists(digits, min_size=decimals, max_size=decimals)))
        offset = offset_form
        if offset.startswith("+HH"):
            minutes = draw(st.integers(-14 * 60, 14 * 60))
            sign, minutes = "-" if minutes < 0 else "+", abs(minutes)
            colon = ":" if offset == "+HH:MM" else ""
            offset = f"{sign}{minutes // 60:02d}{colon}{minutes % 60:02d}"
        return moment + offset

    return fill


digits = st.sampled_from("0123456789")


@st.composite
def number_shapes(draw: st.DrawFn) -> Fill:
    """An integer of any width (a timestamp in seconds or milliseconds), or a number with a
    fraction or an exponent of any width (a duration): ``7``, ``1741570285123``, ``0.1234``,
    ``2.000000001``, ``1e-05``, ``3.5E+2``."""
    if draw(st.booleans()):
        return lambda d: str(d(st.integers(0, 10**15)))

    def fraction(d: st.DrawFn) -> str:
        whole = str(d(st.integers(0, 10**6)))
        decimals = "".join(d(st.lists(digits, max_size=17)))
        exponent = d(st.sampled_from(["", "e-05", "E+2", "e7"]))
        if not decimals and not exponent:
            decimals = "5"
        return whole + ("." + decimals if decimals else "") + exponent

    return fraction


def written(
    value: dict[str, Any],
    literals: dict[str, str],
    separators: tuple[str, str] = (",", ":"),
    indent: int | str | None = None,
) -> bytes:
    """``value`` as JSON with ``literals`` (numbers as a server printed them) in place of the
    strings ``"@name"``: ``json.dumps`` would print a float its own way."""
    text = json.dumps(value, separators=separators, indent=indent)
    for name, literal in literals.items():
        text = text.replace(f'"@{name}"', literal)
    return text.encode()


Layout = Callable[[dict[str, Any], dict[str, str]], bytes]


@st.composite
def json_layouts(draw: st.DrawFn) -> Layout:
    """A server's way of writing JSON, its separators and indent, as :func:`written` with them."""
    item = draw(st.sampled_from([",", ", "]))
    key = draw(st.sampled_from([":", ": ", " : "]))
    indent = draw(st.sampled_from([None, 0, 1, 2, 4, "\t"]))
    return lambda value, literals: written(value, literals, (item, key), indent)


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?')


def skeleton(body: bytes) -> bytes:
    """``body`` with each JSON string reduced to its length and each number to ``#``: what
    replay must give back of a recorded body whatever normalization replaced (ids and times
    keep their length, numbers their place), its spacing byte for byte."""

    def reduce(match: re.Match[bytes]) -> bytes:
        token = match.group()
        return b'"%d"' % len(token) if token.startswith(b'"') else b"#"

    return _TOKEN.sub(reduce, body)
