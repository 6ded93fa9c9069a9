"""What pytest-recording suites put in ``vcr_config`` and on the ``vcr`` marker, under replay.

Each sample suite is written as for pytest-recording; it records through a real server on
127.0.0.1 (``--record-mode once``) and replays with that server stopped, in a new pytest
process, with the same assertions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from echo_server import echo_server

KEY = "sk-vcrhooks-9Qm2Vx7Lp1Zr8Kd4"

HOOKS_CONFTEST = """
import json
import os

import pytest

URL = os.environ["ECHO_URL"]
KEY = os.environ["ECHO_KEY"]


def scrub_request(request):
    if request.path.startswith("/telemetry"):
        return None  # neither recorded nor replayed
    body = json.loads(request.body)
    body["user"] = "anonymous"  # before matching too: another user's run replays
    body["copied_key"] = request.headers["Authorization"]  # redaction still finds it
    request.body = json.dumps(body)
    request.headers["X-Run"] = "some run"
    return request


def scrub_response(response):
    response["headers"]["x-stored-by"] = ["the hook"]
    response["body"]["string"] = response["body"]["string"].replace(
        os.environ["RUN_USER"].encode(), b"someone"
    )
    return response


@pytest.fixture(scope="module")
def vcr_config():
    return {"before_record_request": scrub_request, "before_record_response": scrub_response}
"""

HOOKS_TEST = """
import os

import httpx
import pytest

import replay
from conftest import KEY, URL


def ask():
    return httpx.post(
        URL + "/v1/chat",
        json={"user": os.environ["RUN_USER"], "q": "hi"},
        headers={"Authorization": "Bearer " + KEY, "X-Run": os.environ["RUN_USER"]},
    )


@pytest.mark.vcr
def test_chat():
    reply = ask()
    assert reply.status_code == 200
    echoed = reply.json()
    if os.environ["RUN_USER"] == "alice":  # recording: the caller gets the live answer
        assert "alice" in echoed["body"] and "x-stored-by" not in reply.headers
    else:  # replaying: the answer as the hooks stored it
        assert '"user":"someone"' in echoed["body"]
        assert "x-stored-by" in reply.headers
        assert "alice" not in reply.text


@pytest.mark.vcr
def test_telemetry_is_dropped():
    ask()
    if os.environ["RUN_USER"] == "alice":
        sent = httpx.post(URL + "/telemetry", json={"event": "x"})
        assert sent.status_code == 200  # sent on, unrecorded
    else:
        with pytest.raises(replay.NetworkBlocked, match="dropped by before_record_request"):
            httpx.post(URL + "/telemetry", json={"event": "x"})
"""


def _cassettes(root: Path) -> dict[str, dict[str, object]]:
    return {
        path.name: json.loads(path.read_text())["interactions"]
        for path in sorted((root / "cassettes").rglob("*.json"))
        if not path.name.startswith(".")
    }


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.Pytester]:
    for variable in ("CI", "REPLAY_MODE"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("ECHO_KEY", KEY)
    yield pytester


def test_before_record_hooks_run_with_vcrpys_meaning_and_redaction_after_them(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (suite.path / "conftest.py").write_text(HOOKS_CONFTEST)
    suite.makepyfile(test_hooks=HOOKS_TEST)
    with echo_server() as url:
        monkeypatch.setenv("ECHO_URL", url)
        monkeypatch.setenv("RUN_USER", "alice")
        recording = suite.runpytest_subprocess(
            "-p", "no:cacheprovider", "-p", "no:recording", "--record-mode", "once"
        )
        recording.assert_outcomes(passed=2)
    cassettes = _cassettes(suite.path)
    assert sorted(cassettes) == ["test_chat.json", "test_telemetry_is_dropped.json"]
    text = "".join(path.read_text() for path in (suite.path / "cassettes").rglob("*.json"))
    assert KEY not in text  # the hook copied it into the body: redacted all the same
    assert "alice" not in text
    assert "/telemetry" not in text
    (interaction,) = cassettes["test_chat.json"].values()
    assert isinstance(interaction, dict)
    stored_request = interaction["request"]
    assert stored_request["body"]["json"]["user"] == "anonymous"
    assert stored_request["headers"]["x-run"] == "some run"
    (response,) = interaction["responses"]
    assert "x-stored-by" in response["headers"]

    monkeypatch.setenv("ECHO_URL", url)  # stopped: nothing answers there now
    monkeypatch.setenv("RUN_USER", "bob")
    replaying = suite.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:recording", "--record-mode", "none"
    )
    replaying.assert_outcomes(passed=2)
    assert _cassettes(suite.path) == cassettes


def test_a_hook_returning_something_else_is_an_error_naming_it(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite.makeconftest(
        """
        import pytest

        @pytest.fixture
        def vcr_config():
            return {"before_record_request": lambda request: {"uri": request.uri}}
        """
    )
    suite.makepyfile(
        """
        import httpx
        import pytest

        @pytest.mark.vcr
        def test_chat():
            httpx.get("http://127.0.0.1:9/v1/models")
        """
    )
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "-p", "no:recording")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*before_record_request (in the vcr_config fixture)*returned neither a vcrpy Request*"]
    )
    assert not os.path.exists(suite.path / "cassettes")
