"""WebSocket sessions in the cassette file: written readable, read back exactly, and a
malformed one a CassetteError naming the file and the interaction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from replay import Cassette, CassetteError
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Frame, Interaction, Request, Response, WebSocketSession
from replay._store import cassette_file as store

HANDSHAKE = Request("GET", "wss://api.openai.com/v1/realtime?model=m", (), b"")
SESSION = WebSocketSession(
    (
        Frame(b'{"type": "session.update"}', 0.001, from_client=True, text=True),
        Frame(b'{"type":"session.updated","event_id":"event_1"}', 0.02, False, True),
        Frame(b"\x00\xffaudio", 0.03, from_client=False, text=False),
        Frame(b"not json", 0.04, from_client=False, text=True),
        Frame(b"\x89PNG", 0.05, from_client=True, text=False),
    ),
    "2026-11-25T00:00:00Z",
)


def test_a_session_is_written_readable_and_read_back_as_it_was() -> None:
    entry = store.encode(Interaction("k", HANDSHAKE, [SESSION]))
    frames = entry["responses"][0]["websocket"]
    assert frames[0] == {
        "at": 0.001,
        "from": "client",
        "type": "text",
        "json": {"type": "session.update"},
    }
    assert frames[1]["json"] == {"type": "session.updated", "event_id": "event_1"}
    assert frames[2] == {"at": 0.03, "from": "server", "type": "binary", "base64": "AP9hdWRpbw=="}
    assert frames[3]["text"] == "not json"
    (decoded,) = store.decode(Path("c.json"), "k", orjson.loads(orjson.dumps(entry))).outcomes
    assert isinstance(decoded, WebSocketSession)
    # A client's JSON is compared as JSON on replay, so only its value is kept; the rest exact.
    assert decoded.frames[0].data == b'{"type":"session.update"}'
    assert decoded.frames[1:] == SESSION.frames[1:]


def _session_entry(url: str, **frame: Any) -> dict[str, Any]:
    message = {"at": 0.0, "from": "server", "type": "text", "text": "hi", **frame}
    return {
        "request": {"method": "GET", "url": url, "headers": {}},
        "responses": [{"websocket": [message], "recorded_at": "2026-11-25T00:00:00Z"}],
    }


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (_session_entry("wss://h/rt", **{"from": "proxy"}), "from client or server, not 'proxy'"),
        (_session_entry("wss://h/rt", type="ping"), "text or binary, not 'ping'"),
        (_session_entry("wss://h/rt", at=-1), "not a number of seconds"),
        (_session_entry("wss://h/rt", type="text", text=None), "expected a string"),
        (_session_entry("https://h/v1/chat"), "HTTP request (https://h/v1/chat) has a WebSocket"),
        (
            {
                "request": {"method": "GET", "url": "wss://h/rt", "headers": {}},
                "responses": [{"status": 200, "body": {"text": "x"}, "recorded_at": ""}],
            },
            "WebSocket handshake (wss://h/rt) has a response that is not a session",
        ),
    ],
)
def test_a_malformed_session_names_the_file_and_interaction(
    tmp_path: Path, entry: dict[str, Any], problem: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(orjson.dumps({"version": 1, "interactions": {"k1": entry}}))
    before = path.read_bytes()
    with pytest.raises(CassetteError) as raised:
        store.decode_outcomes(path, "k1", store.load(path).interactions["k1"])
    assert str(path) in str(raised.value) and "interaction k1" in str(raised.value)
    assert problem in str(raised.value)
    assert path.read_bytes() == before


def test_a_cassette_with_sessions_and_http_interactions_replays_both(tmp_path: Path) -> None:
    path = tmp_path / "mixed.json"
    chat = Request("POST", "https://api.test/v1/chat", (), b'{"q":1}')
    answer = Response(200, (), (Chunk(b"ok", 0.0),), "2026-11-25T00:00:00Z")
    cassette = Cassette(path)
    for request, outcome in ((HANDSHAKE, SESSION), (chat, answer)):
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        cassette.add(decision, outcome)
    cassette.save()
    again = Cassette(path, mode="none")
    replayed_session, replayed_chat = again.decide(HANDSHAKE), again.decide(chat)
    assert isinstance(replayed_session, Replay) and isinstance(replayed_chat, Replay)
    assert replayed_session.session.frames[1:] == SESSION.frames[1:]
    assert replayed_chat.answer == answer
