"""Recording the same conversation twice gives the same bytes, whatever shapes the ids take.

Hypothesis draws *shapes* of the values servers make up (every alphabet of ids: digits,
hex, one case, mixed case, letters only; one segment or several; a known word prefix, a
random run of letters before a separator, a UUID after a prefix, base64url with ``-``
and ``_`` anywhere; short and long; RFC 3339 times of every form; numbers of any width in
``created`` and ``expires_at``; counts and durations), then fills
each shape twice with fresh random values, as two calls to a real API would. Those values
go into JSON body fields (``id``, fields named like ids, ``system_fingerprint``,
``responseId``, ``createTime``), into every chunk of a server-sent stream split anywhere,
and into response headers of names never seen before; a body is JSON in any spacing a
server may use (kept byte for byte), a stream's events compact. The two recordings must give:

- the same cassette bytes when the second re-records the first in mode ``all``;
- two cassettes recorded independently that differ only in ``recorded_at`` and the times
  of the chunks;
- a replay of the shape recorded: the same spacing, every string of the same length.

``REPLAY_STRESS=1`` (the nox ``stress`` session) runs 1,000 examples.
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from value_shapes import (
    MOMENTS,
    Fill,
    json_layouts,
    number_shapes,
    skeleton,
    time_shapes,
    written,
)

from replay import Cassette
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Request, Response
from replay._core.normalize import looks_generated, word_prefix
from replay._core.providers import STABLE_HEADERS

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 50

ALPHABETS = {
    "digits": string.digits,
    "hex": string.digits + "abcdef",
    "HEX": string.digits + "ABCDEF",
    "base36": string.digits + string.ascii_lowercase,
    "BASE36": string.digits + string.ascii_uppercase,
    "base62": string.digits + string.ascii_letters,
    "lower": string.ascii_lowercase,
    "upper": string.ascii_uppercase,
    "letters": string.ascii_letters,
}


def _segment(alphabet: str, length: int) -> Fill:
    """``length`` random characters of ``alphabet``, every kind of character it has present.

    A real id of a given kind holds all its kinds of characters (a 29-character base62 id
    without a digit is rare enough to be another shape); the positions of the telling
    characters are part of the shape, the rest is random.
    """
    letters = [c for c in alphabet if c.isalpha()]
    uppers = [c for c in letters if c.isupper()]
    lowers = [c for c in letters if c.islower()]
    telling_first = (
        uppers
        if uppers and lowers
        else [c for c in letters if c not in "abcdefABCDEF"] or letters or list(alphabet)
    )

    if uppers and lowers:
        length = max(length, 2)  # one character cannot be of both cases

    def fill(draw: st.DrawFn) -> str:
        chars = list(draw(st.text(alphabet, min_size=length, max_size=length)))
        chars[0] = draw(st.sampled_from(telling_first))
        if uppers and lowers:
            chars[1] = draw(st.sampled_from(lowers))
        if length > 2 and letters and len(letters) < len(alphabet):
            chars[-1] = draw(st.sampled_from(string.digits))
        elif length > 2 and uppers and lowers:
            chars[-1] = draw(st.sampled_from(uppers))
        return "".join(chars)

    return fill


def _joined(parts: list[Fill | str]) -> Fill:
    def fill(draw: st.DrawFn) -> str:
        return "".join(part if isinstance(part, str) else part(draw) for part in parts)

    return fill


@st.composite
def id_shapes(draw: st.DrawFn, shortest: int = 1, generated: bool = False) -> Fill:
    """The shape of an id: an optional prefix, then segments of one alphabet, or a UUID.

    A body's ids are at least 4 characters long (``shortest``): shorter values are never
    taken for ids, since replacing them wherever they occur would change the text around.
    With ``generated``, only shapes that look made up (``looks_generated``): the values of
    fields named like ids (``id``, ``*_id``) are replaced only then, since model names live
    there too (``"id": "gpt-4o"`` in a list of models).
    """
    prefix: list[Fill | str] = []
    kind = draw(st.sampled_from(["none", "known", "random letters"]))
    if kind == "known":
        prefix = [draw(st.sampled_from(["chatcmpl-", "msg_", "resp_", "call_", "gen-", "req_"]))]
    elif kind == "random letters":
        letters = draw(st.sampled_from(["lower", "upper", "letters"]))
        length = draw(st.integers(2, 20))
        prefix = [_segment(ALPHABETS[letters], length), draw(st.sampled_from("-_"))]
    body = draw(st.sampled_from(["segments", "uuid", "base64url"]))
    if body == "base64url" and generated:
        body = "segments"  # where its random "-" and "_" fall decides whether it looks made up
    if body == "uuid":
        hex_digits = ALPHABETS[draw(st.sampled_from(["hex", "HEX"]))]
        groups = [_segment(hex_digits, n) for n in (8, 4, 4, 4, 12)]
        rest: list[Fill | str] = [groups[0], "-", groups[1], "-", groups[2], "-", groups[3]]
        return _known_prefix(_joined([*prefix, *rest, "-", groups[4]]), prefix)
    if body == "base64url":
        length = draw(st.integers(16, 40))
        alphabet = string.ascii_letters + string.digits + "-_"
        core = _segment(ALPHABETS["base62"], 3)

        def base64url(draw: st.DrawFn) -> str:
            tail = draw(st.text(alphabet, min_size=length, max_size=length))
            return core(draw) + tail + draw(st.sampled_from(string.digits))

        return _known_prefix(_joined([*prefix, base64url]), prefix)
    alphabet = ALPHABETS[draw(st.sampled_from(sorted(ALPHABETS)))]
    lengths = draw(st.lists(st.integers(1, 48), min_size=0, max_size=3))
    lengths.append(draw(st.integers(shortest, 48)))
    parts: list[Fill | str] = []
    for index, length in enumerate(lengths):
        if index:
            parts.append(draw(st.sampled_from("-_")))
        parts.append(_segment(alphabet, length))
    shape = _known_prefix(_joined([*prefix, *parts]), prefix)
    if generated:
        assume(looks_generated(shape(draw)))  # the kind of every fill: see _segment
    return shape


def _known_prefix(shape: Fill, prefix: list[Fill | str]) -> Fill:
    """Only fills whose known word prefix is the one chosen: random letters before a separator
    that happen to spell one (``vs_``, ``msg-``) are another shape, kept as a word would be."""
    intended = prefix[0] if prefix and isinstance(prefix[0], str) else ""

    def fill(draw: st.DrawFn) -> str:
        value = shape(draw)
        assume(word_prefix(value) == intended)
        return value

    return fill


@st.composite
def header_shapes(draw: st.DrawFn) -> Fill:
    """A header value: an id, a count or duration, a time, or words and ids with punctuation."""
    kind = draw(st.sampled_from(["id", "count", "duration", "rfc3339", "http-date", "mixed"]))
    if kind == "id":
        return draw(id_shapes())
    if kind == "count":
        return lambda d: str(d(st.integers(0, 10**12)))
    if kind == "duration":
        return lambda d: (
            f"{d(st.integers(0, 59))}m{d(st.integers(0, 59))}.{d(st.integers(0, 999))}s"
        )
    if kind == "rfc3339":
        return draw(time_shapes())
    if kind == "http-date":
        return http_date
    ids = [draw(id_shapes()) for _ in range(draw(st.integers(1, 3)))]
    separators = [draw(st.sampled_from([" ", "; ", ", ", "=", ";dur="])) for _ in ids]
    return _joined([part for pair in zip(ids, separators, strict=True) for part in pair])


def http_date(draw: st.DrawFn) -> str:
    return draw(MOMENTS).strftime("%a, %d %b %Y %H:%M:%S GMT")


names = st.text(string.ascii_lowercase, min_size=2, max_size=12)
header_names = st.builds("x-{}-{}".format, names, names).filter(lambda n: n not in STABLE_HEADERS)


@st.composite
def conversations(draw: st.DrawFn) -> tuple[list[dict[str, Any]], Callable[[st.DrawFn], Any]]:
    """Shapes of a few exchanges, and a function that draws one recording of them."""
    exchanges = []
    for index in range(draw(st.integers(1, 3))):
        id_fields = draw(st.lists(names, min_size=0, max_size=3, unique=True))
        exchanges.append(
            {
                "prompt": f"question {index}",
                "stream": draw(st.booleans()),
                "id": draw(id_shapes(shortest=4, generated=True)),
                "named_ids": {
                    name + draw(st.sampled_from(["_id", "Id"])): draw(
                        id_shapes(shortest=4, generated=True)
                    )
                    for name in id_fields
                },
                "fingerprint": draw(id_shapes(shortest=4)),
                "response_id": draw(id_shapes(shortest=4)),
                "time": draw(time_shapes()),
                "numbers": {"created": draw(number_shapes()), "expires_at": draw(number_shapes())},
                "layout": draw(json_layouts()),
                "headers": {
                    header: draw(header_shapes())
                    for header in draw(st.lists(header_names, max_size=4, unique=True))
                },
                "cuts": draw(st.lists(st.integers(1, 4000), max_size=5)),
            }
        )

    def recording(draw: st.DrawFn) -> list[Response]:
        seen: set[str] = set()
        return [recording_of(draw, exchange, seen) for exchange in exchanges]

    return exchanges, recording


def recording_of(draw: st.DrawFn, shape: dict[str, Any], seen: set[str]) -> Response:
    """One answer of ``shape`` with fresh random values: what one call to the API gave."""
    answer = {
        "id": shape["id"](draw),
        "object": "chat.completion",
        "created": "@created",
        "expires_at": "@expires_at",
        "createTime": shape["time"](draw),
        "model": "gpt-4o-2024-08-06",
        "system_fingerprint": shape["fingerprint"](draw),
        "responseId": shape["response_id"](draw),
        **{name: fill(draw) for name, fill in shape["named_ids"].items()},
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Bonjour !"}}],
    }
    made_up = [answer["id"], answer["system_fingerprint"], answer["responseId"]]
    made_up += [answer[name] for name in shape["named_ids"]]
    numbers = {name: fill(draw) for name, fill in shape["numbers"].items()}
    fixed_text = orjson.dumps({**answer, **dict.fromkeys(answer, "")}) + b"data: [DONE]"
    fixed_text += " ".join(numbers.values()).encode()
    headers = [(name, fill(draw)) for name, fill in shape["headers"].items()]
    header_words = {word for _, value in headers for word in re.findall(r"[\w+/-]+", value)}
    # Two fields given one random value (in one answer or two, or in a header) would be one id
    # in this recording, two in the next; a value that is also a word of the body ("chat")
    # would be replaced there too.
    assume(len(set(made_up)) == len(made_up) and seen.isdisjoint(made_up))
    assume(header_words.isdisjoint(made_up) and header_words.isdisjoint(seen))
    assume(not any(value.encode() in fixed_text for value in made_up))
    seen.update(made_up)
    if not shape["stream"]:
        body = shape["layout"](answer, numbers)
        chunks = (Chunk(body, draw(st.floats(0, 5))),)
        headers.append(("content-type", "application/json"))
    else:
        # The cuts fall at the same places of every recording: each number is one marker
        # character while cutting (a cut beside a number, never inside it), as the network
        # splits what a server writes at the same places whatever the width of its numbers.
        markers = {name: chr(1 + index) for index, name in enumerate(numbers)}
        events = (
            b"".join(b"data: " + written({**answer, "n": n}, markers) + b"\n\n" for n in range(3))
            + b"data: [DONE]\n\n"
        )
        points = sorted({min(cut, len(events) - 1) for cut in shape["cuts"]})
        pieces = [events[a:b] for a, b in zip([0, *points], [*points, len(events)], strict=True)]
        for name, marker in markers.items():
            pieces = [piece.replace(marker.encode(), numbers[name].encode()) for piece in pieces]
        chunks = tuple(Chunk(piece, draw(st.floats(0, 5))) for piece in pieces if piece)
        headers.append(("content-type", "text/event-stream"))
    recorded_at = draw(st.sampled_from(["2026-01-01T10:00:00Z", "2026-11-23T09:00:00Z"]))
    return Response(200, tuple(headers), chunks, recorded_at)


def request(prompt: str) -> Request:
    body = orjson.dumps({"model": "gpt-4o", "messages": [{"role": "user", "content": prompt}]})
    return Request(
        "POST",
        "https://api.openai.com/v1/chat/completions",
        (("content-type", "application/json"),),
        body,
    )


def record(path: Path, mode: str, prompts: list[str], answers: list[Response]) -> bytes:
    with Cassette(path, mode=mode) as cassette:
        for prompt, answer in zip(prompts, answers, strict=True):
            decision = cassette.decide(request(prompt))
            assert isinstance(decision, Record)
            cassette.add(decision, answer)
    return path.read_bytes()


def without_times(document: bytes) -> Any:
    """The cassette but for when it was recorded and when each chunk arrived."""
    value = orjson.loads(document)
    for entry in value["interactions"].values():
        for response in entry["responses"]:
            del response["recorded_at"]
            for chunk in response.get("chunks", []):
                del chunk["at"]
    return value


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(conversations(), st.data())
def test_two_recordings_with_fresh_random_values_give_the_same_bytes(
    tmp_path_factory: Any, shapes: tuple[list[dict[str, Any]], Any], data: st.DataObject
) -> None:
    exchanges, draw_recording = shapes
    prompts = [exchange["prompt"] for exchange in exchanges]
    first, second = draw_recording(data.draw), draw_recording(data.draw)
    directory = tmp_path_factory.mktemp("stable")

    once = record(directory / "c.json", "once", prompts, first)
    assert record(directory / "c.json", "all", prompts, second) == once

    independent = record(directory / "other.json", "once", prompts, second)
    assert without_times(independent) == without_times(once)
    replaying = Cassette(directory / "c.json", mode="none")
    for prompt, answer in zip(prompts, first, strict=True):
        decision = replaying.decide(request(prompt))
        assert isinstance(decision, Replay) and isinstance(decision.outcome, Response)
        assert skeleton(decision.outcome.body) == skeleton(answer.body)
    for values in (first, second):
        for answer in values:
            for name, value in answer.headers:
                if name != "content-type":
                    assert orjson.dumps({name: value})[1:-1] not in once, (name, value)
