"""Property: two normalized answers that differ only in how many decimals their times have, in
whether a number was written as an integer, and in durations, are the same answer
(:func:`unchanged_answer`); one differing in anything else (a word, a count, an id, a header
kept verbatim) is not."""

from __future__ import annotations

import orjson
from hypothesis import given
from hypothesis import strategies as st

from replay._core.model import Chunk, Response
from replay._core.normalize import Normalizer, unchanged_answer, unstable_blanked
from replay._core.providers import OPENAI_COMPATIBLE

DURATION_NAMES = ["duration", "took", "total_time", "duration_seconds", "eval_duration"]
DURATION_NAMES += ["latencyMs", "took_ms", "responseTime", "elapsed", "load_ns"]


@st.composite
def moments(draw: st.DrawFn) -> str:
    """An RFC 3339 time with 0 to 9 decimals, in Go's or Python's offset form."""
    decimals = draw(st.integers(0, 9))
    fraction = (
        "."
        + "".join(
            draw(st.lists(st.sampled_from("0123456789"), min_size=decimals, max_size=decimals))
        )
        if decimals
        else ""
    )
    seconds = draw(st.integers(0, 59))
    return f"2026-12-02T02:21:{seconds:02}{fraction}{draw(st.sampled_from(['Z', '+00:00']))}"


numbers = st.one_of(st.integers(0, 10**12), st.floats(0, 1e6, allow_nan=False))


@st.composite
def answers(draw: st.DrawFn, content: str, count: int) -> bytes:
    """An answer whose unstable values are drawn anew: the same ``content`` and ``count``."""
    body: dict[str, object] = {
        "id": "chatcmpl-9xQ2bT7kLm3Np8Rs",
        "created": draw(numbers),
        "created_at": draw(moments()),
        "message": {"role": "assistant", "content": content},
        "eval_count": count,
    }
    for name in DURATION_NAMES:
        body[name] = draw(numbers)
    return orjson.dumps(body)


def normalized(body: bytes, headers: tuple[tuple[str, str], ...] = ()) -> Response:
    response = Response(
        200, (("content-type", "application/json"), *headers), (Chunk(body, 0.0),), "x"
    )
    return Normalizer().response(response, OPENAI_COMPATIBLE, "key/0")


@given(st.data(), st.text(max_size=20), st.integers(0, 100))
def test_answers_differing_in_times_and_durations_alone_are_unchanged(
    data: st.DataObject, content: str, count: int
) -> None:
    stored = normalized(data.draw(answers(content, count)), (("x-request-id", "req_12ab"),))
    new = normalized(data.draw(answers(content, count)), (("x-request-id", "req_9f8e7d6c"),))
    assert unchanged_answer(stored, new, OPENAI_COMPATIBLE)
    assert unchanged_answer(new, stored, OPENAI_COMPATIBLE)


@given(st.data(), st.text(max_size=20), st.text(max_size=20), st.integers(0, 100))
def test_answers_differing_in_content_or_a_count_are_changed(
    data: st.DataObject, content: str, other: str, count: int
) -> None:
    stored = normalized(data.draw(answers(content, count)))
    if other != content:
        assert not unchanged_answer(
            stored, normalized(data.draw(answers(other, count))), OPENAI_COMPATIBLE
        )
    recounted = normalized(data.draw(answers(content, count + 1)))
    assert not unchanged_answer(stored, recounted, OPENAI_COMPATIBLE)


def test_an_id_of_another_length_a_kept_header_and_the_status_are_changes() -> None:
    body = orjson.dumps({"id": "chatcmpl-9xQ2bT7kLm3Np8Rs", "took": 3})
    stored = normalized(body)
    longer = normalized(body.replace(b"Rs", b"RsTu"))
    assert not unchanged_answer(stored, longer, OPENAI_COMPATIBLE)  # a chained call sends it back
    kept = normalized(body, (("cache-control", "no-store"),))
    assert not unchanged_answer(
        normalized(body, (("cache-control", "private"),)), kept, OPENAI_COMPATIBLE
    )
    failed = Response(500, stored.headers, stored.chunks, "x")
    assert not unchanged_answer(stored, failed, OPENAI_COMPATIBLE)


def test_only_fields_named_like_durations_are_blanked() -> None:
    body = b'{"total_time": 0.5, "timeout": 30, "eval_count": 2, "tokens": 7, "took": 12}'
    assert unstable_blanked(body, OPENAI_COMPATIBLE) == (
        b'{"total_time": #, "timeout": 30, "eval_count": 2, "tokens": 7, "took": #}'
    )
