"""Every credential shape replay recognises is stored as a stand-in of its own shape: its prefix
kept before the placeholder, the same for every key of that shape. Through the openai SDK
against a scripted server on 127.0.0.1 that echoes what it is sent; then a request carrying
another real key of the same shape replays the recording with the server stopped: no key is
ever part of a request's match."""

from __future__ import annotations

import json
from pathlib import Path

import openai
import pytest
from leaks import Answer, assert_never_written, scripted

import replay
from replay._core.model import Request

JWT_HEADER = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9"
SHAPES = {
    # shape: (stand-in, a key, another key of the same shape)
    "openai": ("sk-REDACTED", "sk-" + "a1B2c3D4" * 3, "sk-" + "Z9y8X7w6" * 3),
    "openai project": (
        "sk-proj-REDACTED",
        "sk-proj-" + "Qw3rTy12" * 4,
        "sk-proj-" + "mN8bV7cX" * 4,
    ),
    "openai service account": (
        "sk-svcacct-REDACTED",
        "sk-svcacct-" + "Pq4Rs5Tu" * 3,
        "sk-svcacct-" + "Lk2Jh3Gf" * 3,
    ),
    "anthropic": (
        "sk-ant-REDACTED",
        "sk-ant-api03-" + "Ab1Cd2Ef" * 4,
        "sk-ant-api03-" + "Gh3Ij4Kl" * 4,
    ),
    "groq": ("gsk_REDACTED", "gsk_" + "Mn5Op6Qr" * 3, "gsk_" + "St7Uv8Wx" * 3),
    "google api key": (
        "AIzaREDACTED",
        "AIza" + "Sy0aBcDeF1gH2iJ3kL4mN5oP6qR7sT8uV9w",
        "AIza" + "Xy9zW8vU7tS6rQ5pO4nM3lK2jI1hG0fE9dC",
    ),
    "xai": ("xai-REDACTED", "xai-" + "Yz9Ab8Cd" * 3, "xai-" + "Ef7Gh6Ij" * 3),
    "hugging face": ("hf_REDACTED", "hf_" + "Kl5Mn4Op" * 3, "hf_" + "Qr3St2Uv" * 3),
    "google access token": (
        "ya29.REDACTED",
        "ya29.a0" + "Wx1Yz2Ab" * 3,
        "ya29.a0" + "Cd3Ef4Gh" * 3,
    ),
    "google refresh token": ("1//0REDACTED", "1//0g" + "Ij5Kl6Mn" * 3, "1//0e" + "Op7Qr8St" * 3),
    "aws access key id": ("AKIAREDACTED", "AKIAQ7FAKEEXAMPLE1XZ", "AKIAZ3OTHERFAKE9K8J7"),
    "aws session key id": ("ASIAREDACTED", "ASIAQ7FAKEEXAMPLE4XZ", "ASIAW2ANOTHERFAKE5Q1"),
    "json web token": (
        "eyJREDACTED",
        f"{JWT_HEADER}.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlT25lQWJj",
        f"{JWT_HEADER}.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlVHdvWHl6",
    ),
    "realtime client secret": ("ek_REDACTED", "ek_" + "Uv9Wx8Yz" * 3, "ek_" + "Ab7Cd6Ef" * 3),
    "organization": ("org-REDACTED", "org-" + "Gh5Ij4Kl" * 3, "org-" + "Mn3Op2Qr" * 3),
    "user": ("user-REDACTED", "user-" + "St1Uv0Wx" * 3, "user-" + "Yz9Ab8Cd" * 3),
    "project": ("proj_REDACTED", "proj_" + "Ef7Gh6Ij" * 3, "proj_" + "Kl5Mn4Op" * 3),
    "bearer token": (
        "Bearer REDACTED",
        "Bearer opaqueT0kenValue11111aa",
        "Bearer opaqueT0kenValue22222bb",
    ),
}


def echoing(path: str, headers: dict[str, str], body: bytes) -> Answer:
    """A chat completion saying back the last message it was sent."""
    said = json.loads(body)["messages"][-1]["content"]
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "gpt-4o-mini",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": f"you said: {said}"},
                "finish_reason": "stop",
            }
        ],
    }
    return Answer(json.dumps(answer).encode())


def ask(url: str, text: str) -> str:
    client = openai.OpenAI(base_url=url + "/v1", api_key="sk-test", max_retries=0)
    answer = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": text}]
    )
    return str(answer.choices[0].message.content)


@pytest.mark.parametrize("shape", SHAPES)
def test_each_key_shape_keeps_its_prefix_and_another_key_of_it_replays(
    tmp_path: Path, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    stand_in, key, other = SHAPES[shape]
    cassette = tmp_path / "cassettes" / "shapes.json"
    with scripted(echoing) as url:
        with replay.use_cassette(cassette) as recording:
            recorded = ask(url, f"my credential is {key} ok")
    assert recorded == f"you said: my credential is {key} ok" and recording.recorded == 1
    assert_never_written(tmp_path, key.removeprefix("Bearer "))
    stored = json.loads(cassette.read_text())["interactions"]
    (recorded_call,) = stored.values()
    assert recorded_call["request"]["body"]["json"]["messages"][0]["content"] == (
        f"my credential is {stand_in} ok"
    )
    for carried in (other, key):  # the server is stopped
        with replay.use_cassette(cassette, "none") as replaying:
            replayed = ask(url, f"my credential is {carried} ok")
        assert replaying.replayed == 1 and replaying.misses == []
        assert replayed == f"you said: my credential is {stand_in} ok"


@pytest.mark.parametrize("shape", [shape for shape in SHAPES if shape != "bearer token"])
def test_a_key_matches_a_recording_that_wrote_the_placeholder_alone(
    tmp_path: Path, shape: str
) -> None:
    """Before each shape kept its prefix, ``REDACTED`` stood for it alone: a request carrying
    a key keys as such a recording's request did, in the body and in the URL."""
    _, key, _ = SHAPES[shape]
    cassette = replay.Cassette(tmp_path / "keys.json", "none")
    headers = (("content-type", "application/json"),)

    def request(value: str) -> Request:
        body = json.dumps({"messages": [{"role": "user", "content": f"key {value} ok"}]})
        return Request("POST", f"https://api.example.test/v1/{value}/chat", headers, body.encode())

    assert cassette.key_of(request(key)) == cassette.key_of(request("REDACTED"))
