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
import re
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import quote, quote_plus, unquote_to_bytes

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
    assert again["headers"]["authorization"] == "REDACTED"  # a field named like a secret
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


# Echoes: the key a request carried, as servers repeat it.

SLASHED = "sk-ab/cd+ef8Jq2Lw5Nc7Xt3Rv9Pz"
"""A key with the characters that echo differently: ``/`` and ``+``."""


@pytest.mark.parametrize(
    "echo",
    [
        quote(SLASHED, safe=""),
        re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), quote(SLASHED, safe="")),
        quote_plus(SLASHED),
        SLASHED.replace("+", " "),  # "+" read as a space, then echoed
        SLASHED.replace("/", "\\/"),  # JSON with escaped slashes (PHP, some Java encoders)
        "".join(f"\\u{ord(c):04x}" for c in SLASHED),  # JSON with every character escaped
        "api_key=" + quote_plus(SLASHED),  # a form-urlencoded echo
    ],
    ids=["percent", "percent-lower", "plus", "space", "json-slash", "json-unicode", "form"],
)
def test_a_carried_key_echoed_in_any_encoding_is_redacted(
    library: ModuleType, tmp_path: Path, echo: str
) -> None:
    path = tmp_path / "c.json"
    body = '{"error": {"message": "Incorrect API key provided: ' + echo + '"}}'
    headers = {"authorization": f"Bearer {SLASHED}", "x-echo-body": quote(body)}
    with echo_server() as url:
        record(library, path, url + "/v1/chat", headers=headers, json={"q": 1})
    stored = path.read_bytes()
    assert echo.encode() not in stored
    for form in forms_of(SLASHED):
        assert form not in stored, form


def test_cookie_values_basic_passwords_and_sigv4_signatures_echoed_alone_are_redacted(
    library: ModuleType, tmp_path: Path
) -> None:
    cookie = "ck-9Tq3Wm6Zp2Ls8Vd4"
    password = "pw-4Gh7Jk2Lq9Zx5Cv1"
    signature = "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
    access_key = "AKIAIOSFODNN7EXAMPLE"
    sigv4 = (
        f"AWS4-HMAC-SHA256 Credential={access_key}/20260101/us-east-1/bedrock/aws4_request, "
        f"SignedHeaders=host;x-amz-date, Signature={signature}"
    )
    basic = base64.b64encode(f"alice:{password}".encode()).decode()
    with echo_server() as url:
        for name, value, echo in [
            ("cookie", f"session={cookie}; theme=dark", f"session {cookie} expired"),
            ("authorization", f"Basic {basic}", f"bad password {password}"),
            ("authorization", sigv4, f"<SignatureProvided>{signature}</SignatureProvided>"),
        ]:
            headers = {name: value, "x-echo-body": quote(echo), "x-echo-content-type": "text/plain"}
            record(library, tmp_path / f"{len(echo)}.json", url + "/v1/echo", headers=headers)
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    for secret in (cookie, password, signature, access_key):
        assert secret.encode() not in stored, secret


@pytest.mark.parametrize("shape", ["form", "multipart"])
def test_secret_fields_of_form_and_multipart_bodies_are_redacted_and_their_echoes(
    library: ModuleType, tmp_path: Path, shape: str
) -> None:
    path = tmp_path / "c.json"
    files = {"file": ("notes.txt", b"a file's own bytes")} if shape == "multipart" else None
    fields = {"api_key": KEY, "client_secret": "cs-3Rt6Yu9Io2Pa5Sd8", "purpose": "assistants"}
    with echo_server() as url:
        echoed = record(library, path, url + "/v1/files", data=fields, files=files)
    assert isinstance(echoed, dict) and KEY in echoed["body"]  # the server saw it
    stored = path.read_bytes()
    for secret in (KEY, "cs-3Rt6Yu9Io2Pa5Sd8"):
        for form in forms_of(secret):
            assert form not in stored, form
    assert b"assistants" in stored
    if shape == "multipart":
        assert b"a file's own bytes" in stored


def test_secret_named_fields_beyond_the_usual_ones_and_numeric_passwords(
    library: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "c.json"
    secrets = {
        "token": "tk-7Yh3Nb6Vc9Xz2Lk5",
        "secret": "se-2Qw5Er8Ty1Ui4Op7",
        "session_token": "FwoGZXIvYXdzEJr8Lq2Wn5Xt9",
        "password": 73914682059371,
    }
    # A logprob's "token" is the answer's own text: it stays.
    logprobs = {"content": [{"token": "Hello", "logprob": -0.1}, {"token": " world"}]}
    with echo_server() as url:
        record(library, path, url + "/v1/login", json={**secrets, "logprobs": logprobs})
    stored = path.read_bytes()
    for value in secrets.values():
        assert str(value).encode() not in stored, value
    assert b'\\"token\\": \\"Hello\\"' in stored or b'"token": "Hello"' in stored
    assert b"max_tokens" not in stored or b'"max_tokens": "REDACTED"' not in stored


@pytest.mark.parametrize("depth", [250, 300, 1_000, 10_000])
def test_a_body_too_deep_for_json_storage_is_recorded_as_its_bytes_and_replays(
    library: ModuleType, tmp_path: Path, depth: int
) -> None:
    """orjson writes no more than 254 levels: at 250 every fold raised a bare TypeError (the
    body sits deeper in the cassette), at 300 the caller got one after the server answered."""
    path = tmp_path / "c.json"
    deep = b"[" * depth + b"]" * depth
    headers = {
        "content-type": "application/json",
        "x-echo-body": quote(deep),
        "x-echo-content-type": "application/json",
    }
    with echo_server() as url:
        with library.Client(transport=ReplayTransport(Cassette(path, "once"))) as client:
            assert client.post(url + "/v1/deep", headers=headers, content=deep).content == deep
    (stored,) = json.loads(path.read_bytes())["interactions"].values()
    assert stored["request"]["body"] == {"text": deep.decode()}
    assert stored["responses"][0]["body"] == {"text": deep.decode()}
    with library.Client(transport=ReplayTransport(Cassette(path, "new_episodes"))) as client:
        assert client.post(url + "/v1/deep", headers=headers, content=deep).content == deep


LAYOUTS: dict[str, dict[str, Any]] = {
    "json.dumps": {},
    "indent 2": {"indent": 2},
    "indent 4, no space": {"indent": 4, "separators": (",", ":")},
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_non_compact_bodies_record_the_same_bytes_whatever_the_width_of_their_numbers_and_times(
    library: ModuleType, tmp_path: Path, layout: str
) -> None:
    """Issue 23: a body kept byte for byte (``"text"``) must not keep the width of the values
    normalization replaces, or every recording of a non-compact server is another file."""

    def answer(identity: str, created: int, duration: float | str, moment: str) -> str:
        body = {
            "id": identity,
            "created": created,
            "created_at": moment,
            "choices": [{"index": 0, "duration_seconds": "@", "cost_usd": 0.001234}],
        }
        # json.dumps writes floats its own way: put the server's digits in as they came.
        return json.dumps(body, **LAYOUTS[layout]).replace('"@"', str(duration))

    ids = ["chatcmpl-8YMnDbsifkBeAs814beb0dFOJdPeG", "chatcmpl-Q2w3E4r5T6y7U8i9O0pAsDfGhJkLz"]
    first = answer(ids[0], 1741570285, 0.1234, "2025-03-05T12:34:56.789012+05:30")
    second = answer(ids[1], 17415702851, "0.12345678901234567", "1999-12-31T23:59:59.000001-08:00")
    third = answer(ids[1], 1741570285, "1e-05", "2025-03-05T12:34:56.000000+00:00")
    path, url_path = tmp_path / "c.json", "/workflowai/v1/chat/completions"
    request = {"json": {"model": "m", "messages": ["hi"]}}
    answers: list[bytes] = []

    shown: list[str] = []

    def recorded(body: str, mode: str) -> bytes:
        answers.append(body.encode())
        with library.Client(transport=ReplayTransport(Cassette(path, mode))) as client:
            shown.append(client.post(url + url_path, **request).text)
        return path.read_bytes()

    with echo_server(answers) as url:
        once = recorded(first, "once")
        assert recorded(second, "all") == once
        assert recorded(third, "all") == once
    (interaction,) = json.loads(once)["interactions"].values()
    placeholder = interaction["responses"][0]["body"]["json"]["id"]
    assert placeholder not in ids and len(placeholder) == len(ids[0])
    expected = answer(placeholder, 1000000000, "1.0", "2024-01-01T00:00:00.000000+00:00")
    with library.Client(transport=ReplayTransport(Cassette(path, "none"))) as client:
        assert client.post(url + url_path, **request).text == expected
    assert shown == [expected] * 3  # recording looks like replay, whatever the server's widths


def test_environment_values_named_like_keys_are_redacted_only_when_they_look_like_secrets(
    library: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: ``MODEL_KEY=gpt-4o-mini`` must not turn every ``gpt-4o-mini`` into REDACTED;
    a secret-shaped value under such a name is still scrubbed wherever the server echoes it."""
    secret = "tok-8Hq2Lx5Wz3Kd7Pm4Rt"
    monkeypatch.setenv("MODEL_KEY", "gpt-4o-mini")
    monkeypatch.setenv("TEAM_TOKEN", secret)
    path = tmp_path / "c.json"
    body = {"model": "gpt-4o-mini", "note": secret}
    with echo_server() as url:
        answered = record(library, path, url + "/v1/chat/completions", json=body)
    assert isinstance(answered, dict) and secret in answered["body"]
    stored = path.read_text()
    assert secret not in stored
    assert '"model": "gpt-4o-mini"' in stored or '"model":"gpt-4o-mini"' in stored
    again = replayed(library, path, url + "/v1/chat/completions", json=body)
    assert isinstance(again, dict)
    assert json.loads(again["body"]) == {"model": "gpt-4o-mini", "note": "REDACTED"}
