"""The local journal's append-only logs: one write per recorded call, a torn tail dropped and
never misread, concurrent appenders (processes and threads) folded exactly once, a live
writer's log never removed, the ``.entry`` files of earlier versions still folded.

``REPLAY_STRESS=1`` (the nox ``stress`` session) runs 1,000 examples of the framing property.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_journal import answer, answers, chat, record

from replay import Cassette
from replay._core.model import Interaction
from replay._store import cassette_file, journal, journal_log
from replay._store.backend import LOCAL, journal_directory

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 50

RECORDER = """
import sys, threading
from replay import Cassette
from replay._core.model import Chunk, Request, Response

path, name, threads, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
cassette = Cassette(path, "new_episodes")

def record(index):
    request = Request("POST", "http://api.test/v1/chat", (), b'{"prompt": "%s"}' % index.encode())
    body = b'{"text": "%s"}' % index.encode()
    cassette.add(cassette.decide(request), Response(
        200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "t"))

def thread(number):
    for call in range(calls):
        record(f"{name}-{number}-{call}")

workers = [threading.Thread(target=thread, args=(n,)) for n in range(threads)]
for worker in workers:
    worker.start()
for worker in workers:
    worker.join()
print("recorded", flush=True)
for line in sys.stdin:  # "N": record N more; nothing is ever saved
    thread(f"more{line.strip()}")
    print("recorded", flush=True)
"""


def start_recorder(
    path: Path, name: str, threads: int = 1, calls: int = 3
) -> subprocess.Popen[str]:
    recorder = subprocess.Popen(
        [sys.executable, "-c", RECORDER, str(path), name, str(threads), str(calls)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert recorder.stdout is not None
    assert recorder.stdout.readline().strip() == "recorded"
    return recorder


def kill(recorder: subprocess.Popen[str]) -> None:
    recorder.send_signal(signal.SIGKILL)
    recorder.wait()


def logs(path: Path) -> list[str]:
    return journal_log.log_names(journal_directory(path))


def killed_recorder_log(path: Path, calls: int) -> Path:
    recorder = start_recorder(path, "k", calls=calls)
    kill(recorder)
    (log,) = logs(path)
    return journal_directory(path) / log


def test_recorded_calls_are_appended_to_one_log_with_nothing_else_written(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    for text in ("one", "two", "three"):
        record(cassette, text)
    directory = journal_directory(path)
    (log,) = os.listdir(directory)  # no file per call
    assert log.endswith(journal_log.LOG_SUFFIX)
    whole = list(journal_log.complete_records((directory / log).read_bytes(), 0))
    assert len(whole) == 3 and (directory / log).stat().st_size == whole[-1].end
    cassette.save()
    assert answers(cassette_file.load(path).interactions) == ["one", "three", "two"]
    assert not directory.exists()  # this process's own log, closed by its save, is removed


@pytest.mark.parametrize(
    "tear",
    ["cut in the header", "cut in the payload", "a flipped payload byte", "zeros appended"],
)
def test_a_torn_tail_is_dropped_and_the_records_before_it_kept(tmp_path: Path, tear: str) -> None:
    path = tmp_path / "c.json"
    log = killed_recorder_log(path, calls=3)
    data = bytearray(log.read_bytes())
    last = list(journal_log.complete_records(bytes(data), 0))[-1]
    if tear == "cut in the header":
        del data[last.start + 5 :]
    elif tear == "cut in the payload":
        del data[last.end - 3 :]
    elif tear == "a flipped payload byte":
        data[last.end - 2] ^= 0x20
    else:
        data += bytes(64)
    log.write_bytes(bytes(data))
    kept = ["k-0-0", "k-0-1"] if tear != "zeros appended" else ["k-0-0", "k-0-1", "k-0-2"]
    assert answers(journal.view(LOCAL, path).interactions) == kept
    journal.fold(LOCAL, path)
    assert answers(cassette_file.load(path).interactions) == kept
    assert not journal_directory(path).exists()  # the writer is gone: its log with it


frames = st.lists(st.binary(min_size=0, max_size=200), min_size=1, max_size=8)


@settings(max_examples=EXAMPLES, deadline=None)
@given(frames, st.data())
def test_a_log_cut_or_damaged_anywhere_in_its_last_record_gives_the_records_before(
    payloads: list[bytes], data: st.DataObject
) -> None:
    records = [journal_log.frame(f"id{n}", payload) for n, payload in enumerate(payloads)]
    log = b"".join(records)
    last_start = len(log) - len(records[-1])
    torn = bytearray(log[: data.draw(st.integers(last_start, len(log) - 1), label="cut")])
    if data.draw(st.booleans(), label="damaged") and len(torn) > last_start:
        torn[data.draw(st.integers(last_start, len(torn) - 1), label="byte")] ^= 0xFF
    found = list(journal_log.complete_records(bytes(torn), 100))
    assert [(r.entry_id, r.data) for r in found] == [
        (f"id{n}", payload) for n, payload in enumerate(payloads[:-1])
    ]
    assert [r.start for r in found] == [100 + len(b"".join(records[:n])) for n in range(len(found))]


def test_a_live_writers_log_is_folded_up_to_its_end_and_never_removed(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    recorder = start_recorder(path, "live")
    try:
        journal.fold(LOCAL, path)
        (log,) = logs(path)  # still being appended to: kept, with how far it was folded
        assert (journal_directory(path) / f"{log}{journal_log.CONSUMED_SUFFIX}").exists()
        assert not LOCAL.entry_ids(path)
        assert recorder.stdin is not None and recorder.stdout is not None
        recorder.stdin.write("1\n")
        recorder.stdin.flush()
        assert recorder.stdout.readline().strip() == "recorded"
        assert logs(path) == [log]
        seen = answers(journal.view(LOCAL, path).interactions)
        assert seen == ["live-0-0", "live-0-1", "live-0-2", *[f"live-more1-{n}" for n in range(3)]]
        journal.fold(LOCAL, path)
        assert answers(cassette_file.load(path).interactions) == seen  # each once
        assert logs(path) == [log]
    finally:
        kill(recorder)
    journal.fold(LOCAL, path)  # the writer is gone: its log and offset go
    assert not journal_directory(path).exists()
    assert answers(cassette_file.load(path).interactions) == seen


def test_concurrent_appenders_are_folded_exactly_once(tmp_path: Path) -> None:
    """Four processes of three threads each append to the journal while this one folds."""
    path = tmp_path / "c.json"
    recorders = [start_recorder(path, f"p{n}", threads=3, calls=20) for n in range(4)]
    expected: list[str] = []
    try:
        for round_ in range(3):
            for recorder in recorders:
                assert recorder.stdin is not None
                recorder.stdin.write(f"{round_}\n")
                recorder.stdin.flush()
            journal.fold(LOCAL, path)  # while they append
            for recorder in recorders:
                assert recorder.stdout is not None
                assert recorder.stdout.readline().strip() == "recorded"
        assert len(logs(path)) == 4  # one log per process, its threads sharing it
    finally:
        for recorder in recorders:
            kill(recorder)
    for n in range(4):
        expected += [f"p{n}-{t}-{c}" for t in range(3) for c in range(20)]
        expected += [f"p{n}-more{r}-{c}" for r in range(3) for c in range(20)]
    journal.fold(LOCAL, path)
    assert answers(cassette_file.load(path).interactions) == sorted(expected)
    assert not journal_directory(path).exists()


def test_a_forked_child_appends_to_a_log_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    add(path, "parent before")
    child = os.fork()
    if child == 0:  # pragma: no cover (runs in the child)
        try:
            add(path, "child")
        finally:
            os._exit(0)
    assert os.waitpid(child, 0)[1] == 0
    add(path, "parent after")
    assert len(logs(path)) == 2
    journal.fold(LOCAL, path)
    assert answers(cassette_file.load(path).interactions) == [
        "child",
        "parent after",
        "parent before",
    ]
    assert not journal_directory(path).exists()


def add(path: Path, text: str) -> None:
    request = cassette_file.encode(Interaction(text, chat(text), []))["request"]
    response = cassette_file.encode_outcome(answer(text))
    journal.add(LOCAL, path, text, request, response, reset=False)


def test_entries_left_by_an_earlier_version_are_folded_with_the_logs(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    add(path, "in a log")
    request = cassette_file.encode(Interaction("old", chat("old"), []))["request"]
    entry: dict[str, Any] = {
        "version": journal.ENTRY_VERSION,
        "key": "old",
        "request": request,
        "response": cassette_file.encode_outcome(answer("as an entry")),
    }
    old_entry = journal_directory(path) / "00000000000000000001-00000000-1-cafe.entry"
    old_entry.write_bytes(orjson.dumps(entry))
    assert len(LOCAL.entry_ids(path)) == 2
    assert answers(journal.view(LOCAL, path).interactions) == ["as an entry", "in a log"]
    journal.fold(LOCAL, path)
    assert answers(cassette_file.load(path).interactions) == ["as an entry", "in a log"]
    assert not journal_directory(path).exists()


@settings(max_examples=EXAMPLES, deadline=None)
@given(frames, st.data())
def test_whether_a_whole_record_starts_somewhere_is_read_from_that_record_alone(
    payloads: list[bytes], data: st.DataObject
) -> None:
    """The sweep reads only the record at an offset: it answers as reading the rest would."""
    log = bytearray(b"".join(journal_log.frame(f"id{n}", p) for n, p in enumerate(payloads)))
    if data.draw(st.booleans(), label="torn"):
        del log[data.draw(st.integers(0, len(log)), label="cut") :]
    if data.draw(st.booleans(), label="damaged") and log:
        log[data.draw(st.integers(0, len(log) - 1), label="byte")] ^= 0xFF
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        (directory / "x.log").write_bytes(bytes(log))
        for offset in {0, *(r.end for r in journal_log.complete_records(bytes(log), 0))}:
            rest = bytes(log[offset:])
            whole = next(journal_log.complete_records(rest, offset), None) is not None
            assert journal_log._record_from(directory, "x.log", offset) == whole
