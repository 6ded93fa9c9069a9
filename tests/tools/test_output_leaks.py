"""What prints or exports cassette content keeps secrets out of it: ``replay show`` (as text,
``--raw`` and ``--json``), ``replay diff``, ``replay report``'s HTML, the journal a recording
writes before the cassette is saved, ``replay serve``'s log, and ``replay rerun``, which sends
the recorded requests again with a real key from the environment and prints, and writes, the
live answers. Each is fed recordings the openai SDK made against a scripted server on
127.0.0.1 that echoes the key it is sent, hands out a session token, names the organization
and says a token in prose; then every output is searched for each secret in every form (raw,
percent-encoded, hex, JSON-escaped, base64 at every alignment)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import openai
import pytest
from click.testing import CliRunner
from leaks import Answer, assert_never_in, assert_never_written, scripted
from serving import Running

import replay
from replay.tools.cli import main

KEY = "sk-proj-RecordedKey0123456789abcdefXYZ"
LIVE_KEY = "sk-proj-LiveRerunKey9876543210zyxwvUTS"
"""The key ``replay rerun`` takes from the environment and sends: its answers echo it."""
QUERY_KEY = "queryK3yValue0123456789"
ASSERTION = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJib3QifQ.c2lnbmF0dXJlQWJjZGVm"
ORGANIZATION = "org-OutputLeakOrg0123456789"
SECRETS = (KEY, LIVE_KEY, QUERY_KEY, ASSERTION, ORGANIZATION)


def issued(key: str) -> tuple[str, str]:
    """The session token and the prose token an answer to ``key`` hands out: new values, no
    echo of anything the request carried."""
    tail = key[-6:]
    return f"sessT0ken{tail}AAAA1111", f"proseT0ken{tail}BBBB2222"


ISSUED = tuple(value for key in (KEY, LIVE_KEY) for value in issued(key))
SENT_KEYS: list[str] = []
"""The keys the scripted server was sent, in order."""


def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
    """An OpenAI-like answer that says back the key it was sent, in its text and a header."""
    key = headers["authorization"].removeprefix("Bearer ")
    SENT_KEYS.append(key)
    session, prose = issued(key)
    request = json.loads(body)
    text = (
        f"{request['model']} says: your key {key} works for {ORGANIZATION}; "
        f"my token: {prose} (asked {request['messages'][0]['content']})"
    )
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": request["model"],
        "session_token": session,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 9, "total_tokens": 12},
    }
    headers_out = {"x-echo-key": key, "openai-organization": ORGANIZATION}
    return Answer(json.dumps(answer).encode(), headers=headers_out)


def ask(base_url: str, model: str, key: str = KEY) -> str:
    client = openai.OpenAI(base_url=base_url, api_key=key, max_retries=0)
    answer = client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": "hello"}],
        extra_query={"api_key": QUERY_KEY},
        extra_body={"assertion": ASSERTION},
    )
    return str(answer.choices[0].message.content)


def assert_clean(output: bytes | str) -> None:
    assert_never_in(output, *SECRETS, *ISSUED)


@pytest.fixture
def recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two versions of one recording, model-1's and model-2's; the journal checked while the
    first is recorded, before it is saved."""
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with scripted(route) as url:
        for version, model in (("v1", "model-1"), ("v2", "model-2")):
            cassette = tmp_path / version / "chat.json"
            with replay.use_cassette(cassette) as recording:
                said = ask(url + "/v1", model)
                journal = [p for p in cassette.parent.rglob("*") if p.is_file()]
                assert journal and not cassette.exists()  # the journal alone holds the call
                assert b"REDACTED" in b"".join(p.read_bytes() for p in journal)
                assert_never_written(cassette.parent, *SECRETS, *ISSUED)
            assert KEY in said and recording.recorded == 1
    assert_never_written(tmp_path, *SECRETS, *ISSUED)
    return tmp_path


def cli(*arguments: str | Path, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, [str(argument) for argument in arguments], env=env)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


def test_show_diff_and_report_print_no_secret(recorded: Path) -> None:
    v1, v2 = recorded / "v1" / "chat.json", recorded / "v2" / "chat.json"
    shown = cli("show", v1) + cli("show", "--raw", v1) + cli("show", "--json", v1)
    assert "model-1 says: your key sk-proj-REDACTED works for org-REDACTED" in shown
    assert "my token: REDACTED" in shown
    differences = cli("diff", v1, v2) + cli("diff", "--json", v1, v2)
    assert "model-2 says" in differences
    page = recorded / "report.html"
    cli("report", v1, v2, "-o", page)
    html = page.read_text()
    assert "model-2 says" in html
    for output in (shown, differences, html):
        assert_clean(output)


def test_serve_logs_and_records_no_secret(tmp_path: Path) -> None:
    with scripted(route) as url:
        serving = Running("--upstream", url, "--cassettes", "served", cwd=tmp_path)
        said = ask(serving.url + "/v1", "model-1")
        status, out, err = serving.stop()
    assert status == 0, err
    assert KEY in said and "recorded  200 POST" in err
    assert_clean(out + err)
    assert_never_written(tmp_path / "served", *SECRETS, *ISSUED)


def test_rerun_keeps_the_live_key_and_answers_off_its_output_and_files(
    recorded: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rerun sends ``LIVE_KEY``, and the live answers echo it and hand out new tokens:
    the printed diff, the ``--json`` document, the report and the new cassettes have none."""
    out = recorded / "rerun"
    SENT_KEYS.clear()
    environment = {**os.environ, "OPENAI_API_KEY": LIVE_KEY}
    with scripted(route) as url:
        printed = cli(
            "rerun", recorded / "v1", "--out", out, "--upstream", url,
            "--model", "model-2", "--key-env", "OPENAI_API_KEY", "--yes",
            "--report", recorded / "rerun.html", env=environment,
        )  # fmt: skip
        document = cli(
            "rerun", recorded / "v2", "--out", recorded / "rerun-json", "--upstream", url,
            "--key-env", "OPENAI_API_KEY", "--yes", "--json", env=environment,
        )  # fmt: skip
    assert SENT_KEYS == [LIVE_KEY, LIVE_KEY]  # the live key went out, and came back
    assert "model-2 says: your key sk-proj-REDACTED" in printed
    assert json.loads(document)["summary"]["pairs"] == 1
    stored = (out / "chat.json").read_text()
    assert "sk-proj-REDACTED" in stored and "my token: REDACTED" in stored
    for output in (printed, document, (recorded / "rerun.html").read_text()):
        assert_clean(output)
    assert_never_written(recorded, *SECRETS, *ISSUED)
