"""What every WebSocket carrier shares: a session being recorded, and one being replayed.

The in-process ``websockets`` clients (:mod:`replay._adapters.websockets_adapter`) and the
proxy's ASGI WebSocket route (:mod:`replay._adapters.proxy`) differ only in how messages
cross: both note each message with its side, type and time in a :class:`SessionRecorder`,
and check each client message and take each server message through a
:class:`SessionReplay`. Nothing here imports the ``websockets`` library, so the proxy loads
without it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from replay._cassette import Cassette, Record, Recording
from replay._core.errors import FrameMiss
from replay._core.model import Frame, TransportFailure, WebSocketSession
from replay._core.websocket import Playback, wait_before
from replay._store import usage


def frame_data(message: Any, text: bool | None) -> tuple[bytes, bool]:
    """A message's bytes and whether it goes as text: a str does, unless ``text`` says."""
    if isinstance(message, str):
        return message.encode("utf-8"), True if text is None else text
    if isinstance(message, bytes | bytearray | memoryview):
        return bytes(message), False if text is None else text
    raise TypeError(
        f"replay records whole WebSocket messages (str or bytes), not {type(message).__name__}"
    )


class SessionRecorder:
    """The messages of one real connection, added to the cassette as a session when it ends."""

    def __init__(
        self, cassette: Cassette, record: Record, kind: type[WebSocketSession] = WebSocketSession
    ) -> None:
        """``kind``: the session made of the messages (an MCP stdio session is one too)."""
        self._cassette = cassette
        self._kind = kind
        self._started = time.monotonic()
        self._recorded_at = usage.now()
        self._frames: list[Frame] = []
        self._lock = threading.Lock()
        self._recording: Recording = cassette.recording(record, self._session)

    def note(self, data: bytes, text: bool, from_client: bool) -> None:
        at = round(time.monotonic() - self._started, 4)
        with self._lock:
            self._frames.append(Frame(data, at, from_client, text))

    def sent(self, data: bytes, text: bool) -> bytes:
        """The caller sends ``data``: noted as the caller sent it (as replay will compare
        it), and returned as it goes upstream, the placeholders it was shown put back to
        their real ids in a text message."""
        self.note(data, text, from_client=True)
        return self._cassette.upstream_message(data) if text else data

    def received(self, message: Any) -> tuple[bytes, bool]:
        """The server sent ``message``: noted as it came, and returned as the caller gets it
        (its bytes, and whether text): a text message as replay will give it."""
        data, text = frame_data(message, None)
        self.note(data, text, from_client=False)
        return (self._recording.shown.message(data) if text else data), text

    def finish(self, complete: bool = True) -> None:
        """``complete``: False when the recording was stopped before the session ended."""
        self._recording.finish(complete=complete)

    async def afinish(self) -> None:
        """:meth:`finish` off the event loop: it writes to the journal."""
        await self._recording.afinish(complete=True)

    def _session(self, complete: bool, cut: TransportFailure | None) -> WebSocketSession:
        with self._lock:
            return self._kind(tuple(self._frames), self._recorded_at, complete)


class SessionReplay:
    """A recorded session played back to one connection: the client's messages checked as the
    cassette keys them (a miss is kept in ``cassette.misses``), the server's given in order at
    the cassette's replay speed. Not thread-safe: the carrier holds a lock if it needs one."""

    def __init__(self, cassette: Cassette, url: str, session: WebSocketSession) -> None:
        self.cassette = cassette
        self._playback = Playback(session, cassette.path, url, cassette.rules)
        self._started = time.monotonic()

    @property
    def ended(self) -> bool:
        """Every recorded server message is given."""
        return self._playback.ended

    @property
    def done(self) -> bool:
        """Every recorded message, both ways, has crossed: the recording ends here."""
        return self._playback.done

    def check(self, data: bytes, text: bool) -> None:
        """The client sent ``data``: raises :class:`FrameMiss` unless it is the recorded one."""
        try:
            self._playback.received(self.cassette.keyed_message(data), text)
        except FrameMiss as miss:
            self.cassette.misses.append(miss)
            raise

    def next_due(self) -> Frame | None:
        """The next server message, taken, once the client sent what preceded it; else None."""
        return self._playback.take() if self._playback.ready() is not None else None

    def wait_before(self, frame: Frame) -> float:
        """Seconds to wait before giving ``frame``: none unless a replay speed is set."""
        return wait_before(frame, time.monotonic() - self._started, self.cassette.replay_speed)
