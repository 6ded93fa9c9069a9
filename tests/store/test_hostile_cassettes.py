"""Broken and hostile cassette files: each is a clear CassetteError naming the file, found
quickly and without reading the world into memory, and the file is left exactly as it was.

Entries are decoded lazily, when a request asks for them, so each case is
tested the way a test suite meets it: ``Cassette.decide`` of the request the
broken entry is recorded for.
"""

from __future__ import annotations

import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from replay import Cassette, CassetteError
from replay._core.model import Request
from replay._store import cassette_file as store
from replay._store.cassette_file import MAX_CASSETTE_BYTES

REQUEST = Request(
    "POST", "https://api.test/v1/chat", (("content-type", "application/json"),), b"{}"
)
KEY = Cassette("unused.json").key_of(REQUEST)


def entry(**changes: Any) -> dict[str, Any]:
    """A valid entry for REQUEST, with ``changes`` applied (dotted names reach into it)."""
    value: dict[str, Any] = {
        "request": {"method": "POST", "url": REQUEST.url, "headers": {}, "body": {"json": {}}},
        "responses": [
            {"status": 200, "headers": {}, "body": {"json": {"ok": True}}, "recorded_at": "t"}
        ],
    }
    for dotted, new in changes.items():
        *parents, last = dotted.split(".")
        target: Any = value
        for name in parents:
            target = target[int(name)] if name.isdigit() else target[name]
        target[last] = new
    return value


def cassette(interactions: Any, version: Any = 1) -> bytes:
    return orjson.dumps({"version": version, "interactions": interactions})


def with_entry(**changes: Any) -> bytes:
    return cassette({KEY: entry(**changes)})


VALID = with_entry()
CONTENTS: dict[str, bytes] = {
    "empty": b"",
    "whitespace": b" \n\t ",
    "truncated": VALID[: len(VALID) // 2],
    "invalid utf-8": b'{"version": 1, "interactions": {"\xff\xfe": {}}}',
    "array at top": b"[1, 2, 3]",
    "no version": orjson.dumps({"interactions": {}}),
    "unknown version": cassette({}, version=2),
    "version as text": cassette({}, version="1"),
    "huge version number": b'{"version": 1' + b"0" * 400 + b', "interactions": {}}',
    "interactions a list": cassette([]),
    "deeply nested": b'{"version": 1, "interactions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "entry a string": cassette({KEY: "oops"}),
    "no request": cassette({KEY: {"responses": []}}),
    "method a number": with_entry(**{"request.method": 7}),
    "url null": with_entry(**{"request.url": None}),
    "headers a list": with_entry(**{"request.headers": ["a"]}),
    "body a string": with_entry(**{"request.body": "text"}),
    "body bad base64": with_entry(**{"request.body": {"base64": "!!!"}}),
    "body no kind": with_entry(**{"request.body": {"yaml": 1}}),
    "responses an object": with_entry(responses={}),
    "status text": with_entry(**{"responses.0.status": "200"}),
    "status huge": with_entry(**{"responses.0.status": 10**18}),
    "status true": with_entry(**{"responses.0.status": True}),
    "header value a number": with_entry(**{"responses.0.headers": {"x": 1}}),
    "chunk time huge": with_entry(**{"responses.0.chunks": [{"at": 1e300, "text": "x"}]}),
    "chunk time negative": with_entry(**{"responses.0.chunks": [{"at": -1, "text": "x"}]}),
    "chunks not a list": with_entry(**{"responses.0.chunks": "data: x"}),
    "complete not a bool": with_entry(**{"responses.0.complete": "yes"}),
    "error without type": with_entry(responses=[{"error": {"message": "m"}}]),
}


def assert_clear_error(path: Path, action: Callable[[], object]) -> None:
    before = path.read_bytes() if path.is_file() and os.access(path, os.R_OK) else None
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(CassetteError) as raised:
            action()
        elapsed = time.monotonic() - started
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(path) in str(raised.value)
    assert raised.value.path == path
    assert elapsed < 10, f"took {elapsed:.1f} s"  # a bound on hostile input, not a benchmark
    assert peak < 64 * 2**20, f"used {peak / 2**20:.0f} MB"
    if before is not None:
        assert path.read_bytes() == before


@pytest.mark.parametrize("name", sorted(CONTENTS))
def test_broken_cassette(tmp_path: Path, name: str) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(CONTENTS[name])
    for mode in ("none", "new_episodes"):
        cassette_ = Cassette(path, mode)
        assert_clear_error(path, lambda c=cassette_: c.decide(REQUEST))  # type: ignore[misc]
        cassette_.save()
        assert path.read_bytes() == CONTENTS[name]


def test_a_file_claiming_more_than_the_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as file:
        file.truncate(MAX_CASSETTE_BYTES + 1)  # sparse: a gigabyte on paper, nothing on disk
    assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))


def test_a_symlink_to_something_else_is_reported_and_its_target_untouched(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "notes.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text("not a cassette\n")
    path = tmp_path / "link.json"
    path.symlink_to(elsewhere)
    assert_clear_error(path, lambda: Cassette(path, "new_episodes").decide(REQUEST))
    assert elsewhere.read_text() == "not a cassette\n"


def test_a_directory_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "dir.json"
    path.mkdir()
    assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))
    assert path.is_dir()


def test_an_unreadable_file(tmp_path: Path) -> None:
    """Root reads a mode-000 file anyway: there the cassette must simply work."""
    path = tmp_path / "locked.json"
    path.write_bytes(VALID)
    path.chmod(0)
    try:
        if os.geteuid() == 0:
            assert Cassette(path, "none").decide(REQUEST) is not None
        else:
            assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))
    finally:
        path.chmod(0o600)
    assert path.read_bytes() == VALID


@pytest.mark.parametrize(
    ("chunk", "said"),
    [
        ({"headers": [["n", {"byte": 1000}]]}, "cannot be encoded"),
        ({"headers": [["n", {"uuid": "x"}]]}, "UUID"),
        ({"headers": [["n", {"float": 1.5}]]}, "kind 'float'"),
        ({"headers": "x"}, "expected a list"),
        ({"headers": [], "json": {}, "decoded": "bytes"}, "without its bytes field"),
    ],
)
def test_a_malformed_event_stream_frame_names_the_interaction(chunk: object, said: str) -> None:
    response = {
        "status": 200,
        "headers": {"content-type": "application/vnd.amazon.eventstream"},
        "chunks": [chunk],
    }
    entry = {"request": {"method": "POST", "url": "u"}, "responses": [response]}
    with pytest.raises(CassetteError, match=f"interaction k is malformed: .*{said}"):
        store.decode(Path("c.json"), "k", entry)
