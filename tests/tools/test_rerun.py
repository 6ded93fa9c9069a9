"""``replay rerun`` against the fake LLM API: model upgrades, another host, the live verify,
conversations, rate limits, a run killed half-way, and the keys it needs."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from click.testing import CliRunner, Result
from recorded import API_KEY, CHANGES, UNCHANGED, git, record_versions

import replay
from replay._core.answers import prompt_of
from replay.tools import inventory
from replay.tools.cli import main
from replay.tools.fakellm import FakeLLMServer

KEY_ENV = {"FAKE_LLM_KEY": API_KEY}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test suite's recordings: every format the fake speaks, with model-1."""
    return record_versions(tmp_path_factory.mktemp("rerun"), {"v1": ("v1", "model-1")})["v1"]


@pytest.fixture
def fake() -> Any:
    """The API today: model-2 answers as the fake's version 2, every other model as before."""
    with FakeLLMServer(api_key=API_KEY, model_versions={"model-2": "v2"}) as server:
        yield server


def rerun(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    arguments = ["rerun", *map(str, args)]
    return CliRunner().invoke(main, arguments, env=KEY_ENV if env is None else env)


def prompts(document: dict[str, Any], state: str) -> dict[str, list[str]]:
    return {pair["prompt"]: pair["changes"] for pair in document["pairs"] if pair["state"] == state}


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*.json")}


def test_a_model_upgrade_names_exactly_the_changed_pairs(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    before = snapshot(suite)
    out = tmp_path / "new"
    result = rerun(
        suite,
        "--out",
        out,
        "--upstream",
        fake.url,
        "--model",
        "model-2",
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
        "--json",
    )
    assert result.exit_code == 1, result.output
    document = json.loads(result.stdout)
    assert prompts(document, "changed") == CHANGES
    assert set(prompts(document, "unchanged")) == set(UNCHANGED)
    assert document["summary"]["pairs"] == 13 and document["failures"] == []
    assert snapshot(suite) == before, "the originals are never written"
    # Every request went to model-2: in the body, and in AI21 J2's URL path.
    assert len(fake.requests) == 13
    paths = [r.path for r in fake.requests]
    assert "/studio/v1/model-2/complete" in paths
    assert all(r.json().get("model") in (None, "model-2") for r in fake.requests)
    # Recorded as any recording: the key nowhere, the same files, every one replayable.
    for path, data in snapshot(out).items():
        assert API_KEY.encode() not in data, path
    assert set(snapshot(out)) == set(before)
    client = openai.OpenAI(
        base_url=fake.url + "/v1",
        api_key="sk-anything-else-1234",
        max_retries=0,
        http_client=httpx2.Client(
            transport=replay.ReplayTransport(replay.Cassette(out / "chat.json", mode="none"))
        ),
    )
    answer = client.chat.completions.create(
        model="model-2", messages=[{"role": "user", "content": "write a poem about the sea"}]
    )
    assert answer.choices[0].message.content == "A poem about: write a poem about the sea"


def test_the_text_diff_and_exit_status_as_replay_diff_shows_them(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    result = rerun(
        suite,
        "--out",
        tmp_path / "new",
        "--model",
        "model-2",
        "--upstream",
        fake.url,
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
        env={**KEY_ENV, "COLUMNS": "300"},  # the paths whole: a worker's temporary ones are long
    )
    assert result.exit_code == 1
    assert "to send: 13 requests from 2 cassettes" in result.stdout
    assert "openai-compatible" in result.stdout and "model-1 -> model-2" in result.stdout
    assert "+A poem about: write a poem about the sea" in result.stdout
    assert "13 pairs: 7 unchanged, 6 changed" in result.stdout
    # The models on each side, as replay diff names them (rerun's diff lacked the lines).
    assert f"OLD {suite}: model-1\nNEW {tmp_path / 'new'}: model-2\n" in result.stdout
    # An unchanged second run sends nothing and shows the same diff.
    again = rerun(
        suite,
        "--out",
        tmp_path / "new",
        "--model",
        "model-2",
        "--upstream",
        fake.url,
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
    )
    assert again.exit_code == 1 and len(fake.requests) == 13
    assert "already recorded in" in again.stdout and "13 pairs: 7 unchanged" in again.stdout


def test_upstream_sends_to_another_host(fake: FakeLLMServer, tmp_path: Path) -> None:
    suite = record_versions(tmp_path, {"old": ("v1", "model-1")})["old"]
    with FakeLLMServer(api_key=API_KEY, model_versions={"model-2": "v2"}) as other:
        result = rerun(
            suite,
            "--out",
            tmp_path / "new",
            "--upstream",
            other.url,
            "--model",
            "model-2",
            "--key-env",
            "FAKE_LLM_KEY",
            "--yes",
            "--json",
        )
        assert result.exit_code == 1, result.output
        assert len(other.requests) == 13 and fake.requests == []
    document = json.loads(result.stdout)
    assert prompts(document, "changed") == CHANGES
    assert document["summary"]["only_old"] == document["summary"]["only_new"] == 0


def test_a_live_verify_of_an_unchanged_api_reports_no_difference(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    result = rerun(
        suite,
        "--out",
        tmp_path / "new",
        "--upstream",
        fake.url,
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
    )
    assert result.exit_code == 0, result.output
    assert "13 pairs: 13 unchanged, 0 changed" in result.stdout


def test_a_rate_limit_is_retried_after_the_wait_the_provider_asked(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    fake.fail_next(1, 429, retry_after="1")
    started = time.monotonic()
    result = rerun(
        suite,
        "--out",
        tmp_path / "new",
        "--key-env",
        "FAKE_LLM_KEY",
        "--upstream",
        fake.url,
        "--concurrency",
        "1",
        "--yes",
        "--json",
    )
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started >= 1.0
    document = json.loads(result.stdout)
    assert (document["answered"], document["retried"]) == (13, 1)
    assert len(fake.requests) == 14
    statuses = {
        o.status
        for c in inventory.read_all([tmp_path / "new"])
        for i in c.interactions()
        for o in i.outcomes
        if isinstance(o, replay._core.model.Response)
    }
    assert statuses == {200}


def test_a_missing_key_names_the_variable_and_sends_nothing(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    env = {name: "" for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY")}
    result = rerun(suite, "--out", tmp_path / "new", "--upstream", fake.url, "--yes", env=env)
    assert result.exit_code == 2
    assert "set OPENAI_API_KEY" in result.stderr and "set ANTHROPIC_API_KEY" in result.stderr
    assert "nothing was sent" in result.stderr
    assert fake.requests == [] and not (tmp_path / "new").exists()
    # The dry run shows the plan and the missing keys, and sends nothing either.
    dry = rerun(suite, "--out", tmp_path / "new", "--dry-run", env=env)
    assert dry.exit_code == 0 and "no key: set ANTHROPIC_API_KEY for anthropic" in dry.stdout
    assert fake.requests == []


def test_usage_errors_are_clear(suite: Path, tmp_path: Path) -> None:
    inside = rerun(suite, "--out", suite / "new", "--yes")
    assert inside.exit_code == 2 and "overlaps" in inside.stderr
    bad = rerun(suite, "--out", tmp_path / "n", "--set", "temperature")
    assert bad.exit_code == 2 and "PATH=VALUE" in bad.stderr
    host = rerun(suite, "--out", tmp_path / "n", "--upstream", "localhost:8080")
    assert host.exit_code == 2 and "--upstream" in host.stderr
    no_tty = rerun(suite, "--out", tmp_path / "n", "--key-env", "FAKE_LLM_KEY")
    assert no_tty.exit_code == 2 and "--yes" in no_tty.stderr
    assert not (tmp_path / "n").exists()


def test_max_requests_caps_and_set_changes_the_body(
    suite: Path, fake: FakeLLMServer, tmp_path: Path
) -> None:
    result = rerun(
        suite,
        "--out",
        tmp_path / "new",
        "--upstream",
        fake.url,
        "--max-requests",
        "5",
        "--set",
        "temperature=0",
        "--set",
        'metadata.run="rerun"',
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
        "--json",
    )
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["left_out"] == 8 and len(fake.requests) == 5
    assert document["summary"]["only_old"] == 8
    assert all(r.json()["temperature"] == 0 for r in fake.requests)
    assert all(r.json()["metadata"] == {"run": "rerun"} for r in fake.requests)


def record_conversation(url: str, path: Path) -> None:
    """A file uploaded then fetched, and a Responses conversation that chains by id."""
    with replay.Cassette(path, mode="once") as cassette:
        client = openai.OpenAI(
            base_url=url + "/v1",
            api_key=API_KEY,
            max_retries=0,
            http_client=httpx2.Client(transport=replay.ReplayTransport(cassette)),
        )
        uploaded = client.files.create(file=("notes.txt", b"some notes"), purpose="user_data")
        client.files.retrieve(uploaded.id)
        first = client.responses.create(model="model-1", input="write a poem about trees")
        second = client.responses.create(
            model="model-1", input="and one about rivers", previous_response_id=first.id
        )
        client.responses.retrieve(second.id)


def test_a_conversation_is_sent_in_order_with_the_ids_the_rerun_issued(
    fake: FakeLLMServer, tmp_path: Path
) -> None:
    record_conversation(fake.url, tmp_path / "old" / "conversation.json")
    fake.requests.clear()
    result = rerun(
        tmp_path / "old",
        "--out",
        tmp_path / "new",
        "--model",
        "model-2",
        "--key-env",
        "FAKE_LLM_KEY",
        "--yes",
        "--json",
    )
    assert result.exit_code == 1, result.output
    # Two conversations, which may run side by side; each in its recorded order.
    sent = [(r.method, r.path.split("/")[2]) for r in fake.requests]
    assert [s for s in sent if s[1] == "files"] == [("POST", "files"), ("GET", "files")]
    assert [s for s in sent if s[1] == "responses"] == [
        ("POST", "responses"),
        ("POST", "responses"),
        ("GET", "responses"),
    ]
    document = json.loads(result.stdout)
    assert [p["new"][0]["status"] for p in document["pairs"]] == [200] * 5
    # Each id sent is one this rerun's answers issued (the fake answers 404 to any other).
    second = [r for r in fake.requests if r.method == "POST" and "responses" in r.path][1]
    chained = fake.recall(second.json()["previous_response_id"])
    assert chained is not None and chained["model"] == "model-2"
    assert chained["output"][0]["content"][0]["text"] == "A poem about: write a poem about trees"
    changed = {p["prompt"] for p in document["pairs"] if p["state"] == "changed"}
    assert changed == {"write a poem about trees"}


def test_a_rerun_killed_half_way_continues_and_records_each_request_once(
    suite: Path, tmp_path: Path
) -> None:
    out = tmp_path / "new"
    with FakeLLMServer(api_key=API_KEY, slow_delay=0.3) as fake:
        command = [
            sys.executable,
            "-m",
            "replay",
            "rerun",
            str(suite),
            "--out",
            str(out),
            "--model",
            "slow",
            "--upstream",
            fake.url,
            "--key-env",
            "FAKE_LLM_KEY",
            "--concurrency",
            "2",
            "--yes",
            "--no-diff",
        ]
        env = {**os.environ, **KEY_ENV}
        process = subprocess.Popen(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while recorded(out) < 4 and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        first = recorded(out)
        assert 4 <= first < 13
        # What the second run will send: every request not on disk, and the whole of a
        # conversation the kill cut short (its later requests need ids only a new answer to
        # its first gives: on disk they are stand-ins), so possibly a few recorded ones again.
        dry = subprocess.run(
            [*command, "--dry-run", "--json"], env=env, capture_output=True, text=True, timeout=60
        )
        announced = json.loads(dry.stdout)["requests"]
        assert 13 - first <= announced < 13
        sent_first = len(fake.requests)
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert len(fake.requests) - sent_first == announced
    cassettes = inventory.read_all([out])
    interactions = [i for c in cassettes for i in c.interactions()]
    assert len(interactions) == 13
    assert all(len(i.outcomes) == 1 for i in interactions)
    originals = {
        prompt_of(i.request) for c in inventory.read_all([suite]) for i in c.interactions()
    }
    assert {prompt_of(i.request) for i in interactions} == originals


def recorded(out: Path) -> int:
    """Interactions on disk under ``out``: the cassette files with their journals."""
    total = 0
    with contextlib.suppress(replay.CassetteError):  # a journal entry being written
        for cassette in inventory.read_all([out]):
            total += sum(1 for _ in cassette.interactions())
    return total


def test_an_alias_answered_by_another_model_shows_in_list_show_and_diff(tmp_path: Path) -> None:
    old = tmp_path / "old"
    with FakeLLMServer(api_key=API_KEY, aliases={"fake-latest": "fake-2024-01"}) as fake:
        record_chat_once(fake.url, old / "chat.json")
        listed = CliRunner().invoke(main, ["list", str(old)], env={"COLUMNS": "160"})
        assert "fake-latest>fake-2024-01" in listed.stdout
        shown = CliRunner().invoke(main, ["show", str(old / "chat.json")])
        assert "model fake-2024-01 (requested fake-latest)" in shown.stdout
        fake.aliases["fake-latest"] = "fake-2024-06"
        result = rerun(old, "--out", tmp_path / "new", "--key-env", "FAKE_LLM_KEY", "--yes")
    assert result.exit_code == 1, result.output
    assert "[model]" in result.stdout
    assert "answered model for fake-latest: fake-2024-01 -> fake-2024-06" in result.stdout
    plain = CliRunner().invoke(main, ["diff", str(old), str(tmp_path / "new")])
    assert plain.exit_code == 1 and "[model]" in plain.stdout


def record_chat_once(url: str, path: Path) -> None:
    with replay.Cassette(path, mode="once") as cassette:
        client = openai.OpenAI(
            base_url=url + "/v1",
            api_key=API_KEY,
            max_retries=0,
            http_client=httpx2.Client(transport=replay.ReplayTransport(cassette)),
        )
        client.chat.completions.create(
            model="fake-latest", messages=[{"role": "user", "content": "hello"}]
        )


def test_markdown_summary_of_a_rerecording_against_a_git_revision(tmp_path: Path) -> None:
    suites = record_versions(tmp_path / "rec", {"v1": ("v1", "model-1"), "v2": ("v2", "model-2")})
    repository = tmp_path / "repo"
    shutil.copytree(suites["v1"], repository / "cassettes")
    git(repository, "init", "-q")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "recorded with model-1")
    unchanged = CliRunner().invoke(
        main, ["diff", "--git-rev", "HEAD", str(repository / "cassettes")]
    )
    assert unchanged.exit_code == 0, unchanged.output
    assert "13 pairs: 13 unchanged" in unchanged.stdout
    shutil.rmtree(repository / "cassettes")
    shutil.copytree(suites["v2"], repository / "cassettes")
    result = CliRunner().invoke(
        main,
        [
            "diff",
            "--git-rev",
            "HEAD",
            "--ignore",
            "model",
            "--format",
            "markdown",
            str(repository / "cassettes"),
        ],
    )
    assert result.exit_code == 1, result.output
    text = result.stdout
    assert text.startswith("### replay diff: `") and "@HEAD` → `" in text
    assert "**13 pairs**: 7 unchanged, 6 changed, 0 only in OLD, 0 only in NEW" in text
    assert "| text | 4 |" in text and "| finish reason | 1 |" in text
    assert text.count("<details>") == 6 == text.count("</details>")
    assert (
        "-Answer to: write a poem about the sea\n+A poem about: write a poem about the sea" in text
    )
    assert "- finish reason: `stop` → `length`" in text
    assert "**Tokens**: OLD" in text
    # A cassette added since the revision is all new; a revision that is not there, an error.
    shutil.copy(repository / "cassettes" / "chat.json", repository / "added.json")
    added = CliRunner().invoke(
        main, ["diff", "--git-rev", "HEAD", "--format", "json", str(repository / "added.json")]
    )
    summary = json.loads(added.stdout)["summary"]
    assert added.exit_code == 1 and (summary["only_old"], summary["only_new"]) == (0, 7)
    missing = CliRunner().invoke(main, ["diff", "--git-rev", "nope", str(repository)])
    assert missing.exit_code == 2 and "--git-rev='nope'" in missing.stderr
    both = CliRunner().invoke(main, ["diff", "--git-rev", "HEAD", str(repository), str(tmp_path)])
    assert both.exit_code == 2


def test_retry_wait_follows_the_provider() -> None:
    from datetime import UTC, datetime

    import httpx

    from replay.tools.rerun import retry_wait

    now = datetime(2024, 1, 1, tzinfo=UTC)
    assert retry_wait(httpx.Headers({"retry-after-ms": "250"}), 0) == 0.25
    assert retry_wait(httpx.Headers({"retry-after": "2"}), 0) == 2.0
    date = "Mon, 01 Jan 2024 00:00:07 GMT"
    assert retry_wait(httpx.Headers({"retry-after": date}), 0, now) == 7.0
    assert retry_wait(httpx.Headers({"retry-after": "3600"}), 0) == 60.0
    assert [retry_wait(httpx.Headers(), n) for n in range(3)] == [0.5, 1.0, 2.0]
