"""Large bodies (over ``LARGE_BODY``) are written in pieces: the very bytes of the same
cassette dumped whole, so a file stays the format every reader reads."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from replay._core import key as key_module
from replay._core.model import Request
from replay._store import cassette_file

TEXT = ('a"\\\n\u00e9\u2028\U0001f600-' * 300_000).encode()  # over a piece, escapes, wide
BINARY = bytes(range(256)) * 20_000 + b"\xff"


@pytest.mark.parametrize("body", [TEXT, BINARY], ids=["text", "binary"])
def test_a_large_body_is_written_as_it_would_be_whole(
    body: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = Request("POST", "https://api.example.com/v1/files", (("x-a", "1"),), body)
    response = {"status": 200, "headers": {}, "recorded_at": "2026-01-01T00:00:00Z"}
    whole = cassette_file.file_form(cassette_file.encode_request(request), response)
    monkeypatch.setattr(key_module, "LARGE_BODY", 1000)
    monkeypatch.setattr(cassette_file, "LARGE_BODY", 1000)
    pieces = cassette_file.file_form(cassette_file.encode_request(request), response)
    assert pieces == whole

    # Folded in: the large part is a piece of the file beside the rest, the same bytes.
    spliced = {
        "key": {
            "request": cassette_file.Spliced(pieces[0]),
            "responses": [cassette_file.Spliced(pieces[1])],
        }
    }
    contents = cassette_file.Contents(spliced, ready={"key"}, spliced={"key"})
    cassette_file.save(tmp_path / "c.json", contents, folded={"an-entry"})
    written = (tmp_path / "c.json").read_bytes()
    parsed = orjson.loads(written)
    assert written == cassette_file.dump(parsed["interactions"], {"an-entry"})
    read = cassette_file.decode_request(tmp_path, "key", parsed["interactions"]["key"])
    assert read.body == body
