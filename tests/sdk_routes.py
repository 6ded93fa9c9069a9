"""The SDK compatibility matrix's table: each route a new user takes to an LLM API, and how
each is attached to a cassette.

A route is one SDK's way to one API: how to make its client (:attr:`Route.make`, given an
:class:`Endpoint`), its calls (:class:`Calls`): sync, async, streamed and async-streamed, each
returning plain JSON-able data (the text, or the list of streamed text pieces) so that a
recording and its replay in another process can be compared, and the loopback server that
answers them (:attr:`Route.server`: the fake LLM API unless the API is another). A route
whose SDK has no call of a kind (boto3 is sync only) leaves it out of its :class:`Calls`, and
one with no explicit form (the urllib3 and WebSocket routes) says so in
:attr:`Route.attachments`: its cells are the others.

An attachment is how the client meets the cassette (:func:`attached`):

- ``explicit``: the SDK is given an httpx or httpx2 client on ``replay.ReplayTransport`` /
  ``AsyncReplayTransport`` (or an aiohttp session with ``replay.ReplayMiddleware``), through
  the option the README names for it: :meth:`Endpoint.http` and friends;
- ``inside``: ``replay.use_cassette``, the client made inside the block;
- ``before``: ``replay.use_cassette``, the client made before the block.

SDKs are imported inside the routes' functions, so that one not installed fails its own
route only (see ``tests/adapters/test_sdk_matrix.py``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import httpx2

import replay
from replay.tools.fakellm import FakeLLMServer

KINDS = ("sync", "async", "stream", "async_stream")
ATTACHMENTS = ("explicit", "inside", "before")
USE_CASSETTE_ONLY = ("inside", "before")
"""For clients replay has no explicit form for: those on urllib3, and WebSockets."""

# litellm fetches its model cost map from the network at import unless told not to.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@dataclass(frozen=True)
class Endpoint:
    """Where a client is to send its requests, and for ``explicit`` the cassette to attach."""

    url: str
    """The fake server's ``http://127.0.0.1:PORT``."""
    api_key: str
    kind: str
    exit: ExitStack
    """Undoes what making the client did to the process, when the cell ends."""
    cassette: replay.Cassette | None = None
    """Given for the ``explicit`` attachment only."""

    @property
    def is_async(self) -> bool:
        return self.kind.startswith("async")

    def http(self, library: ModuleType, *, asynchronous: bool | None = None) -> Any:
        """For ``explicit``, a client of ``library`` (httpx or httpx2), sync or async as the
        call is (or as ``asynchronous`` says), on replay's transport; else None (the SDK
        makes its own)."""
        if self.cassette is None:
            return None
        if self.is_async if asynchronous is None else asynchronous:
            return library.AsyncClient(transport=replay.AsyncReplayTransport(self.cassette))
        return library.Client(transport=replay.ReplayTransport(self.cassette))

    def transport(self) -> Any:
        """For ``explicit``, replay's transport, sync or async as the call is; else None."""
        if self.cassette is None:
            return None
        if self.is_async:
            return replay.AsyncReplayTransport(self.cassette)
        return replay.ReplayTransport(self.cassette)


@dataclass(frozen=True)
class Calls:
    """A route's calls, each given the client and the prompt; None where the SDK has none."""

    sync: Callable[[Any, str], Any] | None
    async_: Callable[[Any, str], Awaitable[Any]] | None
    stream: Callable[[Any, str], list[str]] | None
    async_stream: Callable[[Any, str], Awaitable[list[str]]] | None

    def of(self, kind: str) -> Callable[[Any, str], Any] | None:
        return {
            "sync": self.sync,
            "async": self.async_,
            "stream": self.stream,
            "async_stream": self.async_stream,
        }[kind]


@dataclass(frozen=True)
class Served:
    """A loopback server a route records from: where its clients go, and how many requests
    (or WebSocket handshakes) it has answered so far."""

    url: str
    answered: Callable[[], int]


@contextmanager
def fake_llm(api_key: str) -> Iterator[Served]:
    with FakeLLMServer(api_key=api_key, chunk_delay=0.002) as fake:
        yield Served(fake.url, lambda: len(fake.requests))


@dataclass(frozen=True)
class Route:
    name: str
    modules: tuple[str, ...]
    """What must be importable for the route to run."""
    make: Callable[[Endpoint], Any]
    calls: Calls
    fast: bool = False
    """In the default ``nox`` run; every route runs in ``nox -s sdks``."""
    attachments: tuple[str, ...] = ATTACHMENTS
    server: Callable[[str], AbstractContextManager[Served]] = fake_llm
    """The server, given the API key it is to accept."""

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(kind for kind in KINDS if self.calls.of(kind) is not None)


def pieces(chunks: Iterable[Any], text: Callable[[Any], str | None]) -> list[str]:
    """The non-empty text pieces of a stream, in order (boundaries kept)."""
    return [piece for chunk in chunks if (piece := text(chunk))]


async def async_pieces(chunks: AsyncIterator[Any], text: Callable[[Any], str | None]) -> list[str]:
    return [piece async for chunk in chunks if (piece := text(chunk))]


def user(prompt: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": prompt}]


# --- OpenAI-shaped chat completions: openai, groq, together, and litellm's answers ---------


def _delta(chunk: Any) -> str | None:
    return chunk.choices[0].delta.content if chunk.choices else None


def _chat(model: str, user: Callable[[str], Any] = user) -> Calls:
    """``client.chat.completions.create`` as the OpenAI SDK and its Stainless siblings have it
    (and ai21's, whose messages are its own objects)."""

    def sync(client: Any, prompt: str) -> Any:
        reply = client.chat.completions.create(model=model, messages=user(prompt))
        return reply.choices[0].message.content

    async def async_(client: Any, prompt: str) -> Any:
        reply = await client.chat.completions.create(model=model, messages=user(prompt))
        return reply.choices[0].message.content

    def stream(client: Any, prompt: str) -> list[str]:
        chunks = client.chat.completions.create(model=model, messages=user(prompt), stream=True)
        return pieces(chunks, _delta)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        chunks = await client.chat.completions.create(
            model=model, messages=user(prompt), stream=True
        )
        return await async_pieces(chunks, _delta)

    return Calls(sync, async_, stream, async_stream)


def _openai(at: Endpoint) -> Any:
    import openai

    make = openai.AsyncOpenAI if at.is_async else openai.OpenAI
    return make(
        base_url=at.url + "/v1", api_key=at.api_key, http_client=at.http(httpx2), max_retries=0
    )


def _groq(at: Endpoint) -> Any:
    import groq

    make = groq.AsyncGroq if at.is_async else groq.Groq
    return make(base_url=at.url, api_key=at.api_key, http_client=at.http(httpx), max_retries=0)


def _together(at: Endpoint) -> Any:
    import together

    make = together.AsyncTogether if at.is_async else together.Together
    return make(base_url=at.url, api_key=at.api_key, http_client=at.http(httpx), max_retries=0)


# --- Anthropic ------------------------------------------------------------------------------


def _anthropic(at: Endpoint) -> Any:
    import anthropic

    make = anthropic.AsyncAnthropic if at.is_async else anthropic.Anthropic
    return make(base_url=at.url, api_key=at.api_key, http_client=at.http(httpx2), max_retries=0)


def _anthropic_calls() -> Calls:
    args: dict[str, Any] = {"model": "claude-sonnet", "max_tokens": 64}

    def sync(client: Any, prompt: str) -> Any:
        return client.messages.create(**args, messages=user(prompt)).content[0].text

    async def async_(client: Any, prompt: str) -> Any:
        return (await client.messages.create(**args, messages=user(prompt))).content[0].text

    def stream(client: Any, prompt: str) -> list[str]:
        with client.messages.stream(**args, messages=user(prompt)) as events:
            return list(events.text_stream)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        async with client.messages.stream(**args, messages=user(prompt)) as events:
            return [text async for text in events.text_stream]

    return Calls(sync, async_, stream, async_stream)


# --- mistralai, cohere, ollama: SDKs of their own shapes -----------------------------------


def _mistral(at: Endpoint) -> Any:
    from mistralai.client import Mistral

    http = at.http(httpx2)
    options = {"async_client": http} if at.is_async else {"client": http}
    return Mistral(api_key=at.api_key, server_url=at.url, **options)


def _mistral_calls() -> Calls:
    model = "mistral-small-latest"

    def sync(client: Any, prompt: str) -> Any:
        return client.chat.complete(model=model, messages=user(prompt)).choices[0].message.content

    async def async_(client: Any, prompt: str) -> Any:
        reply = await client.chat.complete_async(model=model, messages=user(prompt))
        return reply.choices[0].message.content

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.chat.stream(model=model, messages=user(prompt)), _mistral_delta)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        events = await client.chat.stream_async(model=model, messages=user(prompt))
        return await async_pieces(events, _mistral_delta)

    return Calls(sync, async_, stream, async_stream)


def _mistral_delta(event: Any) -> str | None:
    return _delta(event.data)


def _cohere(at: Endpoint) -> Any:
    import cohere

    make = cohere.AsyncClientV2 if at.is_async else cohere.ClientV2
    return make(api_key=at.api_key, base_url=at.url, httpx_client=at.http(httpx))


def _cohere_calls() -> Calls:
    model = "command-a-03-2025"

    def text(event: Any) -> str | None:
        return event.delta.message.content.text if event.type == "content-delta" else None

    def sync(client: Any, prompt: str) -> Any:
        return client.chat(model=model, messages=user(prompt)).message.content[0].text

    async def async_(client: Any, prompt: str) -> Any:
        return (await client.chat(model=model, messages=user(prompt))).message.content[0].text

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.chat_stream(model=model, messages=user(prompt)), text)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        return await async_pieces(client.chat_stream(model=model, messages=user(prompt)), text)

    return Calls(sync, async_, stream, async_stream)


def _ollama(at: Endpoint) -> Any:
    import ollama

    make = ollama.AsyncClient if at.is_async else ollama.Client
    transport = at.transport()
    return make(host=at.url, **({"transport": transport} if transport else {}))


def _ollama_calls() -> Calls:
    model = "llama3.2"

    def text(part: Any) -> str | None:
        return str(part.message.content)

    def sync(client: Any, prompt: str) -> Any:
        return client.chat(model=model, messages=user(prompt)).message.content

    async def async_(client: Any, prompt: str) -> Any:
        return (await client.chat(model=model, messages=user(prompt))).message.content

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.chat(model=model, messages=user(prompt), stream=True), text)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        parts = await client.chat(model=model, messages=user(prompt), stream=True)
        return await async_pieces(parts, text)

    return Calls(sync, async_, stream, async_stream)


# --- google-genai ---------------------------------------------------------------------------


def _gemini(at: Endpoint) -> Any:
    from google import genai
    from google.genai import types

    http = at.http(httpx2)
    clients = {"httpx_async_client": http} if at.is_async else {"httpx_client": http}
    options = types.HttpOptions(base_url=at.url, **(clients if http else {}))
    return genai.Client(api_key=at.api_key, http_options=options)


def _gemini_calls() -> Calls:
    model = "gemini-2.5-flash"

    def text(chunk: Any) -> str | None:
        return chunk.text

    def sync(client: Any, prompt: str) -> Any:
        return client.models.generate_content(model=model, contents=prompt).text

    async def async_(client: Any, prompt: str) -> Any:
        return (await client.aio.models.generate_content(model=model, contents=prompt)).text

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.models.generate_content_stream(model=model, contents=prompt), text)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        chunks = await client.aio.models.generate_content_stream(model=model, contents=prompt)
        return await async_pieces(chunks, text)

    return Calls(sync, async_, stream, async_stream)


# --- Frameworks over the openai SDK: langchain-openai, pydantic-ai --------------------------


def _langchain(at: Endpoint) -> Any:
    from langchain_openai import ChatOpenAI

    http = at.http(httpx2)
    clients = {"http_async_client": http} if at.is_async else {"http_client": http}
    return ChatOpenAI(
        model="gpt-4o-mini",
        base_url=at.url + "/v1",
        api_key=at.api_key,
        max_retries=0,
        **(clients if http else {}),
    )


def _langchain_calls() -> Calls:
    def text(chunk: Any) -> str | None:
        return str(chunk.content)

    def sync(client: Any, prompt: str) -> Any:
        return client.invoke(prompt).content

    async def async_(client: Any, prompt: str) -> Any:
        return (await client.ainvoke(prompt)).content

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.stream(prompt), text)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        return await async_pieces(client.astream(prompt), text)

    return Calls(sync, async_, stream, async_stream)


def _pydantic_ai(at: Endpoint) -> Any:
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    # pydantic-ai is async inside: its sync calls run the async client on a loop of their own.
    http = at.http(httpx2, asynchronous=True)
    provider = OpenAIProvider(base_url=at.url + "/v1", api_key=at.api_key, http_client=http)
    return Agent(OpenAIChatModel("gpt-4o-mini", provider=provider))


def _pydantic_ai_calls() -> Calls:
    def sync(agent: Any, prompt: str) -> Any:
        return agent.run_sync(prompt).output

    async def async_(agent: Any, prompt: str) -> Any:
        return (await agent.run(prompt)).output

    def stream(agent: Any, prompt: str) -> list[str]:
        # debounce_by=None: every delta as it came, not grouped by arrival time.
        return list(agent.run_stream_sync(prompt).stream_text(delta=True, debounce_by=None))

    async def async_stream(agent: Any, prompt: str) -> list[str]:
        async with agent.run_stream(prompt) as result:
            return [text async for text in result.stream_text(delta=True, debounce_by=None)]

    return Calls(sync, async_, stream, async_stream)


# --- huggingface-hub ------------------------------------------------------------------------


def _huggingface(at: Endpoint) -> Any:
    import huggingface_hub as hub

    http = at.http(_hub_library())
    if http is not None:
        # The hub's one way to give it a client: a process-wide factory, put back afterwards.
        if at.is_async:
            hub.set_async_client_factory(lambda: http)
            at.exit.callback(
                hub.set_async_client_factory, hub.utils._http.default_async_client_factory
            )
        else:
            hub.set_client_factory(lambda: http)
            at.exit.callback(hub.set_client_factory, hub.utils._http.default_client_factory)
    make = hub.AsyncInferenceClient if at.is_async else hub.InferenceClient
    return make(base_url=at.url + "/v1", api_key=at.api_key)


def _hub_library() -> ModuleType:
    """huggingface-hub 1.x is on httpx, 2.x on httpx2."""
    import huggingface_hub as hub

    return httpx if hub.__version__.startswith("1.") else httpx2


def _huggingface_calls() -> Calls:
    model = "gpt-4o-mini"

    def sync(client: Any, prompt: str) -> Any:
        return client.chat_completion(user(prompt), model=model).choices[0].message.content

    async def async_(client: Any, prompt: str) -> Any:
        reply = await client.chat_completion(user(prompt), model=model)
        return reply.choices[0].message.content

    def stream(client: Any, prompt: str) -> list[str]:
        return pieces(client.chat_completion(user(prompt), model=model, stream=True), _delta)

    async def async_stream(client: Any, prompt: str) -> list[str]:
        chunks = await client.chat_completion(user(prompt), model=model, stream=True)
        return await async_pieces(chunks, _delta)

    return Calls(sync, async_, stream, async_stream)


# --- ai21 -----------------------------------------------------------------------------------


def _ai21(at: Endpoint) -> Any:
    import ai21

    make = ai21.AsyncAI21Client if at.is_async else ai21.AI21Client
    return make(
        api_key=at.api_key,
        api_host=at.url + "/studio/v1",
        http_client=at.http(httpx),
        num_retries=0,
    )


def _ai21_user(prompt: str) -> Any:
    from ai21.models.chat import UserMessage

    return [UserMessage(content=prompt)]


# --- litellm: one function for every provider, a client of its own per provider -------------


def _litellm(
    provider: str, api_base: str, explicit: Callable[[Endpoint], Any]
) -> Callable[[Endpoint], Any]:
    """litellm's "client" is its module-level function, with the route's arguments bound."""

    def make(at: Endpoint) -> Any:
        import litellm

        call = litellm.acompletion if at.is_async else litellm.completion
        bound: dict[str, Any] = {
            "model": f"{provider}/{_LITELLM_MODELS[provider]}",
            "api_base": at.url + api_base,
            "api_key": at.api_key,
            "max_retries": 0,
        }
        if at.cassette is not None:
            bound["client"] = explicit(at)
        return functools.partial(call, **bound)

    return make


_LITELLM_MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-5"}


def _litellm_openai_client(at: Endpoint) -> Any:
    """litellm's OpenAI route takes an openai client."""
    import openai

    make = openai.AsyncOpenAI if at.is_async else openai.OpenAI
    return make(base_url=at.url + "/v1", api_key=at.api_key, http_client=at.http(httpx2))


def _litellm_anthropic_client(at: Endpoint) -> Any:
    """litellm's own routes take its HTTP handlers: httpx sync, aiohttp async."""
    import aiohttp
    from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler, HTTPHandler

    assert at.cassette is not None
    if at.is_async:
        session = aiohttp.ClientSession(middlewares=[replay.ReplayMiddleware(at.cassette)])
        return AsyncHTTPHandler(shared_session=session)
    return HTTPHandler(client=at.http(httpx))


def _litellm_calls() -> Calls:
    def sync(complete: Any, prompt: str) -> Any:
        return complete(messages=user(prompt)).choices[0].message.content

    async def async_(complete: Any, prompt: str) -> Any:
        return (await complete(messages=user(prompt))).choices[0].message.content

    def stream(complete: Any, prompt: str) -> list[str]:
        return pieces(complete(messages=user(prompt), stream=True), _delta)

    async def async_stream(complete: Any, prompt: str) -> list[str]:
        return await async_pieces(await complete(messages=user(prompt), stream=True), _delta)

    return Calls(sync, async_, stream, async_stream)


# --- Clients on urllib3 (use_cassette only): boto3's bedrock-runtime, requests ------------


@contextmanager
def bedrock(api_key: str) -> Iterator[Served]:
    """A loopback Bedrock; the API key is the AWS access key it accepts."""
    from bedrock_server import bedrock_server

    with bedrock_server(api_key) as server:
        yield Served(server.url, lambda: len(server.received))


def _boto3(at: Endpoint) -> Any:
    from urllib3_clients import bedrock as bedrock_client

    return bedrock_client(at.url, at.api_key, "matrix-dummy-secret")


def _converse_text(event: dict[str, Any]) -> str | None:
    return event.get("contentBlockDelta", {}).get("delta", {}).get("text")


def _boto3_calls() -> Calls:
    def sync(client: Any, prompt: str) -> Any:
        from urllib3_clients import MODEL_ID, converse_messages

        answer = client.converse(modelId=MODEL_ID, messages=converse_messages(prompt))
        return answer["output"]["message"]["content"][0]["text"]

    def stream(client: Any, prompt: str) -> list[str]:
        from urllib3_clients import MODEL_ID, converse_messages

        answer = client.converse_stream(modelId=MODEL_ID, messages=converse_messages(prompt))
        events = list(answer["stream"])
        assert next(iter(events[-1])) == "metadata", events[-1]  # botocore parsed them all
        return pieces(events, _converse_text)

    return Calls(sync, None, stream, None)


def _requests(at: Endpoint) -> Any:
    import requests

    session = requests.Session()
    session.headers["authorization"] = f"Bearer {at.api_key}"
    at.exit.callback(session.close)
    return functools.partial(session.post, at.url + "/v1/chat/completions")


def _sse_delta(line: bytes) -> str | None:
    """A chat completion chunk's text, from a server-sent event's line."""
    if not line.startswith(b"data: {"):
        return None
    choices = json.loads(line.removeprefix(b"data: "))["choices"]
    return choices[0]["delta"].get("content") if choices else None


def _requests_calls() -> Calls:
    model = "gpt-4o-mini"

    def sync(post: Any, prompt: str) -> Any:
        answer = post(json={"model": model, "messages": user(prompt)})
        answer.raise_for_status()
        return answer.json()["choices"][0]["message"]["content"]

    def stream(post: Any, prompt: str) -> list[str]:
        with post(
            json={"model": model, "messages": user(prompt), "stream": True}, stream=True
        ) as answer:
            answer.raise_for_status()
            return pieces(answer.iter_lines(), _sse_delta)

    return Calls(sync, None, stream, None)


# --- The openai SDK's realtime client, on websockets (use_cassette only) ------------------


@contextmanager
def realtime(api_key: str) -> Iterator[Served]:
    from realtime_server import RealtimeServer

    with RealtimeServer(api_key, delta_delay=0.002) as server:
        yield Served(server.http_url, lambda: len(server.handshakes))


def _openai_realtime_calls() -> Calls:
    def stream(client: Any, prompt: str) -> list[str]:
        from realtime_client import events_sync, text_deltas

        return text_deltas(events_sync(client, prompt))

    async def async_stream(client: Any, prompt: str) -> list[str]:
        from realtime_client import events_async, text_deltas

        return text_deltas(await events_async(client, prompt))

    return Calls(None, None, stream, async_stream)


# --- The table ------------------------------------------------------------------------------

ROUTES: dict[str, Route] = {
    route.name: route
    for route in [
        Route("openai", ("openai",), _openai, _chat("gpt-4o-mini"), fast=True),
        Route("anthropic", ("anthropic",), _anthropic, _anthropic_calls(), fast=True),
        Route("groq", ("groq",), _groq, _chat("llama-3.3-70b"), fast=True),
        Route(
            "litellm-openai",
            ("litellm",),
            _litellm("openai", "/v1", _litellm_openai_client),
            _litellm_calls(),
            fast=True,
        ),
        Route(
            "litellm-anthropic",
            ("litellm",),
            _litellm("anthropic", "", _litellm_anthropic_client),
            _litellm_calls(),
            fast=True,
        ),
        Route("google-genai", ("google.genai",), _gemini, _gemini_calls(), fast=True),
        Route("mistralai", ("mistralai",), _mistral, _mistral_calls()),
        Route("cohere", ("cohere",), _cohere, _cohere_calls()),
        Route("together", ("together",), _together, _chat("meta-llama/Llama-3-8b")),
        Route("ai21", ("ai21",), _ai21, _chat("jamba-mini", _ai21_user)),
        Route("langchain-openai", ("langchain_openai",), _langchain, _langchain_calls()),
        Route("pydantic-ai", ("pydantic_ai",), _pydantic_ai, _pydantic_ai_calls()),
        Route("ollama", ("ollama",), _ollama, _ollama_calls()),
        Route("huggingface-hub", ("huggingface_hub",), _huggingface, _huggingface_calls()),
        Route(
            "boto3-bedrock",
            ("boto3",),
            _boto3,
            _boto3_calls(),
            attachments=USE_CASSETTE_ONLY,
            server=bedrock,
        ),
        Route(
            "requests", ("requests",), _requests, _requests_calls(), attachments=USE_CASSETTE_ONLY
        ),
        Route(
            "openai-realtime",
            ("openai", "websockets"),
            _openai,
            _openai_realtime_calls(),
            attachments=USE_CASSETTE_ONLY,
            server=realtime,
        ),
    ]
}


# --- Running one cell -----------------------------------------------------------------------


@contextmanager
def attached(
    route: Route, attach: str, kind: str, url: str, api_key: str, path: Path, mode: str
) -> Iterator[Any]:
    """The route's client for ``kind``, attached to the cassette at ``path`` as ``attach`` says,
    for the duration of the block."""
    with ExitStack() as undo:
        if attach == "explicit":
            with replay.Cassette(path, mode) as cassette:
                yield route.make(Endpoint(url, api_key, kind, undo, cassette))
        elif attach == "inside":
            with replay.use_cassette(path, mode):
                yield route.make(Endpoint(url, api_key, kind, undo))
        elif attach == "before":
            client = route.make(Endpoint(url, api_key, kind, undo))
            with replay.use_cassette(path, mode):
                yield client
        else:
            raise ValueError(f"unknown attachment {attach!r}")


def run_cell(
    route: Route,
    attach: str,
    kind: str,
    at: tuple[str, str],
    path: Path,
    mode: str,
    loop: asyncio.Runner,
) -> Any:
    """What the route's ``kind`` call returns, its client attached to the cassette at ``path``
    as ``attach`` says; ``at`` is the API's URL and key. Async calls run on ``loop``, one
    event loop for the whole process as in an application (SDKs keep clients bound to it)."""
    url, api_key = at
    call = route.calls.of(kind)
    if call is None:
        raise ValueError(f"the route {route.name} has no {kind} call")
    prompt = prompt_of(route, kind)
    if kind in ("sync", "stream"):
        with attached(route, attach, kind, url, api_key, path, mode) as client:
            return call(client, prompt)

    async def run() -> Any:
        with attached(route, attach, kind, url, api_key, path, mode) as client:
            return await call(client, prompt)

    return loop.run(run())


def prompt_of(route: Route, kind: str) -> str:
    """The cell's prompt, short enough that the fake's answer repeats it whole."""
    return f"{route.name} {kind}"[:40]
