"""The cassettes committed under cassettes/ replay with today's code, with no server and no key.

They were recorded once from ``replay.tools.fakellm`` on a fixed port, the way a user
records once from the real API: run this file with the cassettes deleted to
record them again. A change that can no longer read them breaks every user's
recordings, so this fails loudly.
"""

from __future__ import annotations

from pathlib import Path

import httpx2
import openai
import pytest

import replay
from replay.tools.fakellm import FakeLLMServer

CASSETTES = Path(__file__).parents[2] / "cassettes" / "examples"
BASE_URL = "http://127.0.0.1:18765"
PROMPTS = ["Say hello in French", "Write a poem about the sea"]


def ask(cassette: replay.Cassette) -> list[object]:
    transport = replay.ReplayTransport(cassette)
    key = "sk-example-recorded-with-this-key-0001"
    with openai.OpenAI(
        base_url=BASE_URL + "/v1",
        api_key=key,
        http_client=httpx2.Client(transport=transport),
        max_retries=0,
    ) as client:
        chat = client.chat.completions.create(
            model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPTS[0]}], logprobs=True
        )
        stream = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": PROMPTS[1]}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = [(c.choices[0].delta.content if c.choices else None, c.usage) for c in stream]
        first = client.responses.create(model="gpt-4o-mini", input="Remember the number 7")
        second = client.responses.create(
            model="gpt-4o-mini", input="Which number?", previous_response_id=first.id
        )
    return [
        chat.choices[0].message.content,
        chat.choices[0].logprobs,
        chunks,
        first.output_text,
        second.output_text,
    ]


@pytest.fixture
def example_cassette(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = CASSETTES / "openai.json"
    if not path.exists():  # the one-time recording
        with FakeLLMServer(api_key="sk-example-recorded-with-this-key-0001", port=18765):
            ask(replay.Cassette(path, mode="once"))
    return path


def test_committed_cassette_replays_offline(example_cassette: Path) -> None:
    before = example_cassette.read_bytes()
    cassette = replay.Cassette(example_cassette, mode="none")
    text, logprobs, chunks, first, second = ask(cassette)
    assert text == "Answer to: Say hello in French"
    assert logprobs is not None and logprobs.content
    assert "".join(c for c, _ in chunks if c) == "Answer to: Write a poem about the sea"
    assert (
        chunks[-1][1] is not None and chunks[-1][1].total_tokens > 0
    )  # usage in the last chunk only
    assert (first, second) == ("Answer to: Remember the number 7", "Answer to: Which number?")
    assert cassette.replayed == 4
    assert example_cassette.read_bytes() == before
    assert b"sk-example-recorded-with-this-key-0001" not in before
