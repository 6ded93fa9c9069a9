"""Recordings for the command-line tests: real SDKs through a cassette against the fake server.

``record_suite`` makes a directory of cassettes the way a test suite would:
``chat.json`` through the openai SDK (chat, streams, tools, Responses) and
``other/providers.json`` through the anthropic and groq SDKs and plain httpx
(AI21 J2, LightOn, WorkflowAI). Recorded against ``model_version`` "v1" and
"v2" of the server, the prompts in :data:`CHANGES` answer differently, by the
server's answer rule, and the others do not.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import httpx2
import openai

import replay
from replay._store import usage
from replay.tools.fakellm import FakeLLMServer

API_KEY = "sk-fakellm-cli-4Hn8Qw2Zr6Ty0Ua3"
WEATHER_TOOL: Any = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
]

CHANGES: dict[str, list[str]] = {
    "write a poem about the sea": ["text", "usage"],
    "a long essay on rivers": ["finish_reason"],
    "weather in Paris": ["tool_calls", "usage"],
    "stream a poem please": ["text", "usage"],
    "a poem from the responses api": ["text", "usage"],
    "tell me a poem, claude": ["text", "usage"],
}
"""The prompts whose answers differ between v1 and v2, and how (see fakellm's answer rule)."""
UNCHANGED = [
    "hello there",
    "count to three",
    "hi claude",
    "hello groq",
    "These are a few of my favorite",
    "Il était une fois",
    "hi workflow",
]
CHAT_PROMPTS = [
    "hello there",
    "write a poem about the sea",
    "a long essay on rivers",
    "weather in Paris",
    "stream a poem please",
    "count to three",
    "a poem from the responses api",
]


def user(text: str) -> Any:
    return [{"role": "user", "content": text}]


def openai_client(url: str, cassette: replay.Cassette) -> openai.OpenAI:
    http = httpx2.Client(transport=replay.ReplayTransport(cassette))
    return openai.OpenAI(http_client=http, base_url=url + "/v1", api_key=API_KEY, max_retries=0)


def ask_openai(client: openai.OpenAI, prompt: str, model: str) -> str:
    """One call per prompt of CHAT_PROMPTS, each in the shape its test needs."""
    if prompt == "weather in Paris":
        tool = client.chat.completions.create(
            model=model, messages=user(prompt), tools=WEATHER_TOOL
        )
        calls = tool.choices[0].message.tool_calls or []
        return str(calls[0].model_dump()["function"]["arguments"])
    if prompt.startswith(("stream", "count")):
        stream = client.chat.completions.create(
            model=model,
            messages=user(prompt),
            stream=True,
            stream_options={"include_usage": True},
        )
        return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    if "responses" in prompt:
        return client.responses.create(model=model, input=prompt).output_text
    completion = client.chat.completions.create(model=model, messages=user(prompt))
    return completion.choices[0].message.content or ""


def record_chat(
    url: str, path: Path, model: str, prompts: list[str], mode: str = "once"
) -> list[str]:
    with replay.Cassette(path, mode=mode) as cassette:
        client = openai_client(url, cassette)
        return [ask_openai(client, prompt, model) for prompt in prompts]


def record_other_providers(url: str, path: Path, model: str) -> None:
    # Imported here: these SDKs take a second to import, which replay_run.py does not need.
    import anthropic
    import groq

    with replay.Cassette(path, mode="once") as cassette:
        claude = anthropic.Anthropic(
            base_url=url,
            api_key=API_KEY,
            max_retries=0,
            http_client=httpx2.Client(transport=replay.ReplayTransport(cassette)),
        )
        with claude.messages.stream(
            model=model, max_tokens=50, messages=user("tell me a poem, claude")
        ) as stream:
            stream.get_final_message()
        claude.messages.create(model=model, max_tokens=50, messages=user("hi claude"))
        plain = httpx.Client(transport=replay.ReplayTransport(cassette))
        fast = groq.Groq(base_url=url, api_key=API_KEY, max_retries=0, http_client=plain)
        fast.chat.completions.create(model=model, messages=user("hello groq"))
        auth = {"authorization": f"Bearer {API_KEY}"}
        j2 = {"prompt": "These are a few of my favorite", "maxTokens": 30}
        plain.post(url + "/studio/v1/j2-mid/complete", json=j2, headers=auth).raise_for_status()
        lighton = {"text": "Il était une fois", "model": model, "n_tokens": 20}
        plain.post(url + "/lighton/api/v1/generate", json=lighton, headers=auth).raise_for_status()
        workflow = {"model": model, "messages": user("hi workflow")}
        plain.post(
            url + "/workflowai/v1/chat/completions", json=workflow, headers=auth
        ).raise_for_status()


def record_suite(server: FakeLLMServer, directory: Path, version: str, model: str) -> Path:
    server.model_version = version
    record_chat(server.url, directory / "chat.json", model, CHAT_PROMPTS)
    record_other_providers(server.url, directory / "other" / "providers.json", model)
    return directory


def record_versions(root: Path, sides: dict[str, tuple[str, str]]) -> dict[str, Path]:
    """One suite per side name, recorded as (model version, model name); the server then stops."""
    with FakeLLMServer(api_key=API_KEY) as server:
        return {
            name: record_suite(server, root / name, version, model)
            for name, (version, model) in sides.items()
        }


def run_in_process(
    cassette: Path, url: str, prompts: list[str], run: str, *options: str
) -> subprocess.CompletedProcess[str]:
    """Replay ``prompts`` from ``cassette`` in a process of its own, as run ``run``."""
    env = {**os.environ, usage.RUN_ID_VARIABLE: run}
    env.pop("REPLAY_MODE", None)
    script = Path(__file__).with_name("replay_run.py")
    return subprocess.run(
        [sys.executable, str(script), str(cassette), url, "none", *options, *prompts],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def git(repository: Path, *arguments: str) -> None:
    """git in ``repository``, as a test's made-up committer."""
    identity = ["-c", "user.name=replay tests", "-c", "user.email=tests@example.com"]
    subprocess.run(
        ["git", "-C", str(repository), *identity, *arguments],
        check=True,
        capture_output=True,
        timeout=60,
    )


def wait_for_next_second() -> None:
    """Recording dates have one-second resolution; prune keeps what a run may have recorded."""
    time.sleep(1.05 - time.time() % 1)
