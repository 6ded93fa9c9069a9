"""The audio a WebSocket session carried, as ``replay list`` counts it (no I/O)."""

from __future__ import annotations

import base64

import orjson

from replay._core.audio import Audio, audio_of
from replay._core.model import Frame, WebSocketSession

PCM = bytes(range(256)) * 3 + b"\x01"  # 769 bytes: base64 with padding
B64 = base64.b64encode(PCM).decode()


def session(*frames: Frame) -> WebSocketSession:
    return WebSocketSession(frames, "2026-01-01T00:00:00Z")


def json_frame(value: object, from_client: bool = False, text: bool = True) -> Frame:
    return Frame(orjson.dumps(value), 0.0, from_client, text)


def test_openai_realtime_audio_both_ways_is_counted_decoded() -> None:
    counted = audio_of(
        session(
            json_frame({"type": "input_audio_buffer.append", "audio": B64}, from_client=True),
            json_frame(
                {
                    "type": "conversation.item.create",
                    "item": {"content": [{"type": "input_audio", "audio": B64}]},
                },
                from_client=True,
            ),
            json_frame({"type": "response.output_audio.delta", "delta": B64}),
            json_frame({"type": "response.audio.delta", "delta": B64}),  # the beta's name
        )
    )
    assert counted == Audio(4, 4 * len(PCM))


def test_text_transcripts_and_other_events_are_not_audio() -> None:
    counted = audio_of(
        session(
            json_frame({"type": "response.output_text.delta", "delta": B64}),
            json_frame({"type": "response.output_audio_transcript.delta", "delta": "Hello"}),
            json_frame({"type": "input_audio_buffer.speech_started", "audio_start_ms": 10}),
            json_frame({"type": "session.update", "session": {"audio": {"voice": "alloy"}}}),
            Frame(b"plain text, not JSON", 0.0, from_client=True, text=True),
        )
    )
    assert counted == Audio()


def test_gemini_live_inline_audio_and_binary_messages_count() -> None:
    live_answer = {
        "serverContent": {
            "modelTurn": {
                "parts": [
                    {"inlineData": {"mimeType": "audio/pcm;rate=24000", "data": B64}},
                    {"inlineData": {"mimeType": "image/png", "data": B64}},
                    {"text": "hi"},
                ]
            }
        }
    }
    live_input = {"realtimeInput": {"audio": {"mimeType": "audio/pcm;rate=16000", "data": B64}}}
    counted = audio_of(
        session(
            json_frame(live_input, from_client=True),
            json_frame(live_answer, text=False),  # Gemini Live sends its JSON as binary
            Frame(PCM, 0.0, from_client=True, text=False),  # raw audio, not JSON
        )
    )
    assert counted == Audio(3, 3 * len(PCM))
    assert Audio(1, 2) + Audio(3, 4) == Audio(4, 6)
