"""Entries this process records are made in the file's key order, and a fold writes them as they
are: the file must be the very bytes of sorting everything again."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._cassette import Cassette, Record
from replay._core import eventstream
from replay._core.model import (
    Chunk,
    Frame,
    Interaction,
    Outcome,
    Request,
    Response,
    TransportFailure,
    WebSocketSession,
)
from replay._store import cassette_file, journal
from replay._store.backend import LOCAL

NAMES = st.sampled_from(
    ["content-type", "x-request-id", "set-cookie", "authorization", "a", "z-last", "accept"]
)
HEADERS = st.lists(st.tuples(NAMES, st.text(max_size=8)), max_size=6).map(tuple)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["z", "a", "json", "m", "text"]), inner, max_size=4)
    ),
    max_leaves=8,
)


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """JSON in every layout (compact, indented, other spacing), text, binary, empty."""
    value = draw(JSON_VALUES.filter(lambda v: isinstance(v, dict | list)))
    return draw(
        st.sampled_from(
            [
                orjson.dumps(value),
                orjson.dumps(value) + b"\n",
                orjson.dumps(value, option=orjson.OPT_INDENT_2),
                orjson.dumps(value, option=orjson.OPT_INDENT_2) + b"\n",
                orjson.dumps(value).replace(b":", b": "),
                b"plain text",
                b"\xff\xfe binary",
                b"",
            ]
        )
    )


def frame_bytes(payload: bytes) -> bytes:
    headers = (
        (":event-type", eventstream.HeaderValue("string", "chunk")),
        ("flag", eventstream.HeaderValue("bool", True)),
        ("raw", eventstream.HeaderValue("bytes", b"\x00\x01")),
    )
    return eventstream.encode_frame(eventstream.Frame(headers, payload))


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    kind = draw(st.sampled_from(["whole", "sse", "eventstream", "cut", "failure", "websocket"]))
    at = "2026-01-01T00:00:00Z"
    headers = draw(HEADERS)
    failure = TransportFailure("ReadTimeout", "timed out", at)
    if kind == "failure":
        return failure
    if kind == "websocket":
        frames = draw(
            st.lists(
                st.builds(
                    Frame,
                    bodies().filter(lambda b: b != b"\xff\xfe binary"),
                    st.floats(0, 10),
                    st.booleans(),
                    st.booleans(),
                ),
                max_size=4,
            )
        )
        return WebSocketSession(tuple(frames), at, draw(st.booleans()))
    chunks = tuple(Chunk(body, 0.01 * n) for n, body in enumerate(draw(st.lists(bodies()))))
    if kind == "sse":
        headers = (("content-type", "text/event-stream"), *headers)
    if kind == "eventstream":
        headers = (("content-type", eventstream.EVENTSTREAM_CONTENT_TYPE), *headers)
        payloads = [frame_bytes(chunk.data) for chunk in chunks]
        if draw(st.booleans()):
            payloads.append(b"\x00\x00 not a whole frame")
        chunks = tuple(Chunk(data, 0.01 * n) for n, data in enumerate(payloads))
    cut = kind == "cut"
    return Response(
        draw(st.integers(100, 599)),
        headers,
        chunks,
        at,
        complete=not cut,
        failure=failure if cut and draw(st.booleans()) else None,
    )


def as_written(value: dict[str, Any]) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_INDENT_2)


@given(outcomes(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_an_encoded_outcome_is_in_the_files_order(outcome: Outcome, ordered: bool) -> None:
    entry = cassette_file.encode_outcome(outcome)
    if ordered:
        entry["order"] = 3  # a field a cassette adds after encoding (match_on's)
    assert as_written(cassette_file.in_file_order(entry)) == as_written(
        cassette_file._sorted(entry)
    )


@given(HEADERS, bodies(), st.booleans())
@settings(max_examples=200, deadline=None)
def test_an_encoded_request_is_in_the_files_order(headers: Any, body: bytes, sent: bool) -> None:
    request = Request("POST", "https://api.example.com/v1/x?b=1", headers, body)
    entry = cassette_file.encode(Interaction("k", request, []))["request"]
    if sent:
        entry["sent"] = "digest"  # fields a cassette adds after encoding
        entry["match_on"] = ["method", "url"]
    assert as_written(cassette_file.in_file_order(entry)) == as_written(
        cassette_file._sorted(entry)
    )


def test_a_dict_not_encoded_here_is_sorted_all_the_way_down() -> None:
    made = {"z": {"b": 1, "a": [{"d": 1, "c": 2}]}, "json": {"z": 1, "a": 2}}
    assert as_written(cassette_file.in_file_order(made)) == as_written(cassette_file._sorted(made))


@given(
    st.lists(
        st.tuples(st.sampled_from(["k1", "k2", "k3"]), outcomes(), st.booleans(), HEADERS),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
@settings(max_examples=60, deadline=None)
def test_a_fold_writes_the_bytes_of_sorting_everything(
    tmp_path_factory: Any, recorded: list[tuple[str, Outcome, bool, Any]], hand_made: bool
) -> None:
    """Own entries, a base file's (hand-ordered) interactions, resets and repeats: the file
    the fold writes is the one :func:`cassette_file.dump` makes of its interactions, every
    entry sorted."""
    path = Path(tmp_path_factory.mktemp("order")) / "c.json"
    if hand_made:  # a file written out of order (by hand): its entries are sorted when written
        base = {"k1": {"responses": [{"status": 200, "headers": {"z": "1", "a": "2"}}]}}
        base["k1"]["request"] = {"url": "https://a.example/", "method": "GET"}
        path.write_bytes(orjson.dumps({"version": 1, "interactions": base}))
    for key, outcome, reset, headers in recorded:
        request = Request("POST", "https://api.example.com/v1/x", headers, b'{"b":1,"a":2}')
        stored = cassette_file.encode(Interaction(key, request, []))["request"]
        journal.add(LOCAL, path, key, stored, cassette_file.encode_outcome(outcome), reset=reset)
    journal.fold(LOCAL, path)
    written = path.read_bytes()
    everything_sorted = cassette_file.dump(cassette_file.parse(path, written))
    assert written == everything_sorted


def test_frame_header_values_stay_as_given() -> None:
    """A frame's headers are pairs in their order (a list), not an object to sort."""
    outcome = Response(
        200,
        (("content-type", eventstream.EVENTSTREAM_CONTENT_TYPE),),
        (Chunk(frame_bytes(b'{"bytes": "' + base64.b64encode(b"x").decode().encode() + b'"}'), 0),),
        "2026-01-01T00:00:00Z",
    )
    entry = cassette_file.in_file_order(cassette_file.encode_outcome(outcome))
    assert as_written(entry) == as_written(cassette_file._sorted(entry))


@given(
    st.lists(st.tuples(st.sampled_from(["a", "b"]), outcomes(), HEADERS), min_size=1, max_size=5),
    st.sampled_from([None, ["method", "uri"], ["method", "uri", "body"]]),
    st.sampled_from(["new_episodes", "all"]),
)
@settings(max_examples=40, deadline=None)
def test_a_cassettes_recordings_are_written_as_sorting_everything(
    tmp_path_factory: Any, calls: list[tuple[str, Outcome, Any]], match_on: Any, mode: str
) -> None:
    """Through the cassette, which adds fields of its own (sent, match_on, order) after
    encoding, with resets (mode all) and repeats: the file is every entry sorted."""
    path = Path(tmp_path_factory.mktemp("cassette")) / "c.json"
    with Cassette(path, mode=mode, match_on=match_on) as cassette:
        for prompt, outcome, headers in calls:
            body = orjson.dumps({"model": "m", "z": 1, "a": prompt})
            request = Request("POST", "https://api.example.com/v1/x", headers, body)
            decision = cassette.decide(request)
            if isinstance(decision, Record):
                cassette.add(decision, outcome)
    written = path.read_bytes()
    assert written == cassette_file.dump(cassette_file.parse(path, written))
