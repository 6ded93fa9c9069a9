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

from replay._core.errors import ConfigError
from replay._core.model import Request
from replay.tools.config import from_vcr_config

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


SEVERAL_CONFTEST = """
import os

import pytest

URL = os.environ["ECHO_URL"]


@pytest.fixture(scope="module")
def vcr_cassette_dir(request):
    return os.path.join(os.path.dirname(request.path), "recorded")


@pytest.fixture
def default_cassette_name(request):
    return "own-" + request.node.name


@pytest.fixture(scope="module")
def vcr_config():
    return {
        "match_on": ["method", "path"],
        "filter_query_parameters": ["api_key", ("account", "ACCOUNT")],
        "filter_post_data_parameters": [("password", None), "token"],
        "decode_compressed_response": True,
    }
"""

SEVERAL_TEST = """
import os

import httpx
import pytest

from conftest import URL

FIRST = os.environ["RUN"] == "first"


@pytest.mark.vcr("a.yaml")
def test_record_a():
    asked = {"api_key": os.environ["ECHO_KEY"], "account": "acct-7Hq2Lm9Zp4"}
    reply = httpx.get(URL + "/a", params=asked)
    assert reply.json()["path"].startswith("/a")


@pytest.mark.vcr("b.yaml")
def test_record_b():
    form = {"password": "hunter2-Vx8Kq3Lw", "token": "tok-9Rz5Wm1Pq7", "q": "x"}
    reply = httpx.post(URL + "/b", data=form)
    assert reply.json()["path"] == "/b"


@pytest.mark.vcr
def test_own():
    assert httpx.get(URL + "/own").json()["path"] == "/own"


@pytest.mark.vcr("a.yaml", "b.yaml")
def test_both(vcr):
    if FIRST:
        return
    # match_on method and path: another query still finds the recording
    assert httpx.get(URL + "/a", params={"api_key": "other"}).json()["path"].startswith("/a")
    assert httpx.post(URL + "/b", data={"q": "y"}).json()["path"] == "/b"
    assert len(vcr) == 2 and vcr.play_count == 2
"""


def test_several_cassettes_on_one_marker_the_cassette_fixtures_and_vcr_config_keys(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (suite.path / "conftest.py").write_text(SEVERAL_CONFTEST)
    suite.makepyfile(test_several=SEVERAL_TEST)
    options = ["-p", "no:cacheprovider", "-p", "no:recording"]
    with echo_server() as url:
        monkeypatch.setenv("ECHO_URL", url)
        monkeypatch.setenv("RUN", "first")
        suite.runpytest_subprocess(*options, "--record-mode", "once").assert_outcomes(passed=4)
    recorded = suite.path / "recorded"
    assert sorted(path.name for path in recorded.iterdir() if not path.name.startswith(".")) == [
        "a.json",
        "b.json",
        "own-test_own.json",
    ]
    text = "".join(path.read_text() for path in recorded.glob("*.json"))
    for secret in (KEY, "acct-7Hq2Lm9Zp4", "hunter2-Vx8Kq3Lw", "tok-9Rz5Wm1Pq7"):
        assert secret not in text
    saved = {path.name: path.read_bytes() for path in recorded.glob("*.json")}

    monkeypatch.setenv("RUN", "second")  # the server is stopped: every answer is replayed
    suite.runpytest_subprocess(*options).assert_outcomes(passed=4)
    assert {path.name: path.read_bytes() for path in recorded.glob("*.json")} == saved


def test_disable_recording_runs_vcr_marked_tests_with_no_cassette(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    suite.makepyfile(
        """
        import os

        import httpx
        import pytest

        @pytest.mark.vcr
        def test_live(vcr):
            assert vcr is None
            assert httpx.get(os.environ["ECHO_URL"] + "/live").json()["path"] == "/live"
        """
    )
    with echo_server() as url:
        monkeypatch.setenv("ECHO_URL", url)
        result = suite.runpytest_subprocess(
            "-p", "no:cacheprovider", "-p", "no:recording", "--disable-recording"
        )
    result.assert_outcomes(passed=1)
    assert not (suite.path / "cassettes").exists()


def test_vcr_config_keys_translate_or_are_refused_naming_the_key() -> None:
    def scrub(request: object) -> object:
        request.headers.clear()  # type: ignore[attr-defined]
        return request

    options = from_vcr_config(
        "vcr_config", {"before_record": scrub, "before_record_response": None}
    )
    hook = options["before_record_request"]
    assert callable(hook) and "before_record_response" not in options
    asked = Request("POST", "https://api.example.com/v1?b=2", (("x-key", "v"),), b"{}")
    assert hook(asked) == Request("POST", "https://api.example.com/v1?b=2", (), b"{}")
    with pytest.raises(ConfigError, match=r"before_record_request \(in vcr_config\).*function"):
        from_vcr_config("vcr_config", {"before_record_request": "scrub"})
    with pytest.raises(ConfigError, match=r"custom_matchers \(in vcr_config\).*unknown option"):
        from_vcr_config("vcr_config", {"custom_matchers": {}})
    with pytest.raises(ConfigError, match="override the vcr_cassette_dir fixture"):
        from_vcr_config("vcr_config", {"cassette_library_dir": "x"})
