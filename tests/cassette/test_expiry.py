"""max_age and on_expired: a recording older than max_age is replayed with a warning, fails, or
is recorded again, through a real loopback server (stopped where nothing may reach it)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import httpx
import orjson
import pytest
from conftest import TEST_API_KEY, StoppedServer

from replay import Cassette, ReplayTransport
from replay._core import expiry
from replay._core.errors import CassetteMiss, ConfigError
from replay.tools.config import checked, settings
from replay.tools.fakellm import FakeLLMServer

LONG_AGO = "2020-01-02T03:04:05Z"


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def ask(cassette: Cassette, url: str, prompt: str = "hello") -> str:
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": prompt}]}
    with httpx.Client(transport=ReplayTransport(cassette)) as client:
        answer = client.post(
            url + "/v1/chat/completions",
            json=body,
            headers={"authorization": f"Bearer {TEST_API_KEY}"},
        )
    content: str = answer.json()["choices"][0]["message"]["content"]
    return content


def recorded_dates(path: Path) -> list[str]:
    document = orjson.loads(path.read_bytes())
    return [r["recorded_at"] for e in document["interactions"].values() for r in e["responses"]]


@pytest.fixture
def old_cassette(cassette_path: Path, llm_server: FakeLLMServer) -> Path:
    """A cassette holding one recording, dated years ago."""
    with Cassette(cassette_path) as cassette:
        ask(cassette, llm_server.url)
    document = orjson.loads(cassette_path.read_bytes())
    for entry in document["interactions"].values():
        for response in entry["responses"]:
            response["recorded_at"] = LONG_AGO
    cassette_path.write_bytes(orjson.dumps(document))
    return cassette_path


def test_an_expired_recording_is_replayed_with_a_warning_by_default(
    old_cassette: Path, llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer]
) -> None:
    stopped = server_gone()
    with pytest.warns(UserWarning, match=r"recorded \d+ days ago \(2020-01-02.*on_expired='warn'"):
        assert ask(Cassette(old_cassette, max_age="30d"), llm_server.url) == "Answer to: hello"
    stopped.assert_untouched()


def test_a_recording_within_max_age_replays_without_a_word(
    old_cassette: Path, llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer]
) -> None:
    stopped = server_gone()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cassette = Cassette(old_cassette, max_age=timedelta(days=365 * 100), on_expired="fail")
        assert ask(cassette, llm_server.url) == "Answer to: hello"
    stopped.assert_untouched()


def test_on_expired_fail_is_a_miss_saying_how_old(
    old_cassette: Path, llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer]
) -> None:
    stopped = server_gone()
    cassette = Cassette(old_cassette, max_age=86400, on_expired="fail")
    with pytest.raises(CassetteMiss) as raised:
        ask(cassette, llm_server.url)
    miss = raised.value
    assert cassette.misses == [miss]
    assert "its recording is expired: recorded" in str(miss) and LONG_AGO in str(miss)
    assert str(old_cassette) in str(miss)
    stopped.assert_untouched()


def test_on_expired_rerecord_records_again_dated_now_and_then_replays(
    old_cassette: Path, llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer]
) -> None:
    asked = len(llm_server.requests)
    with Cassette(old_cassette, max_age="30d", on_expired="rerecord") as cassette:
        assert ask(cassette, llm_server.url) == "Answer to: hello"
    assert cassette.recorded == 1 and len(llm_server.requests) == asked + 1
    (date,) = recorded_dates(old_cassette)  # replaced, not added to
    assert date != LONG_AGO
    stopped = server_gone()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = Cassette(old_cassette, "none", max_age="30d", on_expired="rerecord")
        assert ask(again, llm_server.url) == "Answer to: hello"
    assert again.replayed == 1
    stopped.assert_untouched()


def test_rerecord_in_mode_none_fails_instead_of_recording(
    old_cassette: Path, llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer]
) -> None:
    stopped = server_gone()
    cassette = Cassette(old_cassette, "none", max_age="30d", on_expired="rerecord")
    with pytest.raises(CassetteMiss):
        ask(cassette, llm_server.url)
    assert len(cassette.misses) == 1 and "expired" in cassette.misses[0].reason
    assert recorded_dates(old_cassette) == [LONG_AGO]
    stopped.assert_untouched()


@pytest.mark.parametrize(
    ("given", "seconds"),
    [
        ("30d", 30 * 86400),
        ("12h", 43200),
        ("1.5m", 90),
        ("2w", 14 * 86400),
        (90, 90),
        (timedelta(hours=1), 3600),
        (None, None),
    ],
)
def test_max_age_reads_seconds_timedeltas_and_text(given: object, seconds: float | None) -> None:
    parsed = expiry.max_age("max_age", given)
    assert (parsed and parsed.total_seconds()) == seconds


@pytest.mark.parametrize("given", ["30 days", "-1d", 0, -5, True, "d", [30]])
def test_a_bad_max_age_names_where_it_was_given(given: object) -> None:
    with pytest.raises(ConfigError, match=r"max_age \(in \[tool.replay\]"):
        checked("[tool.replay]", {"max_age": given})


def test_markers_and_pyproject_take_max_age_and_on_expired(tmp_path: Path) -> None:
    options = checked("the replay marker", {"max_age": "30d", "on_expired": "rerecord"})
    assert options == {"max_age": timedelta(days=30), "on_expired": expiry.OnExpired.RERECORD}
    opened = Cassette(tmp_path / "unused.json", **settings(options, None).cassette_options())
    assert opened.expiry == expiry.Expiry(timedelta(days=30), expiry.OnExpired.RERECORD)
    with pytest.raises(ConfigError, match="one of warn, fail, rerecord"):
        checked("the replay marker", {"on_expired": "retry"})
