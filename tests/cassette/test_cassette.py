"""The cassette's decisions and bookkeeping, with plain dataclasses and no HTTP."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from replay._cassette import CASSETTE_MISSING, Cassette, Record, Replay, _unsaved
from replay._core.errors import CassetteError, CassetteMiss, ConfigError
from replay._core.model import Chunk, Request, Response, TransportFailure

URL = "https://api.openai.com/v1/chat/completions"


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def chat(prompt: str, **extra: object) -> Request:
    body = orjson.dumps(
        {"model": "gpt-4o", "messages": [{"role": "user", "content": prompt}], **extra}
    )
    return Request("POST", URL, (("content-type", "application/json"),), body)


def answer(text: str, completion_id: str = "chatcmpl-Xy12Zw34Vu56Ts78") -> Response:
    body = orjson.dumps({"id": completion_id, "created": 1767225600, "choices": [{"text": text}]})
    return Response(
        200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "2026-01-01T00:00:00Z"
    )


def record(cassette: Cassette, request: Request, response: Response) -> None:
    decision = cassette.decide(request)
    assert isinstance(decision, Record)
    cassette.add(decision, response)


def replayed_text(cassette: Cassette, request: Request) -> str:
    decision = cassette.decide(request)
    assert isinstance(decision, Replay) and isinstance(decision.outcome, Response)
    return str(orjson.loads(decision.outcome.body)["choices"][0]["text"])


def test_record_save_and_replay(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("hi"), answer("hello"))
        assert cassette.recorded == 1 and cassette.dirty
    assert not cassette.dirty
    replaying = Cassette(path, mode="none")
    assert replayed_text(replaying, chat("hi")) == "hello"
    assert replaying.replayed == 1 and replaying.used_keys == {replaying.key_of(chat("hi"))}


def test_fold_writes_the_journal_and_leaves_open_responses_to_their_end(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path)
    record(cassette, chat("done"), answer("done"))
    still_open = cassette.decide(chat("open"))
    assert isinstance(still_open, Record)
    ended: list[bool] = []

    def outcome(complete: bool, cut: TransportFailure | None) -> Response:
        ended.append(complete)
        return answer("open")

    recording = cassette.recording(still_open, outcome)
    cassette.fold()
    assert not cassette.dirty and ended == []
    assert len(Cassette(path, mode="none").interactions) == 1
    assert cassette in _unsaved  # still held: a dropped client's response is saved at exit
    recording.finish(complete=True)
    assert ended == [True] and cassette.dirty
    cassette.save()
    assert len(Cassette(path, mode="none").interactions) == 2 and cassette not in _unsaved


def test_repeated_requests_replay_in_recorded_order(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("sample"), answer("first"))
        record(cassette, chat("sample"), answer("second"))
    replaying = Cassette(path, mode="none")
    assert [replayed_text(replaying, chat("sample")) for _ in range(2)] == ["first", "second"]
    used_up = "all 2 recorded responses were already replayed"
    with pytest.raises(CassetteMiss, match=used_up) as miss:
        replaying.decide(chat("sample"))
    assert miss.value.closest_url is None and "closest" not in str(miss.value)
    repeating = Cassette(path, mode="none", allow_playback_repeats=True)
    texts = [replayed_text(repeating, chat("sample")) for _ in range(3)]
    assert texts == ["first", "second", "second"]


def test_each_response_of_a_key_gets_its_own_ids(tmp_path: Path) -> None:
    with Cassette(tmp_path / "c.json") as cassette:
        record(cassette, chat("sample"), answer("a", "chatcmpl-Aa11Bb22Cc33Dd44"))
        record(cassette, chat("sample"), answer("b", "chatcmpl-Ee55Ff66Gg77Hh88"))
    outcomes = cassette.interactions[0].outcomes
    ids = [orjson.loads(o.body)["id"] for o in outcomes if isinstance(o, Response)]
    assert len(set(ids)) == 2
    assert not {"chatcmpl-Aa11Bb22Cc33Dd44", "chatcmpl-Ee55Ff66Gg77Hh88"} & set(ids)


def test_mode_once_replays_only_once_the_file_exists(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("a"), answer("A"))
    again = Cassette(path, mode="once")
    assert replayed_text(again, chat("a")) == "A"
    with pytest.raises(
        CassetteMiss, match="mode 'once' records only into a cassette that does not exist"
    ):
        again.decide(chat("b"))


def test_new_episodes_records_what_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("a"), answer("A"))
    with Cassette(path, mode="new_episodes") as more:
        assert replayed_text(more, chat("a")) == "A"
        record(more, chat("b"), answer("B"))
    assert len(Cassette(path, mode="none").interactions) == 2


def test_mode_all_rerecording_the_same_answers_leaves_the_file_identical(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("a"), answer("A", "chatcmpl-First111Id"))
        record(cassette, chat("b"), answer("B", "chatcmpl-First222Id"))
    before = path.read_bytes()
    later = Response(
        200, answer("A").headers, answer("A", "chatcmpl-Other333Id").chunks, "2026-06-01T00:00:00Z"
    )
    with Cassette(path, mode="all") as rerecording:
        record(rerecording, chat("a"), later)
    assert path.read_bytes() == before
    changed = answer("A changed")
    with Cassette(path, mode="all") as rerecording:
        record(rerecording, chat("a"), changed)
    assert replayed_text(Cassette(path, mode="none"), chat("a")) == "A changed"
    assert len(Cassette(path, mode="none").interactions) == 2


def test_mode_none_with_no_file_is_an_empty_cassette(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    with pytest.raises(CassetteMiss) as caught:
        Cassette(path, mode="none").decide(chat("hi"))
    assert caught.value.cassette == path and caught.value.closest_url is None
    assert f"no recording for POST {URL} in cassette {path}: mode 'none' never records" in str(
        caught.value
    )
    assert not path.exists()


def test_a_miss_on_a_cassette_with_no_file_says_so_and_how_to_record_it(tmp_path: Path) -> None:
    """Only a run under CI=true said the file was missing; a miss anywhere else did not."""
    path = tmp_path / "absent.json"
    with pytest.raises(CassetteMiss) as caught:
        Cassette(path, mode="none").decide(chat("hi"))
    assert caught.value.reason == f"mode 'none' never records; {CASSETTE_MISSING}"
    assert "the cassette file does not exist; to record it, run this once" in str(caught.value)
    path.write_bytes(b'{"version": 1, "interactions": {}}')  # there, empty: not said
    for mode in ("none", "once"):
        with pytest.raises(CassetteMiss) as there:
            Cassette(path, mode=mode).decide(chat("hi"))
        assert CASSETTE_MISSING not in str(there.value)


def test_a_miss_names_the_closest_recording_and_the_differing_paths(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("tell me a joke", temperature=0), answer("ha"))
        record(
            cassette, Request("GET", "https://api.openai.com/v1/models", (), b""), answer("models")
        )
    replaying = Cassette(path, mode="none")
    with pytest.raises(CassetteMiss) as caught:
        replaying.decide(chat("tell me a joke", temperature=1))
    miss = caught.value
    assert miss.closest_url == f"POST {URL}"
    assert [(d.field, d.recorded, d.requested) for d in miss.differences] == [
        ("body.temperature", 0, 1)
    ]
    assert "body.temperature: recorded 0, requested 1" in str(miss)
    assert replaying.misses == [miss]


def test_ignored_fields_match_across_model_versions(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path, ignore=["model"]) as cassette:
        record(cassette, chat("hi"), answer("from v1"))
    newer = orjson.dumps({"model": "gpt-5", "messages": [{"role": "user", "content": "hi"}]})
    request = Request("POST", URL, (("content-type", "application/json"),), newer)
    assert replayed_text(Cassette(path, mode="none", ignore=["model"]), request) == "from v1"


def test_transport_failures_are_recorded_with_secrets_scrubbed(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    request = Request("GET", "https://api.test/?api_key=literal-key-12345", (), b"")
    with Cassette(path) as cassette:
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        cassette.add(
            decision, TransportFailure("ConnectError", "refused for literal-key-12345", "t")
        )
    assert b"literal-key-12345" not in path.read_bytes()
    decision = Cassette(path, mode="none").decide(request)
    assert decision == Replay(TransportFailure("ConnectError", "refused for REDACTED", "t"))


def test_two_sessions_saving_into_one_file_keep_both(tmp_path: Path) -> None:
    path = tmp_path / "shared.json"
    first, second = Cassette(path, mode="new_episodes"), Cassette(path, mode="new_episodes")
    record(first, chat("from first"), answer("1"))
    record(second, chat("from second"), answer("2"))
    record(second, chat("shared"), answer("second's"))
    record(first, chat("shared"), answer("first's"))
    first.save()
    second.save()
    merged = Cassette(path, mode="none")
    assert replayed_text(merged, chat("from first")) == "1"
    assert replayed_text(merged, chat("from second")) == "2"
    # In the order they were recorded: each was journalled the moment it was added.
    assert [replayed_text(merged, chat("shared")) for _ in range(2)] == ["second's", "first's"]


def test_a_corrupt_cassette_is_an_error_and_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b'{"version": 1, "interactions": {')
    cassette = Cassette(path, mode="new_episodes")
    with pytest.raises(CassetteError, match="is not valid JSON"):
        cassette.decide(chat("hi"))
    cassette.save()
    assert path.read_bytes() == b'{"version": 1, "interactions": {'


def test_a_malformed_interaction_is_reported_when_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("hi"), answer("hello"))
    document = orjson.loads(path.read_bytes())
    key = next(iter(document["interactions"]))
    document["interactions"][key]["responses"][0]["status"] = "OK"
    path.write_bytes(orjson.dumps(document))
    with pytest.raises(CassetteError, match=f"interaction {key} is malformed: status 'OK'"):
        Cassette(path, mode="none").decide(chat("hi"))


def test_paths_may_be_path_like(tmp_path: Path) -> None:
    assert Cassette(tmp_path / "x.json").path == tmp_path / "x.json"
    assert Cassette(str(tmp_path / "x.json")).path == tmp_path / "x.json"


def test_replay_speed_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"replay_speed=0: must be a positive factor"):
        Cassette(tmp_path / "c.json", replay_speed=0)


def test_mode_all_does_not_replace_a_recording_with_transport_failures(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("a"), answer("A"))
    before = path.read_bytes()
    with Cassette(path, mode="all") as offline:
        for _ in range(3):  # an SDK retrying while the API times out
            decision = offline.decide(chat("a"))
            assert isinstance(decision, Record)
            offline.add(decision, TransportFailure("ReadTimeout", "timed out", "t"))
    assert path.read_bytes() == before
    with Cassette(path, mode="all") as online:
        decision = online.decide(chat("a"))
        assert isinstance(decision, Record)
        online.add(decision, TransportFailure("ReadTimeout", "timed out once", "t"))
        record(online, chat("a"), answer("A again"))
    assert replayed_text(Cassette(path, mode="none"), chat("a")) == "A again"


def test_mode_all_replaces_a_recording_after_a_failed_call_and_a_fold(
    tmp_path: Path,
) -> None:
    """The failed call wrote nothing, so the call that reaches the API later (after
    another key's recording was folded meanwhile) still replaces the old recording."""
    path = tmp_path / "c.json"
    with Cassette(path) as cassette:
        record(cassette, chat("a"), answer("old"))
    with Cassette(path, mode="all") as cassette:
        decision = cassette.decide(chat("a"))
        assert isinstance(decision, Record)
        cassette.add(decision, TransportFailure("ReadTimeout", "timed out", "t"))
        record(cassette, chat("b"), answer("B"))
        cassette.fold()  # replay serve after each answer
        record(cassette, chat("a"), answer("new"))
        cassette.fold()
        record(cassette, chat("a"), answer("newer"))  # after its reset: added to "new"
    replaying = Cassette(path, mode="none")
    assert [replayed_text(replaying, chat("a")) for _ in range(2)] == ["new", "newer"]
    with pytest.raises(CassetteMiss, match="already replayed"):
        replaying.decide(chat("a"))
