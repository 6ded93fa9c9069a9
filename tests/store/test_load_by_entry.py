"""A cassette file laid out as replay writes it is parsed an interaction at a time: loading it
holds the parsed interactions alone, not also the file's bytes, the parser's image of them and
a second serialization. A file in another layout (compact, edited by hand) is cut apart by a
scan and parsed a piece at a time. The result is the whole file's parse, whatever the layout,
and a file that is not JSON is refused as before, by a whole parse naming where."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import CassetteError
from replay._core.model import Chunk, Interaction, Request, Response
from replay._store import cassette_file as store


def interaction(number: int, key: str = "key{:05}") -> Interaction:
    body = orjson.dumps({"messages": [{"role": "user", "content": f"question {number} " * 40}]})
    request = Request("POST", "https://api.example.test/v1/chat", (), body)
    answer = orjson.dumps({"choices": [{"message": {"content": f"answer {number} " * 200}}]})
    response = Response(200, (("content-type", "application/json"),), (Chunk(answer, 0.0),), "x")
    return Interaction(key.format(number), request, (response,))


def written(path: Path, count: int, folded: tuple[str, ...] = (), key: str = "key{:05}") -> Path:
    entries = {i.key: store.encode(i) for i in (interaction(n, key) for n in range(count))}
    path.write_bytes(store.dump(entries, folded))
    return path


def test_a_file_as_replay_writes_it_is_parsed_by_interaction_as_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = written(tmp_path / "c.json", 50, folded=("entry-1.json",))
    whole = orjson.loads(path.read_bytes())
    monkeypatch.setattr(store, "parse_document", None)  # the whole file is never parsed
    loaded = store.load(path)
    assert loaded.interactions == whole["interactions"]
    assert loaded.folded == frozenset({"entry-1.json"})


@pytest.mark.parametrize(
    "layout",
    [
        lambda data: orjson.dumps(orjson.loads(data)),  # compact
        lambda data: data.replace(b"\n", b"\r\n"),
        lambda data: data.replace(b'    },\n    "key00001"', b'    }, "key00001"'),
        lambda data: data.replace(b'\n  "version"', b'\n"version"'),
    ],
)
def test_any_other_layout_loads_the_same(tmp_path: Path, layout: object) -> None:
    path = written(tmp_path / "c.json", 3)
    whole = orjson.loads(path.read_bytes())
    path.write_bytes(layout(path.read_bytes()))  # type: ignore[operator]
    assert store.load(path).interactions == whole["interactions"]


def test_an_interaction_cut_short_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = written(tmp_path / "c.json", 3)
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"status": 200\n', b'"status": \n', 1))
    with pytest.raises(CassetteError, match=r"c\.json: is not valid JSON.*line 37"):
        store.load(path)


def test_too_deep_an_interaction_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = written(tmp_path / "c.json", 2)
    deep = b'"status": 200, "note": ' + b"[" * 300 + b"]" * 300 + b"\n"
    path.write_bytes(path.read_bytes().replace(b'"status": 200\n', deep, 1))
    with pytest.raises(CassetteError, match=r"c\.json: is JSON that nests too deep"):
        store.load(path)


def test_loading_holds_little_beside_the_parsed_interactions(tmp_path: Path) -> None:
    """Not the file's bytes (a copy of its size), nor the parser's image of the whole, nor the
    whole dumped again to check it can be written back: what is held at the peak beyond what
    stays (the parsed interactions) is a small part of the file."""
    path = written(tmp_path / "c.json", 2_000)
    tracemalloc.start()
    try:
        loaded = store.load(path)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - held < path.stat().st_size / 10
    # Read in many blocks, interactions cut across their edges: the same as the whole parse.
    assert path.stat().st_size > 20 * store._BLOCK
    assert loaded.interactions == orjson.loads(path.read_bytes())["interactions"]


REQUEST_KEY = "{:032x}"
"""A key as replay makes them, where the scan of a compact file guesses an interaction ends."""


def compact(path: Path) -> Path:
    path.write_bytes(orjson.dumps(orjson.loads(path.read_bytes())))
    return path


def test_a_compact_file_is_parsed_in_pieces_as_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = compact(written(tmp_path / "c.json", 300, ("entry-1.json",), REQUEST_KEY))
    whole = orjson.loads(path.read_bytes())
    monkeypatch.setattr(store, "parse_document", None)  # the whole file is never parsed
    loaded = store.load(path)
    assert path.stat().st_size > 10 * store._PIECE_BYTES  # cut into many pieces
    assert loaded.interactions == whole["interactions"]
    assert loaded.folded == frozenset({"entry-1.json"})


SPOILERS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"0", b"\xc3", b'}, "k'] + [
    b'},"%032x":{' % n for n in range(2)
]
"""What an edit may put in or take out: JSON's punctuation, a lone byte of a character, and what
the scan takes for the end of an interaction."""


@settings(max_examples=400, deadline=None)
@given(
    near=st.integers(0, 40),
    offset=st.integers(-3, 3),
    anywhere=st.none() | st.integers(0, 20_000),
    spoiler=st.sampled_from(SPOILERS),
    cut=st.integers(0, 3),
    layout=st.sampled_from(["compact", "spaced"]),
)
def test_any_edit_loads_as_a_whole_parse_would(
    tmp_path_factory: pytest.TempPathFactory,
    near: int,
    offset: int,
    anywhere: int | None,
    spoiler: bytes,
    cut: int,
    layout: str,
) -> None:
    """Small pieces and blocks, so that the file is cut in many places; an edit anywhere, or
    at a few bytes from where an interaction may end (a cut), a member's key, or a bracket:
    the file loads as the whole parse gives it, or is refused with its very message."""
    path = compact(written(tmp_path_factory.mktemp("edit") / "c.json", 6, key=REQUEST_KEY))
    data = path.read_bytes()
    if layout == "spaced":
        data = data.replace(b",", b" ,\r\n ").replace(b":", b"\t: ")
    marks = [m.start() for m in re.finditer(rb'\}[ \r\n,]*"[0-9a-f]{32}|[\[\]{}]"?', data)]
    where = anywhere % len(data) if anywhere is not None else marks[near % len(marks)] + offset
    data = data[:where] + spoiler + data[where + cut :]
    path.write_bytes(data)
    try:
        expected: object = store.parse_document(path, data)["interactions"]
    except CassetteError as error:
        expected = str(error)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "_PIECE_BYTES", 1_000)
        patch.setattr(store, "_BLOCK", 1_500)
        try:
            found: object = store.load(path).interactions
        except CassetteError as error:
            found = str(error)
    assert found == expected
