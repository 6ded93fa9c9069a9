"""An MCP session over stdio replayed: which recorded server message goes out next, and
which recorded client message each one the client sends is.

A recorded session (:class:`~replay._core.model.McpSession`) is the JSON-RPC messages of one
server process in the order they crossed its pipes. On replay no server runs; each client
message is matched to a recorded one of its kind:

- a request or a notification by its method and params (its JSON-RPC id is no part of the
  match: a client numbers its requests as it likes), the first recorded one not yet matched;
- a response (the client's answer to the server's sampling, elicitation or roots request) by
  its id, which is the recorded server request's: replay sends that one as recorded.

Each recorded server message is given once the client message recorded just before it (the
one it follows from: a request, or the client's answer to the server's own request) has been
matched, and after the server messages recorded before it that are given; so notifications
and the server's own requests come in their recorded place, and a client message that missed
holds back only what followed from it. A response carries the id of the client request it
answers, as the client sent it.

A client message that matches none is an :class:`~replay._core.errors.McpMiss`, naming the
closest recorded message and how it differs; a request so missed is answered with a JSON-RPC
error saying that, so the client fails at once rather than waiting.

Pure: the caller (``replay mcp``) reads and writes the pipes and gives this the client's
messages as the cassette keys them (secrets scrubbed, known ids replaced).

Over Streamable HTTP a session is plain requests, matched as any are; :func:`replays_again`
names the two that are the session's plumbing rather than its calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from replay._core import jsonpath
from replay._core.errors import Difference, McpMiss
from replay._core.key import parse_json
from replay._core.location import Location
from replay._core.model import McpSession, Request

SESSION_ID_HEADER = "mcp-session-id"
EVENT_STREAM = "text/event-stream"


def replays_again(request: Request) -> bool:
    """Whether ``request`` is Streamable HTTP session plumbing, replayed from its recording
    however often it is asked once its recordings are used up: a ``GET`` that opens the
    session's server-event stream (it sends ``mcp-session-id`` and accepts
    ``text/event-stream``), which a client opens again whenever it ends, or the ``DELETE`` that
    ends a session (it sends ``mcp-session-id``). Neither is a call whose answer changes: a
    ``POST`` (each JSON-RPC message) is not, and replays each recording once, in order."""
    if request.method not in ("GET", "DELETE") or request.header(SESSION_ID_HEADER) is None:
        return False
    return request.method == "DELETE" or EVENT_STREAM in (request.header("accept") or "")


MISS_ERROR_CODE = -32603
"""The JSON-RPC error code of a request with no recording: an internal error of the server,
which here is the cassette."""
RESPONSE = "response"
"""How a miss names a client message that is a response: it has no method."""


@dataclass(frozen=True, slots=True)
class _Recorded:
    """A recorded client message, as matching reads it."""

    kind: str
    """``request``, ``notification`` or ``response``."""
    method: str | None
    params: Any
    id: Any


def _read(message: Any) -> _Recorded | None:
    if not isinstance(message, dict):
        return None
    method = message.get("method")
    if isinstance(method, str):
        kind = "request" if "id" in message else "notification"
        return _Recorded(kind, method, message.get("params"), message.get("id"))
    if "id" in message and ("result" in message or "error" in message):
        return _Recorded(RESPONSE, None, None, message["id"])
    return None


class McpPlayback:
    """The replay of one recorded MCP session; not thread-safe."""

    def __init__(self, session: McpSession, cassette: str | Location, url: str) -> None:
        self._cassette = cassette
        self._url = url
        self._client: list[_Recorded | None] = []
        self._server: list[tuple[int, bytes]] = []
        """Each server message not given yet, with the index of the client message recorded
        just before it (-1 for none)."""
        for frame in session.frames:
            if frame.from_client:
                self._client.append(_read(parse_json(frame.data)))
            else:
                self._server.append((len(self._client) - 1, frame.data))
        self._matched = [False] * len(self._client)
        self._ids: dict[bytes, Any] = {}
        """A recorded client request's id (as JSON) -> the id the client sent in its place."""
        self.replayed = 0
        """Client messages matched so far: the session counts as used once one is."""
        self.misses: list[McpMiss] = []

    @property
    def ended(self) -> bool:
        """Whether every recorded server message has been given."""
        return not self._server

    def received(self, data: bytes) -> bytes | None:
        """The client sent ``data``: matched to a recorded message, or a miss kept in
        :attr:`misses`. Returns the JSON-RPC error to answer a missed request with, else
        None."""
        message = parse_json(data)
        sent = _read(message)
        if sent is None:
            return self._miss(
                None, "message", "is not a JSON-RPC request, notification or response"
            )
        for index, recorded in enumerate(self._client):
            if self._matched[index] or recorded is None or not _same(recorded, sent):
                continue
            self._matched[index] = True
            if sent.kind == "request":
                self._ids[orjson.dumps(recorded.id)] = sent.id
            self.replayed += 1
            return None
        return self._missed(sent)

    def due(self) -> list[bytes]:
        """The server messages to give now, taken, in recorded order: those whose client
        message before them is matched, each response carrying the client's id."""
        given: list[bytes] = []
        waiting: list[tuple[int, bytes]] = []
        for after, data in self._server:
            if after < 0 or self._matched[after]:
                given.append(self._as_answer(data))
            else:
                waiting.append((after, data))
        self._server = waiting
        return given

    def _as_answer(self, data: bytes) -> bytes:
        message = parse_json(data)
        if not (isinstance(message, dict) and "id" in message and "method" not in message):
            return data  # a notification or the server's own request: as recorded
        recorded_id = orjson.dumps(message["id"])
        if recorded_id not in self._ids:
            return data
        return orjson.dumps({**message, "id": self._ids[recorded_id]})

    def _missed(self, sent: _Recorded) -> bytes | None:
        name = sent.method or RESPONSE
        if sent.kind == RESPONSE:
            return self._miss(
                sent, name, f"answers request {sent.id!r}, which no recorded one does"
            )
        same_method = [
            (index, recorded)
            for index, recorded in enumerate(self._client)
            if recorded is not None
            and recorded.kind == sent.kind
            and recorded.method == sent.method
        ]
        if not same_method:
            return self._miss(sent, name, f"no {sent.kind} {name} was recorded")
        answered = sum(_same(recorded, sent) for _, recorded in same_method)
        if answered:  # an equal one unmatched would have matched
            return self._miss(
                sent, name, f"each of the {answered} recorded with these params was answered"
            )
        reason = f"none of the {len(same_method)} recorded has these params"
        return self._miss(sent, name, reason, *self._closest(sent, same_method))

    def _closest(
        self, sent: _Recorded, candidates: list[tuple[int, _Recorded]]
    ) -> tuple[str, list[Difference]]:
        found: list[tuple[int, str, list[Difference]]] = []
        for index, recorded in candidates:
            differences = [
                Difference(path, old, new)
                for path, old, new in jsonpath.differences(recorded.params, sent.params, "params")
            ]
            found.append((len(differences), f"client message {index + 1}", differences))
        _, closest, differences = min(found, key=lambda each: each[0])
        return f"{sent.method} ({closest} as recorded)", differences

    def _miss(
        self,
        sent: _Recorded | None,
        name: str,
        reason: str,
        closest: str | None = None,
        differences: list[Difference] | None = None,
    ) -> bytes | None:
        miss = McpMiss(self._cassette, self._url, name, reason, closest, differences or ())
        self.misses.append(miss)
        if sent is None or sent.kind != "request":
            return None
        error = {"code": MISS_ERROR_CODE, "message": f"replay: {miss}"}
        return orjson.dumps({"jsonrpc": "2.0", "id": sent.id, "error": error})


def _same(recorded: _Recorded, sent: _Recorded) -> bool:
    if recorded.kind != sent.kind:
        return False
    if sent.kind == RESPONSE:
        return bool(recorded.id == sent.id)
    return recorded.method == sent.method and recorded.params == sent.params


TRANSCRIPT_WIDTH = 300
"""Characters of a message's params or result shown at most in a transcript line."""


def transcript(session: McpSession) -> list[str]:
    """A session as ``replay show`` and ``replay diff`` read it: a line per message, its side,
    then its method and what it asked, or what it answered (a tool result's text, else its
    structured content; a resource's text; the tools listed), never the JSON-RPC envelope."""
    lines: list[str] = []
    for frame in session.frames:
        side = "client" if frame.from_client else "server"
        message = parse_json(frame.data)
        if isinstance(message, dict):
            lines.append(f"{side} {_described(message)}".rstrip())
        else:
            lines.append(f"{side} {_cut(frame.data.decode('utf-8', errors='replace'))}")
    return lines


def _described(message: dict[str, Any]) -> str:
    method = message.get("method")
    if isinstance(method, str):
        return f"{method} {_asked(method, message.get('params'))}"
    error = message.get("error")
    if isinstance(error, dict):
        return f"error {error.get('code')}: {_cut(str(error.get('message')))}"
    return "result: " + _answered(message.get("result"))


def _asked(method: str, params: Any) -> str:
    if not isinstance(params, dict):
        return "" if params is None else _compact(params)
    if method == "tools/call":
        return f"{params.get('name')} {_compact(params.get('arguments', {}))}"
    if method == "resources/read":
        return str(params.get("uri"))
    if method == "sampling/createMessage":
        messages = params.get("messages")
        contents = (
            [m.get("content") for m in messages if isinstance(m, dict)]
            if isinstance(messages, list)
            else []
        )
        return " / ".join(text for content in contents for text in _texts(content))
    if method == "notifications/message":
        data = params.get("data")
        return data if isinstance(data, str) else _compact(data)
    return _compact(params)


def _answered(result: Any) -> str:
    if not isinstance(result, dict):
        return _compact(result)
    failed = "error: " if result.get("isError") else ""
    texts = _texts(result.get("content")) or _texts(result.get("contents"))
    if texts:
        return failed + _cut(" / ".join(texts))
    if "structuredContent" in result:
        return failed + _compact(result["structuredContent"])
    if isinstance(result.get("tools"), list):
        return "tools " + ", ".join(str(tool.get("name")) for tool in result["tools"])
    info = result.get("serverInfo")
    if isinstance(info, dict):
        return f"server {info.get('name')} {info.get('version') or ''}".rstrip()
    return _compact(result) if result else "ok"


def _texts(content: Any) -> list[str]:
    """The text of a content block, or of each in a list of them."""
    blocks = content if isinstance(content, list | tuple) else [content]
    return [
        block["text"]
        for block in blocks
        if isinstance(block, dict) and isinstance(block.get("text"), str)
    ]


def _compact(value: Any) -> str:
    return _cut(orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode())


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TRANSCRIPT_WIDTH else text[: TRANSCRIPT_WIDTH - 1] + "…"
