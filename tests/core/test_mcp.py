"""The pure playback of an MCP stdio session: matching, gating, ids, misses, the transcript."""

from __future__ import annotations

from typing import Any

import orjson

from replay._core.errors import McpMiss
from replay._core.mcp import MISS_ERROR_CODE, McpPlayback, replays_again, transcript
from replay._core.model import Frame, McpSession, Request


def client(value: object) -> Frame:
    return Frame(orjson.dumps(value), 0.0, from_client=True, text=True)


def server(value: object) -> Frame:
    return Frame(orjson.dumps(value), 0.0, from_client=False, text=True)


def request(id: Any, method: str, params: object = None) -> dict[str, Any]:
    sent: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        sent["params"] = params
    return sent


def result(id: Any, value: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "result": value}


def call(id: Any, name: str, **arguments: Any) -> dict[str, Any]:
    return request(id, "tools/call", {"name": name, "arguments": arguments})


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}], "isError": False}


SESSION = McpSession(
    (
        client(request(1, "initialize", {"protocolVersion": "2025-11-25"})),
        server(result(1, {"serverInfo": {"name": "desk", "version": "1"}})),
        client({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        client(call(2, "add", a=1, b=2)),
        server(result(2, text("3"))),
        client(call(3, "forecast", city="Oslo")),
        server({"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "hm"}}),
        server(request(0, "sampling/createMessage", {"messages": []})),
        client(result(0, {"role": "assistant", "content": {"type": "text", "text": "sun"}})),
        server(result(3, text("sun"))),
    ),
    "2026-01-01T00:00:00Z",
)


def given(playback: McpPlayback, message: object) -> list[Any]:
    error = playback.received(orjson.dumps(message))
    assert error is None, error
    return [orjson.loads(data) for data in playback.due()]


def test_answers_carry_the_clients_ids_and_the_servers_requests_come_in_their_place() -> None:
    playback = McpPlayback(SESSION, "c.json", "stdio://mcp")
    assert playback.due() == []  # nothing before the client speaks
    initialize = request("a", "initialize", {"protocolVersion": "2025-11-25"})
    assert given(playback, initialize) == [
        result("a", {"serverInfo": {"name": "desk", "version": "1"}})
    ]
    assert given(playback, {"jsonrpc": "2.0", "method": "notifications/initialized"}) == []
    assert given(playback, call("b", "add", a=1, b=2)) == [result("b", text("3"))]
    # The forecast: the log notification and the sampling request come first, the result
    # only once the client answered the sampling request (with the server's recorded id).
    assert given(playback, call("c", "forecast", city="Oslo")) == [
        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"data": "hm"}},
        request(0, "sampling/createMessage", {"messages": []}),
    ]
    sampled = result(0, {"role": "assistant", "content": {"type": "text", "text": "sun"}})
    assert given(playback, sampled) == [result("c", text("sun"))]
    assert playback.ended and playback.replayed == 5 and playback.misses == []


def test_requests_match_by_method_and_params_in_any_order() -> None:
    playback = McpPlayback(SESSION, "c.json", "stdio://mcp")
    given(playback, request(9, "initialize", {"protocolVersion": "2025-11-25"}))
    assert given(playback, call(7, "add", a=1, b=2)) == [result(7, text("3"))]
    assert given(playback, {"jsonrpc": "2.0", "method": "notifications/initialized"}) == []


def test_a_request_with_no_recording_gets_an_error_naming_the_closest_and_holds_back_nothing() -> (
    None
):
    playback = McpPlayback(SESSION, "c.json", "stdio://mcp")
    given(playback, request(1, "initialize", {"protocolVersion": "2025-11-25"}))
    error = orjson.loads(playback.received(orjson.dumps(call(2, "add", a=1, b=3))) or b"")
    assert error["id"] == 2 and error["error"]["code"] == MISS_ERROR_CODE
    (miss,) = playback.misses
    assert isinstance(miss, McpMiss) and miss.message == "tools/call"
    assert [str(d) for d in miss.differences] == ["params.arguments.b: recorded 2, requested 3"]
    assert error["error"]["message"] == f"replay: {miss}"
    assert "cassette c.json" in str(miss)
    # The forecast, recorded after the add it replaced, is answered all the same.
    assert given(playback, call(3, "forecast", city="Oslo"))[1]["method"] == (
        "sampling/createMessage"
    )


def test_a_request_asked_more_often_than_recorded_is_a_miss() -> None:
    playback = McpPlayback(SESSION, "c.json", "stdio://mcp")
    given(playback, call(2, "add", a=1, b=2))
    assert playback.received(orjson.dumps(call(3, "add", a=1, b=2))) is not None
    assert "each of the 1 recorded with these params was answered" in str(playback.misses[0])


def test_a_notification_or_a_method_never_recorded_is_a_miss_with_no_answer() -> None:
    playback = McpPlayback(SESSION, "c.json", "stdio://mcp")
    assert playback.received(orjson.dumps({"jsonrpc": "2.0", "method": "notifications/x"})) is None
    assert playback.received(orjson.dumps(request(5, "ping"))) is not None
    assert [miss.reason for miss in playback.misses] == [
        "no notification notifications/x was recorded",
        "no request ping was recorded",
    ]


def test_the_transcript_reads_results_not_the_json_rpc_envelope() -> None:
    assert transcript(SESSION) == [
        'client initialize {"protocolVersion":"2025-11-25"}',
        "server result: server desk 1",
        "client notifications/initialized",
        'client tools/call add {"a":1,"b":2}',
        "server result: 3",
        'client tools/call forecast {"city":"Oslo"}',
        "server notifications/message hm",
        "server sampling/createMessage",
        "client result: sun",
        "server result: sun",
    ]


SESSION_ID = ("mcp-session-id", "0123")
STREAM = ("accept", "application/json, text/event-stream")


def test_only_a_sessions_event_stream_and_its_end_replay_again() -> None:
    def asked(method: str, *headers: tuple[str, str]) -> bool:
        return replays_again(Request(method, "http://127.0.0.1/mcp", headers, b""))

    assert asked("GET", SESSION_ID, STREAM)
    assert asked("DELETE", SESSION_ID)
    assert not asked("POST", SESSION_ID, STREAM)  # each JSON-RPC message: a call
    assert not asked("GET", STREAM)  # no MCP session
    assert not asked("GET", SESSION_ID, ("accept", "application/json"))  # no event stream
    assert not asked("DELETE")
