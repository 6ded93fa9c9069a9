"""A recorded call is serialized once: the journal writes its request and response as the file
has them (``file_form``), and a fold puts those bytes in the file as they are. The file must be
the very bytes of dumping the same interactions as dicts, and what the fold's cassette reads
must be them parsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._cassette import Cassette, Record, Replay
from replay._core.model import Chunk, Request, Response
from replay._store import cassette_file
from replay._store.cassette_file import Contents, Spliced

# Strings with what indentation could be confused with: newlines, spaces, quotes, brackets.
TEXT = st.text(alphabet=st.sampled_from(list('ab \n\t"\\{}[],:é\u2028')), max_size=8)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats(-1e9, 1e9) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=12,
)
FIELDS = st.sampled_from(["body", "headers", "status", "json", "z", "a", "chunks", "sent"])
PARTS = st.dictionaries(FIELDS, JSON, max_size=5)
"""A request or a response: fields in any order (the file sorts them, but inside ``json``)."""
KEYS = st.text(alphabet=st.sampled_from(list('ab\n "/')), max_size=6)


@given(
    st.dictionaries(
        KEYS,
        st.tuples(PARTS, st.lists(st.tuples(PARTS, st.booleans()), min_size=1, max_size=3)),
        max_size=4,
    )
)
@settings(max_examples=300, deadline=None)
def test_parts_written_as_the_file_has_them_are_the_file_dumped_whole(
    interactions: dict[str, tuple[dict[str, Any], list[tuple[dict[str, Any], bool]]]],
) -> None:
    """Each response spliced or not (a key with responses from the file and from this
    process): the same bytes as every entry dumped as dicts, and read back as them."""
    plain: dict[str, Any] = {}
    spliced: dict[str, Any] = {}
    for key, (request, responses) in interactions.items():
        plain[key] = {"request": request, "responses": [response for response, _ in responses]}
        parts = [
            (Spliced(cassette_file.file_form(request, response)[1]) if splice else response)
            for response, splice in responses
        ]
        spliced[key] = {
            "request": Spliced(cassette_file.file_form(request, {})[0]),
            "responses": parts,
        }
    expected = cassette_file.dump(plain, ["entry"])
    contents = Contents(spliced, (), spliced)
    assert cassette_file.dump(contents, ["entry"]) == expected
    assert contents.readable() == orjson.loads(expected)["interactions"]
    assert cassette_file.dump(contents.readable()) == cassette_file.dump(plain)


@given(PARTS, PARTS)
@settings(max_examples=100, deadline=None)
def test_a_journal_entry_of_parts_as_the_file_has_them_reads_as_the_entry(
    request: dict[str, Any], response: dict[str, Any]
) -> None:
    request_part, response_part = cassette_file.file_form(request, response)
    entry = orjson.loads(
        orjson.dumps(
            {"request": orjson.Fragment(request_part), "r": orjson.Fragment(response_part)}
        )
    )
    assert entry == {"request": request, "r": response}


def test_a_folded_cassette_reads_what_it_wrote_and_replays_it(tmp_path: Path) -> None:
    """The fold's cassette parses the parts it spliced when it is read, not before."""
    path = tmp_path / "c.json"
    cassette = Cassette(path, "new_episodes")
    requests = [
        Request("POST", "https://api.example.com/v1/x", (), orjson.dumps({"n": n, "s": "a\nb"}))
        for n in range(3)
    ]
    for n, request in enumerate(requests):
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        body = orjson.dumps({"answer": n, "text": "line\nline"})
        cassette.add(decision, Response(200, (), (Chunk(body, 0.0),), "2026-01-01T00:00:00Z"))
    cassette.save()
    loaded = cassette_file.load(path)
    assert "interactions" not in vars(loaded)  # not parsed yet: nobody read it
    replaying = Cassette(path, "none")  # reads the cassette the save left in this process
    for n, request in enumerate(requests):
        decision = replaying.decide(request)
        assert isinstance(decision, Replay)
        assert decision.answer.body == orjson.dumps({"answer": n, "text": "line\nline"})
    assert replaying._base() is loaded
    written = path.read_bytes()
    assert loaded.interactions == cassette_file.parse(path, written)
    assert written == cassette_file.dump(cassette_file.parse(path, written))
