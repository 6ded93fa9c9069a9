"""The fake LLM server answers in shapes the real provider SDKs parse."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import ai21
import anthropic
import groq
import httpx
import ollama
import openai
import pytest
from ai21.models.chat import UserMessage

from replay.tools.fakellm import FakeLLMServer, answer_for, tokens

KEY = "sk-test-abc123def456ghi789"
USER: Any = [{"role": "user", "content": "hello there"}]
CHAT_TOOLS: Any = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=KEY, chunk_delay=0.001) as running:
        yield running


@pytest.fixture
def client(server: FakeLLMServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key=KEY, max_retries=0)


def _post(server: FakeLLMServer, path: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    headers.setdefault("authorization", f"Bearer {KEY}")
    return httpx.post(server.url + path, json=body, headers=headers, timeout=10)


# --- the answer rule -------------------------------------------------------------------


def test_answer_rule_changes_only_flagged_prompts_in_v2() -> None:
    for prompt in ("hello", "tell me a story"):
        assert answer_for(prompt, "v1") == answer_for(prompt, "v2")
    assert answer_for("hello", "v1").text == "Answer to: hello"
    assert answer_for("write a poem", "v2").text == "A poem about: write a poem"
    assert answer_for("a long essay", "v1").finish_reason == "stop"
    assert answer_for("a long essay", "v2").finish_reason == "length"
    v1, v2 = answer_for("weather?", "v1", "wx"), answer_for("weather?", "v2", "wx")
    assert json.loads(v1.tool_arguments) == {"query": "weather?"}
    assert json.loads(v2.tool_arguments) == {"query": "weather?", "unit": "celsius"}
    assert "".join(tokens(" a  b c")) == " a  b c"


def test_model_version_can_change_while_running(
    server: FakeLLMServer, client: openai.OpenAI
) -> None:
    poem: Any = [{"role": "user", "content": "a poem please"}]
    first = client.chat.completions.create(model="m", messages=poem)
    server.model_version = "v2"
    second = client.chat.completions.create(model="m", messages=poem)
    assert first.choices[0].message.content == "Answer to: a poem please"
    assert second.choices[0].message.content == "A poem about: a poem please"


# --- OpenAI chat ------------------------------------------------------------------------


def test_openai_chat_with_logprobs(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(model="gpt-4o", messages=USER, logprobs=True)
    choice = completion.choices[0]
    assert choice.message.content == "Answer to: hello there"
    assert choice.finish_reason == "stop"
    assert completion.id.startswith("chatcmpl-") and len(completion.id) == 9 + 29
    assert completion.system_fingerprint and completion.system_fingerprint.startswith("fp_")
    assert completion.usage is not None and completion.usage.completion_tokens == 4
    assert choice.logprobs is not None and choice.logprobs.content is not None
    assert "".join(item.token for item in choice.logprobs.content) == choice.message.content


def test_openai_chat_stream(client: openai.OpenAI) -> None:
    chunks = list(client.chat.completions.create(model="gpt-4o", messages=USER, stream=True))
    assert chunks[0].choices[0].delta.role == "assistant"
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == "Answer to: hello there"
    assert len({c.id for c in chunks}) == 1
    assert chunks[-1].choices[0].finish_reason == "stop" and chunks[-1].usage is not None
    assert all(c.usage is None for c in chunks[:-1])


def test_openai_chat_stream_is_chunked_sse(server: FakeLLMServer) -> None:
    body = {"model": "gpt-4o", "messages": USER, "stream": True}
    response = _post(server, "/v1/chat/completions", body)
    assert response.headers["transfer-encoding"] == "chunked"
    assert "content-length" not in response.headers
    assert response.text.endswith("data: [DONE]\n\n")


def test_openai_tool_calls_plain_and_streamed(server: FakeLLMServer, client: openai.OpenAI) -> None:
    server.model_version = "v2"
    weather: Any = [{"role": "user", "content": "weather in Paris"}]
    plain = client.chat.completions.create(model="m", messages=weather, tools=CHAT_TOOLS)
    assert plain.choices[0].finish_reason == "tool_calls"
    tool_call = (plain.choices[0].message.tool_calls or [])[0]
    assert tool_call.type == "function" and tool_call.function.name == "get_weather"
    expected = {"query": "weather in Paris", "unit": "celsius"}
    assert json.loads(tool_call.function.arguments) == expected
    with client.chat.completions.stream(model="m", messages=weather, tools=CHAT_TOOLS) as stream:
        final = stream.get_final_completion()
    streamed = final.choices[0].message.tool_calls
    assert streamed and json.loads(streamed[0].function.arguments) == expected


def test_identical_calls_get_fresh_ids_timestamps_and_headers(client: openai.OpenAI) -> None:
    raw = [
        client.chat.completions.with_raw_response.create(model="m", messages=USER) for _ in range(2)
    ]
    first, second = (r.parse() for r in raw)
    assert first.choices[0].message.content == second.choices[0].message.content
    assert first.id != second.id and first.created != second.created
    assert first.system_fingerprint != second.system_fingerprint
    for header in ("x-request-id", "cf-ray"):
        assert raw[0].headers[header] != raw[1].headers[header]
    for header in ("date", "openai-processing-ms", "x-ratelimit-reset-requests"):
        assert header in raw[0].headers


def test_groq_sdk_uses_openai_prefix(server: FakeLLMServer) -> None:
    client = groq.Groq(base_url=server.url, api_key=KEY, max_retries=0)
    completion = client.chat.completions.create(model="llama", messages=USER)
    assert completion.choices[0].message.content == "Answer to: hello there"
    stream = client.chat.completions.create(model="llama", messages=USER, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in stream) == "Answer to: hello there"
    assert server.requests[-1].path == "/openai/v1/chat/completions"


def test_workflowai_adds_per_choice_extras(server: FakeLLMServer) -> None:
    client = openai.OpenAI(base_url=server.url + "/workflowai/v1", api_key=KEY, max_retries=0)
    completion = client.chat.completions.create(model="m", messages=USER)
    extra = completion.choices[0].model_extra or {}
    assert extra["feedback_token"].startswith("fb_") and extra["feedback_token"].endswith("_0")
    assert isinstance(extra["duration_seconds"], float) and "cost_usd" in extra
    assert completion.service_tier == "default"


# --- errors, special models, authentication ---------------------------------------------


def test_wrong_key_is_echoed_in_401(server: FakeLLMServer) -> None:
    wrong = "sk-wrong-key-0000111122223333"
    client = openai.OpenAI(base_url=server.url + "/v1", api_key=wrong, max_retries=0)
    with pytest.raises(openai.AuthenticationError) as raised:
        client.chat.completions.create(model="m", messages=USER)
    assert f"Incorrect API key provided: {wrong}" in raised.value.message
    assert (
        _post(server, "/v1/messages", {}, authorization="", **{"x-api-key": wrong})
        .json()["error"]["message"]
        .startswith(f"Incorrect API key provided: {wrong}")
    )


@pytest.mark.parametrize("header", ["x-api-key", "api-key"])
def test_alternative_auth_headers(server: FakeLLMServer, header: str) -> None:
    response = _post(
        server, "/v1/chat/completions", {"messages": USER}, authorization="", **{header: KEY}
    )
    assert response.status_code == 200


@pytest.mark.parametrize("code", [401, 403, 422, 429, 500, 503])
def test_error_models(server: FakeLLMServer, code: int) -> None:
    response = _post(server, "/v1/chat/completions", {"model": f"error-{code}", "messages": USER})
    assert response.status_code == code
    assert set(response.json()["error"]) >= {"message", "type", "code"}
    assert response.headers.get("retry-after") == ("1" if code in (429, 503) else None)


def test_error_model_raises_sdk_error(client: openai.OpenAI) -> None:
    with pytest.raises(openai.RateLimitError):
        client.chat.completions.create(model="error-429", messages=USER)


def test_gzip_model_compresses_only_when_accepted(server: FakeLLMServer) -> None:
    body = {"model": "gzip", "messages": USER}
    zipped = _post(server, "/v1/chat/completions", body)
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.json()["choices"][0]["message"]["content"] == "Answer to: hello there"
    plain = _post(server, "/v1/chat/completions", body, **{"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_slow_model_times_out_and_does_not_hold_up_stop(server: FakeLLMServer) -> None:
    client = openai.OpenAI(base_url=server.url + "/v1", api_key=KEY, max_retries=0, timeout=0.3)
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="slow", messages=USER)
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 2


def test_unknown_path_and_bad_json(server: FakeLLMServer) -> None:
    missing = _post(server, "/v2/nothing", {})
    assert missing.status_code == 404 and "error" in missing.json()
    bad = httpx.post(
        server.url + "/v1/chat/completions",
        content=b"{nope",
        headers={"authorization": f"Bearer {KEY}"},
    )
    assert bad.status_code == 400


# --- OpenAI Responses and files: chained ids -----------------------------------------------


def test_responses_chain_and_retrieve(client: openai.OpenAI) -> None:
    first = client.responses.create(model="gpt-4o", input="hi there")
    assert first.id.startswith("resp_") and first.output_text == "Answer to: hi there"
    second = client.responses.create(
        model="gpt-4o", input="and then?", previous_response_id=first.id
    )
    assert second.previous_response_id == first.id and second.id != first.id
    assert client.responses.retrieve(first.id).output_text == "Answer to: hi there"
    with pytest.raises(openai.NotFoundError):
        client.responses.retrieve("resp_never_issued")


def test_responses_unknown_previous_id(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as raised:
        client.responses.create(model="m", input="x", previous_response_id="resp_made_up")
    assert raised.value.code == "previous_response_not_found"
    assert "resp_made_up" in raised.value.message


def test_responses_stream(client: openai.OpenAI) -> None:
    events = list(client.responses.create(model="m", input="stream me", stream=True))
    assert events[0].type == "response.created" and events[-1].type == "response.completed"
    deltas = [e.delta for e in events if e.type == "response.output_text.delta"]
    assert "".join(deltas) == "Answer to: stream me"
    with client.responses.stream(model="m", input="stream me") as stream:
        final = stream.get_final_response()
    assert final.output_text == "Answer to: stream me"
    assert client.responses.retrieve(final.id).id == final.id


def test_files_upload_then_retrieve(client: openai.OpenAI) -> None:
    uploaded = client.files.create(file=("notes.txt", b"hello world"), purpose="assistants")
    assert uploaded.id.startswith("file-") and uploaded.bytes == 11
    assert uploaded.filename == "notes.txt" and uploaded.purpose == "assistants"
    assert client.files.retrieve(uploaded.id).id == uploaded.id
    with pytest.raises(openai.NotFoundError):
        client.files.retrieve("file-unknown")


# --- Anthropic ---------------------------------------------------------------------------


def test_anthropic_messages_plain_stream_and_tools(server: FakeLLMServer) -> None:
    client = anthropic.Anthropic(base_url=server.url, api_key=KEY, max_retries=0)
    args: Any = {"model": "claude", "max_tokens": 50, "messages": USER}
    message = client.messages.create(**args)
    assert message.id.startswith("msg_") and message.stop_reason == "end_turn"
    assert message.content[0].type == "text"
    assert message.content[0].text == "Answer to: hello there"
    with client.messages.stream(**args) as stream:
        assert "".join(stream.text_stream) == "Answer to: hello there"
        assert stream.get_final_message().usage.output_tokens == 4
    tools: Any = [{"name": "lookup", "input_schema": {"type": "object"}}]
    with client.messages.stream(**args, tools=tools) as stream:
        block = stream.get_final_message().content[0]
    assert block.type == "tool_use" and block.id.startswith("toolu_")
    assert block.name == "lookup" and block.input == {"query": "hello there"}


# --- AI21 and LightOn ------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # raised inside the ai21 SDK
def test_ai21_jamba_chat_plain_and_streamed(server: FakeLLMServer) -> None:
    client = ai21.AI21Client(api_key=KEY, api_host=server.url + "/studio/v1")
    messages: Any = [UserMessage(content="hi jamba")]
    response = client.chat.completions.create(model="jamba-mini", messages=messages)
    assert response.choices[0].message.content == "Answer to: hi jamba"
    assert len(response.id) == 36 and response.usage.completion_tokens == 4
    stream = client.chat.completions.create(model="jamba-mini", messages=messages, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in stream) == "Answer to: hi jamba"


def test_ai21_j2_complete(server: FakeLLMServer) -> None:
    body = {"prompt": "These are a few of my favorite", "numResults": 2, "maxTokens": 30}
    data = _post(server, "/studio/v1/j2-mid/complete", body).json()
    assert data["prompt"]["text"] == body["prompt"]
    assert data["prompt"]["tokens"][0]["generatedToken"]["token"] == "These"
    assert len(data["completions"]) == 2
    completion = data["completions"][0]
    assert completion["data"]["text"] == "Answer to: These are a few of my favorite"
    assert completion["finishReason"] == {"reason": "endoftext"}
    ranges = [t["textRange"] for t in completion["data"]["tokens"]]
    assert ranges[-1]["end"] == len(completion["data"]["text"])


def test_lighton_generate(server: FakeLLMServer) -> None:
    body = {"text": "Il était une fois", "model": "lyra-fr", "n_tokens": 20}
    data = _post(
        server, "/lighton/api/v1/generate", body, authorization="", **{"x-api-key": KEY}
    ).json()
    output = data["outputs"][0][0]
    assert output["input_text"] == "Il était une fois"
    assert output["completions"][0]["output_text"] == "Answer to: Il était une fois"
    assert output["completions"][0]["score"]["token_logprobs"] is None
    assert output["execution_metadata"]["cost"]["cost_type"] == "lyra-fr@default"
    assert "lyra-fr@default" in data["execution_metadata"]["costs"]
    assert len(data["request_id"]) == 36


# --- Cohere v2 and Ollama on the wire (their SDKs: test_fakellm_sdks.py) -------------------


def test_cohere_chat_wire_format(server: FakeLLMServer) -> None:
    plain = _post(server, "/v2/chat", {"model": "command-a", "messages": USER})
    assert plain.headers["content-type"] == "application/json"
    body = plain.json()
    assert body["message"]["content"] == [{"type": "text", "text": "Answer to: hello there"}]
    assert body["finish_reason"] == "COMPLETE" and len(body["id"]) == 36
    assert body["usage"]["tokens"] == {"input_tokens": 2, "output_tokens": 4}
    body = {"model": "command-a", "messages": USER, "stream": True}
    streamed = _post(server, "/v2/chat", body)
    assert streamed.headers["content-type"].startswith("text/event-stream")
    assert streamed.headers["transfer-encoding"] == "chunked"
    events = [event.split("\n") for event in streamed.text.strip().split("\n\n")]
    names = [name.removeprefix("event: ") for name, _ in events]
    datas = [json.loads(data.removeprefix("data: ")) for _, data in events]
    assert names == [data["type"] for data in datas]  # the SDK picks the model by "type"
    assert names == [
        "message-start",
        "content-start",
        *["content-delta"] * 4,
        "content-end",
        "message-end",
    ]
    deltas = [data["delta"]["message"]["content"]["text"] for data in datas[2:6]]
    assert deltas == tokens("Answer to: hello there")
    assert datas[0]["delta"]["message"]["role"] == "assistant"
    assert datas[-1]["delta"]["finish_reason"] == "COMPLETE"
    assert datas[-1]["delta"]["usage"]["billed_units"] == {"input_tokens": 2, "output_tokens": 4}


def test_cohere_errors_take_cohere_shape(server: FakeLLMServer) -> None:
    missing = _post(server, "/v2/chat", {"messages": USER}, authorization="")
    assert missing.status_code == 401
    assert missing.json() == {"message": "You didn't provide an API key."}
    bad = httpx.post(
        server.url + "/v2/chat", content=b"{nope", headers={"authorization": f"Bearer {KEY}"}
    )
    assert bad.status_code == 400
    assert bad.json() == {"message": "We could not parse the JSON body of your request."}


def test_ollama_chat_wire_format_needs_no_key(server: FakeLLMServer) -> None:
    url = server.url + "/api/chat"
    streamed = httpx.post(url, json={"model": "llama3.2", "messages": USER}, timeout=10)
    assert streamed.headers["content-type"] == "application/x-ndjson"
    assert streamed.headers["transfer-encoding"] == "chunked"
    assert streamed.text.endswith("}\n")
    lines = [json.loads(line) for line in streamed.text.splitlines()]
    *pieces, final = lines
    assert [line["message"] for line in pieces] == [
        {"role": "assistant", "content": tok} for tok in tokens("Answer to: hello there")
    ]
    assert all(line["done"] is False and line["model"] == "llama3.2" for line in pieces)
    assert final["done"] is True and final["done_reason"] == "stop"
    assert final["message"] == {"role": "assistant", "content": ""}
    assert final["prompt_eval_count"] == 2 and final["eval_count"] == 4
    durations = [final[name] for name in ("load_duration", "prompt_eval_duration")]
    assert final["total_duration"] > sum(durations) + final["eval_duration"] > 0
    for line in lines:  # Go's RFC3339Nano: UTC, up to 9 fraction digits, no trailing zero
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,8}[1-9])?Z", line["created_at"])
    plain = httpx.post(url, json={"model": "llama3.2", "messages": USER, "stream": False})
    assert plain.headers["content-type"] == "application/json"
    assert plain.json()["message"]["content"] == "Answer to: hello there"
    assert plain.json()["done"] is True


def test_ollama_errors_take_ollama_shape_and_other_routes_still_need_a_key(
    server: FakeLLMServer,
) -> None:
    bad = httpx.post(server.url + "/api/chat", content=b"{nope")
    assert bad.status_code == 400
    assert bad.json() == {"error": "We could not parse the JSON body of your request."}
    # Any key, even a wrong one, is ignored on the Ollama route.
    wrong_key = _post(server, "/api/chat", {"messages": USER}, authorization="Bearer nope")
    assert wrong_key.status_code == 200
    keyless = httpx.post(server.url + "/v1/chat/completions", json={"messages": USER})
    assert keyless.status_code == 401


# --- HTTP behaviour ------------------------------------------------------------------------


def test_requests_are_recorded(server: FakeLLMServer) -> None:
    _post(server, "/v1/chat/completions?trace=1", {"messages": USER}, **{"X-Custom": "yes"})
    recorded = server.requests[-1]
    assert recorded.method == "POST" and recorded.path == "/v1/chat/completions?trace=1"
    assert recorded.headers["x-custom"] == "yes"
    assert recorded.json() == {"messages": USER}


def test_keep_alive_across_plain_and_streamed_answers(server: FakeLLMServer) -> None:
    connection = http.client.HTTPConnection(server.url.removeprefix("http://"), timeout=5)
    headers = {"authorization": f"Bearer {KEY}", "content-type": "application/json"}
    sock = None
    for stream in (True, False, True):
        body = json.dumps({"messages": USER, "stream": stream})
        connection.request("POST", "/v1/chat/completions", body, headers)
        response = connection.getresponse()
        assert response.status == 200 and response.read()
        if stream is True and sock is None:
            sock = connection.sock
    assert sock is not None and connection.sock is sock  # one socket served all three
    connection.close()


def test_client_hanging_up_mid_stream_is_harmless(
    server: FakeLLMServer, capfd: pytest.CaptureFixture[str]
) -> None:
    server.chunk_delay = 0.05
    host, port = server.url.removeprefix("http://").split(":")
    body = json.dumps({"messages": USER, "stream": True}).encode()
    with socket.create_connection((host, int(port))) as raw:
        raw.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n"
            b"authorization: Bearer " + KEY.encode() + b"\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        assert raw.recv(100).startswith(b"HTTP/1.1 200")
    time.sleep(0.4)  # let the server run into the closed socket
    assert _post(server, "/v1/chat/completions", {"messages": USER}).status_code == 200
    assert capfd.readouterr().err == ""


def test_stop_refuses_new_and_kept_alive_connections() -> None:
    server = FakeLLMServer(api_key=KEY).start()
    with httpx.Client(headers={"authorization": f"Bearer {KEY}"}) as kept:
        assert kept.post(server.url + "/v1/chat/completions", json={}).status_code == 200
        server.stop()
        with pytest.raises(httpx.TransportError):
            kept.post(server.url + "/v1/chat/completions", json={})
    with pytest.raises(httpx.ConnectError):
        httpx.post(server.url + "/v1/chat/completions", json={})


# --- from a shell: replay fake-server ---------------------------------------------------


def _start(*command: str) -> tuple[subprocess.Popen[str], dict[str, str], str]:
    """The server process, the variables it says to export, and its first line. It starts
    ignoring SIGINT, as a job a script puts in the background does."""
    process = subprocess.Popen(
        [sys.executable, "-m", *command, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    exported: dict[str, str] = {}
    while len(exported) < 11:
        line = process.stdout.readline()
        if line.startswith("  export "):
            name, _, value = line.removeprefix("  export ").strip().partition("=")
            exported[name] = value
        assert line, process.stderr.read() if process.stderr else ""
    return process, exported, first


def _cohere_in_a_fresh_process(exported: dict[str, str]) -> str:
    script = (
        "import warnings; warnings.simplefilter('ignore'); import cohere\n"
        "reply = cohere.ClientV2().chat(model='command-a', messages="
        "[{'role': 'user', 'content': 'hello there'}])\n"
        "print(reply.message.content[0].text)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CO_", "COHERE_"))}
    finished = subprocess.run(
        [sys.executable, "-c", script],
        env={**env, **exported},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert finished.returncode == 0, finished.stderr
    return finished.stdout.strip()


@pytest.mark.parametrize(
    "command", [("replay", "fake-server"), ("replay.tools.fakellm",)], ids=["replay", "module"]
)
def test_fake_server_from_a_shell_tells_the_sdks_where_it_is(
    command: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    process, exported, first = _start(*command)
    try:
        url = exported["ANTHROPIC_BASE_URL"]
        assert first == f"fake LLM API on {url} (model version v1); Ctrl-C stops it\n"
        for name, value in exported.items():
            monkeypatch.setenv(name, value)
        # Each SDK made with no arguments finds the server through the variables alone.
        reply = openai.OpenAI(max_retries=0).chat.completions.create(model="m", messages=USER)
        assert reply.choices[0].message.content == "Answer to: hello there"
        claude = anthropic.Anthropic(max_retries=0)
        message = claude.messages.create(model="c", max_tokens=9, messages=USER)
        assert message.content[0].text == "Answer to: hello there"  # type: ignore[union-attr]
        fast = groq.Groq(max_retries=0).chat.completions.create(model="l", messages=USER)
        assert fast.choices[0].message.content == "Answer to: hello there"
        jamba = ai21.AI21Client().chat.completions.create(
            model="jamba", messages=[UserMessage(content="hello there")]
        )
        assert jamba.choices[0].message.content == "Answer to: hello there"
        local = ollama.Client().chat(model="llama3", messages=USER, stream=False)
        assert local.message.content == "Answer to: hello there"
        # cohere takes CO_API_URL when imported, so only a fresh process shows it is heeded.
        assert _cohere_in_a_fresh_process(exported) == "Answer to: hello there"
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert (process.returncode, out, err) == (0, "stopped\n", "")


def test_the_fake_server_stops_on_sigterm_as_on_ctrl_c() -> None:
    process, _, _ = _start("replay", "fake-server")
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert (process.returncode, out, err) == (0, "stopped\n", "")


def test_fake_server_on_a_port_in_use_says_so(server: FakeLLMServer) -> None:
    port = server.url.rsplit(":", 1)[1]
    finished = subprocess.run(
        [sys.executable, "-m", "replay", "fake-server", "--port", port],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 2
    assert finished.stderr.startswith(f"replay: fake-server cannot listen on 127.0.0.1:{port}: ")
