"""MCP stdio sessions in the cassette file: written readable, read back as MCP sessions, and a
session under the wrong kind of request a CassetteError naming the file and the interaction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from replay import CassetteError
from replay._core.model import Frame, Interaction, McpSession, Request
from replay._store import cassette_file as store

STDIO = Request("GET", "stdio://mcp", (("command", "python server.py"),), b"")
SESSION = McpSession(
    (
        Frame(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', 0.01, True, True),
        Frame(b'{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}', 0.2, False, True),
        Frame(b"a line that is no JSON", 0.3, False, True),
    ),
    "2026-12-01T00:00:00Z",
    complete=False,
)


def test_a_session_is_written_readable_and_read_back_as_an_mcp_session() -> None:
    entry = store.encode(Interaction("k", STDIO, [SESSION]))
    (stored,) = entry["responses"]
    assert list(stored) == ["complete", "mcp", "recorded_at"] and stored["complete"] is False
    assert stored["mcp"][0] == {
        "at": 0.01,
        "from": "client",
        "json": {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
    }
    assert stored["mcp"][2] == {"at": 0.3, "from": "server", "text": "a line that is no JSON"}
    (decoded,) = store.decode(Path("c.json"), "k", orjson.loads(orjson.dumps(entry))).outcomes
    assert isinstance(decoded, McpSession) and decoded.complete is False
    assert decoded.frames[1:] == SESSION.frames[1:]


def _entry(url: str, response: dict[str, Any]) -> dict[str, Any]:
    return {"request": {"method": "GET", "url": url, "headers": {}}, "responses": [response]}


MCP = {"mcp": [{"at": 0.0, "from": "server", "text": "hi"}], "recorded_at": ""}
WEBSOCKET = {"websocket": [{"at": 0.0, "from": "server", "type": "text", "text": "hi"}]}


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (_entry("https://h/mcp", MCP), "a request to https://h/mcp has an MCP session"),
        (_entry("wss://h/rt", MCP), "a request to wss://h/rt has an MCP session"),
        (_entry("stdio://mcp", WEBSOCKET), "MCP stdio session (stdio://mcp) has an outcome"),
        (_entry("stdio://mcp", {"mcp": ["hi"]}), "an MCP message is an object"),
    ],
)
def test_a_session_under_the_wrong_request_names_the_file_and_interaction(
    tmp_path: Path, entry: dict[str, Any], problem: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(orjson.dumps({"version": 1, "interactions": {"k1": entry}}))
    with pytest.raises(CassetteError) as raised:
        store.decode_outcomes(path, "k1", store.load(path).interactions["k1"])
    assert str(path) in str(raised.value) and "interaction k1" in str(raised.value)
    assert problem in str(raised.value)
