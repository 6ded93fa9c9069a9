"""What real servers send and our fake does not: every content encoding, echoed keys,
compressed request bodies, non-ASCII header values.

Each case records through a real server on 127.0.0.1 (tests/echo_server.py) with httpx and
httpx2, then replays with that server stopped. The cassette's bytes are searched for the key
in every form it could take on disk.
"""

from __future__ import annotations

import base64
import gzip
import json
import uuid
from pathlib import Path
from types import ModuleType
from urllib.parse import quote, unquote_to_bytes

import pytest
from echo_server import echo_server, encode

import replay
from replay import Cassette, ReplayTransport

KEY = "sk-echoed-8Jq2Lw5Nc7Xt3Rv9Pz4Yb6"
ENCODINGS = ["gzip", "deflate", "br", "zstd", "gzip, br", "zstd, gzip"]


def forms_of(secret: str) -> list[bytes]:
    """Every way the secret could sit in a cassette file."""
    raw = secret.encode()
    return [raw, base64.b64encode(raw), quote(secret, safe="").encode(), raw[8:24]]


def assert_no_key(path: Path, secret: str = KEY) -> None:
    data = path.read_bytes()
    for form in forms_of(secret):
        assert form not in data, form


def record(library: ModuleType, path: Path, url: str, **request: object) -> object:
    with library.Client(transport=ReplayTransport(Cassette(path, "once"))) as client:
        response = client.post(url, **request)
        return (
            response.json()
            if response.headers.get("content-type", "").endswith("json")
            else response.content
        )


def replayed(library: ModuleType, path: Path, url: str, **request: object) -> object:
    with library.Client(transport=ReplayTransport(Cassette(path, "none"))) as client:
        response = client.post(url, **request)
        return (
            response.json()
            if response.headers.get("content-type", "").endswith("json")
            else response.content
        )


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_key_echoed_in_a_compressed_response_is_redacted_and_the_body_kept_decoded(
    library: ModuleType, tmp_path: Path, encoding: str
) -> None:
    path = tmp_path / "c.json"
    headers = {"authorization": f"Bearer {KEY}", "x-echo-encoding": encoding}
    with echo_server() as url:
        answered = record(library, path, url + "/v1/echo", headers=headers, json={"q": 1})
    assert isinstance(answered, dict) and answered["headers"]["authorization"] == f"Bearer {KEY}"
    assert_no_key(path)
    stored = path.read_text()
    assert '"content-encoding"' not in stored  # kept decoded: readable, redacted, normalized
    again = replayed(library, path, url + "/v1/echo", headers=headers, json={"q": 1})
    assert isinstance(again, dict)
    assert again["headers"]["authorization"] == "Bearer REDACTED"
    assert again["body"] == answered["body"]


def test_a_compressed_request_body_is_stored_decoded_and_keyed_on_its_content(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    body = json.dumps({"model": "m", "api_key": KEY, "messages": ["hi"]}).encode()
    headers = {"content-encoding": "gzip", "content-type": "application/json"}
    with echo_server() as url:
        first = gzip.compress(body, mtime=1)
        record(library, path, url + "/v1/chat", headers=headers, content=first)
    assert_no_key(path)
    stored = json.loads(path.read_bytes())
    (interaction,) = stored["interactions"].values()
    assert interaction["request"]["body"]["json"]["messages"] == ["hi"]  # not base64 of gzip
    # gzip stamps a time: the same content compressed later must find the same recording.
    later = gzip.compress(body, mtime=2)
    again = replayed(library, path, url + "/v1/chat", headers=headers, content=later)
    assert isinstance(again, dict) and "REDACTED" in again["body"]


def test_a_body_in_an_encoding_we_cannot_undo_is_refused_when_it_carries_the_key(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    headers = {"authorization": f"Bearer {KEY}", "x-echo-encoding": "compress"}
    with echo_server() as url, pytest.raises(replay.ReplayError) as refused:
        with library.Client(transport=ReplayTransport(Cassette(path, "once"))) as client:
            client.post(url + "/v1/echo", headers=headers).read()
    assert "compress" in str(refused.value) and "/v1/echo" in str(refused.value)
    assert KEY not in str(refused.value)
    assert not path.exists() or KEY.encode() not in path.read_bytes()


def test_a_body_in_an_encoding_we_cannot_undo_is_kept_as_is_when_it_carries_none(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    plain = b"nothing secret here"
    headers = {
        "x-echo-encoding": "compress",
        "x-echo-body": quote(plain),
        "x-echo-content-type": "application/octet-stream",
    }
    with echo_server() as url:
        recorded = record(library, path, url + "/v1/blob", headers=headers)
    assert recorded == encode(plain, "compress")
    assert replayed(library, path, url + "/v1/blob", headers=headers) == recorded
    assert '"content-encoding": "compress"' in path.read_text()


@pytest.mark.parametrize("raw", ["x-note: caf%C3%A9", "x-note: caf%E9"], ids=["utf-8", "latin-1"])
def test_non_ascii_response_header_values_record_and_replay(
    library: ModuleType, tmp_path: Path, raw: str
) -> None:
    path = tmp_path / "c.json"
    headers = {"x-echo-header": raw}
    sent = unquote_to_bytes(raw.partition(": ")[2])
    with echo_server() as url:
        with library.Client(transport=ReplayTransport(Cassette(path, "once"))) as client:
            recorded = client.post(url + "/v1/note", headers=headers)
            assert dict(recorded.headers.raw)[b"x-note"] == sent  # the caller gets the bytes sent
            assert recorded.json()["method"] == "POST"
    with library.Client(transport=ReplayTransport(Cassette(path, "none"))) as client:
        again = client.post(url + "/v1/note", headers=headers)
    # An unknown header's value gets a stand-in of its shape (see normalize.py): the letters
    # change, the non-ASCII bytes stay what they were.
    replayed_note = dict(again.headers.raw)[b"x-note"]
    assert len(replayed_note) == len(sent) and replayed_note[3:] == sent[3:]
    assert again.json()["method"] == "POST"
    stored = json.loads(path.read_bytes())
    (interaction,) = stored["interactions"].values()
    assert interaction["responses"][0].get("complete", True) is True


def test_request_headers_clients_randomise_are_not_stored(
    library: ModuleType, tmp_path: Path
) -> None:
    files = []
    with echo_server() as url:
        for run in range(2):
            path = tmp_path / f"run{run}.json"
            fresh = uuid.uuid4().hex
            headers = {
                "amz-sdk-invocation-id": fresh,
                "amz-sdk-request": f"attempt={run + 1}; max=3",
                "x-amz-date": f"2026112{run}T000000Z",
                "x-ms-client-request-id": fresh,
                "x-stainless-retry-count": str(run),
                "traceparent": f"00-{fresh}-{fresh[:16]}-01",
                "x-echo-body": quote('{"ok": true}'),
            }
            record(library, path, url + "/v1/same", headers=headers, json={"q": 1})
            files.append(json.loads(path.read_bytes())["interactions"])
    assert files[0].keys() == files[1].keys()
    (key,) = files[0]
    assert files[0][key]["request"] == files[1][key]["request"]  # the responses bear a date
    stored = json.dumps(files[0][key]["request"])
    for name in ("amz-sdk-invocation-id", "x-ms-client-request-id", "traceparent"):
        assert name not in stored
