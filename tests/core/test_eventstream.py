"""The AWS event stream codec, held to botocore's own parser and to frames built by hand."""

from __future__ import annotations

import base64
import os
import struct
import zlib

import orjson
import pytest
from botocore.eventstream import EventStreamBuffer
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import eventstream
from replay._core.eventstream import Frame, FrameError, HeaderValue
from replay._core.model import EVENTSTREAM_CONTENT_TYPE, Chunk, Response

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60
EVENT = (
    (":event-type", HeaderValue("string", "chunk")),
    (":content-type", HeaderValue("string", "application/json")),
    (":message-type", HeaderValue("string", "event")),
)


def hand_made_frame(headers: list[tuple[str, str]], payload: bytes) -> bytes:
    """A frame as the AWS documentation lays it out, string headers only: not our encoder."""
    encoded = b"".join(
        bytes([len(name)])
        + name.encode()
        + b"\x07"
        + struct.pack(">H", len(value))
        + value.encode()
        for name, value in headers
    )
    prelude = struct.pack(">II", 16 + len(encoded) + len(payload), len(encoded))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + encoded + payload
    return message + struct.pack(">I", zlib.crc32(message))


def botocore_parses(data: bytes) -> list[tuple[dict[str, object], bytes]]:
    buffer = EventStreamBuffer()
    buffer.add_data(data)
    return [(message.headers, message.payload) for message in buffer]


def invoke_payload(inner: dict[str, object]) -> bytes:
    """InvokeModelWithResponseStream: the model's event as base64 JSON, with Bedrock's padding."""
    encoded = base64.b64encode(orjson.dumps(inner)).decode()
    return orjson.dumps({"bytes": encoded, "p": "abcdefghijklmnopq"})


def stream(*chunks: Chunk) -> Response:
    return Response(200, (("content-type", EVENTSTREAM_CONTENT_TYPE),), chunks, "t")


def test_encoding_matches_a_frame_built_by_hand_and_decodes_back() -> None:
    payload = b'{"contentBlockIndex":0,"delta":{"text":"Hi"}}'
    headers = [(":event-type", "contentBlockDelta"), (":message-type", "event")]
    by_hand = hand_made_frame(headers, payload)
    frame = Frame(tuple((name, HeaderValue("string", value)) for name, value in headers), payload)
    assert eventstream.encode_frame(frame) == by_hand
    assert eventstream.decode_frame(by_hand) == frame


def test_every_header_type_botocore_knows_round_trips_through_its_parser() -> None:
    headers = (
        ("yes", HeaderValue("bool", True)),
        ("no", HeaderValue("bool", False)),
        ("byte", HeaderValue("byte", -7)),
        ("short", HeaderValue("short", -300)),
        ("int", HeaderValue("int", 70000)),
        ("long", HeaderValue("long", -(2**40))),
        ("bytes", HeaderValue("bytes", b"\x00\xff")),
        ("string", HeaderValue("string", "café")),
        ("time", HeaderValue("timestamp", 1_700_000_000_000)),
        ("id", HeaderValue("uuid", "12345678-1234-5678-1234-567812345678")),
    )
    data = eventstream.encode_frame(Frame(headers, b"{}"))
    ((parsed, payload),) = botocore_parses(data)
    assert payload == b"{}"
    assert parsed == {
        "yes": True,
        "no": False,
        "byte": -7,
        "short": -300,
        "int": 70000,
        "long": -(2**40),
        "bytes": b"\x00\xff",
        "string": "café",
        "time": 1_700_000_000_000,
        "id": bytes.fromhex("12345678123456781234567812345678"),
    }
    assert eventstream.decode_frame(data) == Frame(headers, b"{}")


@pytest.mark.parametrize(
    ("position", "problem"),
    [(9, "prelude's CRC32"), (-1, "message's CRC32")],
    ids=["prelude", "message"],
)
def test_a_corrupted_frame_is_refused_saying_which_checksum(position: int, problem: str) -> None:
    data = bytearray(eventstream.encode_frame(Frame(EVENT, b"{}")))
    data[position] ^= 0xFF
    with pytest.raises(FrameError, match=problem):
        eventstream.decode_frame(bytes(data))


def test_chunks_are_regrouped_one_frame_each_and_a_cut_frame_kept_as_it_came() -> None:
    first, second = (eventstream.encode_frame(Frame(EVENT, b'{"n":%d}' % n)) for n in (1, 2))
    joined = first + second
    response = stream(
        Chunk(joined[:5], 0.1),
        Chunk(joined[5 : len(first) + 3], 0.2),
        Chunk(joined[len(first) + 3 : -2], 0.3),
    )
    regrouped = eventstream.one_frame_per_chunk(response).chunks
    assert regrouped == (Chunk(first, 0.2), Chunk(second[:-2], 0.3))


def test_a_rewritten_id_inside_the_base64_bytes_is_framed_again_so_botocore_parses_it() -> None:
    inner = {"type": "message_start", "message": {"id": "msg_bdrk_01XyZabc123", "usage": {}}}
    original = eventstream.encode_frame(Frame(EVENT, invoke_payload(inner)))

    def rewrite(view: Response) -> Response:
        (chunk,) = view.chunks
        assert orjson.loads(chunk.data)["bytes"] == inner  # the rewrite sees the decoded JSON
        data = chunk.data.replace(b"msg_bdrk_01XyZabc123", b"msg_bdrk_01Placeholder-longer")
        return Response(view.status, view.headers, (Chunk(data, chunk.at),), view.recorded_at)

    (rewritten,) = eventstream.rewriting_payloads(stream(Chunk(original, 0.5)), rewrite).chunks
    assert rewritten.at == 0.5
    ((headers, payload),) = botocore_parses(rewritten.data)
    assert headers[":event-type"] == "chunk"
    outer = orjson.loads(payload)
    assert outer["p"] == "abcdefghijklmnopq"
    assert orjson.loads(base64.b64decode(outer["bytes"]))["message"]["id"] == (
        "msg_bdrk_01Placeholder-longer"
    )


def test_a_payload_whose_base64_is_not_canonical_is_left_as_its_own_view() -> None:
    canonical = invoke_payload({"a": 1})
    assert eventstream.payload_view(canonical) == b'{"bytes":{"a":1},"p":"abcdefghijklmnopq"}'
    assert eventstream.payload_of_view(b'{"bytes":{"a":1},"p":"abcdefghijklmnopq"}') == canonical
    spaced = b'{"bytes":"%s"}' % base64.b64encode(b'{"a": 1}')  # not compact: not reversible
    assert eventstream.payload_view(spaced) is None
    assert eventstream.payload_view(b'{"contentBlockIndex":0}') is None


header_values = st.one_of(
    st.builds(HeaderValue, st.just("bool"), st.booleans()),
    st.builds(HeaderValue, st.just("byte"), st.integers(-(2**7), 2**7 - 1)),
    st.builds(HeaderValue, st.just("short"), st.integers(-(2**15), 2**15 - 1)),
    st.builds(HeaderValue, st.just("int"), st.integers(-(2**31), 2**31 - 1)),
    st.builds(
        HeaderValue, st.sampled_from(["long", "timestamp"]), st.integers(-(2**63), 2**63 - 1)
    ),
    st.builds(HeaderValue, st.just("bytes"), st.binary(max_size=40)),
    st.builds(HeaderValue, st.just("string"), st.text(max_size=40)),
    st.builds(HeaderValue, st.just("uuid"), st.uuids().map(str)),
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    st.dictionaries(st.text(min_size=1, max_size=20), header_values, max_size=6),
    st.binary(max_size=200),
)
def test_any_frame_decodes_to_itself_and_botocore_reads_what_we_write(
    headers: dict[str, HeaderValue], payload: bytes
) -> None:
    frame = Frame(tuple(headers.items()), payload)
    data = eventstream.encode_frame(frame)
    assert eventstream.decode_frame(data) == frame
    ((parsed, parsed_payload),) = botocore_parses(data)
    assert parsed_payload == payload and parsed.keys() == headers.keys()
