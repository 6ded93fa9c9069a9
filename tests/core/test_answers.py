"""Answers read from real recordings of every format agree with what the server was told to say.

The fake server derives each answer from the prompt by ``answer_for``; so for
every recorded interaction the expected text, tool call, finish reason and
token counts follow from the stored request alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cohere
import httpx
import httpx2
import pytest
from click.testing import CliRunner
from google import genai
from google.genai import types
from recorded import API_KEY, openai_client, record_suite, user

import replay
from replay._core.answers import Answer, answer_of, prompt_of, stream_events
from replay._core.model import Interaction, Response, TransportFailure
from replay.tools import inventory
from replay.tools.cli import main
from replay.tools.fakellm import FakeLLMServer, answer_for, tokens

# How each endpoint spells the server's "stop" and "length".
FINISH = {
    "/v1/chat/completions": {"stop": "stop", "length": "length", "tool": "tool_calls"},
    "/v1/responses": {"stop": "completed", "length": "max_output_tokens"},
    "/v1/messages": {"stop": "end_turn", "length": "max_tokens", "tool": "tool_use"},
    "/studio/v1/j2-mid/complete": {"stop": "endoftext", "length": "length"},
    "/lighton/api/v1/generate": {"stop": "length", "length": "length"},
}


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=API_KEY) as running:
        yield running


@pytest.fixture(scope="module", params=["v1", "v2"])
def recorded(
    request: pytest.FixtureRequest, server: FakeLLMServer, tmp_path_factory: pytest.TempPathFactory
) -> tuple[str, list[Interaction]]:
    version = str(request.param)
    directory = record_suite(server, tmp_path_factory.mktemp(version), version, "model-x")
    cassettes = inventory.read_all([directory])
    return version, [i for cassette in cassettes for i in cassette.interactions()]


def _path(interaction: Interaction) -> str:
    path = httpx.URL(interaction.request.url).path
    return path.removeprefix("/openai")


def test_every_recorded_answer_matches_the_servers_rule(
    recorded: tuple[str, list[Interaction]],
) -> None:
    version, interactions = recorded
    assert len(interactions) == 13
    for interaction in interactions:
        prompt = prompt_of(interaction.request)
        body = json.loads(interaction.request.body)
        tool = body["tools"][0]["function"]["name"] if "tools" in body else None
        expected = answer_for(prompt, version, tool)
        answer = answer_of(interaction.outcomes[0])
        assert answer.status == 200 and answer.error is None, prompt
        if tool:
            assert answer.text == ""
            assert [(c.name, json.loads(c.arguments)) for c in answer.tool_calls] == [
                (tool, json.loads(expected.tool_arguments))
            ]
        else:
            assert answer.text == expected.text, prompt
            assert answer.tool_calls == ()
        names = FINISH.get(_path(interaction), FINISH["/v1/chat/completions"])
        assert answer.finish_reason == names["tool" if tool else expected.finish_reason], prompt
        assert answer.usage.prompt_tokens == len(tokens(prompt)), prompt
        assert answer.usage.completion_tokens == len(tokens(expected.output)), prompt
        assert answer.model in ("model-x", None), prompt


def test_streams_are_assembled_and_flagged(recorded: tuple[str, list[Interaction]]) -> None:
    _, interactions = recorded
    streamed = {
        prompt_of(i.request): answer_of(i.outcomes[0])
        for i in interactions
        if isinstance(i.outcomes[0], Response) and i.outcomes[0].streamed
    }
    assert sorted(streamed) == ["count to three", "stream a poem please", "tell me a poem, claude"]
    for prompt, answer in streamed.items():
        assert answer.streamed
        assert answer.model == "model-x"
        assert answer.text.endswith(prompt)


def test_cost_is_read_where_the_provider_reports_it(
    recorded: tuple[str, list[Interaction]],
) -> None:
    _, interactions = recorded
    costs = {prompt_of(i.request): answer_of(i.outcomes[0]).usage.cost_usd for i in interactions}
    completion = len(tokens(answer_for("hi workflow", "v1").text))
    assert costs.pop("hi workflow") == pytest.approx(completion * 2e-6)
    assert set(costs.values()) == {None}


def test_responses_stream_and_abandoned_stream(server: FakeLLMServer, tmp_path: Path) -> None:
    server.model_version = "v1"
    with replay.Cassette(tmp_path / "c.json") as cassette:
        client = openai_client(server.url, cassette)
        with client.responses.stream(model="m", input="stream the responses api") as stream:
            stream.get_final_response()
        abandoned = client.chat.completions.create(
            model="m", messages=user("one two three four five"), stream=True
        )
        next(iter(abandoned))
        abandoned.close()
    by_prompt = {prompt_of(i.request): i for i in cassette.interactions}
    responses = answer_of(by_prompt["stream the responses api"].outcomes[0])
    assert responses.text == "Answer to: stream the responses api"
    assert responses.finish_reason == "completed" and responses.streamed
    assert responses.usage.completion_tokens == len(tokens(responses.text))
    partial = answer_of(by_prompt["one two three four five"].outcomes[0])
    assert partial.streamed and not partial.complete
    assert "Answer to: one two three four five".startswith(partial.text)
    assert partial.finish_reason is None


def test_error_responses_and_transport_failures(server: FakeLLMServer, tmp_path: Path) -> None:
    with replay.Cassette(tmp_path / "errors.json") as cassette:
        client = openai_client(server.url, cassette)
        with pytest.raises(Exception, match="too quickly"):
            client.chat.completions.create(model="error-429", messages=user("hi"))
    answer = answer_of(cassette.interactions[0].outcomes[0])
    assert answer.status == 429
    assert answer.error == "You are sending requests too quickly."
    failure = answer_of(TransportFailure("ConnectError", "refused", "2024-01-01T00:00:00Z"))
    assert failure == Answer(None, error="ConnectError: refused")


def test_stream_events_reads_sse_and_ndjson_lines() -> None:
    sse = b'event: message_start\r\ndata: {"a": 1}\r\n\r\n: comment\n\ndata: [DONE]\n\n'
    assert list(stream_events(sse)) == [{"a": 1}]
    ndjson = b'{"message": {"content": "Hi"}}\n{"message": {"content": " there"}, "done": true}\n'
    assert list(stream_events(ndjson)) == [
        {"message": {"content": "Hi"}},
        {"message": {"content": " there"}, "done": True},
    ]
    chunks = (
        b'{"message": {"content": "Hi"}}\n',
        b'{"message": {"content": " you"}, "done_reason": "stop", "eval_count": 2}\n',
    )
    response = Response(200, (("content-type", "application/x-ndjson"),), (), "")
    response = replace(response, chunks=tuple(_chunk(data) for data in chunks))
    answer = answer_of(response)
    assert (answer.text, answer.finish_reason, answer.usage.completion_tokens) == (
        "Hi you",
        "stop",
        2,
    )


def _chunk(data: bytes) -> replay._core.model.Chunk:
    return replay._core.model.Chunk(data, 0.0)


# --- Cohere v2 chat ----------------------------------------------------------------------
# Bodies as Cohere's API sends them: the field names are those of the cohere SDK's
# V2ChatResponse (v2/types/v2chat_response.py, types/assistant_message_response.py,
# types/usage.py) and of its V2ChatStreamResponse events (v2/types/v2chat_stream_response.py,
# types/chat_*_event_delta*.py), which name no model.

COHERE_USAGE = {
    "billed_units": {"input_tokens": 5, "output_tokens": 7},
    "tokens": {"input_tokens": 71, "output_tokens": 7},
}


def _response(body: object, content_type: str = "application/json") -> Response:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return Response(200, (("content-type", content_type),), (_chunk(data),), "")


def _cohere_sse(*events: dict[str, object]) -> bytes:
    return b"".join(
        f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode() for event in events
    )


def test_cohere_v2_reply_text_usage_and_finish() -> None:
    body = {
        "id": "c14c80c3-18eb-4519-9460-6c92edd8cfb4",
        "finish_reason": "COMPLETE",
        "message": {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "The user greets me."},
                {"type": "text", "text": "Hello! How can I help you today?"},
            ],
        },
        "usage": COHERE_USAGE,
    }
    answer = answer_of(_response(body))
    assert answer.text == "Hello! How can I help you today?"  # not the thinking
    assert (answer.finish_reason, answer.model, answer.streamed) == ("COMPLETE", None, False)
    # tokens, not billed_units: what the model read, system preamble included.
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (71, 7)
    assert answer.tool_calls == () and answer.error is None
    # A compatible server naming the model is read; billed_units stands in for tokens.
    billed = {**body, "model": "command-a-03-2025", "usage": {"billed_units": {
        "input_tokens": 5.0, "output_tokens": 7.0}}}  # fmt: skip
    answer = answer_of(_response(billed))
    assert answer.model == "command-a-03-2025"
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (5, 7)


def test_cohere_v2_reply_with_a_tool_call() -> None:
    body = {
        "id": "a5d3a8f0-0d2c-4b56-9b0e-3c6f0c5e3c1b",
        "finish_reason": "TOOL_CALL",
        "message": {
            "role": "assistant",
            "tool_plan": "I will look up the weather in Toronto.",
            "tool_calls": [
                {
                    "id": "get_weather_1byjy32y4hvq",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"location": "Toronto"}'},
                }
            ],
        },
        "usage": COHERE_USAGE,
    }
    answer = answer_of(_response(body))
    assert answer.text == ""  # the tool plan is reasoning, not the answer
    assert [(c.name, c.arguments) for c in answer.tool_calls] == [
        ("get_weather", '{"location":"Toronto"}')
    ]
    assert answer.finish_reason == "TOOL_CALL"


def test_cohere_v2_stream_is_assembled() -> None:
    stream = _cohere_sse(
        {
            "id": "29f14a5a-11de-4cae-9800-25e4747408ea",
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
        {"type": "content-start", "index": 0,
         "delta": {"message": {"content": {"type": "text", "text": ""}}}},
        {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "Hello"}}}},
        {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "!"}}},
         "logprobs": {"token_ids": [38], "logprobs": [-0.1]}},
        {"type": "content-end", "index": 0},
        {"type": "message-end", "id": "29f14a5a-11de-4cae-9800-25e4747408ea",
         "delta": {"finish_reason": "MAX_TOKENS", "usage": COHERE_USAGE}},
    )  # fmt: skip
    answer = answer_of(_response(stream, "text/event-stream"))
    assert answer.streamed and answer.text == "Hello!"
    assert (answer.finish_reason, answer.model, answer.error) == ("MAX_TOKENS", None, None)
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (71, 7)
    # Cut short before message-end, the text so far is still read.
    start = stream[: stream.index(b"event: content-end")]
    partial = answer_of(replace(_response(start, "text/event-stream"), complete=False))
    assert (partial.text, partial.finish_reason, partial.complete) == ("Hello!", None, False)


def test_cohere_v2_stream_with_a_tool_call_and_an_error() -> None:
    call = {"id": "get_weather_nsz5zm3w56q3", "type": "function",
            "function": {"name": "get_weather", "arguments": ""}}  # fmt: skip
    stream = _cohere_sse(
        {"type": "message-start", "id": "x", "delta": {"message": {"role": "assistant"}}},
        {"type": "tool-plan-delta", "delta": {"message": {"tool_plan": "I will check."}}},
        {"type": "tool-call-start", "index": 0, "delta": {"message": {"tool_calls": call}}},
        *(
            {"type": "tool-call-delta", "index": 0,
             "delta": {"message": {"tool_calls": {"function": {"arguments": piece}}}}}
            for piece in ('{"loc', 'ation": "Toronto"}')
        ),
        {"type": "tool-call-end", "index": 0},
        {"type": "message-end", "delta": {"finish_reason": "ERROR", "error": "overloaded"}},
    )  # fmt: skip
    answer = answer_of(_response(stream, "text/event-stream"))
    assert answer.text == ""
    assert [(c.name, c.arguments) for c in answer.tool_calls] == [
        ("get_weather", '{"location":"Toronto"}')
    ]
    assert (answer.finish_reason, answer.error) == ("ERROR", "overloaded")


def test_ollama_and_anthropic_are_not_taken_for_cohere() -> None:
    # Both also say "message" (Ollama) or stream typed "delta" events (Anthropic).
    ollama = {
        "model": "llama3.2",
        "created_at": "2024-07-22T20:33:28.123648Z",
        "message": {"role": "assistant", "content": "Hi there"},
        "done": True,
        "done_reason": "stop",
        "prompt_eval_count": 26,
        "eval_count": 2,
    }
    answer = answer_of(_response(ollama))
    assert (answer.text, answer.finish_reason, answer.model) == ("Hi there", "stop", "llama3.2")
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (26, 2)
    claude = _cohere_sse(
        {"type": "message_start", "message": {"model": "claude-x", "usage": {"input_tokens": 3}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
         "usage": {"output_tokens": 1}},
    )  # fmt: skip
    answer = answer_of(_response(claude, "text/event-stream"))
    assert (answer.text, answer.finish_reason, answer.model) == ("Hi", "end_turn", "claude-x")
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (3, 1)


# The cohere SDK reads pydantic's deprecated __fields__ while parsing its answers.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cohere_v2_recorded_through_the_sdk_is_shown_and_listed(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    server.model_version = "v1"
    path = tmp_path / "cohere" / "chat.json"
    with replay.Cassette(path) as cassette:
        http = httpx.Client(transport=replay.ReplayTransport(cassette))
        client = cohere.ClientV2(api_key=API_KEY, base_url=server.url, httpx_client=http)
        reply = client.chat(model="command-a", messages=user("hello cohere"))
        streamed = list(client.chat_stream(model="command-a", messages=user("stream cohere")))
        http.close()
    assert reply.finish_reason == "COMPLETE" and streamed[-1].type == "message-end"
    shown = CliRunner().invoke(main, ["show", str(path), "--json"])
    assert shown.exit_code == 0, shown.output
    by_prompt = {i["prompt"]: i["responses"][0] for i in json.loads(shown.stdout)["interactions"]}
    assert sorted(by_prompt) == ["hello cohere", "stream cohere"]
    for prompt, answer in by_prompt.items():
        expected = answer_for(prompt, "v1").text
        assert answer["text"] == expected, prompt
        assert answer["streamed"] == (prompt == "stream cohere")
        assert (answer["finish_reason"], answer["error"], answer["model"]) == (
            "COMPLETE",
            None,
            None,
        )
        assert answer["usage"]["prompt_tokens"] == len(tokens(prompt))
        assert answer["usage"]["completion_tokens"] == len(tokens(expected))
    listed = CliRunner().invoke(main, ["list", str(path.parent), "--json"])
    assert listed.exit_code == 0, listed.output
    (row,) = json.loads(listed.stdout)["cassettes"]
    assert (row["interactions"], row["streamed"], row["models"]) == (2, 1, ["command-a"])
    assert row["completion_tokens"] == sum(
        len(tokens(answer_for(prompt, "v1").text)) for prompt in by_prompt
    )


# --- Gemini generateContent --------------------------------------------------------------
# Bodies as the Gemini API sends them, camelCase: the field names are those of google-genai's
# GenerateContentResponse, Candidate, Content, Part, FunctionCall and
# GenerateContentResponseUsageMetadata (google/genai/types.py), which the SDK reads through
# pydantic's to_camel aliases; errors are its APIError's {"error": {code, message, status}}.


def _gemini(
    parts: list[dict[str, Any]], finish: str | None = "STOP", **usage: int
) -> dict[str, Any]:
    candidate: dict[str, object] = {"content": {"parts": parts, "role": "model"}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    return {
        "candidates": [candidate],
        "usageMetadata": usage,
        "modelVersion": "gemini-2.5-flash",
        "responseId": "mQDmaO7ZLtHXz7IPqdvT4Aw",
    }


def _gemini_sse(*pieces: dict[str, Any]) -> bytes:
    # No event names: every event is a whole GenerateContentResponse, CRLF-separated.
    return b"".join(f"data: {json.dumps(piece)}\r\n\r\n".encode() for piece in pieces)


def test_gemini_reply_text_usage_model_and_finish() -> None:
    body = _gemini(
        [
            {"text": "**Greeting the user**\n\nA friendly hello.", "thought": True},
            {"text": "Hello! How can I help", "thoughtSignature": "CiQB0e2Kb3x"},
            {"text": " you today?"},
        ],
        promptTokenCount=8,
        candidatesTokenCount=9,
        thoughtsTokenCount=125,
        totalTokenCount=142,
    )
    answer = answer_of(_response(body))
    assert answer.text == "Hello! How can I help you today?"  # not the thought
    assert (answer.finish_reason, answer.model, answer.streamed) == (
        "STOP",
        "gemini-2.5-flash",
        False,
    )
    # Thoughts are output the model wrote and is billed for, as OpenAI's reasoning tokens
    # count in completion_tokens; prompt and completion add up to totalTokenCount.
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (8, 134)
    assert answer.usage.total_tokens == body["usageMetadata"]["totalTokenCount"]
    assert answer.tool_calls == () and answer.error is None
    # Of several candidates only the first is the answer, as the SDK's .text has it.
    second = {"content": {"parts": [{"text": "Hi!"}], "role": "model"}, "index": 1}
    body["candidates"] = [*body["candidates"], second]
    assert answer_of(_response(body)).text == "Hello! How can I help you today?"


def test_gemini_reply_with_function_calls() -> None:
    body = _gemini(
        [
            {"functionCall": {"name": "get_weather", "args": {"unit": "celsius", "city": "Paris"}},
             "thoughtSignature": "CiQB0e2Kb3x"},
            {"functionCall": {"name": "get_time", "args": {"city": "Paris"}}},
            {"functionCall": {"name": "list_cities"}},  # no arguments at all
        ],
        promptTokenCount=30,
        candidatesTokenCount=12,
    )  # fmt: skip
    answer = answer_of(_response(body))
    assert answer.text == ""
    # As every format's calls: the arguments as canonical JSON text, keys sorted.
    assert [(c.name, c.arguments) for c in answer.tool_calls] == [
        ("get_weather", '{"city":"Paris","unit":"celsius"}'),
        ("get_time", '{"city":"Paris"}'),
        ("list_cities", "{}"),
    ]
    assert answer.finish_reason == "STOP"  # Gemini says STOP after a call too


def test_gemini_stream_is_assembled_and_a_cut_one_read_so_far() -> None:
    def piece(text: str, finish: str | None, written: int) -> dict[str, Any]:
        usage = {"promptTokenCount": 6, "candidatesTokenCount": written,
                 "totalTokenCount": 6 + written}  # fmt: skip
        return _gemini([{"text": text}], finish, **usage)

    stream = _gemini_sse(
        _gemini([{"text": "Planning a short answer.", "thought": True}], None, promptTokenCount=6),
        piece("The sky", None, 2),
        piece(" is blue", None, 4),
        piece(" because of Rayleigh scattering.", "MAX_TOKENS", 9),
    )
    answer = answer_of(_response(stream, "text/event-stream"))
    assert answer.streamed and answer.complete
    assert answer.text == "The sky is blue because of Rayleigh scattering."
    assert (answer.finish_reason, answer.model, answer.error) == (
        "MAX_TOKENS",
        "gemini-2.5-flash",
        None,
    )
    # Each piece repeats the counts so far: the last, not their sum.
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (6, 9)
    # Cut before the finishing piece: the text so far, no finish, the counts so far.
    cut = stream[: stream.rindex(b"data: ")]
    partial = answer_of(replace(_response(cut, "text/event-stream"), complete=False))
    assert (partial.text, partial.finish_reason, partial.complete) == (
        "The sky is blue",
        None,
        False,
    )
    assert partial.usage.completion_tokens == 4


def test_gemini_error_and_blocked_prompt() -> None:
    error = {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
             "message": "Resource has been exhausted (e.g. check quota)."}}  # fmt: skip
    answer = answer_of(replace(_response(error), status=429))
    assert (answer.status, answer.error) == (429, "Resource has been exhausted (e.g. check quota).")
    assert (answer.text, answer.finish_reason, answer.model) == ("", None, None)
    # A refused prompt has no candidate; why it was refused is its finish reason.
    blocked = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7},
        "modelVersion": "gemini-2.5-flash",
    }
    answer = answer_of(_response(blocked))
    assert (answer.text, answer.finish_reason, answer.error) == ("", "PROHIBITED_CONTENT", None)
    assert (answer.usage.prompt_tokens, answer.usage.completion_tokens) == (7, None)


GEMINI_PROMPTS = {"hello gemini": False, "write a gemini poem": False, "stream a gemini poem": True}
"""Each prompt and whether it is streamed; the fake's v2 answers those with "poem" otherwise."""


def _record_gemini(server: FakeLLMServer, path: Path, version: str) -> None:
    server.model_version = version
    with replay.Cassette(path) as cassette:
        http = httpx2.Client(transport=replay.ReplayTransport(cassette))
        options = types.HttpOptions(base_url=server.url, httpx_client=http)
        models = genai.Client(api_key=API_KEY, http_options=options).models
        for prompt, streamed in GEMINI_PROMPTS.items():
            if streamed:
                pieces = models.generate_content_stream(model="gemini-2.5-flash", contents=prompt)
                said = "".join(piece.text or "" for piece in pieces)
            else:
                said = models.generate_content(model="gemini-2.5-flash", contents=prompt).text or ""
            assert said == answer_for(prompt, version).text
        http.close()


def test_gemini_recorded_through_the_sdk_is_shown_and_diffed(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    old, new = tmp_path / "v1" / "gemini.json", tmp_path / "v2" / "gemini.json"
    _record_gemini(server, old, "v1")
    _record_gemini(server, new, "v2")
    shown = CliRunner().invoke(main, ["show", str(old), "--json"])
    assert shown.exit_code == 0, shown.output
    by_prompt = {i["prompt"]: i["responses"][0] for i in json.loads(shown.stdout)["interactions"]}
    assert sorted(by_prompt) == sorted(GEMINI_PROMPTS)
    for prompt, answer in by_prompt.items():
        expected = answer_for(prompt, "v1").text
        assert answer["text"] == expected, prompt
        assert answer["streamed"] == GEMINI_PROMPTS[prompt]
        assert (answer["finish_reason"], answer["error"], answer["model"]) == (
            "STOP",
            None,
            "gemini-2.5-flash",
        )
        assert answer["usage"]["prompt_tokens"] == len(tokens(prompt))
        assert answer["usage"]["completion_tokens"] == len(tokens(expected))
    # The model is in the URL, the same for both versions, so the requests pair as they are.
    compared = CliRunner().invoke(main, ["diff", str(old.parent), str(new.parent), "--json"])
    assert compared.exit_code == 1, compared.output  # 1: something changed
    pairs = {pair["prompt"]: pair for pair in json.loads(compared.stdout)["pairs"]}
    assert {prompt: pair["state"] for prompt, pair in pairs.items()} == {
        "hello gemini": "unchanged",
        "write a gemini poem": "changed",
        "stream a gemini poem": "changed",
    }
    for prompt in ("write a gemini poem", "stream a gemini poem"):
        pair = pairs[prompt]
        assert "text" in pair["changes"], prompt
        assert pair["old"][0]["text"] == f"Answer to: {prompt}"
        assert pair["new"][0]["text"] == f"A poem about: {prompt}"
        assert f"+A poem about: {prompt}" in pair["text_diff"]
