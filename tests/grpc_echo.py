"""A small gRPC service on 127.0.0.1 with each of gRPC's four call patterns, and clients of it.

``tests/grpc_service/echo.proto`` is compiled when this module is imported (grpcio-tools,
into a temporary directory), so the messages are real generated protobuf classes known to
the default descriptor pool. :class:`EchoServer` asks for ``authorization: Bearer KEY``,
answers ``Say``, ``Count`` (server streaming), ``Gather`` (client streaming) and ``Chat``
(both ways), and fails ``Say("missing")`` with ``NOT_FOUND``, details and trailing metadata.

In-process tests call :func:`conversation`; a new process replays with

    python tests/grpc_echo.py CASSETTE TARGET sync|aio

which runs it in ``use_cassette(CASSETTE, mode="none")`` with a dummy key and prints its
summary as JSON.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from concurrent import futures
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
import grpc.aio
from grpc_tools import protoc

import replay

SERVICE = Path(__file__).parent / "grpc_service"


def _compiled() -> tuple[ModuleType, ModuleType]:
    out = tempfile.mkdtemp(prefix="replay-grpc-")
    status = protoc.main(
        ["protoc", f"-I{SERVICE}", f"--python_out={out}", f"--grpc_python_out={out}", "echo.proto"]
    )
    assert status == 0, "protoc failed on echo.proto"
    sys.path.insert(0, out)
    try:
        return importlib.import_module("echo_pb2"), importlib.import_module("echo_pb2_grpc")
    finally:
        sys.path.remove(out)


echo_pb2, echo_pb2_grpc = _compiled()
Ask, Reply = echo_pb2.Ask, echo_pb2.Reply
PAYLOAD = b"\x00\x01\xfe\xff"


class _Echo(echo_pb2_grpc.EchoServicer):  # type: ignore[misc]
    def __init__(self, key: str, seen: list[tuple[str, dict[str, str]]], issued: list[str]) -> None:
        self._key = key
        self._seen = seen
        self._issued = issued

    def _authorized(self, method: str, context: grpc.ServicerContext) -> None:
        metadata = {m.key: m.value for m in context.invocation_metadata()}
        self._seen.append((method, metadata))
        if metadata.get("authorization") != f"Bearer {self._key}":
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "a bearer key is needed")

    def Say(self, request: Any, context: grpc.ServicerContext) -> Any:
        self._authorized("Say", context)
        context.send_initial_metadata((("x-request-id", uuid.uuid4().hex),))
        if request.text == "missing":
            context.set_trailing_metadata((("x-reason", "gone"), ("x-trace-bin", b"\x00\xff")))
            context.abort(grpc.StatusCode.NOT_FOUND, f"no such thing: {request.text}")
        if request.previous_id and request.previous_id not in self._issued:
            context.abort(grpc.StatusCode.NOT_FOUND, f"unknown previous_id {request.previous_id}")
        ident = str(uuid.uuid4())
        self._issued.append(ident)
        return Reply(id=ident, text=f"Echo: {request.text}", payload=PAYLOAD)

    def Count(self, request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        self._authorized("Count", context)
        for index in range(request.count):
            time.sleep(0.05)
            yield Reply(text=f"{request.text} {index}", index=index)

    def Gather(self, requests: Iterator[Any], context: grpc.ServicerContext) -> Any:
        self._authorized("Gather", context)
        return Reply(text=" + ".join(request.text for request in requests))

    def Chat(self, requests: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
        self._authorized("Chat", context)
        for index, request in enumerate(requests):
            yield Reply(text=f"Re: {request.text}", index=index)


class EchoServer:
    """The service on 127.0.0.1, on a free port; ``seen`` is each call's method and metadata,
    ``issued`` the ids of ``Say``'s replies (a later ``Say`` may name one as ``previous_id``)."""

    def __init__(self, key: str) -> None:
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.issued: list[str] = []
        self._server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        echo_pb2_grpc.add_EchoServicer_to_server(_Echo(key, self.seen, self.issued), self._server)
        self.port = self._server.add_insecure_port("127.0.0.1:0")
        self.target = f"127.0.0.1:{self.port}"

    def __enter__(self) -> EchoServer:
        self._server.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._server.stop(grace=None).wait()


def _error(error: grpc.RpcError) -> dict[str, Any]:
    return {
        "code": error.code().name,
        "details": error.details(),
        "trailing": [[key, _text(value)] for key, value in error.trailing_metadata() or ()],
    }


def _text(value: str | bytes) -> str:
    return value.hex() if isinstance(value, bytes) else value


def _reply(reply: Any) -> dict[str, Any]:
    return {
        "id": reply.id,
        "text": reply.text,
        "index": reply.index,
        "payload": reply.payload.hex(),
    }


def _asks(*texts: str) -> Iterator[Any]:
    for text in texts:
        yield Ask(text=text)


def sync_conversation(target: str, key: str) -> dict[str, Any]:
    """Each call pattern once over a sync channel made before the calls' block is entered."""
    channel = grpc.insecure_channel(target)
    stub = echo_pb2_grpc.EchoStub(channel)
    auth = (("authorization", f"Bearer {key}"),)
    said: dict[str, Any] = {}
    with channel:
        said["say"] = _reply(stub.Say(Ask(text="hello"), metadata=auth))
        reply, call = stub.Say.with_call(Ask(text="again"), metadata=auth)
        said["with_call"] = [_reply(reply), call.code().name]
        said["future"] = _reply(stub.Say.future(Ask(text="later"), metadata=auth).result())
        said["count"] = [_reply(r) for r in stub.Count(Ask(text="n", count=3), metadata=auth)]
        said["gather"] = _reply(stub.Gather(_asks("a", "b", "c"), metadata=auth))
        said["chat"] = [_reply(r) for r in stub.Chat(_asks("x", "y"), metadata=auth)]
        try:
            stub.Say(Ask(text="missing"), metadata=auth)
        except grpc.RpcError as error:
            said["error"] = _error(error)
        failing = stub.Say.future(Ask(text="missing", count=1), metadata=auth)
        said["future_error"] = _error(failing.exception())
    return said


async def _async_asks(*texts: str) -> AsyncIterator[Any]:
    for text in texts:
        yield Ask(text=text)


async def aio_conversation(target: str, key: str) -> dict[str, Any]:
    """Each call pattern once over an asyncio channel."""
    auth = (("authorization", f"Bearer {key}"),)
    said: dict[str, Any] = {}
    async with grpc.aio.insecure_channel(target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        said["say"] = _reply(await stub.Say(Ask(text="hello"), metadata=auth))
        call = stub.Say(Ask(text="again"), metadata=auth)
        reply = await call
        said["with_call"] = [_reply(reply), (await call.code()).name]
        count = stub.Count(Ask(text="n", count=3), metadata=auth)
        said["count"] = [_reply(r) async for r in count]
        said["gather"] = _reply(await stub.Gather(_async_asks("a", "b", "c"), metadata=auth))
        said["chat"] = [_reply(r) async for r in stub.Chat(_async_asks("x", "y"), metadata=auth)]
        try:
            await stub.Say(Ask(text="missing"), metadata=auth)
        except grpc.aio.AioRpcError as error:
            said["error"] = _error(error)
    return said


def conversation(flavour: str, target: str, key: str) -> dict[str, Any]:
    if flavour == "sync":
        return sync_conversation(target, key)
    return asyncio.run(aio_conversation(target, key))


def main(cassette: str, target: str, flavour: str) -> None:
    with replay.use_cassette(cassette, mode="none"):
        said = conversation(flavour, target, "dummy-key")
    print(json.dumps(said))


if __name__ == "__main__":
    main(*sys.argv[1:])
