"""The openai SDK's realtime client, sync and async, in one short conversation (also the SDK
matrix's ``openai-realtime`` route's calls, given its client).

In-process tests call :func:`converse`; a new process replays with

    python tests/realtime_client.py CASSETTE BASE_URL sync|async PROMPT

which runs the conversation in ``use_cassette(CASSETTE, mode="none")`` with a dummy key, every
connection blocked, and prints ``{"said": SUMMARY, "blocked": [ATTEMPT...]}`` as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import openai

import replay
from replay._adapters.network import NetworkGuard

MODEL = "gpt-realtime"
SESSION = {"type": "realtime", "instructions": "Answer briefly."}


def _item(prompt: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}


def _summary(events: list[Any]) -> dict[str, Any]:
    """What the conversation said, without the ids and times a recording replaces."""
    return {
        "types": [event.type for event in events],
        "text": "".join(text_deltas(events)),
        "audio": [e.delta for e in events if e.type == "response.output_audio.delta"],
        "response_ids": sorted({e.response.id for e in events if e.type == "response.done"}),
    }


def events_sync(client: openai.OpenAI, prompt: str) -> list[Any]:
    """The server's events of one conversation on ``client``, up to ``response.done``."""
    events = []
    with client.realtime.connect(model=MODEL) as connection:
        connection.session.update(session=SESSION)  # type: ignore[arg-type]
        connection.conversation.item.create(item=_item(prompt))  # type: ignore[arg-type]
        connection.response.create()
        for event in connection:
            events.append(event)
            if event.type == "response.done":
                break
    return events


async def events_async(client: openai.AsyncOpenAI, prompt: str) -> list[Any]:
    events = []
    async with client.realtime.connect(model=MODEL) as connection:
        await connection.session.update(session=SESSION)  # type: ignore[arg-type]
        await connection.conversation.item.create(item=_item(prompt))  # type: ignore[arg-type]
        await connection.response.create()
        async for event in connection:
            events.append(event)
            if event.type == "response.done":
                break
    return events


def retrieving_sync(client: openai.OpenAI, prompt: str) -> list[dict[str, Any]]:
    """Every server event, ids and times included, of a conversation that fetches back the
    item it created, by the id the server gave it, before asking for the response."""
    events: list[dict[str, Any]] = []
    with client.realtime.connect(model=MODEL) as connection:
        connection.conversation.item.create(item=_item(prompt))  # type: ignore[arg-type]
        for event in connection:
            events.append(event.model_dump(mode="json"))
            if event.type == "conversation.item.created":
                connection.conversation.item.retrieve(item_id=event.item.id or "")
            elif event.type in ("conversation.item.retrieved", "error"):
                connection.response.create()
            elif event.type == "response.done":
                break
    return events


async def retrieving_async(client: openai.AsyncOpenAI, prompt: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    async with client.realtime.connect(model=MODEL) as connection:
        await connection.conversation.item.create(item=_item(prompt))  # type: ignore[arg-type]
        async for event in connection:
            events.append(event.model_dump(mode="json"))
            if event.type == "conversation.item.created":
                await connection.conversation.item.retrieve(item_id=event.item.id or "")
            elif event.type in ("conversation.item.retrieved", "error"):
                await connection.response.create()
            elif event.type == "response.done":
                break
    return events


def retrieving(
    flavour: str, base_url: str, api_key: str, prompt: str, headers: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """:func:`retrieving_sync` or its asyncio twin, on a client of ``base_url``."""
    if flavour == "sync":
        client = openai.OpenAI(api_key=api_key, base_url=base_url, default_headers=headers)
        return retrieving_sync(client, prompt)
    aclient = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, default_headers=headers)
    return asyncio.run(retrieving_async(aclient, prompt))


def text_deltas(events: list[Any]) -> list[str]:
    return [event.delta for event in events if event.type == "response.output_text.delta"]


def converse_sync(
    base_url: str, api_key: str, prompt: str, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    client = openai.OpenAI(api_key=api_key, base_url=base_url, default_headers=headers)
    return _summary(events_sync(client, prompt))


async def converse_async(
    base_url: str, api_key: str, prompt: str, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, default_headers=headers)
    return _summary(await events_async(client, prompt))


def converse(
    flavour: str, base_url: str, api_key: str, prompt: str, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """``headers`` are the client's default headers (``X-Replay-Cassette`` for replay serve)."""
    if flavour == "sync":
        return converse_sync(base_url, api_key, prompt, headers)
    return asyncio.run(converse_async(base_url, api_key, prompt, headers))


if __name__ == "__main__":
    cassette, base_url, flavour, prompt = sys.argv[1:5]
    with NetworkGuard() as guard, replay.use_cassette(cassette, mode="none"):
        said = converse(flavour, base_url, "sk-dummy-key-for-replay", prompt)
    blocked = [str(attempt) for attempt in guard.blocked]
    print(json.dumps({"said": said, "blocked": blocked}))
