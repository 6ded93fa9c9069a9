"""A cassette file laid out as replay writes it is parsed an interaction at a time: loading it
holds the parsed interactions alone, not also the file's bytes, the parser's image of them and
a second serialization. The result is the whole file's parse, whatever the layout: a file in
another (edited by hand) is parsed whole, and one that is not JSON is refused as before."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import orjson
import pytest

from replay import CassetteError
from replay._core.model import Chunk, Interaction, Request, Response
from replay._store import cassette_file as store


def interaction(number: int) -> Interaction:
    body = orjson.dumps({"messages": [{"role": "user", "content": f"question {number} " * 40}]})
    request = Request("POST", "https://api.example.test/v1/chat", (), body)
    answer = orjson.dumps({"choices": [{"message": {"content": f"answer {number} " * 200}}]})
    response = Response(200, (("content-type", "application/json"),), (Chunk(answer, 0.0),), "x")
    return Interaction(f"key{number:05}", request, (response,))


def written(path: Path, count: int, folded: tuple[str, ...] = ()) -> Path:
    entries = {i.key: store.encode(i) for i in map(interaction, range(count))}
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
