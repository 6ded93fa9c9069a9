"""An id's segments are judged by whole-string methods (:func:`normalize.looks_generated`):
the same answers as the rule said character by character."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import normalize
from replay._core.providers import ID_PREFIXES


def _random_segment(segment: str) -> bool:
    """The rule as first written, a character at a time."""
    if len(segment) < 8:
        return False
    if any(map(str.isdigit, segment)) and any(map(str.isalpha, segment)):
        return True
    return any(map(str.isupper, segment[1:])) and any(map(str.islower, segment))


def _looks_generated(value: str) -> bool:
    if not re.fullmatch(r"[A-Za-z0-9_\-]+", value):
        return False
    rest = value[len(normalize.word_prefix(value, ID_PREFIXES)) :]
    if normalize._UUID.fullmatch(rest) or (len(rest) >= 8 and rest.isdigit()):
        return True
    return any(_random_segment(segment) for segment in re.split(r"[-_]", rest))


ALPHABETS = st.sampled_from(["a", "A", "0", "aA", "a0", "A0", "aA0", "aAbBzZ019"])
"""Narrow alphabets too: a segment of capitals alone, or digits alone, is drawn often."""
SEGMENTS = ALPHABETS.flatmap(lambda alphabet: st.text(alphabet, max_size=14))
SEGMENT = SEGMENTS | st.sampled_from(["chatcmpl-", "msg_", "fp_", "-", "_"])
VALUES = st.lists(SEGMENT, max_size=5).map("".join) | st.text(max_size=20)


@settings(max_examples=2000, deadline=None)
@given(value=VALUES)
def test_looks_generated_answers_as_the_rule_said_per_character(value: str) -> None:
    assert normalize.looks_generated(value) is _looks_generated(value)


@settings(max_examples=1000, deadline=None)
@given(segment=SEGMENTS)
def test_a_segment_is_judged_as_per_character(segment: str) -> None:
    assert normalize._random_segment(segment) is _random_segment(segment)
