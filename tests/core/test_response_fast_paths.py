"""The shortcuts a recorded response's redaction and normalization take give what the long way
gives: a secret field sought only after a closing quote of a name (whole bodies, chunked
streams and WebSocket frames), the known words before an id matched at once, and a header
value tried only for the shapes its first character allows."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import GENERIC_FIELD_NAMES, SECRET_FIELD_NAMES

from replay._core import normalize, redact
from replay._core.model import Chunk, Frame, Response, WebSocketSession
from replay._core.providers import ID_PREFIXES

NAMES = [*SECRET_FIELD_NAMES, *GENERIC_FIELD_NAMES, "model", "id", "Key"]
PIECES = st.one_of(
    st.sampled_from(['"', '\\"', ":", " ", ",", "{", "}", "\\", "\\u0073", "é", "\n"]),
    st.sampled_from(NAMES).map(lambda name: f'"{name}"'),
    st.sampled_from(NAMES).map(lambda name: f'"{name}" : '),
    st.text("abcXYZ0123456789_-+/=.é", max_size=30).map(lambda text: f'"{text}"'),
    st.from_regex(r"-?[0-9][0-9.eE+\-]{0,12}", fullmatch=True),
    st.sampled_from(["sk-proj-Ab3dEf6hIj9kLm2nOp5q", "hunter2hunter2", "tok3nVal9e12345"]),
)
BODIES = st.lists(PIECES, max_size=40).map(lambda pieces: "".join(pieces).encode())


def _chunks(body: bytes, cuts: list[int]) -> tuple[Chunk, ...]:
    points = sorted({cut % (len(body) + 1) for cut in cuts})
    edges = [0, *points, len(body)]
    return tuple(Chunk(body[a:b], 0.1 * i) for i, (a, b) in enumerate(itertools.pairwise(edges)))


@settings(max_examples=500, deadline=None)
@given(body=BODIES, cuts=st.lists(st.integers(0, 400), max_size=3))
def test_a_response_is_redacted_as_every_scan_redacts_it(body: bytes, cuts: list[int]) -> None:
    redactor = redact.Redactor(secrets=["hunter2hunter2"], environ={})
    chunks = _chunks(body, cuts)
    response = Response(200, (("content-type", "application/json"),), chunks, "t")
    named = chunks
    for rewriter in redact.NAMED:
        named = rewriter.apply_to(named)
    learned = {v for v in redact.named_secrets(body) if redact.looks_like_secret(v)}
    if learned - redactor.secrets:
        named = redact._scrubber(frozenset(learned - redactor.secrets)).apply_to(named)
    long_way = redactor.known.apply_to(redact.ESCAPED_KEYS.apply_to(named))
    framed = redactor.known.apply(b"".join(chunk.data for chunk in named))
    assert redactor.response(response, redactor.known).chunks == long_way
    every_rewriter = redact.PAIRS.apply(redact.XML_FIELDS.apply(redact.SECRET_FIELDS.apply(body)))
    assert redact._without_secret_fields(body) == every_rewriter
    fresh = redact.Redactor(secrets=["hunter2hunter2"], environ={})
    session = WebSocketSession((Frame(body, 0.0, False, True),), "t")
    session = fresh.session(session, fresh.known)
    assert session.frames[0].data == framed
    held = fresh.known.apply(redact._escaped_keys(every_rewriter)) != body
    assert redactor.holds_secret(body, redactor.known) is held


LEADING_WORD = re.compile(r"([A-Za-z]+)[-_]")


def _word_prefix_word_by_word(value: str, prefixes: frozenset[str]) -> str:
    """:func:`normalize.word_prefix` as it was: a match and a look-up per word."""
    end = 0
    while (match := LEADING_WORD.match(value, end)) and match.group(1) in prefixes:
        if match.end() == len(value):
            break
        end = match.end()
    return value[:end]


WORDS = ["chatcmpl", "msg", "bdrk", "fc", "fcx", "a-b", "x1", "", "Msg", "é"]


@settings(max_examples=500, deadline=None)
@given(
    pieces=st.lists(st.sampled_from([*WORDS, "-", "_", "4e07", "\n", "Ab9"]), max_size=8),
    prefixes=st.frozensets(st.sampled_from(WORDS), max_size=5) | st.just(ID_PREFIXES),
)
def test_the_known_words_before_an_id_are_those_taken_word_by_word(
    pieces: list[str], prefixes: frozenset[str]
) -> None:
    value = "".join(pieces)
    assert normalize.word_prefix(value, prefixes) == _word_prefix_word_by_word(value, prefixes)


def _stand_in_every_shape_tried(value: str, seed: str) -> str:
    """:func:`normalize.stand_in`'s whole-value shapes, each tried whatever the value opens
    with; the rest as it does."""
    if normalize._HTTP_DATE.fullmatch(value):
        return normalize.FIXED_DATE
    if normalize._ISO_TIME.fullmatch(value):
        return normalize.fixed_time(value)
    if normalize._QUANTITY.fullmatch(value):
        return normalize._DIGITS.sub("0", value)
    words = iter(range(1 << 30))

    def replace(match: re.Match[str]) -> str:
        word = match.group()
        if word == redact.PLACEHOLDER:
            return word
        if normalize._QUANTITY.fullmatch(word):
            return normalize._DIGITS.sub("0", word)
        return normalize.shaped_placeholder(word, f"{seed}/{next(words)}", widest=True)

    return normalize._WORD.sub(replace, value)


HEADER_VALUES = st.one_of(
    st.sampled_from(
        [
            "Mon, 01 Jan 2024 10:11:12 GMT",
            "2025-03-05T12:34:56.789Z",
            "231",
            "1.5",
            "1999-12-31 23:59",
            "6m0s",
            "0.25",
            "req_18a3f0c2b4d5e6f7",
            "8a0123456789abcd-IAD",
            "REDACTED",
            "١٢٣",
            "²3",
        ]
    ),
    st.text("0123456789 aZ:_-.,;=ms/+T", max_size=30),
)


@settings(max_examples=500, deadline=None)
@given(value=HEADER_VALUES, seed=st.text(max_size=6))
def test_a_header_value_gets_the_stand_in_of_every_shape_tried(value: str, seed: str) -> None:
    assert normalize.stand_in(value, seed) == _stand_in_every_shape_tried(value, seed)
