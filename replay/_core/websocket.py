"""A WebSocket session replayed: which recorded server message may go out next, and whether
the client sends the recorded messages.

A recorded session is the messages of one connection in the order they crossed it. On
replay each server message waits for the client messages that came before it in the
recording (the client's question before the server's answer), and each client message must
match the recorded one at its place: compared as request bodies are, JSON canonical and the
cassette's ``ignore`` paths left out, else byte for byte. A message that differs is a
:class:`~replay._core.errors.FrameMiss`, never a silent replay.

The adapters hand this state machine the client's messages as their key sees them (secrets
scrubbed, known ids replaced) and ask it for the next server message; they do the waiting.
"""

from __future__ import annotations

from dataclasses import replace

from replay._core import jsonpath
from replay._core.errors import Difference, FrameMiss
from replay._core.key import KeyRules, canonical_body
from replay._core.location import Location
from replay._core.model import Frame, WebSocketSession
from replay._core.redact import keyed_stand_ins


class Playback:
    """The replay of one recorded session; not thread-safe: the adapter holds a lock."""

    def __init__(
        self,
        session: WebSocketSession,
        cassette: str | Location,
        url: str,
        rules: KeyRules,
        method: str = "GET",
    ) -> None:
        self._cassette = cassette
        self._url = url
        self._method = method
        """The request's method, which a miss names: a handshake's, or a gRPC call's."""
        self._rules = rules
        self._client: list[Frame] = []
        self._server: list[tuple[int, Frame]] = []
        """Each server message with the number of client messages recorded before it."""
        for frame in session.frames:
            if frame.from_client:
                self._client.append(_keyed(frame))
            else:
                self._server.append((len(self._client), frame))
        self._received = 0
        self._given = 0

    @property
    def ended(self) -> bool:
        """Whether every recorded server message has been given: the server closes next."""
        return self._given >= len(self._server)

    @property
    def done(self) -> bool:
        """Whether every recorded message, both ways, has crossed: the recording ends here,
        so a carrier that closes for the server (``replay serve``) closes now, not before the
        client's last recorded messages."""
        return self.ended and self._received >= len(self._client)

    def ready(self) -> Frame | None:
        """The next server message, once the client sent all that preceded it; else None."""
        if self.ended:
            return None
        clients_before, frame = self._server[self._given]
        return frame if self._received >= clients_before else None

    def take(self) -> Frame:
        """Give the next server message; call only when :meth:`ready` returned it."""
        frame = self.ready()
        if frame is None:
            raise RuntimeError("no server message is ready")
        self._given += 1
        return frame

    def received(self, data: bytes, text: bool) -> None:
        """The client sent ``data`` (as its key sees it): raises FrameMiss unless recorded."""
        position = self._received + 1
        if self._received >= len(self._client):
            raise FrameMiss(
                self._cassette,
                self._url,
                position,
                f"was not recorded: the recording has {len(self._client)} client messages",
                method=self._method,
            )
        found = frame_differences(self._client[self._received], data, text, self._rules)
        if found:
            raise FrameMiss(
                self._cassette,
                self._url,
                position,
                "differs from the recorded one",
                found,
                method=self._method,
            )
        self._received += 1

    def unsent(self) -> FrameMiss:
        """The miss of a client whose messages ended before the recording's: a client stream
        answered once it ends (a gRPC stream-unary call) cannot be answered short of them."""
        return FrameMiss(
            self._cassette,
            self._url,
            self._received + 1,
            f"was not sent: the recording has {len(self._client)} client messages",
            method=self._method,
        )


def frame_differences(
    recorded: Frame, data: bytes, text: bool, rules: KeyRules
) -> list[Difference]:
    """How a sent message differs from the recorded one, by JSON path under ``frame``."""
    if recorded.text != text:
        return [Difference("frame.type", _kind(recorded.text), _kind(text))]
    left = canonical_body(recorded.data, None, rules)
    right = canonical_body(data, None, rules)
    if isinstance(left, dict) and isinstance(right, dict) and "json" in left and "json" in right:
        left, right = left["json"], right["json"]
    return [
        Difference(path, old, new) for path, old, new in jsonpath.differences(left, right, "frame")
    ]


def wait_before(frame: Frame, elapsed: float, speed: float | None) -> float:
    """Seconds to wait, ``elapsed`` seconds after the handshake, before giving ``frame``:
    none unless a replay speed is set, as for stream chunks."""
    if not speed:
        return 0.0
    return max(0.0, frame.at / speed - elapsed)


def _kind(text: bool) -> str:
    return "text" if text else "binary"


def _keyed(frame: Frame) -> Frame:
    """A recorded client message as :meth:`~replay._cassette.Cassette.keyed_message` reads a
    live one: each key shape's stand-in as the placeholder alone (``sk-REDACTED`` and the
    ``REDACTED`` of older recordings alike)."""
    data = keyed_stand_ins(frame.data)
    return frame if data is frame.data else replace(frame, data=data)
