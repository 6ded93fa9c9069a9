"""A miss on a cassette of 20,000 recordings names the closest request after comparing a
bounded number of them field by field: those of the request's method and path first, ranked
by the bytes they share with it."""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest

import replay
from replay._core import key as request_keys
from replay._core.model import Chunk, Interaction, Request, Response
from replay._store import cassette_file as store

RECORDINGS = 20_000
BASE = "https://api.example.test"


def asked(number: int, temperature: float = 0) -> dict[str, object]:
    return {
        "model": "m",
        "messages": [{"role": "user", "content": f"question number {number} of the suite"}],
        "temperature": temperature,
    }


def recording(number: int) -> Interaction:
    """Chat calls, a quarter of them to other routes (the same body to another path, a GET)."""
    route = number % 4
    method = "GET" if route == 3 else "POST"
    path = "/v1/embeddings" if route == 2 else "/v1/chat/completions"
    body = b"" if method == "GET" else orjson.dumps(asked(number))
    request = Request(method, BASE + path, (("content-type", "application/json"),), body)
    answer = Response(200, (), (Chunk(b'{"ok": true}', 0.0),), "2026-01-01T00:00:00Z")
    return Interaction(
        request_keys.request_key(request, request_keys.KeyRules()), request, (answer,)
    )


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("large") / "c.json"
    interactions = map(recording, range(RECORDINGS))
    store.save(path, {i.key: store.encode(i) for i in interactions})
    return path


@pytest.mark.parametrize("number", [0, 12_345, 19_997])
def test_a_miss_names_the_closest_after_a_bounded_search(
    large: Path, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    compared: list[Request] = []
    differences = request_keys.differences

    def counted(recorded: Request, *rest: object) -> object:
        compared.append(recorded)
        return differences(recorded, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(request_keys, "differences", counted)
    cassette = replay.Cassette(large, "none")
    with (
        httpx.Client(transport=replay.ReplayTransport(cassette)) as client,
        pytest.raises(replay.CassetteMiss) as miss,
    ):
        client.post(f"{BASE}/v1/chat/completions", json=asked(number, temperature=1))
    assert len(compared) <= request_keys.CLOSEST_COMPARED + 1  # and once more for the message
    assert miss.value.closest_url == f"POST {BASE}/v1/chat/completions"
    assert [d.field for d in miss.value.differences] == ["body.temperature"]
    assert orjson.loads(compared[-1].body) == asked(number)


def test_with_no_recording_of_its_route_the_closest_is_sought_among_all(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    store.save(path, {i.key: store.encode(i) for i in map(recording, [2, 3])})
    cassette = replay.Cassette(path, "none")
    with (
        httpx.Client(transport=replay.ReplayTransport(cassette)) as client,
        pytest.raises(replay.CassetteMiss) as miss,
    ):
        client.post(f"{BASE}/v1/other", json=asked(2))
    assert miss.value.closest_url == f"POST {BASE}/v1/embeddings"
    assert [d.field for d in miss.value.differences] == ["path"]
