"""A recording decoded once per version of its file: shared by the cassettes that read it.

Replay decodes a stored response (re-serializing its JSON body) the first time a request asks
for it, and keeps it with the parsed file (``Loaded.outcomes``), so the next cassette on the
same file (the next test) replays it as decoded. A new version of the file starts afresh.
"""

from __future__ import annotations

import os
from pathlib import Path

from replay import Cassette
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Request, Response

URL = "https://api.example.test/v1/chat"


def request(number: int) -> Request:
    body = b'{"model":"m","n":%d}' % number
    return Request("POST", URL, (("content-type", "application/json"),), body)


def answer(text: str) -> Response:
    body = b'{"answer":"%s"}' % text.encode()
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "2024")


def record(path: Path, mode: str, answers: dict[int, str]) -> None:
    with Cassette(path, mode) as cassette:
        for number, text in answers.items():
            decision = cassette.decide(request(number))
            assert isinstance(decision, Record)
            cassette.add(decision, answer(text))


def replayed(path: Path, number: int) -> Response:
    decision = Cassette(path, "none").decide(request(number))
    assert isinstance(decision, Replay)
    assert isinstance(decision.outcome, Response)
    return decision.outcome


def test_a_second_cassette_replays_the_first_ones_decoding(tmp_path: Path) -> None:
    path = tmp_path / "shared.json"
    record(path, "once", {1: "one", 2: "two"})
    first = replayed(path, 1)
    assert replayed(path, 1) is first  # decoded once, for both cassettes
    assert first.body == b'{"answer":"one"}'
    assert replayed(path, 2).body == b'{"answer":"two"}'


def test_a_new_version_of_the_file_is_decoded_anew(tmp_path: Path) -> None:
    path = tmp_path / "changed.json"
    record(path, "once", {1: "old"})
    before = replayed(path, 1)
    assert before.body == b'{"answer":"old"}'
    path.unlink()
    record(path, "once", {1: "new"})
    os.utime(path, ns=(1, 1))  # another signature even if the inode and size came back alike
    after = replayed(path, 1)
    assert after.body == b'{"answer":"new"}'


def test_a_cassette_with_its_journal_unfolded_sees_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.json"
    record(path, "once", {1: "one"})
    assert replayed(path, 1).body == b'{"answer":"one"}'
    writer = Cassette(path, "all")
    decision = writer.decide(request(1))
    assert isinstance(decision, Record)
    writer.add(decision, answer("again"))  # in the journal, not folded yet
    assert replayed(path, 1).body == b'{"answer":"again"}'
    writer.save()
    assert replayed(path, 1).body == b'{"answer":"again"}'
