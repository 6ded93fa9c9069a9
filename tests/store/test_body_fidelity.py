"""Replay gives back the bytes the server sent; the cassette keeps JSON readable.

Hypothesis builds JSON answers in any key order, spacing (compact, indented, Python's
``", "`` and ``": "``, trailing newline) and number form (``1.0``, ``1e-05``, ``1.50``,
big integers), records them and replays them: the bytes must be the sent ones.
``REPLAY_STRESS=1`` (the nox ``stress`` session) runs 1,000 examples.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import Cassette
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Request, Response

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60
EXAMPLE_CASSETTE = Path(__file__).parents[2] / "cassettes" / "examples" / "openai.json"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text("abcdefxyz_", min_size=1, max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def json_texts(draw: st.DrawFn) -> bytes:
    value = draw(st.dictionaries(st.text("qrstuvw", min_size=1, max_size=6), values, max_size=6))
    style = draw(st.sampled_from(["orjson", "indented", "python", "python-indent", "odd"]))
    if style == "orjson":
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    elif style == "indented":
        text = json.dumps(value, indent=2, ensure_ascii=False).encode()
    elif style == "python":
        text = json.dumps(value, ensure_ascii=draw(st.booleans())).encode()
    elif style == "python-indent":
        text = json.dumps(value, indent=draw(st.sampled_from([2, 4])), ensure_ascii=False).encode()
    else:
        text = b'{ "n" :1.50, "e": 1E+2,"z":-0.0 ,\t"a" : [ ] }'
    return text + draw(st.sampled_from([b"", b"\n"]))


def replayed(path: Path, body: bytes) -> bytes:
    request = Request("POST", "https://api.example.test/v1/x", (), b'{"q": 1}')
    with Cassette(path, mode="all") as cassette:
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        headers = (("content-type", "application/json"),)
        cassette.add(decision, Response(200, headers, (Chunk(body, 0.01),), "t"))
    decision = Cassette(path, mode="none").decide(request)
    assert isinstance(decision, Replay) and isinstance(decision.outcome, Response)
    return decision.outcome.body


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(json_texts())
def test_a_json_answer_replays_byte_for_byte(tmp_path: Path, body: bytes) -> None:
    assert replayed(tmp_path / "c.json", body) == body


def test_common_layouts_stay_readable_json_without_a_copy(tmp_path: Path) -> None:
    answer = {"id": "x", "object": "chat.completion", "choices": [{"index": 0}], "usage": {}}
    for body in (
        orjson.dumps(answer),
        orjson.dumps(answer, option=orjson.OPT_INDENT_2),
        orjson.dumps(answer, option=orjson.OPT_INDENT_2) + b"\n",
    ):
        path = tmp_path / f"{len(body)}.json"
        assert replayed(path, body) == body
        stored = orjson.loads(path.read_bytes())["interactions"]
        (entry,) = stored.values()
        response_body = entry["responses"][0]["body"]
        assert response_body["json"] == answer and "text" not in response_body
        # The server's key order, not sorted: "object" after "id", "usage" last.
        assert list(response_body["json"]) == list(answer)


def test_other_spacing_keeps_the_json_and_the_bytes(tmp_path: Path) -> None:
    body = json.dumps({"b": 1.50, "a": "é"}).encode()
    assert replayed(tmp_path / "c.json", body) == body
    (entry,) = orjson.loads((tmp_path / "c.json").read_bytes())["interactions"].values()
    assert entry["responses"][0]["body"] == {"json": {"b": 1.5, "a": "é"}, "text": body.decode()}


def test_a_format_1_cassette_of_sorted_json_still_replays(tmp_path: Path) -> None:
    data: dict[str, Any] = orjson.loads(EXAMPLE_CASSETTE.read_bytes())
    assert data["version"] == 1
    cassette = Cassette(EXAMPLE_CASSETTE, mode="none")
    for interaction in cassette.interactions:
        for outcome in interaction.outcomes:
            assert isinstance(outcome, Response) and outcome.body
