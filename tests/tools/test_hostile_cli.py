"""Every command of the command line on hostile cassette files: bad URLs, deep nesting, bad
UTF-8, a wrong type in every field, special files. Each must end, with a documented exit status
and a message naming the file, never a traceback.

Regular files run through click's test runner in this process; special files (a device, a
FIFO, a symbolic-link loop), which could hang or fill memory, in one subprocess with a timeout
and a memory limit. ``REPLAY_STRESS=1`` (the nox ``stress`` session) adds more depths and
runs every command on every case.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from replay import Cassette
from replay._core.model import Request
from replay.tools.cli import main

STRESS = os.environ.get("REPLAY_STRESS") == "1"
DEPTHS = (250, 300, 1_000, 10_000) + ((200, 254, 255, 600, 1_023, 1_024, 1_025) if STRESS else ())

REQUEST = Request(
    "POST", "https://api.test/v1/chat", (("content-type", "application/json"),), b"{}"
)
KEY = Cassette("unused.json").key_of(REQUEST)


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


def _wrong(value: Any) -> Any:
    """A value of another JSON type than ``value``'s, never null (which may mean "absent")."""
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, dict):
        return []
    return {}


def wrong_types() -> Iterator[tuple[str, bytes]]:
    """The valid entry with one field, at any depth, of the wrong type."""

    def walk(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
        if path and path[-1] == "json":
            return  # any JSON is a JSON body
        if path:
            yield path
        if isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for name, item in items:
                yield from walk(item, (*path, name))

    for path in walk(valid_entry(), ()):
        entry = valid_entry()
        target = entry
        for name in path[:-1]:
            target = target[name]
        target[path[-1]] = _wrong(target[path[-1]])
        yield "wrong type " + ".".join(map(str, path)), cassette(entry)


def bad_url(url: str) -> bytes:
    entry = valid_entry()
    entry["request"]["url"] = url
    return cassette(entry)


def deep_document(depth: int) -> bytes:
    """A request body ``depth`` levels deep stored as JSON, as a hand-edited file could."""
    marker = b'"DEEP"'
    return cassette({**valid_entry(), "request": {**valid_entry()["request"], "body": {
        "json": "DEEP"}}}).replace(marker, nested(depth))  # fmt: skip


CASES: dict[str, bytes] = {
    "bad url: port out of range": bad_url("http://127.0.0.1:999999/x"),
    "bad url: unclosed ipv6": bad_url("http://[::1/x"),
    "bad url: no host": bad_url("https:///v1/chat"),
    "bad url: not http": bad_url("ftp://api.test/x"),
    "bad utf-8 in a key": b'{"version": 1, "interactions": {"\xff": {}}}',
    "bad utf-8 in a body": cassette(valid_entry()).replace(b'"ok"', b'"o\xc3\x28k"'),
    "wrong type: interactions": orjson.dumps({"version": 1, "interactions": []}),
    "wrong type: version": orjson.dumps({"version": "1", "interactions": {}}),
    "wrong type: entry": cassette([]),
    "wrong type: folded entries": cassette(valid_entry(), folded_journal_entries=7),
    **dict(wrong_types()),
    **{f"deep body {depth}": deep_document(depth) for depth in DEPTHS},
    "deep document 100000": b'{"version": 1, "interactions": ' + nested(100_000) + b"}",
}


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
    }


EXPECTED_STATUS = {"verify": {1}, "scan": {1, 2}}
"""Exit status on a cassette that cannot be read or holds a malformed interaction: 2 (the
cassette is passed over), except where problems are the command's answer (1)."""
WORK_ON_STORED_ENTRIES = ("show --raw", "prune")
"""These work on the stored JSON as it is: a malformed interaction in a readable file is shown
(``--raw``), or removed if the last test run did not use it (``prune``); a file that cannot be
read is still exit status 2."""


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


def layout(tmp_path: Path, case: str, content: bytes) -> tuple[Path, Path]:
    directory = tmp_path / case.replace(" ", "_").replace(":", "")
    directory.mkdir()
    valid = directory / "valid.json"
    valid.write_bytes(cassette(valid_entry()))
    path = directory / "hostile.json"
    path.write_bytes(content)
    return path, valid


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_command_on_a_hostile_cassette(tmp_path: Path, case: str) -> None:
    path, valid = layout(tmp_path, case, CASES[case])
    runner = CliRunner()
    for name, argv in commands(path, valid, tmp_path).items():
        result = runner.invoke(main, argv)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"{case}: replay {' '.join(argv)} raised") from result.exception
        check(name, path, argv, result.exit_code, result.output)
        assert path.read_bytes() == CASES[case]  # nothing is ever rewritten


SPECIAL_DRIVER = """
import json, sys
from click.testing import CliRunner
from replay.tools.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    result = CliRunner().invoke(main, argv)
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
    return {**linked, "plain fifo": fifo, "loop": loop}


def test_every_command_on_special_files(tmp_path: Path) -> None:
    """Refused as not regular files; nothing read from them, so nothing hangs."""
    cases = special_files(tmp_path)
    runs: list[tuple[str, Path, str, list[str]]] = []
    for case, path in cases.items():
        for name, argv in commands(path, path.parent / "valid.json", tmp_path).items():
            if STRESS or name in ("list", "list dir", "show", "verify", "scan", "diff new"):
                runs.append((case, path, name, argv))
    finished = subprocess.run(
        [sys.executable, "-c", SPECIAL_DRIVER, json.dumps([argv for *_, argv in runs])],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert finished.returncode == 0, finished.stderr
    for (case, path, name, argv), (status, output) in zip(
        runs, json.loads(finished.stdout), strict=True
    ):
        check(f"{name}", path, argv, status, f"[{case}] {output}")
        if name != "list dir":
            assert "not a regular file" in output or "symbolic links" in output, (case, output)
