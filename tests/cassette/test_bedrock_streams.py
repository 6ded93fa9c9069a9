"""Bedrock's AWS event streams recorded from a server on 127.0.0.1, replayed with it stopped.

The frames are built as botocore expects them (tests/core/test_eventstream.py holds our
encoder to a frame built by hand); what replay gives back is read with botocore's own parser.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from types import ModuleType
from urllib.parse import quote_from_bytes

import orjson
from botocore.eventstream import EventStreamBuffer
from click.testing import CliRunner
from echo_server import echo_server

from replay import Cassette, ReplayTransport
from replay._core.eventstream import Frame, HeaderValue, encode_frame
from replay._core.model import EVENTSTREAM_CONTENT_TYPE
from replay.tools.cli import main

KEY = "sk-echoed-8Jq2Lw5Nc7Xt3Rv9Pz4Yb6"
MESSAGE_ID = "msg_bdrk_01Hq7ZxVbN3kLm9PqRs2TuWy"
TOOL_USE_ID = "tooluse_Qw3rTy8UiOp2AsDfGh5JkL"


def frame(event_type: str, payload: dict[str, object]) -> bytes:
    headers = (
        (":event-type", HeaderValue("string", event_type)),
        (":content-type", HeaderValue("string", "application/json")),
        (":message-type", HeaderValue("string", "event")),
    )
    return encode_frame(Frame(headers, orjson.dumps(payload)))


def invoke_chunk(event: dict[str, object]) -> bytes:
    """InvokeModelWithResponseStream: the model's event as base64 JSON, and Bedrock's padding."""
    encoded = base64.b64encode(orjson.dumps(event)).decode()
    return frame("chunk", {"bytes": encoded, "p": "abcdefghijklmnopqrstu"})


CONVERSE = b"".join(
    [
        frame("messageStart", {"role": "assistant", "p": "abcd"}),
        frame(
            "contentBlockStart",
            {
                "start": {"toolUse": {"toolUseId": TOOL_USE_ID, "name": "lookup"}},
                "contentBlockIndex": 0,
            },
        ),
        frame(
            "contentBlockDelta",
            {"delta": {"toolUse": {"input": '{"q":1}'}}, "contentBlockIndex": 0},
        ),
        frame("contentBlockDelta", {"delta": {"text": "Bonjour"}, "contentBlockIndex": 1}),
        frame("messageStop", {"stopReason": "tool_use"}),
        frame(
            "metadata",
            {"usage": {"inputTokens": 12, "outputTokens": 5}, "metrics": {"latencyMs": 321}},
        ),
    ]
)
INVOKE = b"".join(
    [
        invoke_chunk({"type": "message_start", "message": {"id": MESSAGE_ID, "model": "claude"}}),
        invoke_chunk(
            {"type": "content_block_delta", "delta": {"type": "text_delta", "text": f"key {KEY}"}}
        ),
        invoke_chunk({"type": "message_delta", "delta": {"stop_reason": "end_turn"}}),
        invoke_chunk({"type": "message_stop"}),
    ]
)


def parsed(data: bytes) -> list[tuple[dict[str, object], bytes]]:
    buffer = EventStreamBuffer()
    buffer.add_data(data)
    return [(message.headers, message.payload) for message in buffer]


def exchange(library: ModuleType, path: Path, url: str, body: bytes, mode: str) -> list[bytes]:
    """The raw chunks the client is given for a streamed call."""
    headers = {
        "authorization": f"Bearer {KEY}",
        "x-echo-body": quote_from_bytes(body),
        "x-echo-content-type": EVENTSTREAM_CONTENT_TYPE,
    }
    with library.Client(transport=ReplayTransport(Cassette(path, mode))) as client:
        with client.stream("POST", url, headers=headers, json={"messages": []}) as response:
            return list(response.iter_raw())


def test_converse_stream_replays_frames_botocore_parses_with_ids_normalized(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "converse.json"
    with echo_server() as url:
        recorded = exchange(library, path, url + "/model/m/converse-stream", CONVERSE, "once")
    chunks = exchange(library, path, url + "/model/m/converse-stream", CONVERSE, "none")
    assert b"".join(recorded) == b"".join(chunks) != CONVERSE  # recording looks like replay
    events = [parsed(chunk) for chunk in chunks]
    assert [len(frames) for frames in events] == [1] * 6  # one whole frame per chunk
    headers, payloads = zip(*(frames[0] for frames in events), strict=True)
    assert [h[":event-type"] for h in headers][:2] == ["messageStart", "contentBlockStart"]
    tool_use_id = orjson.loads(payloads[1])["start"]["toolUse"]["toolUseId"]
    assert tool_use_id != TOOL_USE_ID and tool_use_id.startswith("tooluse_")
    assert len(tool_use_id) == len(TOOL_USE_ID)
    assert orjson.loads(payloads[5])["metrics"]["latencyMs"] == 1_000_000_000  # as any duration
    (interaction,) = json.loads(path.read_bytes())["interactions"].values()
    stored = json.dumps(interaction["responses"])  # the request carries the body to echo
    assert '"contentBlockDelta"' in stored and '"Bonjour"' in stored and TOOL_USE_ID not in stored


def test_invoke_stream_is_redacted_and_normalized_inside_its_base64_bytes(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "invoke.json"
    url_path = "/model/m/invoke-with-response-stream"
    with echo_server() as url:
        exchange(library, path, url + url_path, INVOKE, "once")
    chunks = exchange(library, path, url + url_path, INVOKE, "none")
    inner = [orjson.loads(base64.b64decode(orjson.loads(parsed(c)[0][1])["bytes"])) for c in chunks]
    assert [event["type"] for event in inner] == [
        "message_start",
        "content_block_delta",
        "message_delta",
        "message_stop",
    ]
    message_id = inner[0]["message"]["id"]
    assert message_id.startswith("msg_bdrk_") and message_id != MESSAGE_ID
    assert inner[1]["delta"]["text"] == "key REDACTED"
    data = path.read_bytes()
    (interaction,) = json.loads(data)["interactions"].values()
    assert KEY.encode() not in data and base64.b64encode(KEY.encode()) not in data
    assert MESSAGE_ID not in json.dumps(interaction["responses"])  # the request echoes it
    first = interaction["responses"][0]["chunks"][0]
    assert first["decoded"] == "bytes"
    assert first["json"]["bytes"]["type"] == "message_start"  # readable in review


def test_show_prints_an_event_stream_cassette_readably(library: ModuleType, tmp_path: Path) -> None:
    converse, invoke = tmp_path / "converse.json", tmp_path / "invoke.json"
    with echo_server() as url:
        exchange(library, converse, url + "/model/m/converse-stream", CONVERSE, "once")
        exchange(library, invoke, url + "/model/m/invoke-with-response-stream", INVOKE, "once")
    shown = CliRunner().invoke(main, ["show", str(converse)])
    assert shown.exit_code == 0, shown.output
    assert "| Bonjour" in shown.output
    assert 'tool call lookup({"q":1})' in shown.output
    assert "finish tool_use, tokens 12/5" in shown.output
    shown = CliRunner().invoke(main, ["show", str(invoke)])
    assert "| key REDACTED" in shown.output and "finish end_turn" in shown.output
