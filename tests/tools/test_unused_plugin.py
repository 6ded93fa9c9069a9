"""``unused`` under pytest: a test that passed but left recorded responses unused fails (or
warns), a test that failed keeps its own failure; the option from each place it is set.

Sample suites record from the echo server on 127.0.0.1, then replay with it stopped.
"""

from __future__ import annotations

import pytest
from conftest import port_refuses
from echo_server import echo_server

SAMPLE = """
import os

import httpx
import pytest

URL = os.environ["ECHO_URL"]


def ask(names):
    with httpx.Client() as client:
        for name in names.split(","):
            assert client.post(f"{URL}/{name}", json={"q": name}).json()["path"] == f"/{name}"


@pytest.mark.replay(MARKER)
def test_agent():
    ask(os.environ["ASK"])
    assert os.environ.get("FAIL") is None, "the test's own failure"
"""


class Suite:
    """A suite whose test asks the echo server for what ``ASK`` lists; ``recorded`` asking for
    /a, /b and /c, ``replayed`` with the server stopped asking for /a only."""

    def __init__(self, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pytester = pytester
        self.monkeypatch = monkeypatch

    def write(self, marker: str = "", pyproject: str = "", conftest: str = "") -> None:
        self.pytester.makepyfile(test_sample=SAMPLE.replace("MARKER", marker))
        if pyproject:
            self.pytester.makefile(".toml", pyproject=pyproject)
        if conftest:
            self.pytester.makeconftest(
                f"import pytest\n\n@pytest.fixture\ndef replay_config():\n    return {conftest}\n"
            )

    def record(self, marker: str = "", pyproject: str = "") -> None:
        self.write(marker, pyproject)
        self.monkeypatch.setenv("ASK", "a,b,c")
        with echo_server() as url:
            self.monkeypatch.setenv("ECHO_URL", url)
            self.pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
        assert port_refuses(url)
        self.monkeypatch.setenv("ASK", "a")

    def replay(self, *options: str) -> pytest.RunResult:
        return self.pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--replay-mode", "none", *options
        )


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Suite:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    return Suite(pytester, monkeypatch)


def fails_naming_b_and_c(result: pytest.RunResult) -> None:
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_agent _*",
            "cassette *test_agent.json: 2 recorded responses were never used",
            "  POST http://127.0.0.1:*/b",
            "  POST http://127.0.0.1:*/c",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_the_marker_fails_a_test_that_passed_and_not_one_that_failed(suite: Suite) -> None:
    suite.record('unused="fail"')
    fails_naming_b_and_c(suite.replay())
    suite.monkeypatch.setenv("FAIL", "1")
    result = suite.replay()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*AssertionError: the test's own failure*"])
    assert "never used" not in result.stdout.str()
    suite.monkeypatch.delenv("FAIL")
    suite.monkeypatch.setenv("ASK", "c,b,a")
    suite.replay().assert_outcomes(passed=1)


def test_pyproject_then_replay_config_then_the_command_line_over_all(suite: Suite) -> None:
    suite.record(pyproject='[tool.replay]\nunused = "fail"\n')
    fails_naming_b_and_c(suite.replay())
    suite.write(conftest="{'unused': 'allow'}")
    suite.replay().assert_outcomes(passed=1)  # the fixture beats [tool.replay]
    fails_naming_b_and_c(suite.replay("--replay-unused=fail"))
    warned = suite.replay("--replay-unused", "warn")
    warned.assert_outcomes(passed=1, warnings=1)
    warned.stdout.fnmatch_lines(
        ["*UserWarning: cassette *test_agent.json: 2 recorded responses were never used"]
    )
    suite.write('unused="fail"')  # the marker, which beats the fixture, is beaten too
    suite.replay("--replay-unused=allow").assert_outcomes(passed=1)


def test_a_bad_value_names_the_option_and_where_it_was_set(suite: Suite) -> None:
    suite.write('unused="strict"')
    suite.monkeypatch.setenv("ECHO_URL", "http://127.0.0.1:9")
    suite.monkeypatch.setenv("ASK", "a")
    result = suite.replay()
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(
        ["unused (in the replay marker of test_sample.py::test_agent)='strict': not a choice*"]
    )
    command_line = suite.replay("--replay-unused=strict")
    assert command_line.ret == pytest.ExitCode.USAGE_ERROR
    command_line.stderr.fnmatch_lines(["*--replay-unused: invalid choice: 'strict'*"])
