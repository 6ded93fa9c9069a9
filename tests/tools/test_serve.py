"""``replay serve`` as users run it (a process of its own), and the fixture ``replay_server``.

The command is started with ``--port 0``; its first line gives the URL. It records from the
local fake LLM API and is stopped by SIGINT or SIGTERM, which must save every cassette and
exit 0.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from proxied import stored
from serving import Running

from replay.tools.cli import main
from replay.tools.fakellm import FakeLLMServer

KEY = "fk-serve-8Rm3Kd6Wq1Zt4Yp7"


@pytest.fixture
def fake() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=KEY) as server:
        yield server


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_records_and_a_signal_saves_and_exits_0(
    fake: FakeLLMServer, tmp_path: Path, how: signal.Signals
) -> None:
    serving = Running("--upstream", fake.url, "--cassettes", "recorded", cwd=tmp_path)
    assert serving.port != 0
    body = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}
    headers = {"authorization": f"Bearer {KEY}", "x-replay-cassette": "suite/test_hello"}
    answer = httpx.post(serving.url + "/v1/chat/completions", json=body, headers=headers)
    assert answer.json()["choices"][0]["message"]["content"] == "Answer to: hello"
    path = tmp_path / "recorded" / "suite" / "test_hello.json"
    assert len(stored(path)) == 1  # on disk as soon as answered, before any stop
    status, out, err = serving.stop(how)
    assert status == 0, err
    assert "stopped after 0 replayed, 1 recorded, 0 missed, 0 failed" in out
    assert "recorded  200 POST" in err
    assert KEY[:10] not in err + out and KEY[:10].encode() not in path.read_bytes()
    assert "Traceback" not in err


def test_prints_the_variables_to_set(tmp_path: Path) -> None:
    serving = Running(
        "--upstream", "https://api.openai.com", "--upstream", "/anthropic=https://api.anthropic.com",
        cwd=tmp_path,
    )  # fmt: skip
    status, out, err = serving.stop(signal.SIGTERM)
    assert status == 0, err
    assert serving.first_line.startswith(f"replay serve: listening on {serving.url} (mode once")
    assert f"export OPENAI_BASE_URL={serving.url}/v1\n" in out
    assert f"export ANTHROPIC_BASE_URL={serving.url}/anthropic\n" in out
    assert "X-Replay-Cassette: NAME" in out


def test_without_upstreams_it_routes_the_known_providers(tmp_path: Path) -> None:
    serving = Running(cwd=tmp_path, env={"REPLAY_MODE": "none"})
    status, out, err = serving.stop()
    assert status == 0, err
    assert "(mode none," in serving.first_line  # REPLAY_MODE wins, as everywhere
    assert "/openai     -> https://api.openai.com (OpenAI)" in out
    assert f"export OPENAI_BASE_URL={serving.url}/openai/v1" in out
    assert f"export GROQ_BASE_URL={serving.url}/groq" in out


def test_takes_its_settings_from_pyproject(fake: FakeLLMServer, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.replay]\nmode = "new_episodes"\nignore = ["user"]\n\n'
        f'[tool.replay.serve]\ncassettes = "tapes"\nupstreams = {{"/fake" = "{fake.url}"}}\n'
    )
    (tmp_path / "sub").mkdir()
    serving = Running("--mode", "all", cwd=tmp_path / "sub")  # the nearest pyproject.toml
    url = serving.url + "/fake/v1/chat/completions"
    for user in ("ann", "bob"):  # ignored when matching: the second is a replay
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "user": user}
        httpx.post(url, json=body, headers={"authorization": f"Bearer {KEY}"}).raise_for_status()
    status, out, err = serving.stop()
    assert status == 0, err
    assert "(mode all, cassettes in tapes/)" in serving.first_line  # --mode beats the file
    assert "2 recorded" in out  # mode all records both
    assert len(stored(tmp_path / "sub" / "tapes" / "default.json")) == 1


@pytest.mark.parametrize(
    ("arguments", "pyproject", "message"),
    [
        (["--upstream", "ftp://example.com"], "", "expected an http:// or https:// URL"),
        (["--upstream", "/a=http://x.example", "--upstream", "/a=http://y.example"], "",
         "two upstreams for one prefix"),
        ([], "[tool.replay.serve]\nport = 'x'\n", "expected a port number"),
        ([], "[tool.replay.serve]\nhots = 'x'\n", "unknown option (known: upstreams"),
        ([], "[tool.replay]\nmode = 'sometimes'\n", "not a record mode"),
        ([], "[tool.replay.serve]\nallow_hosts = 'x'\n", "expected a list of host names"),
    ],
)  # fmt: skip
def test_bad_settings_are_one_line_and_status_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    arguments: list[str],
    pyproject: str,
    message: str,
) -> None:
    (tmp_path / "pyproject.toml").write_text(pyproject)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "--port", "0", *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.output.startswith("replay: ")
    assert not (tmp_path / "cassettes").exists()


def test_a_port_in_use_is_one_line_and_status_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    serving = Running("--upstream", "http://127.0.0.1:9", cwd=tmp_path)
    try:
        result = CliRunner().invoke(main, ["serve", "--port", str(serving.port)])
    finally:
        serving.stop()
    assert result.exit_code == 2
    assert "cannot listen" in result.output and "in use" in result.output


def test_without_uvicorn_it_says_which_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "serve needs uvicorn" in result.output
    assert "pip install 'replay-llm[serve]'" in result.output


# The pytest fixture, for tests that start subprocesses.

SAMPLE_TEST = """
import os
import subprocess
import sys

import pytest

CLIENT = '''
import os, sys, httpx
body = {"model": "m", "messages": [{"role": "user", "content": sys.argv[1]}]}
headers = {"authorization": "Bearer " + os.environ["KEY"]}
if len(sys.argv) > 2:
    headers["x-replay-cassette"] = sys.argv[2]
answer = httpx.post(os.environ["BASE"] + "/v1/chat/completions", json=body, headers=headers)
answer.raise_for_status()
print(answer.json()["choices"][0]["message"]["content"])
'''


@pytest.fixture
def replay_upstreams():
    return {"/": os.environ["FAKELLM_URL"]}


def ask(server, *arguments):
    env = {**os.environ, "BASE": server.url}
    done = subprocess.run([sys.executable, "-c", CLIENT, *arguments], env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_client_in_a_subprocess(replay_server, replay_cassette):
    assert ask(replay_server, "hi from a subprocess") == "Answer to: hi from a subprocess"
    assert ask(replay_server, "to another", "shared") == "Answer to: to another"
    assert replay_cassette.replayed + replay_cassette.recorded == 1
    if os.environ.get("ASK_MORE"):
        ask(replay_server, "never recorded")
"""


def test_the_fixture_serves_the_tests_cassette_to_subprocesses(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    monkeypatch.delenv("CI", raising=False)  # CI would force mode none on the recording run
    monkeypatch.setenv("KEY", KEY)
    pytester.makepyfile(test_sample=SAMPLE_TEST)
    with FakeLLMServer(api_key=KEY) as server:
        monkeypatch.setenv("FAKELLM_URL", server.url)
        recording = pytester.runpytest_subprocess("-p", "no:cacheprovider")
        recording.assert_outcomes(passed=1)
        answered = len(server.requests)
    assert answered == 2
    folder = pytester.path / "cassettes" / "test_sample"
    assert len(stored(folder / "test_client_in_a_subprocess.json")) == 1
    assert len(stored(folder / "shared.json")) == 1
    replaying = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=1)
    replaying.stdout.fnmatch_lines(["replay: 2 cassettes, 2 interactions replayed, 0 recorded*"])
    monkeypatch.setenv("ASK_MORE", "1")
    missing = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(["*no recording for POST*never records*"])


# Replaying with no upstream, a suite run twice, other host names.


def ask(url: str, prompt: str, **headers: str) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": prompt}]}
    return httpx.post(url, json=body, headers={"authorization": f"Bearer {KEY}", **headers})


def test_in_mode_none_without_upstreams_any_prefix_replays(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    recording = Running("--upstream", f"/team/fake={fake.url}", cwd=tmp_path)
    answer = ask(recording.url + "/team/fake/v1/chat/completions", "hello")
    assert recording.stop()[0] == 0
    fake.stop()
    replaying = Running("--mode", "none", cwd=tmp_path)
    replayed = ask(replaying.url + "/team/fake/v1/chat/completions", "hello")
    missed = ask(replaying.url + "/elsewhere/v1/chat/completions", "hello")
    status, out, err = replaying.stop()
    assert status == 0, err
    assert replayed.status_code == 200, replayed.text
    assert replayed.json()["choices"] == answer.json()["choices"]
    assert missed.json()["error"]["type"] == "replay_cassette_miss"  # no longer "no route"
    assert "/           -> (any other path: replay only)" in out
    assert len(fake.requests) == 1


def test_a_client_run_twice_gets_the_same_answers(fake: FakeLLMServer, tmp_path: Path) -> None:
    """Playback repeats are on by default: a suite run again against the same server neither
    misses nor records."""
    prompts = ("one", "two", "one")  # "one" asked twice in a run: two recorded responses
    recording = Running("--upstream", fake.url, cwd=tmp_path)
    recorded = [ask(recording.url + "/v1/chat/completions", p).status_code for p in prompts]
    assert recording.stop()[0] == 0 and recorded == [200, 200, 200]
    path = tmp_path / "cassettes" / "default.json"
    before = path.read_bytes()
    serving = Running("--upstream", fake.url, cwd=tmp_path)  # mode once, the cassette exists
    url = serving.url + "/v1/chat/completions"
    runs = [[ask(url, p).json()["choices"] for p in prompts] for _ in range(3)]
    status, out, err = serving.stop()
    assert status == 0, err
    assert runs[0] == runs[1] == runs[2]
    assert "9 replayed, 0 recorded, 0 missed" in out
    assert len(fake.requests) == 3 and path.read_bytes() == before
    once = Running("--upstream", fake.url, "--no-playback-repeats", cwd=tmp_path)
    answers = [ask(once.url + "/v1/chat/completions", "two").status_code for _ in range(2)]
    assert once.stop()[0] == 0
    assert answers == [200, 404]  # each recorded response once, as asked


def test_other_host_names_are_refused_unless_allowed(fake: FakeLLMServer, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.replay.serve]\nallow_hosts = ["from-table"]\n')
    serving = Running("--upstream", fake.url, "--allow-host", "replay.test", cwd=tmp_path)
    url = serving.url + "/v1/chat/completions"
    statuses = [
        ask(url, "hi", host=host).status_code
        for host in ("replay.test:8787", "from-table", "evil.example", f"localhost:{serving.port}")
    ]
    status, _, err = serving.stop()
    assert status == 0, err
    assert statuses == [200, 200, 403, 200]
    assert "host not allowed POST http://127.0.0.1" not in err  # shown as asked, not upstream
    assert "host not allowed POST /v1/chat/completions" in err


USER, PASSWORD = "acct-4Qz8Lm", "PW-serve-7Hd2Xk9Tq"


def test_credentials_in_an_upstream_are_shown_as_stars_everywhere(
    fake: FakeLLMServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream = fake.url.replace("http://", f"http://{USER}:{PASSWORD}@")
    serving = Running("--upstream", f"/p={upstream}", cwd=tmp_path)
    recorded = ask(serving.url + "/p/v1/chat/completions", "hello")
    unrouted = ask(serving.url + "/elsewhere", "hello")  # "no route": the error lists routes
    status, out, err = serving.stop()
    assert status == 0, err
    assert recorded.status_code == 200 and unrouted.status_code == 404
    shown = fake.url.replace("http://", "http://***@")
    assert f"/p  -> {shown}\n" in out
    assert f"/p -> {shown}" in unrouted.json()["error"]["message"]
    assert f"(route /p -> {shown})" in err
    monkeypatch.chdir(tmp_path)
    listed = CliRunner().invoke(main, ["list", "--json", "cassettes"])
    bad = CliRunner().invoke(main, ["serve", "--upstream", f"http://{USER}:{PASSWORD}@h/?q"])
    assert bad.exit_code == 2 and "http://***@h/?q" in bad.output
    stored_bytes = (tmp_path / "cassettes" / "default.json").read_bytes()
    for text in (out, err, unrouted.text, listed.output, bad.output, stored_bytes.decode()):
        assert PASSWORD not in text and USER not in text


def test_it_prints_the_routes_its_cassettes_hold_and_misses_agree(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    """Cassettes recorded at / and served in mode none with the known providers' routes: the
    start-up lines say where the recordings are and the variables point there; a miss names
    the path asked for and the route, as the closest recording is named, never a made-up
    host."""
    recording = Running("--upstream", fake.url, cwd=tmp_path)
    assert ask(recording.url + "/v1/chat/completions", "hello").status_code == 200
    assert recording.stop()[0] == 0
    replaying = Running("--mode", "none", cwd=tmp_path)
    missed = ask(replaying.url + "/openai/v1/chat/completions", "hello")
    elsewhere = ask(replaying.url + "/v2/chat/completions", "hello")
    status, out, err = replaying.stop()
    assert status == 0, err
    assert "recorded in the cassettes, by route" in out
    assert f"  /{' ' * 11}-> {fake.url}: 1 request\n" in out
    miss = missed.json()["error"]["message"]
    assert miss.startswith(
        "no recording for POST /openai/v1/chat/completions (route /openai -> "
        "https://api.openai.com) in cassette cassettes/default.json"
    )
    assert f"closest recorded request: POST /v1/chat/completions (route / -> {fake.url})" in miss
    assert "path: recorded '/v1/chat/completions', requested '/openai/v1/chat/completions'" in miss
    other = elsewhere.json()["error"]["message"]
    assert other.startswith("no recording for POST /v2/chat/completions (route /, replay only)")
    assert "invalid" not in miss + other + err


def test_in_mode_none_the_variables_point_at_the_recorded_routes(tmp_path: Path) -> None:
    cassette = tmp_path / "cassettes" / "default.json"
    cassette.parent.mkdir()
    route = '"x-replay-route": "/=https://api.openai.com"'  # what a recording at / holds
    cassette.write_text('{"interactions": {"k": {"request": {"headers": {' + route + "}}}}}")
    replaying = Running("--mode", "none", cwd=tmp_path)
    status, out, err = replaying.stop()
    assert status == 0, err
    assert f"export OPENAI_BASE_URL={replaying.url}/v1\n" in out
    assert f"export GROQ_BASE_URL={replaying.url}/groq\n" in out  # no recording: its route
    recording = Running(cwd=tmp_path)  # mode once: the known providers' routes record
    status, out, err = recording.stop()
    assert f"export OPENAI_BASE_URL={recording.url}/openai/v1\n" in out
    assert "(no such route here: --upstream /=URL replays them)" in out


def asked(url: str, text: str) -> str:
    body = {"model": "m", "messages": [{"role": "user", "content": text}]}
    headers = {"authorization": f"Bearer {KEY}"}
    answer = httpx.post(url + "/v1/chat/completions", json=body, headers=headers)
    content: str = answer.json()["choices"][0]["message"]["content"]
    return content


def test_at_the_stop_recordings_no_client_used_are_listed_and_fail_as_asked(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    recording = Running("--upstream", fake.url, "--cassettes", "recorded", cwd=tmp_path)
    assert [asked(recording.url, "hello"), asked(recording.url, "bye")] == [
        "Answer to: hello",
        "Answer to: bye",
    ]
    assert recording.stop()[0] == 0
    fake.stop()
    (tmp_path / "pyproject.toml").write_text('[tool.replay]\nunused = "fail"\n')
    listed = (
        f"replay serve: cassette {Path('recorded') / 'default.json'}: 1 recorded response was "
        f"never used\n  POST {fake.url}/v1/chat/completions\n"
    )
    # [tool.replay] fails the stop; --unused wins over it.
    for flags, status, reported in [
        ((), 1, True),
        (("--unused", "warn"), 0, True),
        (("--unused", "allow"), 0, False),
    ]:
        replaying = Running(
            "--upstream",
            fake.url,
            "--mode",
            "none",
            "--cassettes",
            "recorded",
            *flags,
            cwd=tmp_path,
        )
        assert asked(replaying.url, "hello") == "Answer to: hello"  # the other is never asked
        code, _, err = replaying.stop()
        assert (code, listed in err) == (status, reported), (flags, err)
        assert "Traceback" not in err
