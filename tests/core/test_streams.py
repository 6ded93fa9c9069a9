from __future__ import annotations

import gzip
import zlib

import pytest
from bedrock_server import converse_stream_frames, frame, invoke_stream_frames

from replay._core.model import EVENTSTREAM_CONTENT_TYPE, Chunk
from replay._core.streams import BodyDecoder, StreamRecorder, pacing, reached_the_end

BODY = b'{"text": "' + b"streamed " * 200 + b'"}'


def pieces(data: bytes, size: int = 7) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


@pytest.mark.parametrize(
    ("encoding", "encoded"),
    [
        ("gzip", gzip.compress(BODY, mtime=0)),
        ("deflate", zlib.compress(BODY)),
        (
            "deflate",
            zlib.compress(BODY, wbits=-zlib.MAX_WBITS),
        ),  # raw deflate, as some servers send
        ("identity", BODY),
        (None, BODY),
    ],
)
def test_bodies_are_decoded_piece_by_piece(encoding: str | None, encoded: bytes) -> None:
    decoder = BodyDecoder(encoding)
    assert b"".join(decoder.decode(piece) for piece in pieces(encoded)) == BODY


@pytest.mark.parametrize("encoding", ["compress", "gzip, compress", "exi"])
def test_encodings_we_cannot_undo_are_left_as_they_are(encoding: str) -> None:
    decoder = BodyDecoder(encoding)
    assert not decoder.decodes and decoder.decode(b"\x28\xb5\x2f\xfd") == b"\x28\xb5\x2f\xfd"


def test_the_recorder_keeps_decoded_chunks_with_their_arrival_time() -> None:
    recorder = StreamRecorder("gzip", started=0.0)
    out = b"".join(recorder.feed(piece) for piece in pieces(gzip.compress(BODY), 64))
    assert out == BODY and b"".join(c.data for c in recorder.chunks) == BODY
    assert all(
        chunk.data for chunk in recorder.chunks
    )  # pieces that decode to nothing are not kept
    assert [c.at for c in recorder.chunks] == sorted(c.at for c in recorder.chunks)


def test_pacing_is_instant_without_a_speed() -> None:
    chunks = (Chunk(b"a", 5.0), Chunk(b"b", 10.0))
    assert list(pacing(chunks, None)) == [(0.0, b"a"), (0.0, b"b")]


def test_pacing_waits_for_each_chunks_time_scaled_by_the_speed() -> None:
    waits = [wait for wait, _ in pacing((Chunk(b"a", 4.0), Chunk(b"b", 8.0)), 2.0)]
    assert 1.9 < waits[0] <= 2.0 and 3.9 < waits[1] <= 4.0


@pytest.mark.parametrize(
    ("tail", "ended"),
    [
        (b'data: {"choices": []}\n\ndata: [DONE]\n\n', True),
        (b"event: message_delta\ndata: {}\n\nevent: message_stop\ndata: {}\n\n", True),
        (b'event: response.completed\ndata: {"type": "response.completed"}\n\n', True),
        (b'data: {"choices": [{"delta": {"content": "half"}}]}\n\n', False),
        (b"", False),
    ],
)
def test_streams_that_reached_their_final_event(tail: bytes, ended: bool) -> None:
    chunks = [Chunk(b'data: {"first": 1}\n\n', 0.0), *(Chunk(p, 0.1) for p in pieces(tail, 9) if p)]
    assert reached_the_end(chunks) is ended


CONVERSE = converse_stream_frames({"messages": [{"role": "user", "content": [{"text": "hi"}]}]})
INVOKE = invoke_stream_frames({"messages": [{"role": "user", "content": "hi"}]})
THROTTLED = [CONVERSE[0], frame("throttlingException", {"message": "slow down"}, "exception")]


def followed(frames: list[bytes], size: int) -> tuple[list[bool], bool]:
    """An event stream fed to a recorder in pieces of ``size`` bytes: whether it was at its
    final event after each piece, and whether the response, saved unread past the last,
    is complete."""
    recorder = StreamRecorder(None, 0.0, EVENTSTREAM_CONTENT_TYPE)
    seen = []
    for piece in pieces(b"".join(frames), size):
        recorder.feed(piece)
        seen.append(recorder.at_final_event)
    return seen, recorder.response(200, (), "t", False, None).complete


@pytest.mark.parametrize("size", [1, 5, 57, 10_000])
@pytest.mark.parametrize("frames", [CONVERSE, INVOKE], ids=["converse", "invoke"])
def test_an_event_stream_is_at_its_final_event_once_its_last_frame_is_whole(
    frames: list[bytes], size: int
) -> None:
    seen, complete = followed(frames, size)
    assert seen[-1] and not any(seen[:-1]) and complete


@pytest.mark.parametrize("size", [3, 10_000])
def test_an_event_stream_short_of_its_last_frame_is_not_at_its_end(size: int) -> None:
    for stopped in (CONVERSE[:-1], [*CONVERSE[:-1], CONVERSE[-1][:-1]]):  # messageStop; cut
        seen, complete = followed(stopped, size)
        assert not any(seen) and not complete


def test_an_exception_frame_ends_an_event_stream() -> None:
    seen, complete = followed(THROTTLED, 10_000)
    assert seen == [True] and complete
    seen, complete = followed(THROTTLED[:1], 10_000)
    assert seen == [False] and not complete


def test_frames_in_a_stream_not_said_to_be_an_event_stream_end_nothing() -> None:
    recorder = StreamRecorder(None, 0.0, "application/json")
    recorder.feed(b"".join(CONVERSE))
    assert not recorder.at_final_event
