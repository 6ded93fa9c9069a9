"""A pytest-recording suite moves over with no edits (issue 24).

``recording_suite/`` is such a suite as its authors wrote it, with its vcrpy YAML
cassettes: a conversation of two turns to one URL, a request body field that has changed
since recording, no ``Date`` headers. After ``replay import-vcr`` it passes with replay
standing in for pytest-recording (``-p no:recording`` where pytest-recording is
installed); with pytest-recording active, both plugins load and each marker goes to its
own tool. Nothing listens at the suite's URL: every run replays.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import orjson
import pytest
import yaml  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
from click.testing import CliRunner

from replay.tools.cli import main

# yaml is imported above, before pytester snapshots sys.modules: imported again after the
# snapshot is restored, its C loader finds no constructors.
SUITE = Path(__file__).parent / "recording_suite"
CASSETTES = Path("cassettes") / "test_chat"
VCRPY_MATCH_ON = ["method", "scheme", "host", "port", "path", "query"]
"""vcrpy's default, method and URI, as the converted cassettes name it."""


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """The suite copied into a pytester directory, its YAML cassettes beside it."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    shutil.copy(SUITE / "suite_conftest.py", pytester.path / "conftest.py")
    shutil.copy(SUITE / "suite_test_chat.py", pytester.path / "test_chat.py")
    shutil.copytree(SUITE / "cassettes", pytester.path / "cassettes")
    return pytester


def import_vcr(directory: Path, *options: str) -> None:
    result = CliRunner().invoke(main, ["import-vcr", *options, str(directory)])
    assert result.exit_code == 0, result.output


def test_the_suite_passes_unedited_after_import_vcr(suite: pytest.Pytester) -> None:
    import_vcr(suite.path / "cassettes")
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:recording")
    result.assert_outcomes(passed=3)


def test_the_conversion_keeps_order_ids_and_vcrpy_matching_and_redacts(
    suite: pytest.Pytester,
) -> None:
    import_vcr(suite.path / "cassettes")
    converted = suite.path / CASSETTES / "test_conversation.json"
    data = converted.read_bytes()
    assert b"sk-proj-" not in data  # the recorded Authorization header
    responses = [
        (response["order"], response["body"]["json"]["id"], request["match_on"])
        for entry in orjson.loads(data)["interactions"].values()
        for request in [entry["request"]]
        for response in entry["responses"]
    ]
    assert sorted(responses) == [
        (0, "chatcmpl-9xYz8AbC7dEfGh1", VCRPY_MATCH_ON),
        (1, "chatcmpl-2QwE3rT4yU5iO6p", VCRPY_MATCH_ON),
    ]
    before = {path: path.read_bytes() for path in (suite.path / CASSETTES).glob("*.json")}
    import_vcr(suite.path / "cassettes", "--force")
    assert {path: path.read_bytes() for path in before} == before


def test_normalize_on_request_gives_ids_placeholders(suite: pytest.Pytester) -> None:
    import_vcr(suite.path / "cassettes", "--normalize")
    data = (suite.path / CASSETTES / "test_conversation.json").read_bytes()
    assert b"chatcmpl-9xYz8AbC7dEfGh1" not in data
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:recording")
    result.assert_outcomes(passed=2, failed=1)  # the test reads the recorded id
    result.stdout.fnmatch_lines(["*chatcmpl-9xYz8AbC7dEfGh1*"])


def test_a_third_turn_finds_the_two_recorded_by_method_and_url_used_up(
    suite: pytest.Pytester,
) -> None:
    import_vcr(suite.path / "cassettes")
    suite.makepyfile(
        test_more="""
        import httpx
        import pytest

        @pytest.mark.vcr("test_chat/test_conversation.yaml")
        def test_third_turn():
            with httpx.Client() as client:
                for _ in range(3):
                    client.post("http://127.0.0.1:9/v1/chat/completions", json={"n": 1})
        """
    )
    (suite.path / "cassettes" / "test_more").mkdir()
    shutil.move(suite.path / CASSETTES, suite.path / "cassettes" / "test_more" / "test_chat")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:recording", "test_more.py"
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "no recording for POST http://127.0.0.1:9/v1/chat/completions in cassette *"
            "all 2 recorded responses were already replayed*"
        ]
    )


def test_the_vcr_fixture_tells_which_recordings_played_and_the_record_mode(
    suite: pytest.Pytester,
) -> None:
    """pydantic-ai's conftest fails a test that left recordings unplayed: it reads
    ``record_mode``, ``all_played`` and ``play_counts`` (index in recorded order -> plays)."""
    import_vcr(suite.path / "cassettes")
    suite.makepyfile(
        test_more="""
        import httpx
        import pytest

        @pytest.mark.vcr("test_chat/test_conversation.yaml")
        def test_first_turn_only(vcr):
            with httpx.Client() as client:
                client.post("http://127.0.0.1:9/v1/chat/completions", json={"n": 1})
            assert vcr.record_mode == "none"
            assert not vcr.all_played
            assert vcr.play_counts == {0: 1}
            assert [vcr.play_counts.get(index, 0) for index in range(len(vcr))] == [1, 0]
        """
    )
    (suite.path / "cassettes" / "test_more").mkdir()
    shutil.move(suite.path / CASSETTES, suite.path / "cassettes" / "test_more" / "test_chat")
    result = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:recording", "test_more.py"
    )
    result.assert_outcomes(passed=1)


needs_pytest_recording = pytest.mark.skipif(
    importlib.util.find_spec("pytest_recording") is None,
    reason="pytest-recording not installed (nox -s tests runs this module with it)",
)


@needs_pytest_recording
def test_beside_pytest_recording_each_marker_goes_to_its_own_tool(suite: pytest.Pytester) -> None:
    import_vcr(suite.path / "cassettes")  # the YAML stays, for pytest-recording
    converted = suite.path / CASSETTES / "test_conversation.json"
    suite.makepyfile(
        test_replayed="""
        import httpx
        import pytest

        @pytest.mark.replay(CONVERTED)
        def test_through_replay(replay_cassette, vcr):
            assert vcr is None  # pytest-recording's fixture: this test is not vcr-marked
            with httpx.Client() as client:
                reply = client.post("http://127.0.0.1:9/v1/chat/completions", json={})
            assert reply.json()["id"] == "chatcmpl-9xYz8AbC7dEfGh1"
            assert replay_cassette.replayed == 1
        """.replace("CONVERTED", repr(str(converted)))
    )
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--block-network")
    result.assert_outcomes(passed=4)
    help_text = suite.runpytest_subprocess("--help")
    for option in ("--replay-mode", "--record-mode", "Block network access except for VCR"):
        help_text.stdout.fnmatch_lines([f"*{option}*"])  # replay's, and pytest-recording's
