"""A loopback WebSocket server speaking a tiny OpenAI Realtime protocol, for recording.

- ``session.update`` is answered by ``session.updated``;
- ``conversation.item.create`` by ``conversation.item.created`` (the item, with a new id);
- ``response.create`` by ``response.created``, a few ``response.output_text.delta`` with
  "Answer to: " and the last user text, ``response.output_audio.delta`` (base64 audio), and
  ``response.done``;
- ``conversation.item.retrieve`` by ``conversation.item.retrieved`` (the item created with
  that id on this connection), or by an ``error`` naming an id it never issued;
- a binary message by the same bytes reversed, as binary; a text message that is not JSON by
  ``echo: `` and the text.

Ids (``event_...``, ``resp_...``, ``item_...``) are fresh random ones on every run, as the real
API's are. The handshake must carry ``Authorization: Bearer <api_key>``, or it is refused.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import threading
from string import ascii_lowercase, ascii_uppercase, digits
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response


def _id(prefix: str) -> str:
    # A capital, a small letter and a digit first: a draw lacking a whole class gets the
    # narrower alphabet's placeholder (a limit docs/format.md states), and a session recorded
    # again then differs from the first, which the byte-for-byte test caught once in CI.
    classes = [secrets.choice(chars) for chars in (ascii_uppercase, ascii_lowercase, digits)]
    rest = secrets.token_urlsafe(13).replace("-", "x").replace("_", "y")[:17]
    return prefix + "".join(classes) + rest


class RealtimeServer:
    """``with RealtimeServer(api_key) as server:`` serves on ``server.port`` until stopped."""

    def __init__(self, api_key: str, delta_delay: float = 0.0) -> None:
        self.api_key = api_key
        self.delta_delay = delta_delay
        self.handshakes: list[dict[str, str]] = []
        self.received: list[str | bytes] = []
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._run, name="realtime-server", daemon=True)

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> RealtimeServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._finish)
            self._thread.join(10)

    def _finish(self) -> None:
        if self._stop is not None and not self._stop.done():
            self._stop.set_result(None)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stop = self._loop.create_future()
        async with serve(
            self._session, "127.0.0.1", 0, process_request=self._authorize, compression=None
        ) as server:
            self.port = server.sockets[0].getsockname()[1]
            self._ready.set()
            await self._stop

    def _authorize(self, connection: ServerConnection, request: Request) -> Response | None:
        self.handshakes.append({name.lower(): value for name, value in request.headers.raw_items()})
        if request.headers.get("authorization") != f"Bearer {self.api_key}":
            return connection.respond(401, "bad key\n")
        return None

    async def _session(self, connection: ServerConnection) -> None:
        last_text = ""
        items: dict[str, dict[str, Any]] = {}
        async for message in connection:
            self.received.append(message)
            if isinstance(message, bytes):
                await connection.send(message[::-1])
                continue
            try:
                event: dict[str, Any] = json.loads(message)
            except ValueError:
                await connection.send(f"echo: {message}")
                continue
            kind = event.get("type")
            if kind == "session.update":
                session = {
                    **event.get("session", {}),
                    "id": _id("sess_"),
                    "object": "realtime.session",
                }
                await self._send(connection, "session.updated", session=session)
            elif kind == "conversation.item.create":
                item = {**event.get("item", {}), "id": _id("item_"), "status": "completed"}
                for part in item.get("content", []):
                    if part.get("type") == "input_text":
                        last_text = part.get("text", "")
                items[item["id"]] = item
                await self._send(connection, "conversation.item.created", item=item)
            elif kind == "conversation.item.retrieve":
                item_id = event.get("item_id", "")
                if item_id in items:
                    await self._send(connection, "conversation.item.retrieved", item=items[item_id])
                else:
                    error = {"type": "invalid_request_error", "message": f"no item {item_id}"}
                    await self._send(connection, "error", error=error)
            elif kind == "response.create":
                await self._respond(connection, last_text)

    async def _respond(self, connection: ServerConnection, prompt: str) -> None:
        response_id, item_id = _id("resp_"), _id("item_")
        await self._send(
            connection,
            "response.created",
            response={"id": response_id, "object": "realtime.response", "status": "in_progress"},
        )
        answer = f"Answer to: {prompt}"
        pieces = [answer[i : i + 8] for i in range(0, len(answer), 8)]
        place = {"response_id": response_id, "item_id": item_id, "output_index": 0}
        for piece in pieces:
            await asyncio.sleep(self.delta_delay)
            await self._send(
                connection, "response.output_text.delta", **place, content_index=0, delta=piece
            )
        audio = base64.b64encode(answer.encode()[::-1] + bytes(range(256))).decode()
        await self._send(
            connection, "response.output_audio.delta", **place, content_index=1, delta=audio
        )
        item = {
            "id": item_id,
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": answer}],
        }
        response = {
            "id": response_id,
            "object": "realtime.response",
            "status": "completed",
            "output": [item],
        }
        await self._send(connection, "response.done", response=response)

    @staticmethod
    async def _send(connection: ServerConnection, kind: str, **fields: Any) -> None:
        await connection.send(json.dumps({"type": kind, "event_id": _id("event_"), **fields}))
