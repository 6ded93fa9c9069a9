"""Broken and hostile cassette files: each is a clear CassetteError naming the file, found
quickly and without reading the world into memory, and the file is left exactly as it was.

Entries are decoded lazily, when a request asks for them, so each case is
tested the way a test suite meets it: ``Cassette.decide`` of the request the
broken entry is recorded for.
"""

from __future__ import annotations

import base64
import gzip
import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import httpx2
import orjson
import pytest
from click.testing import CliRunner

import replay
from replay import Cassette, CassetteError
from replay._cassette import Replay
from replay._core.model import Request
from replay._store import cassette_file as store
from replay._store import journal
from replay._store.backend import LOCAL, journal_directory
from replay._store.cassette_file import ABANDONED_AFTER_SECONDS, MAX_CASSETTE_BYTES
from replay.tools.cli import main

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
    "url port out of range": with_entry(**{"request.url": "http://127.0.0.1:999999/x"}),
    "url unclosed ipv6": with_entry(**{"request.url": "http://[::1/x"}),
    "deep body": with_entry(**{"request.body": {"json": "DEEP"}}).replace(
        b'"DEEP"', b"[" * 300 + b"]" * 300
    ),
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
    url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream"
    entry = {"request": {"method": "POST", "url": url}, "responses": [response]}
    with pytest.raises(CassetteError, match=f"interaction k is malformed: .*{said}"):
        store.decode(Path("c.json"), "k", entry)


# Issue 26: hostile input must be refused when read, never a traceback, a hang or a fold.

BAD_URLS = ("http://127.0.0.1:999999/x", "http://[::1/x")


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_bad_url_stored_beside_the_request_s_recording_is_a_cassette_error(
    tmp_path: Path, url: str
) -> None:
    """A miss (mode none) and a record (new_episodes) look at every stored request: a URL no key
    can be made of was a ValueError from urllib, now an error naming the file and interaction."""
    other = entry(**{"request.url": url})
    path = tmp_path / "c.json"
    path.write_bytes(cassette({"0" * 32: other}))
    for mode in ("none", "new_episodes"):
        assert_clear_error(path, lambda m=mode: Cassette(path, m).decide(REQUEST))  # type: ignore[misc]
    with pytest.raises(CassetteError, match=f"interaction {'0' * 32} is malformed: url"):
        Cassette(path, "none").decide(REQUEST)


def test_an_invalid_journal_entry_is_reported_by_id_and_never_folded(tmp_path: Path) -> None:
    """Valid JSON of the wrong shape was folded into the cassette as it was."""
    path = tmp_path / "c.json"
    path.write_bytes(VALID)
    bad = {"version": 1, "key": KEY, "request": entry()["request"], "response": {"status": "x"}}
    LOCAL.add_entry(path, "00000000000000000001-00000000-1-cafe", orjson.dumps(bad))
    for action in (lambda: journal.view(LOCAL, path), lambda: journal.fold(LOCAL, path)):
        with pytest.raises(CassetteError, match="journal entry 00000000000000000001-") as raised:
            action()
        assert "not an HTTP status" in str(raised.value)
    assert path.read_bytes() == VALID
    assert LOCAL.entry_ids(path) == ["00000000000000000001-00000000-1-cafe"]


def journal_entry(**changes: Any) -> dict[str, Any]:
    """A valid journal entry for REQUEST, with ``changes`` applied as :func:`entry` does."""
    recorded = entry(**changes)
    response = recorded["responses"][0]
    return {"version": 1, "key": KEY, "request": recorded["request"], "response": response}


def deep_journal_entry(depth: int) -> bytes:
    marker = orjson.dumps(journal_entry(**{"request.body": {"json": "DEEP"}}))
    return marker.replace(b'"DEEP"', b"[" * depth + b"]" * depth)


BAD_JOURNAL_ENTRIES: dict[str, tuple[bytes, str]] = {
    "a list": (b"[]", "a JSON list, not an object"),
    "no request": (
        orjson.dumps({k: v for k, v in journal_entry().items() if k != "request"}),
        "no request field",
    ),
    "key a number": (orjson.dumps({**journal_entry(), "key": 7}), "key is not a string"),
    "version 2": (orjson.dumps({**journal_entry(), "version": 2}), "unknown journal entry version"),
    "bad url": (orjson.dumps(journal_entry(**{"request.url": BAD_URLS[1]})), "Invalid IPv6 URL"),
    "status text": (
        orjson.dumps(journal_entry(**{"responses.0.status": "x"})),
        "not an HTTP status",
    ),
    "status 999": (
        orjson.dumps(journal_entry(**{"responses.0.status": 999})),
        "status 999 is not an HTTP status (100 to 599)",
    ),
    "status 99": (
        orjson.dumps(journal_entry(**{"responses.0.status": 99})),
        "not an HTTP status",
    ),
    "bad utf-8": (orjson.dumps(journal_entry()).replace(b'"POST"', b'"P\xc3\x28"'), "UTF-8"),
    **{
        f"body {depth} deep": (deep_journal_entry(depth), "")  # too deep to store, or to read
        for depth in (250, 300, 1_000, 10_000)
    },
}


@pytest.mark.parametrize("name", sorted(BAD_JOURNAL_ENTRIES))
def test_an_invalid_journal_entry_is_reported_saying_why_and_never_folded(
    tmp_path: Path, name: str
) -> None:
    """A body nested ~250 deep was journaled, then every fold raised a bare TypeError; an entry
    of the wrong shape was folded, or named by a Python error ("'list' object has no attribute
    'get'")."""
    data, said = BAD_JOURNAL_ENTRIES[name]
    path = tmp_path / "c.json"
    path.write_bytes(VALID)
    entry_id = "00000000000000000001-00000000-1-cafe"
    LOCAL.add_entry(path, entry_id, data)
    for mode in ("none", "new_episodes"):
        assert_clear_error(path, lambda m=mode: Cassette(path, m).decide(REQUEST))  # type: ignore[misc]
    for action in (lambda: journal.view(LOCAL, path), lambda: journal.fold(LOCAL, path)):
        with pytest.raises(CassetteError, match=f"journal entry {entry_id} is not a rec") as raised:
            action()
        assert said in str(raised.value)
        (log,) = journal_directory(path).glob("*.log")  # the file it is in, to find it
        assert f"it stays in {log}, and the journal is not folded" in str(raised.value)
    assert path.read_bytes() == VALID
    assert LOCAL.entry_ids(path) == [entry_id] and LOCAL.read_entry(path, entry_id) == data


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "fifo"])
def test_a_special_file_is_refused_before_it_is_read(tmp_path: Path, special: str) -> None:
    """/dev/zero passed the size check (it has none) and filled memory; a FIFO hung."""
    target = tmp_path / "fifo" if special == "fifo" else Path(special)
    if special == "fifo":
        os.mkfifo(target)
    path = tmp_path / "c.json"
    path.symlink_to(target)
    with pytest.raises(CassetteError, match="not a regular file"):
        Cassette(path, "none").decide(REQUEST)
    entry_path = journal_directory(path) / "1-0-1-cafe.entry"
    entry_path.parent.mkdir()
    os.mkfifo(entry_path)
    with pytest.raises(CassetteError, match="not a regular file"):
        LOCAL.read_entry(path, "1-0-1-cafe")


def test_a_looping_symlink_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.symlink_to(tmp_path / "d.json")
    (tmp_path / "d.json").symlink_to(path)
    assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))


def test_what_a_killed_save_left_is_removed_at_the_next_fold_once_abandoned(
    tmp_path: Path,
) -> None:
    """A SIGKILL between writing the temporary copy and renaming it left it forever."""
    path = tmp_path / "c.json"
    path.write_bytes(VALID)
    old = time.time() - ABANDONED_AFTER_SECONDS - 60
    copy = tmp_path / f".{path.name}.0123456789ab.tmp"
    entry_copy = journal_directory(path) / ".00000000000000000001-00000000-1-cafe.tmp"
    fresh = tmp_path / f".{path.name}.ba9876543210.tmp"  # maybe a live writer's: kept
    entry_copy.parent.mkdir()
    for leftover in (copy, entry_copy, fresh):
        leftover.write_bytes(VALID)
    os.utime(copy, (old, old))
    os.utime(entry_copy, (old, old))
    neighbour = tmp_path / ".other.json.0123456789ab.tmp"  # another cassette's, left to its fold
    neighbour.write_bytes(VALID)
    os.utime(neighbour, (old, old))
    journal.fold(LOCAL, path)
    assert not copy.exists() and not entry_copy.parent.exists()
    assert fresh.exists() and neighbour.exists()
    assert path.read_bytes() == VALID


@pytest.mark.parametrize("library", [httpx, httpx2], ids=["httpx", "httpx2"])
def test_a_body_not_in_its_content_encoding_is_an_error_naming_the_interaction(
    tmp_path: Path, library: ModuleType
) -> None:
    """A gzip header over a plain body ended in the client's DecodingError, a traceback far
    from the cassette."""
    path = tmp_path / "c.json"
    path.write_bytes(with_entry(**{"responses.0.headers": {"content-encoding": "gzip"}}))
    assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))
    transport = replay.ReplayTransport(Cassette(path, "none"))
    with library.Client(transport=transport) as client:
        with pytest.raises(CassetteError, match=f"interaction {KEY} is malformed") as raised:
            client.post(REQUEST.url, content=REQUEST.body, headers=dict(REQUEST.headers))
    assert "not in content-encoding 'gzip'" in str(raised.value) and str(path) in str(raised.value)


def test_a_body_in_its_content_encoding_replays_decoded_by_the_client(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    zipped = base64.b64encode(gzip.compress(b'{"ok": true}')).decode()
    path.write_bytes(
        with_entry(
            **{
                "responses.0.headers": {"content-encoding": "gzip"},
                "responses.0.body": {"base64": zipped},
            }
        )
    )
    with httpx.Client(transport=replay.ReplayTransport(Cassette(path, "none"))) as client:
        answer = client.post(REQUEST.url, content=REQUEST.body, headers=dict(REQUEST.headers))
    assert answer.json() == {"ok": True}


def test_a_lock_file_that_cannot_be_opened_is_an_error_naming_it(tmp_path: Path) -> None:
    """A journal left to fold, and a directory where the lock file goes: the fold's
    IsADirectoryError reached the caller raw."""
    path = tmp_path / "c.json"
    path.write_bytes(VALID)
    LOCAL.add_entry(path, "00000000000000000001-00000000-1-cafe", orjson.dumps(journal_entry()))
    store.lock_path(path).mkdir()
    for attempt in (
        lambda: Cassette(path, "new_episodes").decide(REQUEST),
        lambda: journal.fold(LOCAL, path),
    ):
        with pytest.raises(CassetteError) as raised:
            attempt()
        assert f"cannot take its lock file {store.lock_path(path)}" in str(raised.value)
        assert "Is a directory" in str(raised.value) and raised.value.path == path
    assert path.read_bytes() == VALID
    assert LOCAL.entry_ids(path) == ["00000000000000000001-00000000-1-cafe"]


@pytest.mark.parametrize("side", ["responses.0.body", "request.body"])
def test_a_body_whose_two_forms_disagree_is_refused_naming_them(tmp_path: Path, side: str) -> None:
    """Spaced JSON is kept as "json" (to read) and "text" (the bytes): an edit of "json" alone
    changed nothing replayed, without a word."""
    path = tmp_path / "c.json"
    path.write_bytes(with_entry(**{side: {"json": {"ok": False}, "text": '{"ok":  true}'}}))
    assert_clear_error(path, lambda: Cassette(path, "none").decide(REQUEST))
    with pytest.raises(CassetteError, match=f"interaction {KEY} is malformed: a body's") as raised:
        Cassette(path, "none").decide(REQUEST)
    assert '"json" and "text" disagree' in str(raised.value)
    verified = CliRunner().invoke(main, ["verify", str(path)])
    assert verified.exit_code == 1 and '"json" and "text" disagree' in verified.stdout


def test_a_body_whose_two_forms_agree_replays_its_exact_bytes(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    spaced = '{"ok":  true, "n": 1.50}'
    path.write_bytes(
        with_entry(**{"responses.0.body": {"json": {"ok": True, "n": 1.5}, "text": spaced}})
    )
    decision = Cassette(path, "none").decide(REQUEST)
    assert isinstance(decision, Replay) and decision.answer.body == spaced.encode()
