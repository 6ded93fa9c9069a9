"""Every command of the command line, and replay itself, on hostile cassette files: bad URLs,
deep nesting, bad UTF-8, a wrong type in every field, invalid journal entries, special and
huge files; ``import-vcr`` on hostile vcrpy cassettes. Each must end within
:data:`CASE_SECONDS`, with a documented exit status and a message naming the file, never a
traceback; replay raises a ReplayError naming the file.

Regular files run through click's test runner in this process; special files (a device, a
FIFO, a symbolic-link loop, a file over the size limit), which could hang or fill memory, in
one subprocess with a memory limit. ``REPLAY_STRESS=1`` (the nox ``stress`` session) adds more
depths, every other JSON type in every field, and runs every command on the special files.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from click.testing import CliRunner
from proxied import proxy

from replay import Cassette, CassetteError, CassetteMiss
from replay._core.key import ROUTE_HEADER
from replay._core.model import Request
from replay._store.backend import LOCAL
from replay._store.cassette_file import MAX_CASSETTE_BYTES
from replay.tools.cli import main

STRESS = os.environ.get("REPLAY_STRESS") == "1"
DEEPEST_STORED_BODY = 249
"""A cassette nests at most 254 levels (what orjson writes back), and a request's JSON body
starts 5 levels down (document, interactions, entry, request, body): one 249 deep is a valid
cassette, one deeper is refused."""
DEPTHS = (DEEPEST_STORED_BODY, 250, 300, 1_000, 10_000) + (
    (200, 254, 255, 600, 1_023, 1_024, 1_025) if STRESS else ()
)
CASE_SECONDS = 20
"""How long one command, or one replay, may take on one case: a hang fails the case."""

REQUEST = Request(
    "POST", "https://api.test/v1/chat", (("content-type", "application/json"),), b"{}"
)
KEY = Cassette("unused.json").key_of(REQUEST)
OTHER = Request("POST", "https://api.test/v1/other", (), b"{}")
"""A request no cassette here recorded: a miss."""


def valid_entry() -> dict[str, Any]:
    """An interaction using every field the format has (a body, a stream, a failure)."""
    return {
        "request": {
            "method": "POST",
            "url": REQUEST.url,
            "headers": {"content-type": "application/json"},
            "body": {"json": {}},
        },
        "responses": [
            {
                "status": 200,
                "headers": {"x": "y"},
                "body": {"text": "ok"},
                "recorded_at": "2024-01-01T00:00:00Z",
            },
            {
                "status": 200,
                "headers": {"content-type": "text/event-stream"},
                "chunks": [{"at": 0.1, "text": "data: x\n\n"}],
                "complete": True,
                "stream_error": {"type": "ReadTimeout", "message": "m"},
                "recorded_at": "2024-01-01T00:00:00Z",
            },
            {
                "error": {"type": "ConnectError", "message": "m"},
                "recorded_at": "2024-01-01T00:00:00Z",
            },
        ],
    }


def cassette(entry: Any, **document: Any) -> bytes:
    return orjson.dumps({"version": 1, "interactions": {KEY: entry}, **document})


def nested(depth: int) -> bytes:
    """A JSON body ``depth`` arrays deep, as text: orjson cannot build it deeper than 1,024."""
    return b"[" * depth + b"]" * depth


def _kind(value: Any) -> str:
    """The JSON type of ``value``: an integer is a number as a fraction is."""
    if isinstance(value, bool):
        return "boolean"
    return "number" if isinstance(value, int | float) else type(value).__name__


OTHER_TYPES = {"boolean": True, "number": 7, "str": "7", "list": [], "dict": {}}
"""A value of each JSON type but null (which may mean "absent", so be valid)."""


def _wrong(value: Any) -> list[Any]:
    """Values of other JSON types than ``value``'s: all of them under stress, else one; and a
    fraction where an integer is expected."""
    kind = _kind(value)
    others = [other for name, other in OTHER_TYPES.items() if name != kind]
    if isinstance(value, int) and not isinstance(value, bool):
        others.insert(0, 1.5)
    return others if STRESS else others[:1]


def wrong_types() -> Iterator[tuple[str, bytes]]:
    """The valid entry with one field, at any depth, of a wrong type."""

    def walk(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
        if path and path[-1] == "json":
            return  # any JSON is a JSON body
        if path:
            yield path
        if isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for name, item in items:
                yield from walk(item, (*path, name))

    def holder(entry: Any, path: tuple[str | int, ...]) -> Any:
        for name in path[:-1]:
            entry = entry[name]
        return entry

    for path in walk(valid_entry(), ()):
        for wrong in _wrong(holder(valid_entry(), path)[path[-1]]):
            entry = valid_entry()
            holder(entry, path)[path[-1]] = wrong
            shown = f"wrong type {'.'.join(map(str, path))}"
            yield (f"{shown} {_kind(wrong)}" if STRESS else shown), cassette(entry)


def bad_url(url: str) -> bytes:
    entry = valid_entry()
    entry["request"]["url"] = url
    return cassette(entry)


def deep_document(depth: int) -> bytes:
    """A request body ``depth`` levels deep stored as JSON, as a hand-edited file could."""
    marker = b'"DEEP"'
    return cassette({**valid_entry(), "request": {**valid_entry()["request"], "body": {
        "json": "DEEP"}}}).replace(marker, nested(depth))  # fmt: skip


def journal_entry(**changed: Any) -> dict[str, Any]:
    """The journal entry a recorder writes for the valid entry's first response."""
    entry = valid_entry()
    response = {**entry["responses"][0], **changed}
    return {"version": 1, "key": KEY, "request": entry["request"], "response": response}


JOURNALS: dict[str, bytes] = {
    "journal: not json": b"{",
    "journal: empty": b"",
    "journal: a list": b"[]",
    "journal: no response": orjson.dumps({**journal_entry(), "response": None}),
    "journal: wrong version": orjson.dumps({**journal_entry(), "version": 2}),
    "journal: status text": orjson.dumps(journal_entry(status="200")),
    "journal: bad url": orjson.dumps(
        {**journal_entry(), "request": {**valid_entry()["request"], "url": "http://[::1/x"}}
    ),
    "journal: bad utf-8": orjson.dumps(journal_entry()).replace(b'"ok"', b'"o\xc3\x28k"'),
    "journal: deep body": orjson.dumps(journal_entry(body={"json": "DEEP"})).replace(
        b'"DEEP"', nested(300)
    ),
}
"""Invalid journal entries beside a valid cassette file: each is reported, never folded."""

CASES: dict[str, bytes] = {
    "bad url: port out of range": bad_url("http://127.0.0.1:999999/x"),
    "bad url: unclosed ipv6": bad_url("http://[::1/x"),
    "bad url: no host": bad_url("https:///v1/chat"),
    "bad url: not http": bad_url("ftp://api.test/x"),
    "bad utf-8 in a key": b'{"version": 1, "interactions": {"\xff": {}}}',
    "bad utf-8 in a body": cassette(valid_entry()).replace(b'"ok"', b'"o\xc3\x28k"'),
    "bad utf-8 in a header": cassette(valid_entry()).replace(b'"y"', b'"\xff"'),
    "wrong type: interactions": orjson.dumps({"version": 1, "interactions": []}),
    "wrong type: version": orjson.dumps({"version": "1", "interactions": {}}),
    "wrong type: entry": cassette([]),
    "wrong type: folded entries": cassette(valid_entry(), folded_journal_entries=7),
    **dict(wrong_types()),
    **{f"deep body {depth}": deep_document(depth) for depth in DEPTHS},
    "deep document 100000": b'{"version": 1, "interactions": ' + nested(100_000) + b"}",
    **{name: cassette(valid_entry()) for name in JOURNALS},
}
ACCEPTED = {f"deep body {depth}" for depth in DEPTHS if depth <= DEEPEST_STORED_BODY}
"""Valid cassettes among the cases: each command does its work on them."""


def commands(path: Path, valid: Path, scratch: Path) -> dict[str, list[str]]:
    """Every command, on ``path`` (and on the directory holding it beside a valid cassette)."""
    return {
        "list": ["list", str(path)],
        "list dir": ["list", "--json", str(path.parent)],
        "show": ["show", str(path)],
        "show --raw": ["show", "--raw", str(path)],
        "show --json": ["show", "--json", str(path)],
        "diff old": ["diff", str(path), str(valid)],
        "diff new": ["diff", str(valid), str(path)],
        "verify": ["verify", str(path)],
        "scan": ["scan", str(path)],
        "prune": ["prune", "--dry-run", str(path)],
        "rerun": ["rerun", str(path), "--out", str(scratch / "out"), "--dry-run"],
        "report": ["report", str(valid), str(path), "-o", str(scratch / "report.html")],
        "sync": ["sync", str(path), str(scratch / "synced.json")],
    }


EXPECTED_STATUS = {"verify": {1}, "scan": {1, 2}}
"""Exit status on a cassette that cannot be read or holds a malformed interaction: 2 (the
cassette is passed over), except where problems are the command's answer (1)."""
ACCEPTED_STATUS = {"diff old": 1, "diff new": 1, "prune": 1}
"""Exit status on a valid cassette: 0, but 1 where the command answers "differences" (the
valid cassette beside it differs) or "nothing to prune"."""
WORK_ON_STORED_ENTRIES = ("show --raw", "prune")
"""These work on the stored JSON as it is: a malformed interaction in a readable file is shown
(``--raw``), or removed if the last test run did not use it (``prune``); a file that cannot be
read is still exit status 2."""


class TookTooLong(BaseException):
    """Raised in the command by the alarm; a BaseException, so no handler of it takes it."""


@contextmanager
def time_limit(what: str) -> Iterator[None]:
    """Fails ``what`` if it has not ended within :data:`CASE_SECONDS`."""

    def expire(signum: int, frame: object) -> None:
        raise TookTooLong(f"{what}: no end within {CASE_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check(name: str, path: Path, argv: list[str], status: int, output: str) -> None:
    where = f"{name}: replay {' '.join(argv)} ->\n{output}"
    assert "Traceback" not in output, where
    if name == "list dir":
        assert status == 2, where
        assert str(path.parent / "valid.json") in output, where  # the others are listed
    elif name in WORK_ON_STORED_ENTRIES and status in (0, 1):
        return
    else:
        assert status in EXPECTED_STATUS.get(name, {2}), where
    assert str(path) in output, where


def check_accepted(name: str, argv: list[str], status: int, output: str) -> None:
    where = f"{name}: replay {' '.join(argv)} ->\n{output}"
    assert "Traceback" not in output, where
    assert status == ACCEPTED_STATUS.get(name, 0), where


JOURNAL_ID = "00000000000000000001-00000000-1-cafe"


def layout(tmp_path: Path, case: str, content: bytes) -> tuple[Path, Path]:
    directory = tmp_path / case.replace(" ", "_").replace(":", "")
    directory.mkdir()
    valid = directory / "valid.json"
    valid.write_bytes(cassette(valid_entry()))
    path = directory / "hostile.json"
    path.write_bytes(content)
    if case in JOURNALS:
        LOCAL.add_entry(path, JOURNAL_ID, JOURNALS[case])
    return path, valid


def check_replay(case: str, path: Path) -> None:
    """Replay in both modes: the recorded request raises a CassetteError naming the file (or
    replays, from a valid cassette); a request not recorded is a miss in mode ``none``, or
    again that CassetteError, never another exception."""
    for mode in ("none", "new_episodes"):
        with time_limit(f"{case}: replay {mode}"):
            if case in ACCEPTED:
                Cassette(path, mode).decide(REQUEST)
            else:
                with pytest.raises(CassetteError) as raised:
                    Cassette(path, mode).decide(REQUEST)
                assert raised.value.path == path, (case, mode, raised.value)
    with time_limit(f"{case}: a miss"), pytest.raises((CassetteError, CassetteMiss)) as missed:
        Cassette(path, "none").decide(OTHER)
    assert str(path) in str(missed.value), (case, missed.value)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_command_on_a_hostile_cassette(tmp_path: Path, case: str) -> None:
    path, valid = layout(tmp_path, case, CASES[case])
    runner = CliRunner()
    for name, argv in commands(path, valid, tmp_path).items():
        with time_limit(f"{case}: replay {' '.join(argv)}"):
            result = runner.invoke(main, argv)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{case}: replay {' '.join(argv)} raised") from result.exception
        if case in ACCEPTED:
            check_accepted(name, argv, result.exit_code, result.output)
        else:
            check(name, path, argv, result.exit_code, result.output)
        assert path.read_bytes() == CASES[case]  # nothing is ever rewritten
    check_replay(case, path)
    assert path.read_bytes() == CASES[case]
    if case in JOURNALS:  # reported, never folded nor removed
        assert LOCAL.read_entry(path, JOURNAL_ID) == JOURNALS[case]
    synced = tmp_path / "synced.json"
    assert synced.exists() == (case in ACCEPTED)  # nothing malformed is copied


def test_replay_serve_on_every_hostile_cassette(tmp_path: Path) -> None:
    """``replay serve`` replaying, each case's cassette asked for by ``X-Replay-Cassette``: one
    it cannot replay is answered ``500 replay_cassette_error`` naming the file, a valid one is
    replayed, and the server goes on serving the next."""
    upstream = "https://api.test"
    routed = (*REQUEST.headers, (ROUTE_HEADER, f"/={upstream}"))
    served_key = Cassette("unused.json").key_of(replace(REQUEST, headers=routed)).encode()
    root = tmp_path / "cassettes"
    root.mkdir()
    paths = {case: root / f"case{index}.json" for index, case in enumerate(sorted(CASES))}
    for case, path in paths.items():
        path.write_bytes(CASES[case].replace(KEY.encode(), served_key))
        if case in JOURNALS:
            LOCAL.add_entry(path, JOURNAL_ID, JOURNALS[case].replace(KEY.encode(), served_key))
    with (
        proxy({"/": upstream}, root, mode="none") as served,
        httpx.Client(timeout=CASE_SECONDS) as client,
    ):
        for case, path in paths.items():
            answer = client.post(
                served.url + "/v1/chat",
                content=REQUEST.body,
                headers={"content-type": "application/json", "x-replay-cassette": path.stem},
            )
            if case in ACCEPTED:
                assert answer.status_code == 200, (case, answer.text)
                continue
            assert answer.status_code == 500, (case, answer.text)
            error = answer.json()["error"]
            assert error["type"] == "replay_cassette_error", (case, error)
            assert str(path) in error["message"], (case, error)
    for case, path in paths.items():
        assert path.read_bytes() == CASES[case].replace(KEY.encode(), served_key)


def vcr_cassette(uri: str = REQUEST.url, body: str = "{}", status: str = "200") -> bytes:
    """A vcrpy cassette of one interaction, as vcrpy writes it (YAML)."""
    return (
        "interactions:\n- request:\n"
        f"    body: {json.dumps(body)}\n    headers: {{}}\n    method: POST\n"
        f"    uri: {json.dumps(uri)}\n"
        "  response:\n    body: {string: ok}\n    headers: {}\n"
        f"    status: {{code: {status}, message: OK}}\nversion: 1\n"
    ).encode()


VCR_CASES: dict[str, tuple[bytes, bool]] = {
    "bad url: port out of range": (vcr_cassette("http://127.0.0.1:999999/x"), False),
    "bad url: unclosed ipv6": (vcr_cassette("http://[::1/x"), False),
    "bad url: no host": (vcr_cassette("https:///v1/chat"), False),
    "bad utf-8": (vcr_cassette().replace(b"string: ok", b"string: o\xc3\x28k"), False),
    "status text": (vcr_cassette(status="ok"), False),
    "interactions a number": (b"interactions: 7\nversion: 1\n", False),
    "deep yaml": (b"interactions: " + nested(10_000) + b"\nversion: 1\n", False),
    "deep json": (b'{"version": 1, "interactions": ' + nested(100_000) + b"}", False),
    **{f"deep body {depth}": (vcr_cassette(body=nested(depth).decode()), True) for depth in DEPTHS},
}
"""vcrpy cassettes for ``import-vcr``, and whether they convert: a body too deep for JSON
storage converts as text, into a cassette every command can read."""


@pytest.mark.parametrize("case", sorted(VCR_CASES))
def test_import_vcr_on_a_hostile_vcrpy_cassette(tmp_path: Path, case: str) -> None:
    content, converts = VCR_CASES[case]
    source = tmp_path / "hostile.yaml"
    source.write_bytes(content)
    with time_limit(f"{case}: replay import-vcr"):
        result = CliRunner().invoke(main, ["import-vcr", str(source)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{case}: replay import-vcr raised") from result.exception
    assert "Traceback" not in result.output
    assert source.read_bytes() == content
    converted = tmp_path / "hostile.json"
    if converts:
        assert result.exit_code == 0, result.output
        verified = CliRunner().invoke(main, ["verify", str(converted)])
        assert verified.exit_code == 0, verified.output
    else:
        assert result.exit_code == 1, result.output
        assert str(source) in result.output
        assert not converted.exists()


SPECIAL_DRIVER = """
import json, signal, sys
from click.testing import CliRunner
from replay.tools.cli import main
class TookTooLong(BaseException):
    pass
def expire(signum, frame):
    raise TookTooLong
signal.signal(signal.SIGALRM, expire)
results = []
for argv in json.loads(sys.argv[1]):
    signal.alarm(int(sys.argv[2]))
    try:
        result = CliRunner().invoke(main, argv)
    except TookTooLong:
        results.append([None, "no end in time"])
        continue
    finally:
        signal.alarm(0)
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    results.append([result.exit_code, result.output + ("Traceback" if crashed else "")])
print(json.dumps(results))
"""


def _limit_memory() -> None:
    """A gigabyte of address space: reading /dev/zero whole fails fast instead of filling RAM."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def special_files(directory: Path) -> dict[str, Path]:
    files = {
        "zero": Path("/dev/zero"),
        "urandom": Path("/dev/urandom"),
        "fifo": directory / "fifo.target",
    }
    os.mkfifo(files["fifo"])
    linked = {}
    for name, target in files.items():
        link = directory / name / "hostile.json"
        link.parent.mkdir()
        link.symlink_to(target)
        (link.parent / "valid.json").write_bytes(cassette(valid_entry()))
        linked[name] = link
    fifo = directory / "plain_fifo" / "hostile.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    (fifo.parent / "valid.json").write_bytes(cassette(valid_entry()))
    loop = directory / "loop" / "hostile.json"
    loop.parent.mkdir()
    loop.symlink_to(loop.parent / "other.json")
    (loop.parent / "other.json").symlink_to(loop)
    (loop.parent / "valid.json").write_bytes(cassette(valid_entry()))
    huge = directory / "huge" / "hostile.json"
    huge.parent.mkdir()
    with huge.open("wb") as file:
        file.truncate(MAX_CASSETTE_BYTES + 1)  # sparse: a gigabyte on paper, nothing on disk
    (huge.parent / "valid.json").write_bytes(cassette(valid_entry()))
    return {**linked, "plain fifo": fifo, "loop": loop, "huge": huge}


REFUSED_SPECIAL = {"huge": "more than the", "loop": "symbolic links"}
"""What each special file is refused as: by default, not a regular file."""


def test_every_command_on_special_files(tmp_path: Path) -> None:
    """Refused before anything is read from them, so nothing hangs nor fills memory."""
    cases = special_files(tmp_path)
    runs: list[tuple[str, Path, str, list[str]]] = []
    for case, path in cases.items():
        for name, argv in commands(path, path.parent / "valid.json", tmp_path).items():
            if STRESS or name in ("list", "list dir", "show", "verify", "scan", "diff new"):
                runs.append((case, path, name, argv))
    finished = subprocess.run(
        [
            sys.executable,
            "-c",
            SPECIAL_DRIVER,
            json.dumps([argv for *_, argv in runs]),
            str(CASE_SECONDS),
        ],
        capture_output=True,
        text=True,
        timeout=60 + CASE_SECONDS * len(runs),  # the driver's own alarms should come first
        preexec_fn=_limit_memory,
    )
    assert finished.returncode == 0, finished.stderr
    for (case, path, name, argv), (status, output) in zip(
        runs, json.loads(finished.stdout), strict=True
    ):
        assert status is not None, f"[{case}] replay {' '.join(argv)}: no end in {CASE_SECONDS} s"
        check(f"{name}", path, argv, status, f"[{case}] {output}")
        if name != "list dir":
            assert REFUSED_SPECIAL.get(case, "not a regular file") in output, (case, output)
    for case, path in cases.items():
        if case not in ("loop", "plain fifo", "fifo"):
            with time_limit(f"{case}: replay"), pytest.raises(CassetteError) as raised:
                Cassette(path, "none").decide(REQUEST)
            assert raised.value.path == path
