"""The audio a WebSocket session carried, as ``replay list`` counts it.

A cassette keeps audio as it crossed the connection (a session is replayed byte for byte), so
a Realtime or Live recording can be large for a few words: the count says where the size is.

A message carries audio when it is

- a binary message that is not JSON (raw PCM, as some clients stream it), or
- a JSON message (text or binary) holding base64 audio: the OpenAI Realtime API's under an
  object whose ``type`` names audio (``response.output_audio.delta``'s ``delta``,
  ``input_audio_buffer.append``'s ``audio``, an ``input_audio`` content part's ``audio``;
  transcripts, text about audio, excluded), Gemini Live's as ``data`` beside an ``audio/``
  ``mimeType`` (``inlineData``, ``realtimeInput``'s ``audio`` and ``mediaChunks``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from replay._core.key import is_json, parse_json
from replay._core.model import Frame, WebSocketSession

_OPENAI_PAYLOADS = ("delta", "audio")
_MIME_TYPE_KEYS = ("mimeType", "mime_type")


@dataclass(frozen=True)
class Audio:
    """Messages that carried audio, and how many bytes of audio they held (decoded)."""

    messages: int = 0
    size: int = 0

    def __add__(self, other: Audio) -> Audio:
        return Audio(self.messages + other.messages, self.size + other.size)


def audio_of(session: WebSocketSession) -> Audio:
    """The audio of every message of ``session``, in both directions."""
    total = Audio()
    for frame in session.frames:
        size = _frame_audio(frame)
        if size is not None:
            total = total + Audio(1, size)
    return total


def _frame_audio(frame: Frame) -> int | None:
    """The bytes of audio ``frame`` carried, or None when it carried none."""
    value = parse_json(frame.data)
    if not is_json(value):
        return None if frame.text else len(frame.data)
    payloads = list(_base64_audio(value))
    return sum(map(_decoded_size, payloads)) if payloads else None


def _base64_audio(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from _base64_audio(item)
        return
    if not isinstance(value, dict):
        return
    kind = value.get("type")
    if isinstance(kind, str) and "audio" in kind and "transcript" not in kind:
        yield from (value[k] for k in _OPENAI_PAYLOADS if isinstance(value.get(k), str))
    mime_type = next((value[k] for k in _MIME_TYPE_KEYS if isinstance(value.get(k), str)), "")
    if mime_type.startswith("audio/") and isinstance(value.get("data"), str):
        yield value["data"]
    for item in value.values():
        yield from _base64_audio(item)


def _decoded_size(payload: str) -> int:
    """The length of the bytes ``payload`` encodes in base64, without decoding it."""
    return len(payload.rstrip("=")) * 3 // 4
