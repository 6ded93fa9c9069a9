"""What a recorded response says, whatever the provider: text, tool calls, finish reason, usage.

The command line compares and lists recordings by meaning, not bytes. Each
provider spells the same facts differently, and a stream spreads them over
many events, so :func:`answer_of` reads every format replay knows into one
:class:`Answer`:

- OpenAI chat completions (also Groq, Mistral, AI21 Jamba, WorkflowAI and every
  OpenAI-compatible server), whole or streamed, where usage may come only in
  the last chunk;
- the OpenAI Responses API, whole or as its typed event stream;
- Anthropic Messages, whole or as its ``event:`` stream;
- Cohere v2 chat, whole or as its ``message-start`` ... ``message-end`` stream;
- Gemini ``generateContent``, whole or as ``streamGenerateContent``'s partial responses;
- AI21 J2 (prompt and completion token lists), LightOn Paradigm
  (``execution_metadata.cost``) and WorkflowAI's ``cost_usd``;
- line-delimited JSON streams (Ollama-style ``message``/``response`` lines).

The format is told by the shape of the data, not the URL, so a proxy or a
local server answering in a known format is read too. Nothing here raises on
odd data: what cannot be read is left empty.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from replay._core import eventstream, mcp
from replay._core.key import is_json, parse_json
from replay._core.model import (
    GrpcCall,
    McpSession,
    Outcome,
    Request,
    Response,
    TransportFailure,
    WebSocketSession,
)


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: str
    """The arguments as canonical JSON (sorted keys), so spacing never counts as a change."""


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost_usd: float | None = None

    @property
    def total_tokens(self) -> int:
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            _add(self.prompt_tokens, other.prompt_tokens),
            _add(self.completion_tokens, other.completion_tokens),
            _add(self.cost_usd, other.cost_usd),
        )


@dataclass(frozen=True)
class Answer:
    """One recorded outcome, by meaning."""

    status: int | None
    """The HTTP status; None for a transport failure."""
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    streamed: bool = False
    complete: bool = True
    error: str | None = None
    """The error message of an error response, or the transport failure."""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "text": self.text,
            "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in self.tool_calls],
            "finish_reason": self.finish_reason,
            "usage": {
                "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens,
                "cost_usd": self.usage.cost_usd,
            },
            "model": self.model,
            "streamed": self.streamed,
            "complete": self.complete,
            "error": self.error,
        }


def _add(left: Any, right: Any) -> Any:
    if left is None:
        return right
    if right is None:
        return left
    return left + right


def answer_of(outcome: Outcome) -> Answer:
    if isinstance(outcome, TransportFailure):
        return Answer(None, error=f"{outcome.kind}: {outcome.message}")
    if isinstance(outcome, McpSession):  # read by message: a tool's result is no answer
        return Answer(SWITCHING_PROTOCOLS, "\n".join(mcp.transcript(outcome)), streamed=True)
    if isinstance(outcome, WebSocketSession):
        return _from_session(outcome)
    if isinstance(outcome, GrpcCall):
        return _from_grpc(outcome)
    if eventstream.is_eventstream(outcome):
        return _from_eventstream(outcome)
    if outcome.streamed:
        return _from_stream(outcome)
    reader = _Reader()
    value = parse_json(outcome.body)
    if is_json(value):
        reader.document(value)
    elif outcome.body:
        reader.text.append(outcome.body.decode("utf-8", errors="replace"))
    return reader.answer(outcome.status, outcome.streamed, outcome.complete)


def prompt_of(request: Request) -> str:
    """The prompt a request sent: the last user message, or the prompt text."""
    body = parse_json(request.body)
    if not isinstance(body, dict):
        return ""
    # Gemini sends its turns as "contents", each with "parts" where the others say "content".
    items = body.get("messages", body.get("input", body.get("contents")))
    if isinstance(items, list):
        messages = [item for item in items if isinstance(item, dict)]
        users = [m for m in messages if m.get("role") == "user"] or messages
        return _content_text(users[-1].get("content", users[-1].get("parts"))) if users else ""
    for name in ("input", "prompt", "text"):
        value = body.get(name)
        if isinstance(value, str):
            return value
    return ""


def model_asked(request: Request) -> str | None:
    body = parse_json(request.body)
    model = body.get("model") if isinstance(body, dict) else None
    return model if isinstance(model, str) else None


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return " ".join(part for part in parts if isinstance(part, str))
    return ""


def _canonical_arguments(arguments: Any) -> str:
    if isinstance(arguments, str):
        text = arguments
        try:
            arguments = orjson.loads(text)
        except orjson.JSONDecodeError:
            return text  # a truncated stream: keep what arrived
    return orjson.dumps(arguments, option=orjson.OPT_SORT_KEYS).decode()


def _number(value: Any) -> int | None:
    if isinstance(value, float) and value.is_integer():
        # Cohere's schema types its token counts as JSON numbers, which a server may write 12.0.
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _typed_texts(parts: Any) -> list[str]:
    """The text of each ``{"type": "text", "text": ...}`` part; thinking and tool parts are not."""
    blocks = [_dict(part) for part in _list(parts)]
    return [b["text"] for b in blocks if b.get("type") == "text" and isinstance(b.get("text"), str)]


def _is_gemini(body: dict[str, Any]) -> bool:
    """A Gemini ``GenerateContentResponse``, whole or one streamed piece of one.

    Its camelCase ``candidates``, ``usageMetadata`` and ``promptFeedback`` are spelled by no
    other format; a blocked prompt has no candidates, and a stream's pieces may lack any one.
    """
    return "candidates" in body or "usageMetadata" in body or "promptFeedback" in body


def _gemini_candidate(candidates: Any) -> dict[str, Any]:
    """The first candidate, the one the SDK's ``.text`` reads.

    With ``candidateCount`` above one a response, or a streamed piece, holds several
    answers, told by ``index``; joining them all would mix different answers into one.
    """
    for candidate in _list(candidates):
        candidate = _dict(candidate)
        if candidate.get("index", 0) in (0, None):
            return candidate
    return {}


def _is_xai(body: dict[str, Any]) -> bool:
    outputs = body.get("outputs")
    return isinstance(outputs, list) and any(
        isinstance(output, dict) and ("message" in output or "delta" in output)
        for output in outputs
    )


def _is_cohere_chat(body: dict[str, Any]) -> bool:
    """A Cohere v2 chat reply: ``finish_reason`` beside a ``message`` object.

    OpenAI chat keeps its finish reason inside ``choices`` and Ollama says ``done_reason``;
    a ``message`` whose content is a list of parts is Cohere's too, finished or not.
    """
    message = body.get("message")
    if not isinstance(message, dict):
        return False
    return "finish_reason" in body or isinstance(message.get("content"), list)


@dataclass
class _PendingCall:
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    whole: Any = None
    """Arguments that arrived as one object (Anthropic ``input``), not as text pieces."""


class _Reader:
    """Accumulates the facts of one response from whole bodies or stream events."""

    def __init__(self) -> None:
        self.text: list[str] = []
        self.calls: dict[Any, _PendingCall] = {}
        self.finish: str | None = None
        self.usage = Usage()
        self.model: str | None = None
        self.error: str | None = None
        self.final: dict[str, Any] | None = None
        """A stream's terminal Responses object, which supersedes the deltas."""

    def answer(self, status: int, streamed: bool, complete: bool) -> Answer:
        source = self
        if self.final is not None:
            source = _Reader()
            source.model = self.model
            source.document(self.final)
        calls = tuple(
            ToolCall(
                call.name,
                _canonical_arguments(
                    call.whole if call.whole is not None else "".join(call.arguments) or "{}"
                ),
            )
            for call in source.calls.values()
        )
        return Answer(
            status,
            "".join(source.text),
            calls,
            source.finish,
            source.usage,
            source.model,
            streamed,
            complete,
            source.error or self.error,
        )

    def call(self, index: Any) -> _PendingCall:
        return self.calls.setdefault(index, _PendingCall())

    def whole_call(self, kind: str, name: Any, arguments: Any) -> None:
        """A call that arrives whole, its arguments an object rather than text pieces."""
        pending = self.call((kind, len(self.calls)))
        pending.name = str(name or "")
        pending.whole = arguments if arguments is not None else {}

    def _model(self, value: Any) -> None:
        if isinstance(value, str) and value:
            self.model = value

    # Whole bodies.

    def document(self, body: Any) -> None:
        if not isinstance(body, dict):
            return
        self._model(body.get("model"))
        error = body.get("error")
        if error:
            self.error = str(_dict(error).get("message") or error)
        if "choices" in body:
            self._chat(body)
        elif body.get("object") == "response" or isinstance(body.get("output"), list):
            self._responses(body)
        elif body.get("type") == "message" or "stop_reason" in body:
            self._anthropic(body)
        elif "completions" in body and "prompt" in body:
            self._j2(body)
        elif "outputs" in body and "execution_metadata" in body:
            self._lighton(body)
        elif _is_xai(body):
            self._xai(body)
        elif _is_gemini(body):
            self._gemini(body)
        elif _is_cohere_chat(body):
            self._cohere(body)
        elif "message" in body or "response" in body or "done" in body:
            self._ndjson_line(body)

    def _chat(self, body: dict[str, Any]) -> None:
        cost: float | None = None
        for choice in _list(body.get("choices")):
            choice = _dict(choice)
            message = _dict(choice.get("message") or choice.get("delta"))
            content = message.get("content", choice.get("text"))
            if isinstance(content, str):
                self.text.append(content)
            for position, tool in enumerate(_list(message.get("tool_calls"))):
                self._chat_tool(_dict(tool), position)
            if choice.get("finish_reason"):
                self.finish = str(choice["finish_reason"])
            if isinstance(choice.get("cost_usd"), int | float):
                cost = (cost or 0.0) + float(choice["cost_usd"])
        self._openai_usage(body.get("usage"))
        if cost is not None:
            self.usage = Usage(self.usage.prompt_tokens, self.usage.completion_tokens, cost)

    def _chat_tool(self, tool: dict[str, Any], position: int) -> None:
        pending = self.call(("chat", tool.get("index", position)))
        function = _dict(tool.get("function"))
        if function.get("name"):
            pending.name = str(function["name"])
        if isinstance(function.get("arguments"), str):
            pending.arguments.append(function["arguments"])

    def _openai_usage(self, usage: Any) -> None:
        usage = _dict(usage)
        if usage:
            self.usage = Usage(
                _number(usage.get("prompt_tokens", usage.get("input_tokens"))),
                _number(usage.get("completion_tokens", usage.get("output_tokens"))),
                self.usage.cost_usd,
            )

    def _responses(self, body: dict[str, Any]) -> None:
        for item in _list(body.get("output")):
            item = _dict(item)
            if item.get("type") == "message":
                for part in _list(item.get("content")):
                    part = _dict(part)
                    if isinstance(part.get("text"), str):
                        self.text.append(part["text"])
            elif item.get("type") == "function_call":
                pending = self.call(("item", item.get("id") or len(self.calls)))
                pending.name = str(item.get("name", ""))
                pending.arguments.append(str(item.get("arguments", "")))
        status = body.get("status")
        reason = _dict(body.get("incomplete_details")).get("reason")
        if isinstance(reason, str):
            self.finish = reason
        elif isinstance(status, str):
            self.finish = status
        self._openai_usage(body.get("usage"))

    def _anthropic(self, body: dict[str, Any]) -> None:
        self.text.extend(_typed_texts(body.get("content")))
        for block in _list(body.get("content")):
            block = _dict(block)
            if block.get("type") == "tool_use":
                self.whole_call("block", block.get("name"), block.get("input"))
        if body.get("stop_reason"):
            self.finish = str(body["stop_reason"])
        self._anthropic_usage(body.get("usage"))

    def _anthropic_usage(self, usage: Any) -> None:
        usage = _dict(usage)
        prompt = _number(usage.get("input_tokens"))
        completion = _number(usage.get("output_tokens"))
        self.usage = Usage(
            prompt if prompt is not None else self.usage.prompt_tokens,
            completion if completion is not None else self.usage.completion_tokens,
            self.usage.cost_usd,
        )

    def _j2(self, body: dict[str, Any]) -> None:
        completions = [_dict(c) for c in _list(body.get("completions"))]
        generated = 0
        for completion in completions:
            data = _dict(completion.get("data"))
            if isinstance(data.get("text"), str):
                self.text.append(data["text"])
            generated += len(_list(data.get("tokens")))
            reason = _dict(completion.get("finishReason")).get("reason")
            if isinstance(reason, str):
                self.finish = reason
        prompt_tokens = len(_list(_dict(body.get("prompt")).get("tokens")))
        self.usage = Usage(prompt_tokens, generated)

    def _lighton(self, body: dict[str, Any]) -> None:
        prompt = completion = 0
        for batch in _list(body.get("outputs")):
            for output in _list(batch):
                output = _dict(output)
                for item in _list(output.get("completions")):
                    text = _dict(item).get("output_text")
                    if isinstance(text, str):
                        self.text.append(text)
                metadata = _dict(output.get("execution_metadata"))
                cost = _dict(metadata.get("cost"))
                prompt += _number(cost.get("tokens_input")) or 0
                completion += _number(cost.get("tokens_generated")) or 0
                if isinstance(metadata.get("finish_reason"), str):
                    self.finish = metadata["finish_reason"]
        self.usage = Usage(prompt, completion)

    def _xai(self, body: dict[str, Any]) -> None:
        """xAI's chat over gRPC, its messages' JSON views: ``outputs``, each with a
        ``message`` (a whole answer) or a ``delta`` (a streamed chunk's)."""
        for output in _list(body.get("outputs")):
            output = _dict(output)
            message = _dict(output.get("message") or output.get("delta"))
            if isinstance(message.get("content"), str):
                self.text.append(message["content"])
            for position, tool in enumerate(_list(message.get("tool_calls"))):
                self._chat_tool(_dict(tool), position)
            if output.get("finish_reason"):
                self.finish = str(output["finish_reason"])
        self._openai_usage(body.get("usage"))

    def _cohere(self, body: dict[str, Any]) -> None:
        message = _dict(body.get("message"))
        self.text.extend(_typed_texts(message.get("content")))
        # Cohere's tool calls are OpenAI's {"id", "type", "function": {"name", "arguments"}}.
        for position, tool in enumerate(_list(message.get("tool_calls"))):
            self._chat_tool(_dict(tool), position)
        self._cohere_end(body)

    def _cohere_end(self, fields: dict[str, Any]) -> None:
        """``finish_reason`` and ``usage``, of a whole reply or of a stream's message-end delta."""
        if isinstance(fields.get("finish_reason"), str):
            self.finish = fields["finish_reason"]
        usage = _dict(fields.get("usage"))
        # tokens counts what the model read and wrote; billed_units only what was billed,
        # which can be less, so it stands in only when tokens is missing.
        self._openai_usage(usage.get("tokens") or usage.get("billed_units"))

    def _gemini(self, body: dict[str, Any]) -> None:
        """A whole response, or one streamed piece: its text, calls and finish add to the rest."""
        self._model(body.get("modelVersion"))
        candidate = _gemini_candidate(body.get("candidates"))
        for part in _list(_dict(candidate.get("content")).get("parts")):
            part = _dict(part)
            # A thought part is the model's reasoning, shown only with include_thoughts: the
            # SDK's .text leaves it out, as the Anthropic and Cohere readers leave thinking out.
            if isinstance(part.get("text"), str) and part.get("thought") is not True:
                self.text.append(part["text"])
            if "functionCall" in part:
                # Each call comes whole, args an object, streamed or not: the SDK's types say
                # streamed partialArgs are "not supported in Gemini API" (only Vertex's).
                call = _dict(part["functionCall"])
                self.whole_call("part", call.get("name"), call.get("args"))
        if isinstance(candidate.get("finishReason"), str):
            self.finish = candidate["finishReason"]
        elif not candidate:
            # A refused prompt gets no candidate at all, only the reason it was blocked.
            blocked = _dict(body.get("promptFeedback")).get("blockReason")
            if isinstance(blocked, str):
                self.finish = blocked
        self._gemini_usage(body.get("usageMetadata"))

    def _gemini_usage(self, usage: Any) -> None:
        usage = _dict(usage)
        if not usage:
            return
        # Each streamed piece repeats the counts so far, so the latest replaces the earlier.
        # Thoughts are written and billed like output, and tool-use prompt tokens are read
        # like the prompt; counted so, the two add up to totalTokenCount, as other formats do.
        read = _add(
            _number(usage.get("promptTokenCount")), _number(usage.get("toolUsePromptTokenCount"))
        )
        written = _add(
            _number(usage.get("candidatesTokenCount")), _number(usage.get("thoughtsTokenCount"))
        )
        self.usage = Usage(read, written, self.usage.cost_usd)

    def _ndjson_line(self, line: dict[str, Any]) -> None:
        content = _dict(line.get("message")).get("content", line.get("response"))
        if isinstance(content, str):
            self.text.append(content)
        if isinstance(line.get("done_reason"), str):
            self.finish = line["done_reason"]
        prompt, completion = _number(line.get("prompt_eval_count")), _number(line.get("eval_count"))
        if prompt is not None or completion is not None:
            self.usage = Usage(prompt, completion)

    # Stream events.

    def event(self, data: dict[str, Any]) -> None:
        kind = data.get("type")
        if not isinstance(kind, str):
            if "choices" in data:
                self._model(data.get("model"))
                self._chat(data)
            else:
                self.document(data)
        elif kind.startswith("response."):
            self._responses_event(kind, data)
        elif "-" in kind:
            # Cohere names its events with hyphens (content-delta), Anthropic with
            # underscores (content_block_delta), and both use "type" and "delta".
            self._cohere_event(kind, data)
        else:
            self._anthropic_event(kind, data)

    def converse_event(self, kind: str | None, data: dict[str, Any]) -> None:
        """One event of Bedrock's ConverseStream, named by its frame's ``:event-type``."""
        if kind == "contentBlockStart":
            tool = _dict(_dict(data.get("start")).get("toolUse"))
            if tool:
                self.call(("converse", data.get("contentBlockIndex"))).name = str(
                    tool.get("name", "")
                )
        elif kind == "contentBlockDelta":
            delta = _dict(data.get("delta"))
            if isinstance(delta.get("text"), str):
                self.text.append(delta["text"])
            tool_input = _dict(delta.get("toolUse")).get("input")
            if isinstance(tool_input, str):
                self.call(("converse", data.get("contentBlockIndex"))).arguments.append(tool_input)
        elif kind == "messageStop" and isinstance(data.get("stopReason"), str):
            self.finish = data["stopReason"]
        elif kind == "metadata":
            usage = _dict(data.get("usage"))
            self.usage = Usage(
                _number(usage.get("inputTokens")), _number(usage.get("outputTokens"))
            )

    def _responses_event(self, kind: str, data: dict[str, Any]) -> None:
        response = _dict(data.get("response"))
        self._model(response.get("model"))
        if kind in ("response.completed", "response.incomplete", "response.failed"):
            self.final = response
        elif kind == "response.output_text.delta" and isinstance(data.get("delta"), str):
            self.text.append(data["delta"])
        elif kind == "response.output_item.added":
            item = _dict(data.get("item"))
            if item.get("type") == "function_call":
                self.call(("item", item.get("id"))).name = str(item.get("name", ""))
        elif kind == "response.function_call_arguments.delta":
            self.call(("item", data.get("item_id"))).arguments.append(str(data.get("delta", "")))

    def _cohere_event(self, kind: str, data: dict[str, Any]) -> None:
        self._model(data.get("model"))  # Cohere names no model; a compatible server may
        delta = _dict(data.get("delta"))
        message = _dict(delta.get("message"))
        if kind == "content-delta":
            # A thinking delta says {"thinking": ...} here instead: not part of the answer.
            text = _dict(message.get("content")).get("text")
            if isinstance(text, str):
                self.text.append(text)
        elif kind in ("tool-call-start", "tool-call-delta"):
            # One call per event, in "tool_calls" (singular despite the name), keyed by index.
            self._chat_tool(_dict(message.get("tool_calls")), data.get("index", 0))
        elif kind == "message-end":
            self._cohere_end(delta)
            if isinstance(delta.get("error"), str) and delta["error"]:
                self.error = delta["error"]

    def _anthropic_event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "message_start":
            message = _dict(data.get("message"))
            self._model(message.get("model"))
            self._anthropic_usage(message.get("usage"))
        elif kind == "content_block_start":
            block = _dict(data.get("content_block"))
            if block.get("type") == "tool_use":
                self.call(("block", data.get("index"))).name = str(block.get("name", ""))
        elif kind == "content_block_delta":
            delta = _dict(data.get("delta"))
            if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
                self.text.append(delta["text"])
            elif delta.get("type") == "input_json_delta":
                pending = self.call(("block", data.get("index")))
                pending.arguments.append(str(delta.get("partial_json", "")))
        elif kind == "message_delta":
            stop = _dict(data.get("delta")).get("stop_reason")
            if isinstance(stop, str):
                self.finish = stop
            self._anthropic_usage(data.get("usage"))
        elif kind == "error":
            self.error = str(_dict(data.get("error")).get("message") or data)


def _from_stream(response: Response) -> Answer:
    reader = _Reader()
    for data in stream_events(response.body):
        reader.event(data)
    return reader.answer(response.status, response.streamed, response.complete)


SWITCHING_PROTOCOLS = 101
"""The status of a WebSocket handshake accepted: a session's answer is that of a stream."""


def _from_session(session: WebSocketSession) -> Answer:
    """The server's JSON messages read as stream events: the Realtime API's deltas are named
    as the Responses API's (``response.output_text.delta``)."""
    reader = _Reader()
    for frame in session.frames:
        value = parse_json(frame.data) if frame.text and not frame.from_client else None
        if isinstance(value, dict):
            reader.event(value)
    return reader.answer(SWITCHING_PROTOCOLS, True, session.complete)


GRPC_HTTP_STATUS = {
    "OK": 200,
    "CANCELLED": 499,
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "OUT_OF_RANGE": 400,
    "DEADLINE_EXCEEDED": 504,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "ABORTED": 409,
    "PERMISSION_DENIED": 403,
    "UNAUTHENTICATED": 401,
    "RESOURCE_EXHAUSTED": 429,
    "UNIMPLEMENTED": 501,
    "UNAVAILABLE": 503,
}
"""A gRPC status as an HTTP one, as Google's HTTP gateways map them (others: 500)."""


def _from_grpc(call: GrpcCall) -> Answer:
    """The server's messages, JSON views, read as whole bodies or stream chunks; an error
    status is the answer's error, ``CODE: details``."""
    reader = _Reader()
    server = [frame for frame in call.messages if not frame.from_client]
    for frame in server:
        if frame.text:
            reader.document(parse_json(frame.data))
    if call.code != "OK":
        reader.error = f"{call.code}: {call.details}" if call.details else call.code
    return reader.answer(GRPC_HTTP_STATUS.get(call.code, 500), len(server) > 1, call.complete)


def _from_eventstream(response: Response) -> Answer:
    """Bedrock's event streams: ConverseStream names each event in its ``:event-type``
    header; InvokeModelWithResponseStream carries the model's own events in ``bytes``."""
    reader = _Reader()
    for chunk in response.chunks:
        try:
            frame = eventstream.decode_frame(chunk.data)
        except eventstream.FrameError:
            continue  # a frame cut short
        view = eventstream.payload_view(frame.payload)
        payload = _dict(parse_json(frame.payload if view is None else view))
        if frame.header(":message-type") == "exception":
            reader.error = str(payload.get("message") or frame.header(":exception-type"))
        elif view is not None:
            reader.event(_dict(payload.get("bytes")))
        else:
            reader.converse_event(frame.header(":event-type"), payload)
    return reader.answer(response.status, response.streamed, response.complete)


def stream_events(body: bytes) -> Iterator[dict[str, Any]]:
    """The JSON objects of a server-sent event stream or of line-delimited JSON."""
    text = body.decode("utf-8", errors="replace").replace("\r\n", "\n")
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("data:"):
            line = line[5:].strip()
        elif not line.startswith("{"):
            continue  # event names, comments, ids, [DONE]
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(value, dict):
            yield value
