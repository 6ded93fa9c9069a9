"""A recorded body the caller was shown normalized in one piece is stored as shown, not
normalized a second time; one that redaction changed is normalized from what was redacted.

Recorded through the echo server on 127.0.0.1, replayed with it stopped.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import orjson
import pytest
from echo_server import echo_server

import replay
from replay._core.normalize import Normalizer

ANSWER = orjson.dumps(
    {"id": "chatcmpl-9xQ2bT7kLm3Np8Rs", "created": 1764000000, "object": "chat.completion"}
)
SECRET = "sk-proj-Zq8Wm2Xv7Lp4Tn9Rb6Yc3Hd5"


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def record(library: ModuleType, path: Path, answer: bytes) -> tuple[str, bytes]:
    with echo_server([answer]) as base:
        url = f"{base}/v1/chat/completions"
        with library.Client(transport=replay.ReplayTransport(replay.Cassette(path))) as client:
            seen = client.post(url, json={"q": 1}, headers={"authorization": f"Bearer {SECRET}"})
    return url, seen.content


def replayed(library: ModuleType, path: Path, url: str) -> bytes:
    cassette = replay.Cassette(path, "none")
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        response = client.post(url, json={"q": 1}, headers={"authorization": f"Bearer {SECRET}"})
        return bytes(response.content)


def test_a_body_shown_whole_is_normalized_once_and_stored_as_shown(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    learned: list[bytes] = []
    learn = Normalizer._learn_ids

    def counted(self: Normalizer, body: bytes, *args: object) -> None:
        learned.append(body)
        learn(self, body, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Normalizer, "_learn_ids", counted)
    path = tmp_path / "c.json"
    url, seen = record(library, path, ANSWER)
    assert learned == [ANSWER]
    assert b"chatcmpl-9xQ2bT7kLm3Np8Rs" not in seen  # the caller saw a placeholder
    assert replayed(library, path, url) == seen


def test_a_body_redaction_changed_is_normalized_from_what_was_redacted(
    library: ModuleType, tmp_path: Path
) -> None:
    answer = ANSWER[:-1] + b',"echo":"' + SECRET.encode() + b'"}'
    path = tmp_path / "c.json"
    url, seen = record(library, path, answer)
    assert SECRET.encode() not in path.read_bytes()
    stored = orjson.loads(replayed(library, path, url))
    assert stored["id"] == orjson.loads(seen)["id"] != "chatcmpl-9xQ2bT7kLm3Np8Rs"
    assert stored["echo"] != SECRET
