"""Normalization properties over generated responses (hypothesis).

- Idempotent: normalizing a normalized response again changes nothing.
- Replaying a normalized cassette and re-recording what it gave (mode all) yields
  the same bytes: a cassette is a fixed point of record(replay(cassette)).
- Two bodies of one shape (any JSON spacing, numbers of any width in the normalized fields,
  RFC 3339 times of any form) normalize to the same bytes, and keep their shape.

``REPLAY_STRESS=1`` (the nox ``stress`` session) runs 1,000 examples of the last.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from value_shapes import Fill, Layout, json_layouts, number_shapes, skeleton, time_shapes

from replay._cassette import Cassette, Record, Replay
from replay._core.model import Chunk, Request, Response
from replay._core.normalize import (
    _ALPHABETS,
    _ID_NAMES,
    Normalizer,
    _digest_stream,
    _fixed_value,
    _fixed_values,
    _ids_pattern,
    _opening,
    _run_of_kind,
)
from replay._core.providers import BUILTIN, GROQ, OPENAI_COMPATIBLE, WORKFLOWAI, Provider

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60

ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
ids = st.builds(
    lambda prefix, rest: prefix + rest,
    st.sampled_from(["chatcmpl-", "msg_", "resp_", "call_", "toolu_", "fb_", ""]),
    st.text(ALNUM, min_size=12, max_size=32).filter(lambda s: any(c.isdigit() for c in s)),
)
answers = st.fixed_dictionaries(
    {
        "id": ids,
        "created": st.integers(1_000_000_000, 2_000_000_000),
        "system_fingerprint": st.text(ALNUM, min_size=6, max_size=14).map(lambda s: "fp_" + s),
        "model": st.sampled_from(["gpt-4o-2024-08-06", "claude-3-5-sonnet-20241022", "j2-mid"]),
        "text": st.text(max_size=40),
        "tool_call_id": ids,
    }
)


def streamed(answer: dict[str, object], cuts: list[int]) -> tuple[Chunk, ...]:
    events = (
        b"".join(b"data: " + orjson.dumps({**answer, "n": n}) + b"\n\n" for n in range(3))
        + b"data: [DONE]\n\n"
    )
    points = sorted({min(max(cut, 1), len(events) - 1) for cut in cuts})
    pieces = [events[a:b] for a, b in zip([0, *points], [*points, len(events)], strict=True)]
    return tuple(Chunk(piece, 0.01 * i) for i, piece in enumerate(pieces) if piece)


def response(answer: dict[str, object], cuts: list[int], stream: bool) -> Response:
    if stream:
        return Response(200, (("content-type", "text/event-stream"),), streamed(answer, cuts), "t")
    body = orjson.dumps(answer)
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "t")


@given(
    answers,
    st.lists(st.integers(0, 2000), max_size=6),
    st.booleans(),
    st.sampled_from((OPENAI_COMPATIBLE, *BUILTIN)),
)
def test_normalizing_twice_changes_nothing(
    answer: dict[str, object], cuts: list[int], stream: bool, provider: Provider
) -> None:
    once = Normalizer().response(response(answer, cuts, stream), provider, "k/0")
    twice = Normalizer().response(once, provider, "k/0")
    assert twice == once


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=20), answers, st.booleans()),
        min_size=1,
        max_size=4,
        unique_by=lambda t: t[0],
    )
)
def test_rerecording_what_was_replayed_gives_the_same_bytes(
    conversation: list[tuple[str, dict[str, object], bool]],
) -> None:
    path = Path(tempfile.mkdtemp()) / "c.json"

    def request(prompt: str) -> Request:
        body = orjson.dumps({"model": "m", "messages": [{"role": "user", "content": prompt}]})
        return Request("POST", "https://api.test/v1/chat/completions", (), body)

    with Cassette(path) as recording:
        for prompt, answer, stream in conversation:
            decision = recording.decide(request(prompt))
            assert isinstance(decision, Record)
            recording.add(decision, response(answer, [17, 99], stream))
    first = path.read_bytes()

    replayed = []
    replaying = Cassette(path, mode="none")
    for prompt, _, _ in conversation:
        decision = replaying.decide(request(prompt))
        assert isinstance(decision, Replay) and isinstance(decision.outcome, Response)
        replayed.append(decision.outcome)
    with Cassette(path, mode="all") as rerecording:
        for (prompt, _, _), outcome in zip(conversation, replayed, strict=True):
            decision = rerecording.decide(request(prompt))
            assert isinstance(decision, Record)
            rerecording.add(decision, outcome)
    assert path.read_bytes() == first


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    json_layouts(),
    st.sampled_from([(WORKFLOWAI, "duration_seconds"), (GROQ, "total_time")]),
    st.fixed_dictionaries({"created": number_shapes(), "duration": number_shapes()}),
    time_shapes(),
    st.data(),
)
def test_bodies_of_one_shape_normalize_to_the_same_bytes_and_keep_their_shape(
    write: Layout,
    rule: tuple[Provider, str],
    numbers: dict[str, Fill],
    moment: Fill,
    data: st.DataObject,
) -> None:
    provider, duration_field = rule

    def body(draw: st.DrawFn) -> bytes:
        answer = {
            "id": "chatcmpl-8YMnDbsifkBeAs814beb0dFOJdPeG",
            "created": "@created",
            "created_at": moment(draw),
            "choices": [{"index": 0, "text": "Bonjour !", duration_field: "@duration"}],
        }
        return write(answer, {name: fill(draw) for name, fill in numbers.items()})

    def normalized(original: bytes) -> bytes:
        return Normalizer().response(response_of(original), provider, "k/0").body

    first, second = body(data.draw), body(data.draw)
    assert normalized(first) == normalized(second)
    assert skeleton(normalized(first)) == skeleton(first)
    assert normalized(normalized(first)) == normalized(first)


def response_of(body: bytes) -> Response:
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "t")


_NAMES = st.sampled_from(["id", "call_id", "responseId", "x_id", "a-id", "Id", "", 'q"_id', "fp"])


@given(
    id_fields=st.frozensets(_NAMES, max_size=4),
    opaque_fields=st.frozensets(_NAMES, max_size=3),
    pieces=st.lists(
        st.builds(
            lambda name, separator, value: f'"{name}"{separator}"{value}"',
            _NAMES | st.sampled_from(["a", "call_idx"]),
            st.sampled_from([":", " : ", ","]),
            st.sampled_from(["value-1234", "abc", 'x"y1234', "v\\1234"]),
        )
        | st.sampled_from(['"', ":", " ", "_", "\\", "{", ","]),
        max_size=12,
    ),
)
def test_the_ids_pattern_finds_what_a_pattern_with_every_name_finds(
    id_fields: frozenset[str], opaque_fields: frozenset[str], pieces: list[str]
) -> None:
    """The names the pattern's first alternative takes are left out of the second: the same
    matches, the same groups."""
    body = "".join(pieces).encode()
    every = b"|".join(re.escape(name.encode()) for name in sorted(id_fields | opaque_fields))
    whole = re.compile(rb'"(' + _ID_NAMES + b"|" + every + rb')"\s*:\s*"([^"\\]{4,256})"')
    pruned = _ids_pattern(id_fields, opaque_fields)
    assert [m.span() + m.groups() for m in pruned.finditer(body)] == [
        m.span() + m.groups() for m in whole.finditer(body)
    ]


_TIME_FIELD_NAMES = st.sampled_from(["created", "created_at", "startTime", "", "-x", "é", "p", "t"])


@given(
    number_fields=st.frozensets(_TIME_FIELD_NAMES, max_size=3),
    padding_fields=st.frozensets(_TIME_FIELD_NAMES, max_size=2),
    pieces=st.lists(
        st.builds(
            lambda name, separator, value: f'"{name}"{separator}{value}',
            _TIME_FIELD_NAMES | st.sampled_from(["x_at", "a"]),
            st.sampled_from([":", " : "]),
            st.sampled_from(["17", "-2.5e3", '"2025-03-05T12:34:56Z"', '"abc9"', '""', "x"]),
        )
        | st.sampled_from(['"', ":", " ", ",", "{"]),
        max_size=10,
    ),
)
def test_the_fixed_values_lookahead_changes_no_match(
    number_fields: frozenset[str], padding_fields: frozenset[str], pieces: list[str]
) -> None:
    """The lookahead after the opening quote only turns away quotes no alternative matches."""
    provider = Provider(
        "p", number_fields=number_fields, padding_fields=padding_fields, hosts=("x.invalid",)
    )
    body = "".join(pieces).encode()
    rewriter = _fixed_values(provider)
    opening = _opening(sorted(number_fields | padding_fields))
    assert opening in rewriter.pattern.pattern
    without = re.compile(rewriter.pattern.pattern.replace(opening, b"", 1))
    assert rewriter.apply(body) == without.sub(_fixed_value, body)


def _run_as_made_before(seed: str, length: int, alphabet: str) -> str:
    """The run :func:`_run_of_kind` made before it was rewritten to slice a string: a list
    of characters, three of them replaced."""
    stream = _digest_stream(seed, length)
    out = [alphabet[byte % len(alphabet)] for byte in stream]
    letters = [c for c in alphabet if c.isalpha()]
    beyond_hex = [c for c in letters if c not in "abcdefABCDEF"] or letters
    uppers = [c for c in letters if c.isupper()]
    lowers = [c for c in letters if c.islower()]
    if not letters:
        return "".join(out)
    if uppers and lowers:
        out[0] = uppers[stream[0] % len(uppers)]
        if length > 1:
            out[1] = lowers[stream[1] % len(lowers)]
    else:
        out[0] = beyond_hex[stream[0] % len(beyond_hex)]
    if length > 2:
        out[-1] = alphabet[stream[-1] % 10]
    return "".join(out)


@given(seed=st.text(max_size=8), length=st.integers(1, 140), alphabet=st.sampled_from(_ALPHABETS))
def test_a_run_is_the_run_made_before(seed: str, length: int, alphabet: str) -> None:
    assert _run_of_kind(seed, length, alphabet) == _run_as_made_before(seed, length, alphabet)


@given(seed=st.text(max_size=20), length=st.integers(0, 200))
def test_a_digest_stream_of_one_block_is_the_blocks_joined(seed: str, length: int) -> None:
    """_digest_stream makes a run of up to one block without its loop: the same bytes."""
    blocks = b"".join(
        hashlib.blake2b(f"{seed}/{counter}".encode(), digest_size=64).digest()
        for counter in range(length // 64 + 1)
    )
    assert _digest_stream(seed, length) == blocks[:length]


_HEADER_PIECES = ['"', "a", ".", " ", "1234567890", "chatcmpl-Ab12Cd34Ef56Gh78", "a.b/c1234"]


@given(
    ids=st.lists(
        st.sampled_from(["chatcmpl-Ab12Cd34Ef56Gh78", "1234567890", "a.b/c1234"]), max_size=3
    ),
    values=st.lists(st.lists(st.sampled_from(_HEADER_PIECES), max_size=3).map("".join), max_size=4),
)
@settings(max_examples=500)
def test_kept_headers_searched_at_once_are_those_searched_one_by_one(
    ids: list[str], values: list[str]
) -> None:
    """_headers seeks ids in the kept values joined by a quote: the same values as each
    searched alone, whether the ids are runs of id characters or other strings (the first
    is a system_fingerprint, taken whatever its shape)."""
    normalizer = Normalizer()
    fields = {"system_fingerprint" if i == 0 else f"x{i}_id": id_ for i, id_ in enumerate(ids)}
    normalizer.shown(orjson.dumps(fields), OPENAI_COMPATIBLE, "k/0")
    headers = tuple(("content-type", value) for value in values)
    one_by_one = tuple(
        (name, normalizer.ids_in(value.encode()).decode()) for name, value in headers
    )
    assert normalizer._headers(headers, OPENAI_COMPATIBLE, "k/0") == one_by_one
