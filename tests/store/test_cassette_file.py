from __future__ import annotations

import gc
import os
import stat
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest
from filelock import FileLock

from replay._core.errors import CassetteError, CassetteVersionError
from replay._core.model import Chunk, Interaction, Request, Response, TransportFailure
from replay._store import cassette_file as store

SSE = "text/event-stream"


def sample() -> Interaction:
    request = Request(
        "POST",
        "https://api.test/v1/chat/completions",
        (("content-type", "application/json"),),
        b'{"model":"m","stream":true}',
    )
    return Interaction(
        "k" * 32,
        request,
        [
            Response(
                200,
                (("content-type", "application/json"),),
                (Chunk(b'{"a":1}', 0.0),),
                "2026-01-01T00:00:00Z",
            ),
            Response(
                200,
                (("content-type", SSE),),
                (
                    Chunk(b"data: {}\n\n", 0.01),
                    Chunk("data: \u00e9".encode()[:-1], 0.02),
                    Chunk(b"\xa9\n\n", 0.03),
                ),
                "2026-01-01T00:00:00Z",
                complete=False,
            ),
            Response(500, (), (Chunk(b"\xff\xfebinary", 0.0),), "2026-01-01T00:00:00Z"),
            TransportFailure(
                "ConnectError", "[Errno 111] Connection refused", "2026-01-01T00:00:00Z"
            ),
        ],
    )


def test_entries_round_trip(tmp_path: Path) -> None:
    interaction = sample()
    entry = store.encode(interaction)
    assert entry["request"]["body"] == {"json": {"model": "m", "stream": True}}
    assert entry["responses"][0]["body"] == {"json": {"a": 1}}
    assert entry["responses"][1]["chunks"][1] == {"at": 0.02, "base64": "ZGF0YTogww=="}
    assert entry["responses"][2]["body"] == {"base64": "//5iaW5hcnk="}
    assert store.decode(tmp_path, interaction.key, entry) == interaction


def test_save_then_load(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "c.json"
    interaction = sample()
    store.save(path, {interaction.key: store.encode(interaction)})
    data = path.read_bytes()
    assert data.startswith(b'{\n  "interactions": {') and data.endswith(b'"version": 1\n}\n')
    loaded = store.load(path)
    assert store.decode(path, interaction.key, loaded.interactions[interaction.key]) == interaction
    assert [p.name for p in path.parent.iterdir()] == ["c.json"]  # no temporary left behind


def test_dump_is_deterministic() -> None:
    interactions = {"b": {"x": 1, "a": [1, 2]}, "a": {}}
    assert store.dump(interactions) == store.dump(dict(reversed(list(interactions.items()))))


def test_load_is_cached_until_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    store.save(path, {})
    first = store.load(path)
    assert store.load(path) is first
    path.write_bytes(store.dump({"k": {}}))
    os.utime(path, ns=(1, 1))
    assert store.load(path).interactions == {"k": {}}


def test_a_cassette_reopened_soon_is_parsed_once(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    store.save(path, {})
    first = weakref.ref(store.load(path))  # no reference kept: as a test's Cassette, gone after it
    assert store.load(path) is first()


def test_a_parsed_cassette_no_cassette_holds_is_freed_once_newer_ones_are_read(
    tmp_path: Path,
) -> None:
    """A long suite must not keep every cassette it ever read parsed in memory."""
    path = tmp_path / "first.json"
    store.save(path, {})
    freed = weakref.ref(store.load(path))
    for n in range(8):  # more than RECENT_BYTES of them
        later = tmp_path / f"later-{n}.json"
        later.write_bytes(store.dump({}) + b" " * (store.RECENT_BYTES // 4))
        store.load(later)
    gc.collect()
    assert freed() is None
    assert store.load(path).interactions == {}  # read again, from the file


def test_a_parsed_cassette_stays_while_a_cassette_holds_it(tmp_path: Path) -> None:
    path = tmp_path / "held.json"
    store.save(path, {})
    held = store.load(path)
    for n in range(8):
        later = tmp_path / f"later-{n}.json"
        later.write_bytes(store.dump({}) + b" " * (store.RECENT_BYTES // 4))
        store.load(later)
    gc.collect()
    assert store.load(path) is held


def test_a_missing_file_is_empty(tmp_path: Path) -> None:
    loaded = store.load(tmp_path / "absent.json")
    assert loaded.interactions == {} and loaded.signature is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"version": 1, "interactions": {"k": ', "is not valid JSON"),
        (b"not json at all", "is not valid JSON"),
        (b"", "is empty"),
        (b"[1, 2]", "holds a JSON list, not a cassette object"),
        (b'{"version": 7, "interactions": {}}', "unknown format version 7"),
        (b'{"interactions": {}}', "unknown format version None"),
        (b'{"version": 1, "interactions": []}', '"interactions" is not an object'),
    ],
)
def test_bad_files_name_the_file_and_stay_unchanged(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CassetteError) as caught:
        store.load(path)
    assert caught.value.path == path
    assert str(path) in str(caught.value) and message in str(caught.value)
    assert path.read_bytes() == content


def test_unknown_version_is_its_own_error(tmp_path: Path) -> None:
    path = tmp_path / "v2.json"
    path.write_bytes(b'{"version": 2, "interactions": {}}')
    with pytest.raises(CassetteVersionError) as caught:
        store.load(path)
    assert caught.value.found == 2 and caught.value.supported == 1


def test_a_directory_is_not_a_cassette(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match="is a directory"):
        store.load(tmp_path)


URL = "https://api.test/u"


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"responses": []}, "missing field 'request'"),
        ({"request": {"method": 1, "url": URL}, "responses": []}, "expected a string"),
        (
            {"request": {"method": "GET", "url": URL}, "responses": [{"status": "200"}]},
            "not an HTTP status",
        ),
        (
            {
                "request": {"method": "GET", "url": URL},
                "responses": [{"status": 200, "body": {"base64": "%%"}}],
            },
            "",
        ),
        (
            {
                "request": {"method": "GET", "url": URL},
                "responses": [{"status": 200, "chunks": [{"at": -1, "text": ""}]}],
            },
            "chunk time",
        ),
    ],
)
def test_malformed_entries_name_the_file_and_the_key(
    tmp_path: Path, entry: object, message: str
) -> None:
    with pytest.raises(CassetteError) as caught:
        store.decode(tmp_path / "c.json", "abc123", entry)
    assert "interaction abc123 is malformed" in str(caught.value) and message in str(caught.value)


def test_a_failed_write_leaves_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.json"
    store.save(path, {"old": {}})
    before = path.read_bytes()

    def broken_fsync(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(CassetteError, match="cannot write: No space left on device"):
        store.save(path, {"new": {}})
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]


def test_saving_keeps_the_files_permissions(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    store.save(path, {})
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    path.chmod(0o640)
    store.save(path, {"k": {}})
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_lock_held_too_long_is_a_cassette_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "c.json"
    monkeypatch.setattr(store, "LOCK_TIMEOUT_SECONDS", 0.05)
    with FileLock(tmp_path / ".c.json.lock"), pytest.raises(CassetteError) as caught:
        with store.lock(path):
            pass
    assert caught.value.path == path and "locked by another process" in str(caught.value)


def test_loading_while_another_process_replaces_the_file_reads_one_whole_version(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.json"
    small, large = {"a": {}}, {f"k{i}": {"pad": "x" * 100} for i in range(300)}
    store.save(path, small)
    stop = threading.Event()

    def replace_back_and_forth() -> None:
        while not stop.is_set():
            for version in (large, small):
                store.write_atomically(path, store.dump(version))

    writer = threading.Thread(target=replace_back_and_forth)
    writer.start()
    try:
        for _ in range(2000):
            store._cache.clear()
            assert store.load(path).interactions in (small, large)
    finally:
        stop.set()
        writer.join()


def test_json_that_is_not_a_cassette_says_so(tmp_path: Path) -> None:
    path = tmp_path / "package.json"
    path.write_bytes(b'{"name": "x"}')
    with pytest.raises(CassetteError, match="is JSON but not a replay cassette"):
        store.load(path)


FORK_WHILE_HELD = """
import os, sys, threading, time
from pathlib import Path
from replay._store import cassette_file, usage
path = Path(sys.argv[1])
cassette_file.save(path, {{}})
held, release = threading.Event(), threading.Event()

def hold(lock):
    with lock:
        held.set()
        release.wait()

threading.Thread(target=hold, args=({held},), daemon=True).start()
held.wait()
child = os.fork()
if child == 0:
    {then}
    os._exit(0)
release.set()
for _ in range(400):
    done, status = os.waitpid(child, os.WNOHANG)
    if done:
        sys.exit(os.waitstatus_to_exitcode(status))
    time.sleep(0.025)
os.kill(child, 9)
sys.exit("the child is stuck on a lock its parent's thread held at the fork")
"""


@pytest.mark.parametrize(
    ("held", "then"),
    [
        ("cassette_file._cache_lock", "cassette_file.load(path)"),
        ("usage._log._lock", "usage.track(path, set())"),
    ],
    ids=["cassette cache", "usage log"],
)
def test_a_forked_child_is_not_stuck_on_a_lock_a_parent_thread_held(
    tmp_path: Path, held: str, then: str
) -> None:
    script = FORK_WHILE_HELD.format(held=held, then=then)
    finished = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "c.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert finished.returncode == 0, finished.stderr
