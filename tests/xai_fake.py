"""A fake xAI chat server on 127.0.0.1, built from the xai-sdk's own generated servicer, and
the real SDK's clients of it.

The SDK is pointed at it with ``Client(api_host="127.0.0.1:PORT", use_insecure_channel=True)``
(its API key then goes as ``authorization`` metadata, added by the SDK's interceptor).
``GetCompletion`` answers the last user message; ``GetCompletionChunk`` streams that answer
word by word, usage in the last chunk.

In-process tests call :func:`chat`; a new process replays with

    python tests/xai_fake.py CASSETTE TARGET sync|aio

which runs it in ``use_cassette(CASSETTE, mode="none")`` with a dummy key and prints what it
said as JSON.
"""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Iterator
from concurrent import futures
from typing import Any

import grpc
import xai_sdk
from xai_sdk.chat import user
from xai_sdk.proto import chat_pb2, chat_pb2_grpc, sample_pb2, usage_pb2

import replay

MODEL = "grok-4"


def _answer(request: Any) -> str:
    asked = [c.text for m in request.messages if m.role == chat_pb2.ROLE_USER for c in m.content]
    return f"Answer to: {asked[-1]}"


class _Chat(chat_pb2_grpc.ChatServicer):  # type: ignore[misc]
    def __init__(self, key: str, seen: list[dict[str, str]], issued: list[str]) -> None:
        self._key = key
        self._seen = seen
        self._issued = issued

    def _authorized(self, context: grpc.ServicerContext) -> None:
        metadata = {m.key: m.value for m in context.invocation_metadata()}
        self._seen.append(metadata)
        if metadata.get("authorization") != f"Bearer {self._key}":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "Incorrect API key provided")

    def GetCompletion(self, request: Any, context: grpc.ServicerContext) -> Any:
        self._authorized(context)
        text = _answer(request)
        self._issued.append(str(uuid.uuid4()))
        return chat_pb2.GetChatCompletionResponse(
            id=self._issued[-1],
            model=request.model,
            outputs=[
                chat_pb2.CompletionOutput(
                    finish_reason=sample_pb2.REASON_STOP,
                    message=chat_pb2.CompletionMessage(content=text, role=chat_pb2.ROLE_ASSISTANT),
                )
            ],
            usage=usage_pb2.SamplingUsage(
                prompt_tokens=5, completion_tokens=len(text.split()), total_tokens=9
            ),
        )

    def GetCompletionChunk(self, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        self._authorized(context)
        words = _answer(request).split(" ")
        ident = str(uuid.uuid4())
        for index, word in enumerate(words):
            last = index == len(words) - 1
            yield chat_pb2.GetChatCompletionChunk(
                id=ident,
                model=request.model,
                outputs=[
                    chat_pb2.CompletionOutputChunk(
                        delta=chat_pb2.Delta(
                            content=word if last else word + " ", role=chat_pb2.ROLE_ASSISTANT
                        ),
                        finish_reason=sample_pb2.REASON_STOP if last else sample_pb2.REASON_INVALID,
                    )
                ],
                usage=usage_pb2.SamplingUsage(prompt_tokens=5, completion_tokens=len(words))
                if last
                else None,
            )


class FakeXai:
    """The fake xAI chat service on a free loopback port; ``seen`` is each call's metadata,
    ``issued`` the ids of its whole answers. ``secure``: over TLS-free local credentials, as
    the SDK's default secure channel speaks to a ``localhost:`` host, its key then added by
    grpcio's core as call credentials."""

    def __init__(self, key: str, secure: bool = False) -> None:
        self.seen: list[dict[str, str]] = []
        self.issued: list[str] = []
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        chat_pb2_grpc.add_ChatServicer_to_server(_Chat(key, self.seen, self.issued), self._server)
        if secure:
            credentials = grpc.local_server_credentials()
            self.port = self._server.add_secure_port("localhost:0", credentials)
            self.target = f"localhost:{self.port}"
        else:
            self.port = self._server.add_insecure_port("127.0.0.1:0")
            self.target = f"127.0.0.1:{self.port}"

    def __enter__(self) -> FakeXai:
        self._server.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._server.stop(grace=None).wait()


def _said(sampled: Any, pieces: list[str], streamed: Any) -> dict[str, Any]:
    assert streamed is not None, "the stream gave no chunk"
    return {
        "sample": [sampled.content, sampled.finish_reason, sampled.usage.completion_tokens],
        "sample_id": sampled.id,
        "chunks": pieces,
        "stream": [streamed.content, streamed.usage.completion_tokens],
    }


def sync_chat(target: str, key: str, insecure: bool = True) -> dict[str, Any]:
    client = xai_sdk.Client(api_key=key, api_host=target, use_insecure_channel=insecure)
    try:
        sampled = client.chat.create(model=MODEL, messages=[user("Say hello")]).sample()
        pieces, streamed = [], None
        for response, chunk in client.chat.create(model=MODEL, messages=[user("Count")]).stream():
            pieces.append(chunk.content)
            streamed = response
    finally:
        client.close()
    return _said(sampled, pieces, streamed)


async def aio_chat(target: str, key: str) -> dict[str, Any]:
    client = xai_sdk.AsyncClient(api_key=key, api_host=target, use_insecure_channel=True)
    try:
        sampled = await client.chat.create(model=MODEL, messages=[user("Say hello")]).sample()
        pieces, streamed = [], None
        chat = client.chat.create(model=MODEL, messages=[user("Count")])
        async for response, chunk in chat.stream():
            pieces.append(chunk.content)
            streamed = response
    finally:
        await client.close()
    return _said(sampled, pieces, streamed)


def chat(flavour: str, target: str, key: str) -> dict[str, Any]:
    if flavour == "sync":
        return sync_chat(target, key)
    return asyncio.run(aio_chat(target, key))


def main(cassette: str, target: str, flavour: str) -> None:
    with replay.use_cassette(cassette, mode="none"):
        said = chat(flavour, target, "xai-dummy-key")
    print(json.dumps(said))


if __name__ == "__main__":
    main(*sys.argv[1:])
