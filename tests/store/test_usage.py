"""The usage record: what real runs replayed or recorded, merged across processes at exit."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from recorded import API_KEY, CHAT_PROMPTS, record_chat, run_in_process

from replay._store import cassette_file as store
from replay._store import usage
from replay.tools.fakellm import FakeLLMServer

RUN_SCRIPT = Path(__file__).parents[1] / "replay_run.py"


@pytest.fixture(scope="module")
def recorded_chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A chat cassette of every CHAT_PROMPTS answer, and the address it was recorded from."""
    path = tmp_path_factory.mktemp("usage") / "chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, path, "model-1", CHAT_PROMPTS)
        url = server.url
    yield path, url


def keys_for(cassette: Path, prompts: list[str]) -> set[str]:
    entries = store.load(cassette).interactions
    return {
        key
        for key, entry in entries.items()
        if any(p in orjson.dumps(entry["request"]).decode() for p in prompts)
    }


def test_a_replay_run_records_the_keys_it_used(recorded_chat: tuple[Path, str]) -> None:
    cassette, url = recorded_chat
    half = CHAT_PROMPTS[:3]
    run = uuid.uuid4().hex
    finished = run_in_process(cassette, url, half, run)
    assert finished.returncode == 0, finished.stderr
    runs = usage.read(cassette.parent)
    assert runs is not None
    recorded = runs[run]
    assert recorded.complete and recorded.processes == 1
    assert recorded.cassettes == {"chat.json": frozenset(keys_for(cassette, half))}
    assert len(recorded.cassettes["chat.json"]) == 3
    assert usage.last_complete_run(runs) == recorded


def test_processes_of_one_run_merge_and_an_interrupted_one_marks_it_incomplete(
    recorded_chat: tuple[Path, str],
) -> None:
    cassette, url = recorded_chat
    run = uuid.uuid4().hex
    env = {**os.environ, usage.RUN_ID_VARIABLE: run}
    groups = [CHAT_PROMPTS[0:2], CHAT_PROMPTS[2:4], CHAT_PROMPTS[4:7]]
    workers = [
        subprocess.Popen(
            [sys.executable, str(RUN_SCRIPT), str(cassette), url, "none", *prompts],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for prompts in groups
    ]
    assert [worker.wait(timeout=120) for worker in workers] == [0, 0, 0]
    merged = usage.read(cassette.parent)
    assert merged is not None
    assert merged[run].processes == 3 and merged[run].complete
    assert merged[run].cassettes["chat.json"] == frozenset(keys_for(cassette, CHAT_PROMPTS))

    interrupted = run_in_process(cassette, url, CHAT_PROMPTS[:1], run, "--interrupt")
    assert interrupted.returncode != 0 and "KeyboardInterrupt" in interrupted.stderr
    after = usage.read(cassette.parent)
    assert after is not None
    assert not after[run].complete and after[run].processes == 4
    assert after[run].incomplete[0].endswith("ended by KeyboardInterrupt")
    assert usage.last_complete_run(after) != after[run]


def test_the_log_reads_the_live_key_sets_once_at_write(tmp_path: Path) -> None:
    log = usage.UsageLog("run-1", "2024-01-01T00:00:00Z")
    keys: set[str] = set()
    log.track(tmp_path / "a.json", keys)
    log.track(tmp_path / "gone" / "b.json", {"k-gone"})
    log.track(tmp_path / "c.json", set())
    keys.add("k1")  # added after tracking, as a cassette does on each request
    assert log.write() == [usage.record_path(tmp_path)]
    runs = usage.read(tmp_path)
    assert runs is not None
    assert runs["run-1"].cassettes == {"a.json": frozenset({"k1"})}


def test_the_record_and_its_lock_stay_out_of_the_cassette_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cassettes, state = tmp_path / "project" / "cassettes", tmp_path / "state"
    cassettes.mkdir(parents=True)
    monkeypatch.setenv(usage.STATE_DIRECTORY_VARIABLE, str(state))
    log = usage.UsageLog("run-1", "2024-01-01T00:00:00Z")
    log.track(cassettes / "a.json", {"k1"})
    [record] = log.write()
    assert list(cassettes.iterdir()) == []
    assert record.parent == state / "usage" and record.name.startswith("cassettes-")
    other = tmp_path / "other" / "cassettes"
    assert usage.record_path(other) != record  # same name, another project


def test_only_the_latest_runs_are_kept_and_a_damaged_record_is_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _usage_record(tmp_path).write_text("{not json")
    for index in range(usage.KEPT_RUNS + 2):
        day = f"2024-01-0{index + 1}T00:00:00Z"
        run = usage.Run(f"r{index}", day, day, True, (), 1, {"a.json": frozenset()})
        usage.merge(tmp_path, run)
    assert "replacing" in capsys.readouterr().err
    runs = usage.read(tmp_path)
    assert runs is not None
    assert sorted(runs) == [f"r{index}" for index in range(2, usage.KEPT_RUNS + 2)]


def test_run_id_comes_from_the_environment_and_is_passed_on() -> None:
    assert usage.run_id({usage.RUN_ID_VARIABLE: "mine", "PYTEST_XDIST_TESTRUNUID": "x"}) == "mine"
    # A run nested in an xdist worker inherits the worker's TESTRUNUID but is a run of its own.
    nested: dict[str, str] = {"PYTEST_XDIST_TESTRUNUID": "outer"}
    made = usage.run_id(nested)
    assert len(made) == 32 and made != "outer"
    assert nested[usage.RUN_ID_VARIABLE] == made
    assert usage.run_id(nested) == made


def test_a_malformed_record_is_an_error_naming_it(tmp_path: Path) -> None:
    _usage_record(tmp_path).write_text('{"version": 1, "runs": {"r": {"started": 1}}}')
    with pytest.raises(usage.CassetteError, match=r"usage.*\.json.*not a usage record"):
        usage.read(tmp_path)
    assert usage.read(tmp_path / "nowhere") is None


@pytest.mark.parametrize(
    ("started", "why"),
    [
        ("yesterday", "run r: started 'yesterday' is not an ISO 8601 date"),
        ("2024-05-01T10:00:00", "run r: started '2024-05-01T10:00:00' has no time zone"),
        (1714557600, "run r: started 1714557600 is not a date"),
    ],
)
def test_a_run_date_that_cannot_be_compared_is_an_error_naming_the_record(
    tmp_path: Path, started: object, why: str
) -> None:
    run = {"started": started, "ended": "2024-05-01T10:01:00Z", "complete": True, "cassettes": {}}
    _usage_record(tmp_path).write_bytes(orjson.dumps({"version": 1, "runs": {"r": run}}))
    with pytest.raises(usage.CassetteError, match=r"usage.*\.json") as raised:
        usage.read(tmp_path)
    assert raised.value.reason == f"is not a usage record: {why}"


def test_run_dates_in_any_zone_are_read_in_utc_so_they_compare_as_text(tmp_path: Path) -> None:
    run = {"started": "2024-05-01T12:00:00+02:00", "ended": "2024-05-01T10:01:00.5+00:00",
           "complete": True, "cassettes": {}}  # fmt: skip
    _usage_record(tmp_path).write_bytes(orjson.dumps({"version": 1, "runs": {"r": run}}))
    runs = usage.read(tmp_path)
    assert runs is not None
    assert (runs["r"].started, runs["r"].ended) == ("2024-05-01T10:00:00Z", "2024-05-01T10:01:00Z")


def _usage_record(directory: Path) -> Path:
    """Where the usage record of ``directory`` goes, its folder made, for a test to write it."""
    path = usage.record_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
