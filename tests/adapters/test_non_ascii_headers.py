"""Response header values with bytes beyond ASCII (``x-note: café`` in UTF-8 or Latin-1),
sent raw by a server on 127.0.0.1, through aiohttp, urllib3 (requests) and ``replay serve``.

A cassette keeps a header value as the Latin-1 decoding of its bytes, one character per byte,
so any bytes are stored and replayed as they came (the httpx transports' own test is in
tests/cassette/test_real_traffic.py).
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from pathlib import Path
from urllib.parse import quote_from_bytes, unquote_to_bytes

import aiohttp
import httpx
import httpx2
import pytest
import requests
import urllib3
from echo_server import echo_server
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from proxied import proxy, stored

import replay
from replay._core.model import Request

NOTES = pytest.mark.parametrize(
    "raw", ["x-note: caf%C3%A9", "x-note: caf%E9"], ids=["utf-8", "latin-1"]
)


def sent_bytes(raw: str) -> bytes:
    return unquote_to_bytes(raw.partition(": ")[2])


def stored_note(path: Path) -> str:
    (interaction,) = json.loads(path.read_bytes())["interactions"].values()
    (response,) = interaction["responses"]
    assert response.get("complete", True) is True
    note: str = response["headers"]["x-note"]
    return note


@NOTES
async def test_aiohttp_records_and_replays_the_bytes_of_a_non_ascii_header(
    tmp_path: Path, raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / "c.json"
    headers = {"x-echo-header": raw}
    with echo_server() as url:
        async with aiohttp.ClientSession() as session:
            with replay.use_cassette(path):
                async with session.post(url + "/v1/note", headers=headers) as recorded:
                    assert dict(recorded.raw_headers)[b"x-note"] == sent_bytes(raw)
                    assert (await recorded.json())["method"] == "POST"
    # Latin-1 text of the bytes; the letters get a stand-in of their shape (an unknown header).
    note = stored_note(path).encode("latin-1")
    assert len(note) == len(sent_bytes(raw)) and note[3:] == sent_bytes(raw)[3:]
    async with aiohttp.ClientSession() as session:
        with replay.use_cassette(path, mode="none"):
            async with session.post(url + "/v1/note", headers=headers) as again:
                assert dict(again.raw_headers)[b"x-note"] == note
                # what aiohttp's parser makes of those bytes, as it would from the network
                assert again.headers["x-note"] == note.decode("utf-8", "surrogateescape")
                assert (await again.json())["method"] == "POST"


@NOTES
def test_replay_serve_records_and_replays_the_bytes_of_a_non_ascii_header(
    tmp_path: Path, raw: str
) -> None:
    headers = {"x-echo-header": raw, "x-replay-cassette": "note"}
    with echo_server() as upstream:
        with proxy({"/": upstream}, tmp_path) as running:
            recorded = httpx.post(running.url + "/v1/note", headers=headers)
    assert recorded.status_code == 200, recorded.text
    assert dict(recorded.headers.raw)[b"x-note"] == sent_bytes(raw)
    (path,) = tmp_path.glob("*.json")
    note = stored_note(path).encode("latin-1")
    assert note[3:] == sent_bytes(raw)[3:]
    assert len(stored(path)) == 1
    with proxy({"/": upstream}, tmp_path, mode="none") as running:
        again = httpx.post(running.url + "/v1/note", headers=headers)
    assert again.status_code == 200, again.text
    assert dict(again.headers.raw)[b"x-note"] == note


def test_a_value_beyond_latin_1_written_by_hand_replays_as_utf_8(tmp_path: Path) -> None:
    """Not what recording writes (one character per byte), but a cassette edited by hand, or
    recorded by aiohttp before it kept bytes, may hold one: it is sent, not a crash."""
    path = tmp_path / "c.json"
    url = "http://127.0.0.1:9/v1/note"
    key = replay.Cassette(path, "none").key_of(Request("GET", url, (), b""))
    response = {"status": 200, "headers": {"x-note": "5 €"}, "recorded_at": "2026-01-01T00:00:00Z"}
    interaction = {"request": {"method": "GET", "url": url, "headers": {}}, "responses": [response]}
    path.write_text(json.dumps({"version": 1, "interactions": {key: interaction}}))
    with httpx.Client(transport=replay.ReplayTransport(replay.Cassette(path, "none"))) as client:
        assert dict(client.get(url).headers.raw)[b"x-note"] == "5 €".encode()


@NOTES
def test_urllib3_and_requests_record_and_replay_the_bytes_of_a_non_ascii_header(
    tmp_path: Path, raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """http.client reads header bytes as Latin-1, so urllib3 and requests show each byte as
    one character; replay gives them back the same way."""
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / "c.json"
    headers = {"x-echo-header": raw}
    as_read = sent_bytes(raw).decode("latin-1")
    with echo_server() as url:
        with replay.use_cassette(path):
            recorded = urllib3.PoolManager().request("POST", url + "/v1/note", headers=headers)
            assert recorded.headers["x-note"] == as_read
            assert json.loads(recorded.data)["method"] == "POST"
    note = stored_note(path)
    assert len(note) == len(as_read) and note[3:] == as_read[3:]
    with replay.use_cassette(path, "none", allow_playback_repeats=True):
        again = urllib3.PoolManager().request("POST", url + "/v1/note", headers=headers)
        assert again.headers["x-note"] == note and json.loads(again.data)["method"] == "POST"
        through_requests = requests.post(url + "/v1/note", headers=headers)
        assert through_requests.headers["x-note"] == note
        assert through_requests.json()["method"] == "POST"


# Property: any bytes a header value may hold, through every client.

EXAMPLES = 300 if os.environ.get("REPLAY_STRESS") == "1" else 15
VISIBLE = bytes([*range(0x21, 0x7F), *range(0x80, 0x100)])
"""What HTTP allows in a header value besides inner spaces and tabs (RFC 9110 field-vchar)."""

header_values = st.builds(
    lambda first, middle, last: bytes([first]) + middle + bytes([last]),
    st.sampled_from(VISIBLE),
    st.binary(max_size=30).map(lambda data: bytes(VISIBLE[b % len(VISIBLE)] for b in data)),
    st.sampled_from(VISIBLE),
).filter(lambda value: any(b >= 0x80 for b in value))


def note_through(client: str, url: str, path: Path, mode: str, raw: str) -> bytes:
    """The bytes of ``x-note`` as ``client`` hands them over, through ``path``."""
    headers = {"x-echo-header": raw}
    with replay.use_cassette(path, mode):
        if client in ("httpx", "httpx2"):
            library = httpx if client == "httpx" else httpx2
            return dict(library.post(url + "/v1/note", headers=headers).headers.raw)[b"x-note"]
        if client == "urllib3":
            answer = urllib3.PoolManager().request("POST", url + "/v1/note", headers=headers)
            return answer.headers["x-note"].encode("latin-1")  # http.client's reading
        return asyncio.run(_aiohttp_note(url, headers))


async def _aiohttp_note(url: str, headers: dict[str, str]) -> bytes:
    async with aiohttp.ClientSession() as session:
        async with session.post(url + "/v1/note", headers=headers) as answer:
            assert (await answer.json())["method"] == "POST"
            return dict(answer.raw_headers)[b"x-note"]


@pytest.mark.parametrize("client", ["httpx", "httpx2", "urllib3", "aiohttp"])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=header_values)
def test_any_header_value_bytes_record_complete_and_replay_in_place(
    tmp_path: Path, client: str, value: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recording never breaks on a header value's bytes: the caller gets them as sent, the
    response is stored complete, and replay gives the stored bytes, every byte beyond ASCII
    among them in its order (runs of ASCII letters and digits get a stand-in of their shape,
    a count zeros: see normalize.stand_in)."""
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    path = tmp_path / f"{uuid.uuid4().hex}.json"
    raw = "x-note: " + quote_from_bytes(value, safe="")
    with echo_server() as url:
        assert note_through(client, url, path, "once", raw) == value
    stored = stored_note(path).encode("latin-1")  # complete, one character per byte
    assert note_through(client, url, path, "none", raw) == stored
    assert [b for b in stored if b >= 0x80] == [b for b in value if b >= 0x80]
