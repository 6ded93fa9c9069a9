"""The pytest plugin, driven by pytester on sample suites that call the local fake LLM server.

Each sample suite records with the server running, then replays with it stopped
(``--replay-mode none``): the same assertions pass both times, so the SDK results
replayed are those recorded. The server's address reaches the sample suites
through ``FAKELLM_URL``.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from realtime_server import RealtimeServer
from recorded import wait_for_next_second

from replay._core.errors import ConfigError
from replay._core.modes import Mode
from replay._store import cassette_file, usage
from replay.tools.config import cassette_name, checked, merged, settings
from replay.tools.fakellm import FakeLLMServer

KEY = "sk-plugin-test-4Kd9Qm2Vx7Lp1Zr8"

SAMPLE_CONFTEST = """
import os

import pytest

URL = os.environ["FAKELLM_URL"]
KEY = os.environ["FAKELLM_KEY"]
MESSAGES = lambda text: [{"role": "user", "content": text}]
"""

SAMPLE_PYPROJECT = """
[tool.pytest.ini_options]
asyncio_mode = "auto"
asyncio_default_fixture_loop_scope = "function"

[tool.replay]
ignore = ["user"]
"""

SAMPLE_CHAT = """
import anyio
import groq
import openai
import pytest

from conftest import KEY, MESSAGES, URL
import os

pytestmark = pytest.mark.replay

EARLY_CLIENT = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)


def test_openai_client_made_at_import(replay_cassette):
    reply = EARLY_CLIENT.chat.completions.create(
        model="gpt-4o", messages=MESSAGES("hello there"), user=os.environ["RUN"]
    )
    assert reply.choices[0].message.content == "Answer to: hello there"
    assert replay_cassette.replayed + replay_cassette.recorded == 1


async def test_openai_async_stream():
    client = openai.AsyncOpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    stream = await client.chat.completions.create(
        model="gpt-4o", messages=MESSAGES("tell me a story"), stream=True
    )
    text = "".join([chunk.choices[0].delta.content or "" async for chunk in stream])
    assert text == "Answer to: tell me a story"


def test_groq_sync():
    client = groq.Groq(base_url=URL, api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model="llama", messages=MESSAGES("hi groq"))
    assert reply.choices[0].message.content == "Answer to: hi groq"


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
async def test_groq_async_under_anyio():
    client = groq.AsyncGroq(base_url=URL, api_key=KEY, max_retries=0)
    reply = await client.chat.completions.create(model="llama", messages=MESSAGES("via anyio"))
    assert reply.choices[0].message.content == "Answer to: via anyio"


class TestShared:
    @pytest.mark.replay("shared.json")
    def test_first(self):
        client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
        reply = client.chat.completions.create(model="m", messages=MESSAGES("first"))
        assert reply.choices[0].message.content == "Answer to: first"

    @pytest.mark.replay("shared.json")
    def test_second(self):
        client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
        reply = client.chat.completions.create(model="m", messages=MESSAGES("second"))
        assert reply.choices[0].message.content == "Answer to: second"
"""

SAMPLE_SUB_CONFTEST = """
import pytest


@pytest.fixture
def replay_config():
    return {"ignore": ["model"]}
"""

SAMPLE_SUB_TEST = """
import os

import openai
import pytest

from conftest import KEY, MESSAGES, URL


@pytest.mark.replay
def test_model_is_ignored_in_this_directory():
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model=os.environ["RUN"], messages=MESSAGES("hey"))
    assert reply.choices[0].message.content == "Answer to: hey"
"""


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=KEY) as running:
        yield running


@pytest.fixture
def sample(
    pytester: pytest.Pytester, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A pytester directory whose suites reach ``server``, outside CI and any outer REPLAY_MODE."""
    monkeypatch.setenv("FAKELLM_URL", server.url)
    monkeypatch.setenv("FAKELLM_KEY", KEY)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    for variable in (usage.RUN_ID_VARIABLE, "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(variable, raising=False)  # each sample run is a run of its own
    pytester.makeconftest(SAMPLE_CONFTEST)
    pytester.makefile(".toml", pyproject=SAMPLE_PYPROJECT)
    return pytester


def _cassettes(root: Path) -> dict[str, dict[str, object]]:
    return {
        str(path.relative_to(root)): json.loads(path.read_text())["interactions"]
        for path in sorted(root.rglob("cassettes/**/*.json"))
        if not path.name.startswith(".")  # the usage record of replay prune
    }


def test_suite_records_then_replays_with_the_server_gone(
    sample: pytest.Pytester, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample.makepyfile(test_chat=SAMPLE_CHAT)
    sample.mkpydir("sub")
    (sample.path / "sub" / "conftest.py").write_text(SAMPLE_SUB_CONFTEST)
    (sample.path / "sub" / "test_sub.py").write_text(SAMPLE_SUB_TEST)
    monkeypatch.setenv("RUN", "first-run")

    recording = sample.runpytest_subprocess("-p", "no:cacheprovider")
    recording.assert_outcomes(passed=7)
    recording.stdout.fnmatch_lines(
        ["replay: 6 cassettes, 0 interactions replayed, 7 recorded, 0 unused"]
    )
    cassettes = _cassettes(sample.path)
    assert sorted(cassettes) == [
        "cassettes/test_chat/shared.json",
        "cassettes/test_chat/test_groq_async_under_anyio.json",
        "cassettes/test_chat/test_groq_sync.json",
        "cassettes/test_chat/test_openai_async_stream.json",
        "cassettes/test_chat/test_openai_client_made_at_import.json",
        "sub/cassettes/test_sub/test_model_is_ignored_in_this_directory.json",
    ]
    assert len(cassettes["cassettes/test_chat/shared.json"]) == 2
    assert KEY not in "".join(path.read_text() for path in sample.path.rglob("*.json"))
    asked = len(server.requests)

    server.stop()
    monkeypatch.setenv("RUN", "second-run")  # new user (ignored by pyproject), new model (by sub/)
    replaying = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=7)
    replaying.stdout.fnmatch_lines(
        ["replay: 6 cassettes, 7 interactions replayed, 0 recorded, 0 unused"]
    )
    assert len(server.requests) == asked
    assert _cassettes(sample.path) == cassettes


SAMPLE_MISS = """
import os

import openai
import pytest

from conftest import KEY, MESSAGES, URL


@pytest.mark.replay
def test_asks():
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=1)
    client.chat.completions.create(model="m", messages=MESSAGES("always the same"))
    reply = client.chat.completions.create(model="m", messages=MESSAGES(os.environ["PROMPT"]))
    assert reply.choices[0].message.content.startswith("Answer to:")
"""

SAMPLE_NEVER_RECORDED = """
import groq
import pytest

from conftest import KEY, MESSAGES, URL


@pytest.mark.replay
def test_never_recorded():
    client = groq.Groq(base_url=URL, api_key=KEY, max_retries=1)  # retries, then wraps the miss
    client.chat.completions.create(model="m", messages=MESSAGES("new"))
"""


def test_a_miss_is_the_failure_shown_and_ci_defaults_to_mode_none(
    sample: pytest.Pytester, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    sample.makepyfile(test_miss=SAMPLE_MISS)
    monkeypatch.setenv("PROMPT", "hello")
    sample.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)

    server.stop()
    sample.makepyfile(test_new=SAMPLE_NEVER_RECORDED)
    monkeypatch.setenv("PROMPT", "goodbye")
    monkeypatch.setenv("CI", "true")
    result = sample.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2)
    cassette = sample.path / "cassettes" / "test_miss" / "test_asks.json"
    new = sample.path / "cassettes" / "test_new" / "test_never_recorded.json"
    result.stdout.fnmatch_lines(
        [
            "*_ test_asks _*",
            f"no recording for POST {server.url}/v1/chat/completions in cassette {cassette}: "
            "mode 'none' never records",
            f"closest recorded request: POST {server.url}/v1/chat/completions, which differs in",
            "  body.messages?0?.content: recorded *, requested 'goodbye'",
            # The second call of the test missed, not the first: the report says which.
            f"called at test_miss.py:{line_of(sample.path / 'test_miss.py', 'reply =')}, "
            "in test_asks",
            "    reply = client.chat.completions.create(*",
            "",
            "CI is set (CI=true), so replay ran in mode 'none', which records nothing.",
            f"To record this request into {cassette}: run the test with CI unset and "
            "--replay-mode new_episodes, and commit the cassette.",
            "*_ test_never_recorded _*",
            f"no recording for POST {server.url}/openai/v1/chat/completions in cassette {new}: "
            "mode 'none' never records; the cassette file does not exist; to record it, run "
            "this once where the API is reachable in mode 'once' (the default outside CI) or "
            "'new_episodes', and commit the file",
            f"called at test_new.py:{line_of(sample.path / 'test_new.py', 'create(')}, "
            "in test_never_recorded",
            "",
            "CI is set (CI=true), so replay ran in mode 'none', which records nothing.",
            "To record it: run this test once where the API is reachable, with CI unset "
            "(or with --replay-mode once), and commit the cassette.",
            "",
            "(the test then failed with APIConnectionError: Connection error.)",
        ]
    )
    assert "_base_client.py" not in result.stdout.str()  # not buried in the SDK's retry loop
    assert result.stdout.str().count("never records") == 4  # once per test, and in the summary
    assert not new.parent.exists()


def line_of(path: Path, text: str) -> int:
    """The number of the first line of ``path`` holding ``text``."""
    lines = path.read_text().splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


SAMPLE_TWO_TESTS = """
import openai
import pytest

from conftest import KEY, MESSAGES, URL

pytestmark = pytest.mark.replay


def ask(prompt):
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=2)
    return client.chat.completions.create(model="m", messages=MESSAGES(prompt))


def test_kept():
    assert ask("kept").choices[0].message.content == "Answer to: kept"


def test_damaged():
    ask("damaged")
"""


def test_an_unreadable_cassette_gets_the_report_of_a_miss_and_is_left_alone(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    sample.makepyfile(test_two=SAMPLE_TWO_TESTS)
    sample.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)
    directory = sample.path / "cassettes" / "test_two"
    truncated, malformed = directory / "test_damaged.json", directory / "test_kept.json"
    truncated.write_bytes(truncated.read_bytes()[:200])
    document = json.loads(malformed.read_text())
    [entry] = document["interactions"].values()
    entry["responses"] = 5  # valid JSON, but not a list of responses
    malformed.write_text(json.dumps(document))
    before = {path: path.read_bytes() for path in (truncated, malformed)}

    result = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    result.assert_outcomes(failed=2)
    called_at = line_of(sample.path / "test_two.py", "return client")
    fix = (
        "The file is left as it is: fix it (replay verify names what is wrong), restore it "
        "from version control, or delete it to record the test anew."
    )
    result.stdout.fnmatch_lines(
        [
            "*_ test_kept _*",
            f"cassette {malformed}: interaction * is malformed*",
            fix,
            f"called at test_two.py:{called_at}, in ask",
            "    return client.chat.completions.create(*",
            "*_ test_damaged _*",
            f"cassette {truncated}: is not valid JSON*",
            fix,
            f"called at test_two.py:{called_at}, in ask",
            "replay: 2 cassettes, 0 interactions replayed, 0 recorded, 0 unused (1 unreadable)",
        ]
    )
    output = result.stdout.str()
    assert "_base_client.py" not in output and "Traceback" not in output
    assert {path: path.read_bytes() for path in before} == before


def test_unused_in_the_summary_is_what_prune_removes(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    sample.makepyfile(test_two=SAMPLE_TWO_TESTS.replace('ask("damaged")', 'ask("gone")'))
    sample.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)
    wait_for_next_second()  # recording dates have one-second resolution
    kept_only = SAMPLE_TWO_TESTS.split("def test_damaged")[0]  # the second test is deleted
    sample.makepyfile(test_two=kept_only)
    server.stop()
    result = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["replay: 1 cassette, 1 interaction replayed, 0 recorded, 1 unused"]
    )
    directory = sample.path / "cassettes" / "test_two"
    pruned = subprocess.run(
        [sys.executable, "-m", "replay", "prune", str(directory), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    plan = json.loads(pruned.stdout)
    assert [(Path(f["path"]).name, len(f["remove"])) for f in plan["files"]] == [
        ("test_damaged.json", 1)
    ]
    assert plan["files"][0]["remove"][0]["prompt"] == "gone"


SAMPLE_NETWORK = """
import http.client
import socket
from urllib.parse import urlsplit

import openai
import pytest

from conftest import KEY, MESSAGES, URL

HOST, PORT = urlsplit(URL).hostname, urlsplit(URL).port


def test_raw_socket():
    socket.create_connection((HOST, PORT), timeout=5).close()


def test_http_client_as_requests_uses_it():
    connection = http.client.HTTPConnection(HOST, PORT, timeout=5)
    connection.request("GET", "/")
    assert connection.getresponse().status == 401  # the server wants a key


@pytest.mark.replay
def test_recording_through_the_cassette_is_allowed():
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model="m", messages=MESSAGES("allowed"))
    assert reply.choices[0].message.content == "Answer to: allowed"
"""


def test_block_network_catches_raw_sockets_but_not_cassettes(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    sample.makepyfile(test_network=SAMPLE_NETWORK)
    port = server.url.rsplit(":", 1)[1]

    blocked = sample.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:recording", "--block-network"
    )
    blocked.assert_outcomes(failed=2, passed=1)
    blocked.stdout.fnmatch_lines(
        [
            "*_ test_raw_socket _*",
            f"network access to 127.0.0.1:{port} is blocked (replay --block-network); "
            "record a cassette for this request or add the host to --allow-hosts",
            "*_ test_http_client_as_requests_uses_it _*",
            f"network access to 127.0.0.1:{port} is blocked*",
        ]
    )
    allowed = sample.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "no:recording",
        "--block-network",
        "--allow-hosts",
        "example.invalid, localhost",
    )
    allowed.assert_outcomes(passed=3)


SAMPLE_SYNC_CLIENTS = """
import http.client
import json
import os
import urllib.request

import pytest
import requests
import urllib3
import websockets.sync.client

from conftest import KEY, MESSAGES, URL

pytestmark = pytest.mark.replay
HEADERS = {"authorization": f"Bearer {KEY}"}


def answer(body):
    return body["choices"][0]["message"]["content"]


def test_requests_and_urllib3():
    chat = URL + "/v1/chat/completions"
    first = requests.post(chat, json={"model": "m", "messages": MESSAGES("one")}, headers=HEADERS)
    second = urllib3.PoolManager().request(
        "POST", chat, json={"model": "m", "messages": MESSAGES("two")}, headers=HEADERS
    )
    assert [answer(first.json()), answer(second.json())] == ["Answer to: one", "Answer to: two"]


def test_websockets():
    url = os.environ["REALTIME_URL"]
    with websockets.sync.client.connect(url, additional_headers=HEADERS) as connection:
        connection.send("hello")
        assert connection.recv() == "echo: hello"


def test_urllib_request():
    request = urllib.request.Request(
        URL + "/v1/chat/completions",
        data=json.dumps({"model": "m", "messages": MESSAGES("three")}).encode(),
        headers={**HEADERS, "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as reply:
        assert answer(json.load(reply)) == "Answer to: three"


def test_http_client_in_pieces_is_not_routed():
    host, port = URL.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    body = json.dumps({"model": "m", "messages": MESSAGES("four")}).encode()
    connection.putrequest("POST", "/v1/chat/completions")
    connection.putheader("authorization", HEADERS["authorization"])
    connection.putheader("content-length", str(len(body)))
    connection.endheaders(body)
    assert answer(json.load(connection.getresponse())) == "Answer to: four"
"""


def test_the_marker_routes_urllib3_urllib_and_websockets_and_blocks_what_it_does_not_route(
    sample: pytest.Pytester, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """requests, urllib3, urllib.request and websockets record under the marker and replay
    with the servers gone; http.client sent in pieces, not routed, warns while recording and
    raises NetworkBlocked in mode none, never reaching the network unseen."""
    sample.makepyfile(test_clients=SAMPLE_SYNC_CLIENTS)
    with RealtimeServer(KEY) as realtime:
        monkeypatch.setenv("REALTIME_URL", realtime.ws_url)
        recording = sample.runpytest_subprocess("-p", "no:cacheprovider")
        recording.assert_outcomes(passed=4)
        recording.stdout.fnmatch_lines(
            ["*connection to 127.0.0.1 made outside cassette*: its calls are not recorded*"]
        )
    asked = len(server.requests)
    assert asked == 4 and len(realtime.handshakes) == 1
    server.stop()

    replaying = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=3, failed=1)
    replaying.stdout.fnmatch_lines(
        [
            "*_ test_http_client_in_pieces_is_not_routed _*",
            "*NetworkBlocked: connection to 127.0.0.1:* made outside cassette *replays only*",
        ]
    )
    assert len(server.requests) == asked and len(realtime.handshakes) == 1


SAMPLE_ALLOWED = r"""
import socket
from urllib.parse import urlsplit

import pytest

from conftest import URL

HOST, PORT = urlsplit(URL).hostname, urlsplit(URL).port


def connect():
    socket.create_connection((HOST, PORT), timeout=5).close()


@pytest.mark.block_network(allowed_hosts=["10\.", "127\.0\.0\.[0-9]+"])
def test_marker_pattern_lets_the_address_through():
    connect()


@pytest.mark.block_network
def test_marker_blocks_without_the_option():
    connect()


@pytest.mark.block_network(allowed_hosts=["128\."])
def test_marker_pattern_beats_the_option():
    connect()


def test_only_under_the_option():
    connect()


@pytest.mark.block_network(hosts=["127.0.0.1"])
def test_marker_with_another_keyword_is_an_error():
    connect()
"""


def test_allowed_hosts_are_pytest_recordings_patterns_by_marker_option_and_vcr_config(
    sample: pytest.Pytester,
) -> None:
    """pytest-recording 0.14 matches each entry as a regular expression at the start of the
    address (re.match), and takes the marker's, else the option's, else vcr_config's."""
    sample.makepyfile(test_allowed=SAMPLE_ALLOWED)
    options = ("-p", "no:cacheprovider", "-p", "no:recording")
    alone = sample.runpytest_subprocess(*options)
    alone.assert_outcomes(passed=2, failed=2, errors=1)
    alone.stdout.fnmatch_lines(["*hosts*takes only allowed_hosts=*"])
    for failed in ("blocks_without_the_option", "pattern_beats_the_option"):
        alone.stdout.fnmatch_lines([f"FAILED test_allowed.py::test_marker_{failed}*"])

    by_option = sample.runpytest_subprocess(*options, "--block-network", "--allowed-hosts=12.")
    by_option.assert_outcomes(passed=3, failed=1, errors=1)  # "12." matches 127.0.0.1
    by_option.stdout.fnmatch_lines(["FAILED *test_marker_pattern_beats_the_option*"])
    not_inside = sample.runpytest_subprocess(*options, "--block-network", "--allowed-hosts=0\\.0")
    not_inside.assert_outcomes(passed=1, failed=3, errors=1)  # matched at the start, not anywhere

    sample.makeconftest(
        SAMPLE_CONFTEST
        + "\n\n@pytest.fixture\ndef vcr_config():\n    return {'allowed_hosts': '127\\\\.'}\n"
    )
    by_vcr_config = sample.runpytest_subprocess(*options, "--block-network")
    by_vcr_config.assert_outcomes(passed=3, failed=1, errors=1)

    bad = sample.runpytest_subprocess(*options, "--block-network", "--allowed-hosts=[127")
    bad.stdout.fnmatch_lines(["*--allowed-hosts='[127': not a host name or a regular expression*"])


SAMPLE_IGNORED = """
import httpx
import pytest

from conftest import KEY, MESSAGES, URL


def ask(prompt):
    reply = httpx.post(
        URL + "/v1/chat/completions",
        json={"model": "m", "messages": MESSAGES(prompt)},
        headers={"authorization": "Bearer " + KEY},
    )
    assert reply.json()["choices"][0]["message"]["content"] == f"Answer to: {prompt}"


@pytest.mark.replay(ignore_localhost=True)
def test_marker_ignores_localhost(replay_cassette):
    ask("not recorded")
    assert replay_cassette.recorded == 0


@pytest.mark.replay
def test_pyproject_ignores_the_host(replay_cassette):
    ask("not recorded either")
    assert replay_cassette.recorded == 0
"""


def test_ignored_hosts_bypass_the_cassette_and_are_blocked_under_block_network(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    sample.makepyfile(test_ignored=SAMPLE_IGNORED)
    pyproject = sample.path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + '\nignore_hosts = ["127.0.0.1"]\n')
    for mode in ("once", "none"):  # never recorded, so never missed either
        result = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", mode)
        result.assert_outcomes(passed=2)
    assert not (sample.path / "cassettes").exists()
    blocked = sample.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:recording", "--block-network"
    )
    blocked.assert_outcomes(failed=2)
    blocked.stdout.fnmatch_lines(["*network access to 127.0.0.1:* is blocked*"])


SAMPLE_XDIST = """
import openai
import pytest

from conftest import KEY, MESSAGES, URL

pytestmark = pytest.mark.replay


def ask(prompt):
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model="m", messages=MESSAGES(prompt))
    assert reply.choices[0].message.content == f"Answer to: {prompt}"


@pytest.mark.parametrize("prompt", ["a", "b", "c", "d"])
def test_own(prompt):
    ask(prompt)


@pytest.mark.replay("shared.json")
@pytest.mark.parametrize("prompt", ["e", "f", "g", "h"])
def test_shared(prompt):
    ask(prompt)
"""


def test_xdist_workers_record_into_own_and_shared_cassettes(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    sample.makepyfile(test_parallel=SAMPLE_XDIST)
    recording = sample.runpytest_subprocess("-p", "no:cacheprovider", "-p", "xdist", "-n", "2")
    recording.assert_outcomes(passed=8)
    recording.stdout.fnmatch_lines(
        ["replay: 5 cassettes, 0 interactions replayed, 8 recorded, 0 unused"]
    )
    shared = sample.path / "cassettes" / "test_parallel" / "shared.json"
    assert len(json.loads(shared.read_text())["interactions"]) == 4

    server.stop()
    replaying = sample.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "xdist", "-n", "2", "--replay-mode", "none"
    )
    replaying.assert_outcomes(passed=8)
    replaying.stdout.fnmatch_lines(
        ["replay: 5 cassettes, 8 interactions replayed, 0 recorded, 0 unused"]
    )


# The precedence of options, on the pure functions the plugin calls.


def test_marker_beats_fixture_beats_pyproject_and_secrets_add_up() -> None:
    marker = checked("marker", {"ignore": ["model"], "secrets": ["from-marker"]})
    fixture = checked("fixture", {"ignore": ["user"], "replay_speed": 2, "mode": "all"})
    pyproject = checked("pyproject", {"mode": "new_episodes", "secrets": "from-pyproject"})
    options = merged([marker, fixture, pyproject])
    assert options == {
        "ignore": ("model",),
        "secrets": ("from-marker", "from-pyproject"),
        "replay_speed": 2.0,
        "mode": Mode.ALL,
    }
    assert settings(options, None, {}).mode is Mode.ALL
    assert settings(options, None, {"REPLAY_MODE": "none"}).mode is Mode.NONE
    assert settings(options, "once", {"REPLAY_MODE": "none"}).mode is Mode.ONCE


def test_default_mode_is_once_locally_and_none_on_ci() -> None:
    assert settings({}, None, {}).mode is Mode.ONCE
    assert settings({}, None, {"CI": "false"}).mode is Mode.ONCE
    assert settings({}, None, {"CI": "true"}).mode is Mode.NONE
    assert settings({"mode": Mode.NEW_EPISODES}, None, {"CI": "1"}).mode is Mode.NEW_EPISODES


def test_bad_options_name_where_they_come_from(sample: pytest.Pytester) -> None:
    with pytest.raises(ConfigError, match=r"mdoe \(in the replay_config fixture\)"):
        checked("the replay_config fixture", {"mdoe": "none"})
    with pytest.raises(ConfigError, match="not a record mode"):
        settings({}, None, {"REPLAY_MODE": "sometimes"})
    sample.makefile(".toml", pyproject='[tool.replay]\nreplay_speed = "fast"\n')
    sample.makepyfile("def test_nothing():\n    pass\n")
    result = sample.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    pyproject = sample.path / "pyproject.toml"
    assert (
        f"ERROR: replay: replay_speed (in [tool.replay] of {pyproject})='fast': "
        "expected a positive number" in result.stderr.str()
    )


def test_a_partial_run_is_marked_incomplete_for_prune(sample: pytest.Pytester) -> None:
    sample.makepyfile(test_parallel=SAMPLE_XDIST)
    sample.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=8)
    partial = sample.runpytest_subprocess("-p", "no:cacheprovider", "-k", "own")
    partial.assert_outcomes(passed=4)
    runs = usage.read(sample.path / "cassettes" / "test_parallel")
    assert runs is not None
    assert sorted((run.complete, run.incomplete) for run in runs.values()) == [
        (False, ("tests deselected (4)",)),
        (True, ()),
    ]
    # The tests left out are not counted as unused: prune does not go by a partial run.
    summary = "*replay: * recorded, unused not counted in a partial run (tests deselected (4))"
    partial.stdout.fnmatch_lines([summary])
    in_workers = sample.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-k", "own")
    in_workers.assert_outcomes(passed=4)
    in_workers.stdout.fnmatch_lines([summary])


def test_an_invalid_option_in_the_marker_is_one_paragraph_not_a_traceback(
    sample: pytest.Pytester,
) -> None:
    """A misspelt option failed the test's setup with the plugin's whole traceback, and one
    given to ``use_cassette`` was a TypeError from inside replay."""
    sample.makepyfile(
        test_typo="""
        import pytest
        import replay

        @pytest.mark.replay(mdoe="none")
        def test_chat():
            pass

        def test_in_python(tmp_path):
            with replay.use_cassette(tmp_path / "c.json", mdoe="none"):
                pass
        """
    )
    result = sample.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1, failed=1)
    output = result.stdout.str()
    assert "mdoe (in the replay marker of test_typo.py::test_chat)='none': unknown option" in output
    assert "mdoe='none': unknown option (known: allow_playback_repeats, " in output
    assert "called at test_typo.py:9, in test_in_python" in output
    assert "pytest_plugin.py" not in output and "Traceback" not in output
    assert "TypeError" not in output and "patch.py" not in output


def test_the_aiohttp_middleware_without_aiohttp_says_what_to_install(tmp_path: Path) -> None:
    """It was a bare ModuleNotFoundError, where the command line names the extra to install."""
    without_aiohttp = "import sys; sys.modules['aiohttp'] = None\nimport replay\n"
    finished = subprocess.run(
        [sys.executable, "-c", without_aiohttp + "replay.ReplayMiddleware"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert finished.returncode == 1
    last = finished.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: replay.ReplayMiddleware needs aiohttp"), last
    assert "replay-llm[aiohttp]" in last


SAMPLE_SNAPSHOT = """
import openai
import pytest
from inline_snapshot import snapshot

from conftest import KEY, MESSAGES, URL


@pytest.mark.replay
def test_reply_matches_its_snapshot():
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model="gpt-4o-mini", messages=MESSAGES("snap"))
    streamed = client.chat.completions.create(
        model="gpt-4o-mini", messages=MESSAGES("snap it"), stream=True
    )
    chunks = [
        (chunk.id, chunk.created, chunk.choices[0].delta.content)
        for chunk in streamed
        if chunk.choices
    ]
    assert (reply.id, reply.created, reply.choices[0].message.content) == snapshot()
    assert chunks == snapshot()
"""


def test_a_snapshot_written_while_recording_holds_on_replay(
    sample: pytest.Pytester, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """inline-snapshot writes what the test saw while recording into the test file; replayed
    with the server gone, the same test passes against it, ids and times included."""
    test_file = sample.makepyfile(test_snapshot=SAMPLE_SNAPSHOT)
    # inline-snapshot will not create values under xdist, and takes this run for a worker of
    # ours when it runs in one.
    for variable in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.delenv("PYTEST_ADDOPTS")  # inline-snapshot's plugin is the point here
    recording = sample.runpytest_subprocess(
        "-p", "no:cacheprovider", "-p", "no:xdist", "--inline-snapshot=create"
    )
    # inline-snapshot fails the run that creates values, by design ("you can ignore this").
    recording.assert_outcomes(passed=1, errors=1)
    recording.stdout.fnmatch_lines(["*your snapshot is missing 2 values*", "*2 recorded*"])
    written = test_file.read_text()
    assert "== snapshot()" not in written and "chatcmpl-" in written and "1000000000" in written
    server.stop()
    for _ in range(2):
        replaying = sample.runpytest_subprocess(
            "-p", "no:cacheprovider", "--replay-mode", "none", "--inline-snapshot=disable"
        )
        replaying.assert_outcomes(passed=1)
    assert test_file.read_text() == written


LONG_PROMPTS = [
    "Summarize, in the voice of a patient teacher, " + "the whole of this long passage " * 12,
    "Summarize, in the voice of a patient teacher, " + "the whole of this long passage " * 13,
    "Résumez " + "é" * 300,
]
SAMPLE_LONG_IDS = f"""
import openai
import pytest

from conftest import KEY, MESSAGES, URL

PROMPTS = {LONG_PROMPTS!r}


@pytest.mark.replay
@pytest.mark.parametrize("prompt", PROMPTS, ids=PROMPTS)
def test_prompt(prompt):
    client = openai.OpenAI(base_url=URL + "/v1", api_key=KEY, max_retries=0)
    reply = client.chat.completions.create(model="m", messages=MESSAGES(prompt))
    assert reply.choices[0].message.content.startswith("Answer to: " + prompt[:3])
"""


def test_a_test_name_too_long_for_a_file_name_gets_a_short_name_the_same_every_run(
    sample: pytest.Pytester, server: FakeLLMServer
) -> None:
    """A prompt as the parametrize id: the API was called, then "cannot write to its journal:
    File name too long", and no cassette was written: the call was paid for and lost."""
    sample.makepyfile(test_long=SAMPLE_LONG_IDS)
    sample.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=3)
    names = sorted(path.name for path in (sample.path / "cassettes" / "test_long").glob("*.json"))
    assert len(names) == 3 and len(server.requests) == 3
    for name in names:
        assert len(name.encode()) <= cassette_file.MAX_NAME_BYTES
        shortened = r"test_prompt\[(Summarize|R_xe9sumez)[^/]*-[0-9a-f]{16}\.json"
        assert re.fullmatch(shortened, name), name
    asked = len(server.requests)

    server.stop()
    replaying = sample.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=3)
    replaying.stdout.fnmatch_lines(["replay: 3 cassettes, 3 interactions replayed, 0 recorded*"])
    assert len(server.requests) == asked
    assert sorted(p.name for p in (sample.path / "cassettes" / "test_long").glob("*.json")) == names


def test_a_shortened_name_keeps_its_start_and_differs_with_the_whole_name() -> None:
    short = "test_x[short]"
    assert cassette_name(short) == f"{short}.json"
    long = "test_x[" + "a" * 300 + "]"
    longer = "test_x[" + "a" * 301 + "]"
    named = cassette_name(long)
    digest = hashlib.sha256(long.encode()).hexdigest()[:16]
    assert named.startswith("test_x[aaaa") and named.endswith(f"-{digest}.json")
    assert len(named.encode()) == cassette_file.MAX_NAME_BYTES
    assert cassette_name(longer) != named
    # cut at a character, never inside one's UTF-8 bytes
    assert cassette_name("é" * 300).encode().decode() == cassette_name("é" * 300)
