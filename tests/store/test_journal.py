"""The journal: readers see unfolded entries once, a fold is exactly-once even when it stops
half-way, and the Store interface is enough for an object store with no appends and no locks."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from replay import Cassette, CassetteError
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Interaction, Request, Response
from replay._store import cassette_file, journal
from replay._store.backend import LOCAL, Conflict, LocalStore, journal_directory
from replay._store.cassette_file import Loaded


def chat(text: str) -> Request:
    return Request("POST", "http://api.test/v1/chat", (), orjson.dumps({"prompt": text}))


def answer(text: str) -> Response:
    body = orjson.dumps({"text": text})
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "t")


def record(cassette: Cassette, text: str) -> None:
    decision = cassette.decide(chat(text))
    assert isinstance(decision, Record)
    cassette.add(decision, answer(text))


def answers(interactions: dict[str, Any]) -> list[str]:
    return sorted(
        orjson.loads(cassette_file.decode_body(response["body"]))["text"]
        for entry in interactions.values()
        for response in entry["responses"]
    )


def test_a_recording_is_journalled_at_once_and_readers_see_it(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    record(cassette, "one")
    assert not path.exists()  # not folded yet: no rewrite per call
    assert len(LOCAL.entry_ids(path)) == 1
    assert answers(journal.view(LOCAL, path).interactions) == ["one"]
    cassette.save()
    assert answers(cassette_file.load(path).interactions) == ["one"]
    assert not journal_directory(path).exists()  # folded entries and their directory removed
    assert cassette_file.FOLDED_FIELD.encode() not in path.read_bytes()


class Stopping(LocalStore):
    """A local store whose process "dies" (raises) right after a chosen step of a fold."""

    def __init__(self, fail_at: str) -> None:
        self.fail_at = fail_at

    def remove_entries(self, path: Path, entry_ids: Iterable[str]) -> None:
        if self.fail_at == "before removing":
            raise KeyboardInterrupt
        super().remove_entries(path, entry_ids)
        if self.fail_at == "after removing":
            raise KeyboardInterrupt


@pytest.mark.parametrize("fail_at", ["before removing", "after removing"])
def test_a_fold_stopped_half_way_folds_nothing_twice(tmp_path: Path, fail_at: str) -> None:
    path = tmp_path / "c.json"
    with Cassette(path, "new_episodes") as cassette:
        record(cassette, "saved before")
    cassette = Cassette(path, "new_episodes")
    record(cassette, "one")
    record(cassette, "two")
    with pytest.raises(KeyboardInterrupt):
        journal.fold(Stopping(fail_at), path)
    assert cassette_file.load(path).folded  # stopped between the two writes
    expected = ["one", "saved before", "two"]
    assert answers(journal.view(LOCAL, path).interactions) == expected
    journal.fold(LOCAL, path)
    assert answers(cassette_file.load(path).interactions) == expected
    assert not cassette_file.load(path).folded and not LOCAL.entry_ids(path)


class FoldingWhileRead(LocalStore):
    """A reader that is overtaken by a whole fold between listing the journal and reading."""

    def read(self, path: Path) -> Loaded:
        journal.fold(LOCAL, path)
        return super().read(path)


def test_a_reader_overtaken_by_a_fold_counts_each_entry_once(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    record(cassette, "one")
    assert answers(journal.view(FoldingWhileRead(), path).interactions) == ["one"]


class FoldedAfterTheRead(LocalStore):
    """A reader whose cassette read is overtaken by a whole fold, ``folds`` times; each fold
    absorbs what the reader listed and leaves a new entry behind for its next listing."""

    def __init__(self, folds: int) -> None:
        self.folds = folds
        self.done = 0

    def read(self, path: Path) -> Loaded:
        base = super().read(path)
        if self.done < self.folds:
            self.done += 1
            journal.fold(LOCAL, path)
            record(Cassette(path, "new_episodes"), f"left by fold {self.done}")
        return base


def test_a_reader_whose_cassette_read_a_fold_overtook_reads_again(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path, "new_episodes") as cassette:
        record(cassette, "saved")
    record(Cassette(path, "new_episodes"), "journalled")
    seen = journal.view(FoldedAfterTheRead(folds=2), path)
    assert answers(seen.interactions) == ["journalled", "left by fold 1", "left by fold 2", "saved"]


def test_a_replaying_process_overtaken_by_a_fold_replays_what_it_folded(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path, "new_episodes") as cassette:
        record(cassette, "saved")
    record(Cassette(path, "new_episodes"), "journalled")
    replaying = Cassette(path, "none")
    replaying._store = FoldedAfterTheRead(folds=1)
    assert isinstance(replaying.decide(chat("journalled")), Replay)  # not a miss


def test_a_reader_overtaken_by_folds_every_time_gives_up_saying_so(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    record(Cassette(path, "new_episodes"), "journalled")
    with pytest.raises(CassetteError, match=f"kept changing under {journal.ATTEMPTS} attempts"):
        journal.view(FoldedAfterTheRead(folds=journal.ATTEMPTS), path)


def test_a_torn_entry_is_an_error_naming_it_and_nothing_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    record(cassette, "one")
    (journal_directory(path) / "00000000000000000001-x.entry").write_bytes(b"")
    with pytest.raises(CassetteError, match="journal entry 00000000000000000001-x is not"):
        journal.view(LOCAL, path)
    with pytest.raises(CassetteError, match="torn by a power loss"):
        cassette.save()
    assert len(LOCAL.entry_ids(path)) == 2 and not path.exists()
    (journal_directory(path) / "00000000000000000001-x.entry").unlink()  # as the message says
    cassette.save()
    assert answers(cassette_file.load(path).interactions) == ["one"]


def test_mode_all_journals_a_reset_and_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path, "new_episodes") as cassette:
        record(cassette, "old")
        record(cassette, "kept")
    rerecording = Cassette(path, "all")
    decision = rerecording.decide(chat("old"))
    assert isinstance(decision, Record)
    rerecording.add(decision, answer("new"))
    view = journal.view(LOCAL, path).interactions
    assert answers(view) == ["kept", "new"]
    rerecording.save()
    assert answers(cassette_file.load(path).interactions) == ["kept", "new"]


class ObjectStore:
    """An S3-like store: whole objects with versions, conditional writes, no appends, no
    locks (``exclusive`` does nothing). What the Store protocol promises, nothing more."""

    def __init__(self) -> None:
        self._objects: dict[str, tuple[int, bytes]] = {}
        self._versions = 0
        self._guard = threading.Lock()  # the service's own atomicity of one request

    def _put(self, name: str, data: bytes, expected: Any = "any") -> int:
        with self._guard:
            current = self._objects.get(name)
            if expected != "any" and (current[0] if current else None) != expected:
                raise Conflict(name)
            self._versions += 1
            self._objects[name] = (self._versions, data)
            return self._versions

    def settled(self, path: Path) -> Loaded | None:
        return None  # nothing cheaper than a read of the journal and the cassette

    def read(self, path: Path) -> Loaded:
        with self._guard:
            found = self._objects.get(str(path))
        if found is None:
            return Loaded({}, None)
        document = cassette_file.parse_document(path, found[1])
        folded = frozenset(document.get(cassette_file.FOLDED_FIELD, []))
        return Loaded(document["interactions"], (found[0], 0, 0), folded)

    def write(
        self, path: Path, interactions: dict[str, Any], folded: Iterable[str], expected: Any
    ) -> Loaded:
        version = self._put(
            str(path),
            cassette_file.dump(interactions, folded),
            None if expected is None else expected[0],
        )
        return Loaded(dict(interactions), (version, 0, 0), frozenset(folded))

    def delete(self, path: Path, expected: Any) -> None:
        with self._guard:
            self._objects.pop(str(path), None)

    def add_entry(self, path: Path, entry_id: str, data: bytes) -> None:
        self._put(f"{path}.journal/{entry_id}", data)

    def entry_ids(self, path: Path) -> list[str]:
        prefix = f"{path}.journal/"
        with self._guard:
            return sorted(name[len(prefix) :] for name in self._objects if name.startswith(prefix))

    def entry_file(self, path: Path, entry_id: str) -> str:
        return f"{path}.journal/{entry_id}"

    def read_entry(self, path: Path, entry_id: str) -> bytes | None:
        with self._guard:
            found = self._objects.get(f"{path}.journal/{entry_id}")
        return None if found is None else found[1]

    def remove_entries(self, path: Path, entry_ids: Iterable[str]) -> None:
        with self._guard:
            for entry_id in entry_ids:
                self._objects.pop(f"{path}.journal/{entry_id}", None)

    @contextlib.contextmanager
    def exclusive(self, path: Path) -> Iterator[None]:
        yield


def test_an_object_store_without_locks_or_appends_loses_and_doubles_nothing() -> None:
    """Eight writers add entries and fold concurrently, with no lock: conflicts are retried."""
    store, path = ObjectStore(), Path("bucket/chat.json")

    def writer(number: int) -> None:
        for index in range(25):
            response = cassette_file.encode_outcome(answer(f"{number}-{index}"))
            key = f"k{number}-{index}"
            request = cassette_file.encode(Interaction(key, chat(key), []))["request"]
            journal.add(store, path, key, request, response, reset=False)
            if index % 5 == 4:
                journal.fold(store, path)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    expected = sorted(f"{n}-{i}" for n in range(8) for i in range(25))
    assert answers(journal.view(store, path).interactions) == expected
    journal.fold(store, path)
    assert store.entry_ids(path) == []
    assert answers(store.read(path).interactions) == expected
    assert not store.read(path).folded


class FoldedWhileEntriesAreRead(ObjectStore):
    """No lock: another process's fold absorbs (and removes) the journal after this fold
    listed it and read the cassette, but before it reads the entries."""

    overtaken = False

    def read_entry(self, path: Path, entry_id: str) -> bytes | None:
        if not self.overtaken:
            self.overtaken = True
            journal.fold(self, path)
        return super().read_entry(path, entry_id)


def test_a_fold_without_a_lock_overtaken_by_another_folds_again() -> None:
    path = Path("bucket/chat.json")
    cassette = Cassette(path)
    cassette._store = store = FoldedWhileEntriesAreRead()
    record(cassette, "one")
    cassette.save()
    assert store.overtaken
    assert answers(store.read(path).interactions) == ["one"]
    # The session still knows what it recorded: the fold gave back the cassette it wrote.
    assert [len(i.outcomes) for i in cassette.interactions] == [1]


def test_a_fold_takes_its_own_entries_as_made_and_checks_any_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries this process wrote are folded without being parsed and checked again; one it
    did not write (a killed process's, here one whose record this process forgot) is checked,
    and a bad one reported, not folded."""
    decoded: list[str] = []
    decode = cassette_file.decode

    def counted(path: Path, key: str, entry: Any) -> Any:
        decoded.append(key)
        return decode(path, key, entry)

    monkeypatch.setattr(cassette_file, "decode", counted)
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    record(cassette, "one")
    record(cassette, "two")
    cassette.save()
    assert decoded == []
    assert answers(cassette_file.load(path).interactions) == ["one", "two"]

    cassette = Cassette(path, "new_episodes")
    record(cassette, "three")  # finding no recording, it keys the others again: decoded
    journal._written.clear()  # as a process that did not write it sees the entry
    decoded.clear()
    cassette.save()
    assert len(decoded) == 1
    assert answers(cassette_file.load(path).interactions) == ["one", "three", "two"]

    bad = cassette_file.encode_outcome(answer("bad"))
    bad["status"] = "two hundred"
    request = cassette_file.encode(Interaction("k", chat("bad"), []))["request"]
    journal.add(LOCAL, path, "k", request, bad, reset=False)  # made invalid: written as given
    journal._written.clear()
    with pytest.raises(CassetteError, match="is not a recorded interaction"):
        journal.fold(LOCAL, path)
