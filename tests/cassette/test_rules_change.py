"""Matching rules may change after recording: replay follows the rules in force now."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from replay import Cassette, CassetteMiss
from replay._cassette import Record, Replay
from replay._core.model import Chunk, Request, Response


def ask(model: str, prompt: str = "hi", team: str = "a") -> Request:
    body = orjson.dumps({"model": model, "messages": [{"role": "user", "content": prompt}]})
    headers = (("content-type", "application/json"), ("x-team", team))
    return Request("POST", "https://api.example.test/v1/chat/completions", headers, body)


def answer(text: str, at: str) -> Response:
    body = orjson.dumps({"choices": [{"message": {"content": text}}]})
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), at)


def record(path: Path, calls: list[tuple[Request, Response]], **rules: list[str]) -> None:
    with Cassette(path, **rules) as cassette:  # type: ignore[arg-type]
        for request, response in calls:
            decision = cassette.decide(request)
            assert isinstance(decision, Record)
            cassette.add(decision, response)


def replay_text(cassette: Cassette, request: Request) -> bytes:
    decision = cassette.decide(request)
    assert isinstance(decision, Replay) and isinstance(decision.outcome, Response)
    return decision.outcome.body


def test_ignoring_a_field_after_recording_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    record(path, [(ask("gpt-4o"), answer("one", "2026-01-01T00:00:00Z"))])
    cassette = Cassette(path, mode="none", ignore=["model"])
    assert b"one" in replay_text(cassette, ask("gpt-4o"))
    cassette = Cassette(path, mode="none", ignore=["model"])
    assert b"one" in replay_text(cassette, ask("gpt-5"))


def test_dropping_rules_after_recording_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    calls = [(ask("gpt-4o"), answer("one", "2026-01-01T00:00:00Z"))]
    record(path, calls, ignore=["model"], match_headers=["x-team"])
    assert b"one" in replay_text(Cassette(path, mode="none"), ask("gpt-4o"))
    with pytest.raises(CassetteMiss) as miss:
        Cassette(path, mode="none").decide(ask("gpt-4o", team="b", prompt="other"))
    assert "body.messages[0].content" in str(miss.value)


def test_interactions_made_one_by_new_rules_replay_in_recorded_order(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    record(
        path,
        [
            (ask("gpt-4o"), answer("first", "2026-01-01T00:00:01Z")),
            (ask("gpt-5"), answer("second", "2026-01-01T00:00:02Z")),
        ],
    )
    keys = list(orjson.loads(path.read_bytes())["interactions"])
    cassette = Cassette(path, mode="none", ignore=["model"])
    with pytest.warns(UserWarning, match="one request under the current rules") as warned:
        assert b"first" in replay_text(cassette, ask("gpt-5"))
    assert all(key in str(warned[0].message) for key in keys)
    assert b"second" in replay_text(cassette, ask("gpt-4o"))
    with pytest.raises(CassetteMiss, match="all 2 recorded responses were already replayed"):
        cassette.decide(ask("gpt-4o"))


def test_a_request_whose_own_key_is_stored_too_replays_each_response_once(
    tmp_path: Path,
) -> None:
    """Its own responses are replayed (and counted) before the others are merged in, so they
    come first in the merged list, whether the re-keyed index was built before or not."""
    path = tmp_path / "c.json"
    record(
        path,
        [
            (ask("gpt-4o"), answer("first", "2026-01-01T00:00:01Z")),
            (ask("gpt-4o", prompt="other"), answer("other", "2026-01-01T00:00:02Z")),
        ],
    )
    with Cassette(path, "new_episodes", ignore=["model"]) as cassette:
        assert b"first" in replay_text(cassette, ask("gpt-5"))
        decision = cassette.decide(ask("gpt-5"))
        assert isinstance(decision, Record)  # under today's key, beside the one of "first"
        cassette.add(decision, answer("second", "2026-02-01T00:00:00Z"))
    for index_built_before in (False, True):
        cassette = Cassette(path, "none", ignore=["model"])
        if index_built_before:
            assert b"other" in replay_text(cassette, ask("gpt-5", prompt="other"))
        with pytest.warns(UserWarning, match="one request"):
            seen = [replay_text(cassette, ask("gpt-5")) for _ in range(2)]
        assert [b"second" in seen[0], b"first" in seen[1]] == [True, True]
        with pytest.raises(CassetteMiss, match="all 2 recorded responses were already replayed"):
            cassette.decide(ask("gpt-5"))


def test_a_miss_never_ends_in_an_empty_list_of_differences(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    record(path, [(ask("gpt-4o"), answer("one", "2026-01-01T00:00:00Z"))])
    document = orjson.loads(path.read_bytes())
    (entry,) = document["interactions"].values()
    # Stored under keys its request does not have: the exact digest (valid only for the
    # recording's own key) goes too, as it would for a cassette recorded under other rules.
    del entry["request"]["sent"]
    document["interactions"] = {"0" * 32: entry, "1" * 32: entry}
    path.write_bytes(orjson.dumps(document))
    cassette = Cassette(path, mode="none")
    with pytest.warns(UserWarning, match="one request"):  # the stored copies are one now
        replay_text(cassette, ask("gpt-4o"))
    replay_text(cassette, ask("gpt-4o"))
    with pytest.raises(CassetteMiss) as miss:
        cassette.decide(ask("gpt-4o", prompt="something else"))
    message = str(miss.value)
    assert not message.rstrip().endswith("differs in")
    assert "something else" in message
