"""The pure playback of a WebSocket session: order, matching, pacing (no I/O)."""

from __future__ import annotations

import os

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core.errors import CassetteMiss, FrameMiss
from replay._core.key import KeyRules
from replay._core.model import Frame, WebSocketSession
from replay._core.websocket import Playback, frame_differences, wait_before

EXAMPLES = 500 if os.environ.get("REPLAY_STRESS") == "1" else 40
URL = "wss://api.openai.com/v1/realtime?model=gpt-realtime"


def client(value: object, at: float = 0.0) -> Frame:
    return Frame(orjson.dumps(value), at, from_client=True, text=True)


def server(value: object, at: float = 0.0) -> Frame:
    return Frame(orjson.dumps(value), at, from_client=False, text=True)


def playback(*frames: Frame) -> Playback:
    session = WebSocketSession(frames, "2026-01-01T00:00:00Z")
    return Playback(session, "c.json", URL, KeyRules())


def test_a_server_message_waits_for_the_client_messages_recorded_before_it() -> None:
    session = playback(
        server({"type": "session.created"}),
        client({"type": "session.update"}),
        client({"type": "response.create"}),
        server({"type": "session.updated"}),
        server({"type": "response.done"}),
    )
    assert session.take().data == b'{"type":"session.created"}'  # due before any client message
    assert session.ready() is None
    session.received(b'{"type": "session.update"}', text=True)
    assert session.ready() is None  # response.create came first in the recording
    session.received(b'{"type":"response.create"}', text=True)
    assert [session.take().data, session.take().data] == [
        b'{"type":"session.updated"}',
        b'{"type":"response.done"}',
    ]
    assert session.ended


def test_a_client_message_that_differs_is_a_miss_naming_the_cassette_place_and_path() -> None:
    session = playback(
        client({"type": "session.update"}),
        client({"type": "conversation.item.create", "item": {"content": [{"text": "hello"}]}}),
    )
    session.received(b'{"type":"session.update"}', text=True)
    with pytest.raises(FrameMiss) as raised:
        session.received(
            b'{"type":"conversation.item.create","item":{"content":[{"text":"bye"}]}}', text=True
        )
    miss = raised.value
    assert isinstance(miss, CassetteMiss)
    assert miss.position == 2
    assert [(d.field, d.recorded, d.requested) for d in miss.differences] == [
        ("frame.item.content[0].text", "hello", "bye")
    ]
    message = str(miss)
    assert "c.json" in message and "client message 2" in message and URL in message
    assert "frame.item.content[0].text: recorded 'hello', requested 'bye'" in message


def test_a_client_message_beyond_the_recording_is_a_miss() -> None:
    session = playback(client({"type": "session.update"}))
    session.received(b'{"type":"session.update"}', text=True)
    with pytest.raises(FrameMiss, match="client message 2 was not recorded: the recording has 1"):
        session.received(b'{"type":"session.update"}', text=True)


def test_ignored_paths_do_not_count_and_binary_is_compared_as_bytes() -> None:
    rules = KeyRules(ignore=("event_id",))
    recorded = client({"type": "x", "event_id": "evt_1"})
    assert frame_differences(recorded, b'{"event_id":"evt_2","type":"x"}', True, rules) == []
    assert frame_differences(recorded, b'{"event_id":"evt_2","type":"x"}', True, KeyRules())
    audio = Frame(b"\x00\x01\xff", 0.0, from_client=True, text=False)
    assert frame_differences(audio, b"\x00\x01\xff", False, KeyRules()) == []
    assert frame_differences(audio, b"\x00\x02\xff", False, KeyRules())
    assert [d.field for d in frame_differences(audio, b"\x00\x01\xff", True, KeyRules())] == [
        "frame.type"
    ]


def test_pacing_follows_the_recorded_times_only_when_a_speed_is_set() -> None:
    frame = server({"type": "response.done"}, at=1.0)
    assert wait_before(frame, elapsed=0.2, speed=None) == 0.0
    assert wait_before(frame, elapsed=0.2, speed=1.0) == pytest.approx(0.8)
    assert wait_before(frame, elapsed=0.2, speed=2.0) == pytest.approx(0.3)
    assert wait_before(frame, elapsed=3.0, speed=1.0) == 0.0


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 9)), max_size=12))
def test_replay_gives_the_server_messages_in_order_whatever_the_interleaving(
    recorded: list[tuple[bool, int]],
) -> None:
    """A client that sends its messages as soon as it can and reads whenever one is due gets
    every server message, in recorded order, each only after the client messages before it."""
    frames = [
        client({"n": i, "v": v}) if from_client else server({"n": i, "v": v})
        for i, (from_client, v) in enumerate(recorded)
    ]
    session = playback(*frames)
    to_send = [f for f in frames if f.from_client]
    sent, given = 0, []
    while not session.ended or sent < len(to_send):
        frame = session.ready()
        if frame is not None:
            position_sent = sent
            given.append((session.take(), position_sent))
        else:
            session.received(to_send[sent].data, text=True)
            sent += 1
    assert [frame for frame, _ in given] == [f for f in frames if not f.from_client]
    for frame, sent_before in given:
        index = frames.index(frame)
        assert sent_before >= sum(f.from_client for f in frames[:index])


def test_done_waits_for_the_client_messages_recorded_after_the_last_server_message() -> None:
    """A proxy closes for the server once ``done``: not while the client has recorded messages
    left to send, which the real server still took."""
    session = playback(
        client({"type": "response.create"}),
        server({"type": "response.done"}),
        client({"type": "session.close"}),
    )
    assert not session.done
    session.received(b'{"type":"response.create"}', text=True)
    session.take()
    assert session.ended and not session.done
    session.received(b'{"type":"session.close"}', text=True)
    assert session.done
