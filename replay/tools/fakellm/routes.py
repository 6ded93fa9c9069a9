"""What the fake answers: the answer rule, each provider's wire format, and the routes
that dispatch a request to its format (see :mod:`replay.tools.fakellm`)."""

from __future__ import annotations

import json
import re
import secrets
import string
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import policy
from email.parser import BytesParser
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from replay.tools.fakellm.server import FakeLLMServer

_ALNUM = string.ascii_letters + string.digits
_ERROR_KINDS: dict[int, tuple[str, str, str]] = {
    401: ("Invalid Authentication.", "invalid_request_error", "invalid_api_key"),
    403: ("Access denied.", "permission_error", "access_denied"),
    422: ("Request body is malformed.", "invalid_request_error", "unprocessable_entity"),
    429: ("You are sending requests too quickly.", "requests", "rate_limit_exceeded"),
    500: ("The server had an error processing your request.", "server_error", "internal_error"),
    503: (
        "The engine is currently overloaded, please try again later.",
        "server_error",
        "overloaded",
    ),
}


@dataclass(frozen=True)
class ReceivedRequest:
    """One request as the server saw it; ``path`` keeps the query string."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass(frozen=True)
class Answer:
    """What the fake model says, before any provider-specific formatting."""

    text: str
    finish_reason: str
    tool_name: str | None
    tool_arguments: str

    @property
    def output(self) -> str:
        """The generated characters: the tool arguments for a tool call, else the text."""
        return self.tool_arguments if self.tool_name else self.text


def tokens(text: str) -> list[str]:
    """Split into whitespace-led words; joining them gives back ``text`` exactly."""
    return re.findall(r"\s*\S+", text)


MODEL_VERSIONS = ("v1", "v2")
"""The versions of the fake model that answer differently (any but v1 answers as v2)."""


def answer_for(prompt: str, model_version: str, tool_name: str | None = None) -> Answer:
    """The deterministic answer to ``prompt`` (see the module docstring)."""
    changed = model_version != "v1"
    lowered = prompt.lower()
    head = prompt[:40]
    text = f"A poem about: {head}" if changed and "poem" in lowered else f"Answer to: {head}"
    arguments: dict[str, str] = {"query": head}
    if changed and "weather" in lowered:
        arguments["unit"] = "celsius"
    finish = "length" if changed and "long" in lowered else "stop"
    return Answer(text, finish, tool_name, json.dumps(arguments))


def _rand(n: int) -> str:
    return "".join(secrets.choice(_ALNUM) for _ in range(n))


def _logprob(token: str) -> float:
    # Deterministic so that logprobs, like the text, only change with the prompt.
    return -round((len(token.strip()) % 7 + 1) / 10, 4)


def _flatten(content: Any) -> str:
    """Text of a message content: a string or a list of typed parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


def _prompt_of(body: dict[str, Any]) -> str:
    contents = body.get("contents")
    if isinstance(contents, list) and contents and isinstance(contents[-1], dict):
        parts = contents[-1].get("parts")  # Gemini: the last turn's text parts
        return _flatten(parts) if isinstance(parts, list) else ""
    items = body.get("messages", body.get("input"))
    if isinstance(items, list) and items:
        dicts = [item for item in items if isinstance(item, dict)]
        users = [item for item in dicts if item.get("role") == "user"] or dicts
        return _flatten(users[-1].get("content")) if users else ""
    for key in ("input", "prompt", "text"):
        if isinstance(body.get(key), str):
            return str(body[key])
    return ""


def _first_tool_name(body: dict[str, Any]) -> str | None:
    tools = body.get("tools")
    if not isinstance(tools, list) or not tools or not isinstance(tools[0], dict):
        return None
    # OpenAI chat nests the name under "function"; Responses and Anthropic do not.
    function = tools[0].get("function")
    name = function.get("name") if isinstance(function, dict) else tools[0].get("name")
    return str(name) if name else None


def _sse(data: Any, named: bool = False) -> bytes:
    """One server-sent event; ``named`` adds the ``event:`` line typed formats use."""
    event = f"event: {data['type']}\n" if named else ""
    return f"{event}data: {json.dumps(data)}\n\n".encode()


def _volatile_headers() -> dict[str, str]:
    return {
        "x-request-id": f"req_{secrets.token_hex(16)}",
        "openai-processing-ms": str(20 + secrets.randbelow(2000)),
        "cf-ray": f"{secrets.token_hex(8)}-CDG",
        "x-ratelimit-remaining-requests": str(secrets.randbelow(10_000)),
        "x-ratelimit-reset-requests": f"{secrets.randbelow(60_000) / 1000:.3f}s",
    }


@dataclass
class _Reply:
    status: int = 200
    body: Any = None
    events: Iterator[bytes] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    compress: bool = False


def _error(
    status: int, message: str, kind: str, code: str | None, param: str | None = None
) -> _Reply:
    error = {"message": message, "type": kind, "param": param, "code": code}
    return _Reply(status, {"error": error})


@dataclass
class _Call:
    """A routed, authenticated request with its parsed body and the model's answer."""

    fake: FakeLLMServer
    request: ReceivedRequest
    params: dict[str, str]
    body: dict[str, Any]
    answer: Answer

    @property
    def model(self) -> str:
        return self.fake.answering_model(self.body, self.params)

    @property
    def stream(self) -> bool:
        return self.body.get("stream") is True

    @property
    def prompt_tokens(self) -> int:
        return len(tokens(_prompt_of(self.body)))

    @property
    def completion_tokens(self) -> int:
        return len(tokens(self.answer.output))


# --- OpenAI chat, and the formats built on it (WorkflowAI, AI21 Jamba) ----------------


def _chat_usage(call: _Call) -> dict[str, int]:
    prompt, completion = call.prompt_tokens, call.completion_tokens
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _chat_finish(answer: Answer) -> str:
    return "tool_calls" if answer.tool_name else answer.finish_reason


def _chat_logprobs(answer: Answer) -> dict[str, Any]:
    content = [
        {"token": tok, "bytes": list(tok.encode()), "logprob": _logprob(tok), "top_logprobs": []}
        for tok in tokens(answer.output)
    ]
    return {"content": content, "refusal": None}


def _chat_completion(call: _Call, completion_id: str) -> dict[str, Any]:
    answer = call.answer
    message: dict[str, Any] = {
        "role": "assistant",
        "content": answer.text,
        "refusal": None,
        "annotations": [],
    }
    if answer.tool_name:
        function = {"name": answer.tool_name, "arguments": answer.tool_arguments}
        message["content"] = None
        message["tool_calls"] = [
            {"id": f"call_{_rand(24)}", "type": "function", "function": function}
        ]
    choice = {
        "index": 0,
        "message": message,
        "logprobs": _chat_logprobs(answer) if call.body.get("logprobs") else None,
        "finish_reason": _chat_finish(answer),
    }
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": call.fake.timestamp(),
        "model": call.model,
        "choices": [choice],
        "usage": _chat_usage(call),
        "service_tier": "default",
        "system_fingerprint": f"fp_{secrets.token_hex(5)}",
    }


def _chat_chunks(call: _Call, completion_id: str) -> Iterator[bytes]:
    answer = call.answer
    base = {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": call.fake.timestamp(),
        "model": call.model,
        "system_fingerprint": f"fp_{secrets.token_hex(5)}",
    }

    def chunk(delta: dict[str, Any], finish: str | None = None, usage: Any = None) -> bytes:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return _sse({**base, "choices": [choice], "usage": usage})

    yield chunk({"role": "assistant", "content": ""})
    if answer.tool_name:
        function = {"name": answer.tool_name, "arguments": ""}
        call_id = f"call_{_rand(24)}"
        yield chunk(
            {"tool_calls": [{"index": 0, "id": call_id, "type": "function", "function": function}]}
        )
        for piece in tokens(answer.tool_arguments):
            yield chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
    else:
        for tok in tokens(answer.text):
            yield chunk({"content": tok})
    # Seed 003: usage is null on every chunk but the last.
    yield chunk({}, _chat_finish(answer), _chat_usage(call))
    yield b"data: [DONE]\n\n"


def _chat_reply(call: _Call, completion_id: str) -> _Reply:
    if call.stream:
        return _Reply(events=_chat_chunks(call, completion_id))
    return _Reply(body=_chat_completion(call, completion_id))


def _openai_chat(call: _Call) -> _Reply:
    return _chat_reply(call, f"chatcmpl-{_rand(29)}")


def _workflowai_chat(call: _Call) -> _Reply:
    reply = _openai_chat(call)
    if reply.body is not None:
        for choice in reply.body["choices"]:
            choice["feedback_token"] = f"fb_{_rand(29)}_{choice['index']}"
            choice["duration_seconds"] = round(0.2 + secrets.randbelow(3000) / 1000, 3)
            choice["cost_usd"] = round(call.completion_tokens * 2e-6, 8)
    return reply


def _ai21_chat(call: _Call) -> _Reply:
    return _chat_reply(call, str(uuid.uuid4()))


# --- OpenAI Responses -----------------------------------------------------------------


def _response_item(answer: Answer) -> dict[str, Any]:
    if answer.tool_name:
        return {
            "type": "function_call",
            "id": f"fc_{secrets.token_hex(24)}",
            "call_id": f"call_{_rand(24)}",
            "name": answer.tool_name,
            "arguments": answer.tool_arguments,
            "status": "completed",
        }
    text = {"type": "output_text", "text": answer.text, "annotations": [], "logprobs": []}
    return {
        "type": "message",
        "id": f"msg_{secrets.token_hex(24)}",
        "role": "assistant",
        "status": "completed",
        "content": [text],
    }


def _response_object(call: _Call) -> dict[str, Any]:
    answer, now = call.answer, call.fake.timestamp()
    truncated = answer.finish_reason == "length" and not answer.tool_name
    usage = {
        "input_tokens": call.prompt_tokens,
        "output_tokens": call.completion_tokens,
        "total_tokens": call.prompt_tokens + call.completion_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens_details": {"reasoning_tokens": 0},
    }
    return {
        "id": f"resp_{secrets.token_hex(24)}",
        "object": "response",
        "created_at": now,
        "completed_at": now,
        "status": "incomplete" if truncated else "completed",
        "incomplete_details": {"reason": "max_output_tokens"} if truncated else None,
        "error": None,
        "instructions": call.body.get("instructions"),
        "model": call.model,
        "output": [_response_item(answer)],
        "parallel_tool_calls": True,
        "previous_response_id": call.body.get("previous_response_id"),
        "temperature": 1.0,
        "top_p": 1.0,
        "tool_choice": "auto",
        "tools": call.body.get("tools", []),
        "metadata": {},
        "usage": usage,
        "text": {"format": {"type": "text"}},
    }


def _response_events(response: dict[str, Any]) -> Iterator[bytes]:
    """The event sequence the openai SDK's ``responses.stream`` accumulator expects."""
    sequence = iter(range(1_000_000))

    def event(kind: str, **data: Any) -> bytes:
        return _sse({"type": kind, "sequence_number": next(sequence), **data}, named=True)

    pending = {**response, "status": "in_progress", "output": [], "usage": None}
    yield event("response.created", response=pending)
    item = response["output"][0]
    where = {"output_index": 0, "item_id": item["id"]}
    if item["type"] == "function_call":
        yield event(
            "response.output_item.added",
            output_index=0,
            item={**item, "arguments": "", "status": "in_progress"},
        )
        for piece in tokens(item["arguments"]):
            yield event("response.function_call_arguments.delta", **where, delta=piece)
        yield event("response.function_call_arguments.done", **where, arguments=item["arguments"])
    else:
        part = item["content"][0]
        yield event(
            "response.output_item.added",
            output_index=0,
            item={**item, "content": [], "status": "in_progress"},
        )
        yield event(
            "response.content_part.added", **where, content_index=0, part={**part, "text": ""}
        )
        for tok in tokens(part["text"]):
            yield event(
                "response.output_text.delta", **where, content_index=0, delta=tok, logprobs=[]
            )
        yield event(
            "response.output_text.done", **where, content_index=0, text=part["text"], logprobs=[]
        )
        yield event("response.content_part.done", **where, content_index=0, part=part)
    yield event("response.output_item.done", output_index=0, item=item)
    yield event(f"response.{response['status']}", response=response)


def _responses_create(call: _Call) -> _Reply:
    previous = call.body.get("previous_response_id")
    if previous is not None and call.fake.recall(str(previous)) is None:
        return _error(
            400,
            f"Previous response with id '{previous}' not found.",
            "invalid_request_error",
            "previous_response_not_found",
            param="previous_response_id",
        )
    response = call.fake.remember(_response_object(call))
    if call.stream:
        return _Reply(events=_response_events(response))
    return _Reply(body=response)


# --- Anthropic Messages ---------------------------------------------------------------

_ANTHROPIC_STOP = {"stop": "end_turn", "length": "max_tokens"}


def _anthropic_message(call: _Call) -> dict[str, Any]:
    answer = call.answer
    block: dict[str, Any] = {"type": "text", "text": answer.text}
    if answer.tool_name:
        block = {
            "type": "tool_use",
            "id": f"toolu_{_rand(24)}",
            "name": answer.tool_name,
            "input": json.loads(answer.tool_arguments),
        }
    stop = "tool_use" if answer.tool_name else _ANTHROPIC_STOP[answer.finish_reason]
    return {
        "id": f"msg_{_rand(24)}",
        "type": "message",
        "role": "assistant",
        "model": call.model,
        "content": [block],
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": call.prompt_tokens, "output_tokens": call.completion_tokens},
    }


def _anthropic_events(message: dict[str, Any], answer: Answer) -> Iterator[bytes]:
    block = message["content"][0]
    is_tool = block["type"] == "tool_use"
    usage = message["usage"]
    yield _sse(
        {
            "type": "message_start",
            "message": {
                **message,
                "content": [],
                "stop_reason": None,
                "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1},
            },
        },
        named=True,
    )
    empty_block = {**block, "input": {}} if is_tool else {**block, "text": ""}
    yield _sse(
        {"type": "content_block_start", "index": 0, "content_block": empty_block}, named=True
    )
    yield _sse({"type": "ping"}, named=True)
    for piece in tokens(answer.output):
        delta = (
            {"type": "input_json_delta", "partial_json": piece}
            if is_tool
            else {"type": "text_delta", "text": piece}
        )
        yield _sse({"type": "content_block_delta", "index": 0, "delta": delta}, named=True)
    yield _sse({"type": "content_block_stop", "index": 0}, named=True)
    yield _sse(
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        },
        named=True,
    )
    yield _sse({"type": "message_stop"}, named=True)


def _anthropic_messages(call: _Call) -> _Reply:
    message = _anthropic_message(call)
    if call.stream:
        return _Reply(events=_anthropic_events(message, call.answer))
    return _Reply(body=message)


# --- AI21 J2 and LightOn Paradigm -----------------------------------------------------


def _j2_tokens(text: str) -> list[dict[str, Any]]:
    out, start = [], 0
    for tok in tokens(text):
        logprob = _logprob(tok)
        out.append(
            {
                "generatedToken": {
                    "token": tok.replace(" ", "▁"),
                    "logprob": logprob,
                    "raw_logprob": logprob,
                },
                "topTokens": None,
                "textRange": {"start": start, "end": start + len(tok)},
            }
        )
        start += len(tok)
    return out


def _j2_complete(call: _Call) -> _Reply:
    prompt, answer = str(call.body.get("prompt", "")), call.answer
    finish: dict[str, Any] = {"reason": "endoftext"}
    if answer.finish_reason == "length":
        finish = {"reason": "length", "length": call.body.get("maxTokens", 16)}
    completion = {
        "data": {"text": answer.text, "tokens": _j2_tokens(answer.text)},
        "finishReason": finish,
    }
    count = int(call.body.get("numResults", 1))
    return _Reply(
        body={
            "id": str(uuid.uuid4()),
            "prompt": {"text": prompt, "tokens": _j2_tokens(prompt)},
            "completions": [completion] * count,
        }
    )


def _lighton_generate(call: _Call) -> _Reply:
    answer, text = call.answer, str(call.body.get("text", ""))
    logprobs = [_logprob(tok) for tok in tokens(answer.text)]
    used_in, used_out = call.prompt_tokens, call.completion_tokens
    cost_type = f"{call.model}@default"
    # Per seed 000, "length" covers both n_tokens and reaching the end of the text.
    cost = {
        "tokens_used": used_in + used_out,
        "tokens_input": used_in,
        "tokens_generated": used_out,
        "cost_type": cost_type,
        "batch_size": 1,
    }
    score = {
        "logprob": sum(logprobs),
        "normalized_logprob": sum(logprobs) / max(len(logprobs), 1),
        "token_logprobs": None,
    }
    output = {
        "input_text": text,
        "completions": [{"output_text": answer.text, "score": score}],
        "execution_metadata": {"cost": cost, "finish_reason": "length"},
    }
    costs = {
        cost_type: {
            "total_tokens_used": used_in + used_out,
            "total_tokens_input": used_in,
            "total_tokens_generated": used_out,
            "batch_size": 1,
        }
    }
    return _Reply(
        body={
            "request_id": str(uuid.uuid4()),
            "outputs": [[output]],
            "execution_metadata": {"costs": costs},
        }
    )


# --- Gemini ---------------------------------------------------------------------------

_GEMINI_FINISH = {"stop": "STOP", "length": "MAX_TOKENS"}


def _gemini_response(
    call: _Call, text: str, finish: str | None, response_id: str, output_tokens: int
) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text}]}}
    if finish is not None:
        candidate["finishReason"] = finish
    candidate["index"] = 0
    usage = {
        "promptTokenCount": call.prompt_tokens,
        "candidatesTokenCount": output_tokens,
        "totalTokenCount": call.prompt_tokens + output_tokens,
    }
    return {
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": call.params["model"],
        "responseId": response_id,
    }


def _gemini_generate(call: _Call) -> _Reply:
    answer = call.answer
    response_id = _rand(22)
    finish = _GEMINI_FINISH[answer.finish_reason]
    if not call.params.get("stream"):
        return _Reply(
            body=_gemini_response(call, answer.text, finish, response_id, call.completion_tokens)
        )
    pieces = tokens(answer.text)

    def events() -> Iterator[bytes]:
        for index, piece in enumerate(pieces, 1):
            last = index == len(pieces)
            response = _gemini_response(call, piece, finish if last else None, response_id, index)
            yield f"data: {json.dumps(response)}\r\n\r\n".encode()

    return _Reply(events=events())


# --- Cohere v2 chat -------------------------------------------------------------------
# The cohere SDK's ClientV2 parses these into V2ChatResponse and, streamed, into the
# V2ChatStreamResponse union, which it tells apart by each event's "type".

_COHERE_FINISH = {"stop": "COMPLETE", "length": "MAX_TOKENS"}


def _cohere_events(call: _Call, chat: dict[str, Any]) -> Iterator[bytes]:
    yield _sse(
        {
            "id": chat["id"],
            "type": "message-start",
            "delta": {
                "message": {
                    "role": "assistant",
                    "content": [],
                    "tool_plan": "",
                    "tool_calls": [],
                    "citations": [],
                }
            },
        },
        named=True,
    )
    start = {"message": {"content": {"type": "text", "text": ""}}}
    yield _sse({"type": "content-start", "index": 0, "delta": start}, named=True)
    for tok in tokens(call.answer.text):
        delta = {"message": {"content": {"text": tok}}}
        yield _sse({"type": "content-delta", "index": 0, "delta": delta}, named=True)
    yield _sse({"type": "content-end", "index": 0}, named=True)
    end = {"finish_reason": chat["finish_reason"], "usage": chat["usage"]}
    yield _sse({"type": "message-end", "delta": end}, named=True)


def _cohere_chat(call: _Call) -> _Reply:
    # Tools are not modelled here: the answer is always text, so usage counts the text.
    output_tokens = len(tokens(call.answer.text))
    counts = {"input_tokens": call.prompt_tokens, "output_tokens": output_tokens}
    chat = {
        "id": str(uuid.uuid4()),
        "message": {"role": "assistant", "content": [{"type": "text", "text": call.answer.text}]},
        "finish_reason": _COHERE_FINISH[call.answer.finish_reason],
        "usage": {"billed_units": counts, "tokens": counts},
    }
    if call.stream:
        return _Reply(events=_cohere_events(call, chat))
    return _Reply(body=chat)


# --- Ollama chat ----------------------------------------------------------------------
# The ollama SDK builds a ChatResponse from the body or, streamed, from each NDJSON line.


def _ollama_time() -> str:
    """Now as Ollama's Go server writes it: UTC, RFC 3339 with nanoseconds, trailing
    zeros of the fraction dropped."""
    seconds, nanos = divmod(time.time_ns(), 1_000_000_000)
    fraction = f".{nanos:09d}".rstrip("0").rstrip(".")
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + fraction + "Z"


def _ollama_line(call: _Call, content: str) -> dict[str, Any]:
    return {
        "model": call.model,
        "created_at": _ollama_time(),
        "message": {"role": "assistant", "content": content},
        "done": False,
    }


def _ollama_done(call: _Call, line: dict[str, Any], eval_count: int) -> dict[str, Any]:
    """``line`` made final: the reason, the counts, and durations (ns) that vary per call."""
    load, prompt_eval, evaluation = (10**6 + secrets.randbelow(10**9) for _ in range(3))
    return {
        **line,
        "done": True,
        "done_reason": call.answer.finish_reason,
        "total_duration": load + prompt_eval + evaluation + secrets.randbelow(10**6),
        "load_duration": load,
        "prompt_eval_count": call.prompt_tokens,
        "prompt_eval_duration": prompt_eval,
        "eval_count": eval_count,
        "eval_duration": evaluation,
    }


def _ollama_chat(call: _Call) -> _Reply:
    pieces = tokens(call.answer.text)  # text only, as for Cohere
    if call.body.get("stream") is False:  # Ollama streams unless told not to
        return _Reply(body=_ollama_done(call, _ollama_line(call, call.answer.text), len(pieces)))

    # A generator so that each line's created_at is the moment it is sent.
    def lines() -> Iterator[bytes]:
        for piece in pieces:
            yield json.dumps(_ollama_line(call, piece)).encode() + b"\n"
        final = _ollama_done(call, _ollama_line(call, ""), len(pieces))
        yield json.dumps(final).encode() + b"\n"

    return _Reply(events=lines(), headers={"content-type": "application/x-ndjson"})


# --- Files, and fetching whatever the server issued -----------------------------------


def _multipart_fields(request: ReceivedRequest) -> dict[str, tuple[str | None, bytes]]:
    """Form fields by name, as (filename, content)."""
    head = f"Content-Type: {request.headers.get('content-type', '')}\r\n\r\n".encode()
    message = BytesParser(policy=policy.HTTP).parsebytes(head + request.body)
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.walk():
        name = part.get_param("name", header="content-disposition")
        if isinstance(name, str):
            payload = part.get_payload(decode=True)
            fields[name] = (part.get_filename(), payload if isinstance(payload, bytes) else b"")
    return fields


def _files_create(call: _Call) -> _Reply:
    fields = _multipart_fields(call.request)
    if "file" not in fields:
        return _error(
            400,
            "Missing required parameter: 'file'.",
            "invalid_request_error",
            "missing_required_parameter",
            param="file",
        )
    filename, content = fields["file"]
    purpose = fields.get("purpose", (None, b"user_data"))[1].decode()
    return _Reply(
        body=call.fake.remember(
            {
                "id": f"file-{_rand(22)}",
                "object": "file",
                "bytes": len(content),
                "created_at": call.fake.timestamp(),
                "filename": filename or "upload",
                "purpose": purpose,
                "status": "processed",
                "expires_at": None,
                "status_details": None,
            }
        )
    )


def _get_issued(call: _Call) -> _Reply:
    issued = call.fake.recall(call.params["id"])
    if issued is None:
        return _error(
            404,
            f"No object found with id '{call.params['id']}'.",
            "invalid_request_error",
            "not_found",
            param="id",
        )
    return _Reply(body=issued)


Handler = Callable[[_Call], _Reply]
_ROUTES: list[tuple[str, re.Pattern[str], Handler]] = [
    (method, re.compile(pattern), handler)
    for method, pattern, handler in [
        ("POST", r"/v1/chat/completions", _openai_chat),
        ("POST", r"/workflowai/v1/chat/completions", _workflowai_chat),
        ("POST", r"/v1/responses", _responses_create),
        ("GET", r"/v1/responses/(?P<id>[^/]+)", _get_issued),
        ("POST", r"/v1/messages", _anthropic_messages),
        ("POST", r"/studio/v1/chat/completions", _ai21_chat),
        ("POST", r"/studio/v1/(?P<model>[^/]+)/complete", _j2_complete),
        ("POST", r"/lighton/api/v1/generate", _lighton_generate),
        ("POST", r"/v1/files", _files_create),
        ("GET", r"/v1/files/(?P<id>[^/]+)", _get_issued),
        ("POST", r"/v1(?:beta)?/models/(?P<model>[^/:]+):generateContent", _gemini_generate),
        (
            "POST",
            r"/v1(?:beta)?/models/(?P<model>[^/:]+):(?P<stream>stream)GenerateContent",
            _gemini_generate,
        ),
        ("POST", r"/v2/chat", _cohere_chat),
        ("POST", r"/api/chat", _ollama_chat),
    ]
]
_KEYLESS: frozenset[Handler] = frozenset({_ollama_chat})
"""Handlers that answer without a key, as a local Ollama does."""


def _cohere_error(message: str) -> dict[str, Any]:
    return {"message": message}


def _ollama_error(message: str) -> dict[str, Any]:
    return {"error": message}


_ERROR_BODIES: dict[Handler, Callable[[str], dict[str, Any]]] = {
    _cohere_chat: _cohere_error,
    _ollama_chat: _ollama_error,
}
"""Handlers whose provider words errors its own way; the rest answer OpenAI's shape."""


def _route(method: str, path: str) -> tuple[Handler, dict[str, str]] | None:
    path = path.split("?", 1)[0].rstrip("/")
    if path.startswith("/openai/"):
        path = path.removeprefix("/openai")
    for route_method, pattern, handler in _ROUTES:
        found = pattern.fullmatch(path)
        if found and route_method == method:
            return handler, found.groupdict()
    return None


def _presented_keys(headers: dict[str, str]) -> list[str]:
    bearer = headers.get("authorization", "")
    keys = [
        bearer.removeprefix("Bearer ").strip(),
        headers.get("x-api-key", ""),
        headers.get("api-key", ""),
        headers.get("x-goog-api-key", ""),
    ]
    return [key for key in keys if key]


def _special_model(call: _Call) -> _Reply | None:
    """The canned failure for an ``error-<code>`` model, else None."""
    found = re.fullmatch(r"error-([45]\d\d)", call.model)
    if not found:
        return None
    status = int(found.group(1))
    default = (
        "Simulated error.",
        "server_error" if status >= 500 else "invalid_request_error",
        "simulated_error",
    )
    message, kind, code = _ERROR_KINDS.get(status, default)
    reply = _error(status, message, kind, code)
    if status in (429, 503):
        reply.headers["retry-after"] = "1"
    return reply


def _json_body(request: ReceivedRequest) -> dict[str, Any] | None:
    """The JSON object sent, {} for an empty or multipart body, None if unparsable."""
    if not request.body or request.headers.get("content-type", "").startswith("multipart/"):
        return {}
    try:
        body = json.loads(request.body)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _dispatch(fake: FakeLLMServer, request: ReceivedRequest) -> _Reply:
    routed = _route(request.method, request.path)
    reply = _answer(fake, request, routed)
    error_body = _ERROR_BODIES.get(routed[0]) if routed else None
    if error_body is not None and reply.status >= 400:
        # The SDKs read the message out of their provider's shape into the error they raise.
        reply.body = error_body(reply.body["error"]["message"])
    return reply


def _answer(
    fake: FakeLLMServer, request: ReceivedRequest, routed: tuple[Handler, dict[str, str]] | None
) -> _Reply:
    keys = _presented_keys(request.headers)
    keyless = routed is not None and routed[0] in _KEYLESS
    if not keyless and fake.api_key not in keys:
        message = (
            f"Incorrect API key provided: {keys[0]}." if keys else "You didn't provide an API key."
        )
        return _error(401, message, "invalid_request_error", "invalid_api_key")
    if routed is None:
        return _error(
            404,
            f"Unknown request URL: {request.method} {request.path}.",
            "invalid_request_error",
            "unknown_url",
        )
    handler, params = routed
    body = _json_body(request)
    if body is None:
        return _error(
            400,
            "We could not parse the JSON body of your request.",
            "invalid_request_error",
            "invalid_json",
        )
    version = fake.model_versions.get(fake.answering_model(body, params), fake.model_version)
    answer = answer_for(_prompt_of(body), version, _first_tool_name(body))
    call = _Call(fake, request, params, body, answer)
    if (limited := fake.take_failure()) is not None:
        return limited
    if (failure := _special_model(call)) is not None:
        return failure
    if call.model == "slow":
        # An Event rather than sleep so that stop() is not held up by a slow request.
        fake.stopping.wait(fake.slow_delay)
    try:
        reply = handler(call)
    except Exception as exc:  # a fake-server bug should surface in the test, not hang it
        return _error(500, f"fakellm internal error: {exc!r}", "server_error", "internal_error")
    accepts_gzip = "gzip" in request.headers.get("accept-encoding", "")
    reply.compress = call.model == "gzip" and accepts_gzip and reply.events is None
    return reply
