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

import httpx
import pytest
from recorded import API_KEY, openai_client, record_suite, user

import replay
from replay._core.answers import Answer, answer_of, prompt_of, stream_events
from replay._core.model import Interaction, Response, TransportFailure
from replay.tools import inventory
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
