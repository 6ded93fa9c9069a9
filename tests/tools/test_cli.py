"""The ``replay`` command line on cassettes recorded from the fake server by the real SDKs.

Commands run through click's test runner, and as ``python -m replay`` in a
subprocess where the exit status and the streams as a shell sees them matter.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import uuid
import zlib
from pathlib import Path
from typing import Any

import brotli
import httpx
import pytest
import zstandard
from click.testing import CliRunner, Result
from recorded import (
    API_KEY,
    CHANGES,
    CHAT_PROMPTS,
    UNCHANGED,
    record_chat,
    record_versions,
    run_in_process,
    wait_for_next_second,
)

import replay
from replay._store import cassette_file as store
from replay._store import usage
from replay.tools import prune
from replay.tools.cli import color_wanted, main
from replay.tools.fakellm import FakeLLMServer, answer_for, tokens

PLANTED = "sk-proj-" + "Zq8x" * 10


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cli")
    return record_versions(root, {"old": ("v1", "model-1"), "new": ("v2", "model-2")})


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args])


def run_cli(*args: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "replay", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **env},
    )


def document(result: Result | subprocess.CompletedProcess[str]) -> Any:
    return json.loads(result.stdout)


def pair_states(diff: dict[str, Any]) -> dict[str, tuple[str, list[str]]]:
    return {pair["prompt"]: (pair["state"], pair["changes"]) for pair in diff["pairs"]}


EXPECTED = {prompt: ("changed", kinds) for prompt, kinds in CHANGES.items()} | {
    prompt: ("unchanged", []) for prompt in UNCHANGED
}


# diff


def test_diff_json_pairs_model_versions_with_ignore_model(suites: dict[str, Path]) -> None:
    result = invoke("diff", suites["old"], suites["new"], "--ignore", "model", "--json")
    assert result.exit_code == 1, result.output
    diff = document(result)
    assert set(diff) == {
        "old", "new", "ignore", "models", "pairs", "summary", "warnings", "unreadable",
        "not_compared",
    }  # fmt: skip
    assert (diff["ignore"], diff["warnings"]) == (["model"], [])
    assert pair_states(diff) == EXPECTED
    assert set(diff["pairs"][0]) == {
        "file", "key", "old_key", "new_key", "method", "url", "prompt", "state", "changes",
        "old", "new", "text_diff",
    }  # fmt: skip
    poem = next(p for p in diff["pairs"] if p["prompt"] == "write a poem about the sea")
    assert poem["file"] == "chat.json" and poem["old_key"] != poem["new_key"]
    assert poem["old"][0]["text"] == answer_for(poem["prompt"], "v1").text
    assert poem["new"][0]["text"] == answer_for(poem["prompt"], "v2").text
    assert set(poem["old"][0]) == {
        "status", "text", "tool_calls", "finish_reason", "usage", "model", "streamed",
        "complete", "error",
    }  # fmt: skip
    assert "+A poem about: write a poem about the sea" in poem["text_diff"]
    summary = diff["summary"]
    assert (summary["unchanged"], summary["changed"], summary["only_old"]) == (7, 6, 0)
    assert summary["changed_by_kind"]["finish_reason"] == 1
    assert set(summary["tokens"]) == {"old", "new", "change_percent"}
    assert summary["tokens"]["change_percent"] > 0


def test_diff_of_a_file_and_a_directory_named_like_a_cassette_names_which_is_which(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    """A directory named x.json, or a symbolic link to one, exited 2 without a path."""
    (tmp_path / "x.json").mkdir()
    (tmp_path / "link.json").symlink_to(suites["new"])
    cassette = suites["old"] / "chat.json"
    for other, kind in [("x.json", "a directory"), ("link.json", "a directory (a symbolic")]:
        result = invoke("diff", cassette, tmp_path / other)
        assert result.exit_code == 2
        assert f"OLD {cassette} is a cassette file and NEW {tmp_path / other} is {kind}" in (
            result.stderr
        )
    flipped = invoke("diff", tmp_path / "x.json", cassette)
    assert f"OLD {tmp_path / 'x.json'} is a directory and NEW {cassette} is a cassette file" in (
        flipped.stderr
    )


def test_diff_leaves_out_a_cassette_unreadable_on_one_side_rather_than_count_it_on_the_other(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    """An unreadable OLD cassette made its NEW counterpart's pairs "only in NEW"."""
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(suites["old"], old)
    shutil.copytree(suites["new"], new)
    (old / "chat.json").write_bytes(b'{"version": 1, "interactions":')
    result = invoke("diff", old, new, "--ignore", "model")
    assert result.exit_code == 2
    assert f"cassette {old / 'chat.json'}: is not valid JSON" in result.stderr
    assert f"? {old / 'chat.json'}: unreadable in OLD (said above), not compared" in result.stdout
    assert "0 only in OLD, 0 only in NEW" in result.stdout
    diff = document(invoke("diff", old, new, "--ignore", "model", "--json"))
    assert diff["not_compared"] == {"old": ["chat.json"], "new": []}
    assert diff["summary"]["only_new"] == 0 and all(p["file"] != "chat.json" for p in diff["pairs"])
    alone = invoke("diff", old / "chat.json", new / "chat.json", "--json")
    assert alone.exit_code == 2 and document(alone)["pairs"] == []


def test_diff_as_a_subprocess_gives_the_same_pairs_and_status(suites: dict[str, Path]) -> None:
    finished = run_cli("diff", suites["old"], suites["new"], "--ignore", "model", "--json")
    assert finished.returncode == 1, finished.stderr
    assert pair_states(document(finished)) == EXPECTED


def test_diff_human_output(suites: dict[str, Path]) -> None:
    result = invoke("diff", suites["old"], suites["new"], "--ignore", "model")
    assert result.exit_code == 1
    out = result.stdout
    for prompt in CHANGES:
        assert f"prompt: {prompt}" in out
    for prompt in UNCHANGED:
        assert f"prompt: {prompt}" not in out
    assert "-Answer to: write a poem about the sea" in out
    assert "+A poem about: write a poem about the sea" in out
    assert "finish reason: stop -> length" in out
    assert "13 pairs: 7 unchanged, 6 changed" in out
    assert "\x1b[" not in out  # not a terminal: no colors
    assert "hint" not in out and result.stderr == ""
    # Each pair is named by the keys it is stored under, which `replay show --key` finds.
    pairs = document(invoke("diff", suites["old"], suites["new"], "-i", "model", "--json"))
    poem = next(p for p in pairs["pairs"] if p["prompt"] == "write a poem about the sea")
    assert f"  keys: old {poem['old_key'][:12]} new {poem['new_key'][:12]}" in out
    assert poem["key"] not in out
    shown = invoke("show", suites["old"] / "chat.json", "--key", poem["old_key"])
    assert shown.exit_code == 0 and "prompt: write a poem about the sea" in shown.stdout
    verbose = invoke("diff", suites["old"], suites["new"], "--ignore", "model", "-v").stdout
    assert all(f"prompt: {prompt}" in verbose for prompt in UNCHANGED)


def test_diff_without_ignore_pairs_only_requests_without_a_model(suites: dict[str, Path]) -> None:
    diff = document(invoke("diff", suites["old"], suites["new"], "--json"))
    assert diff["summary"]["only_old"] == diff["summary"]["only_new"] == 12
    paired = {p["prompt"] for p in diff["pairs"] if p["state"] == "unchanged"}
    assert paired == {"These are a few of my favorite"}


def test_diff_of_files_and_of_equal_recordings(suites: dict[str, Path]) -> None:
    files = invoke(
        "diff", suites["old"] / "chat.json", suites["new"] / "chat.json", "-i", "model", "--json"
    )
    assert len(document(files)["pairs"]) == len(CHAT_PROMPTS)
    same = invoke("diff", suites["old"], suites["old"])
    assert same.exit_code == 0, same.output
    assert "13 pairs: 13 unchanged, 0 changed" in same.stdout
    unpaired = invoke("diff", suites["old"] / "chat.json", suites["new"] / "chat.json")
    assert unpaired.exit_code == 1
    hint = unpaired.stdout[unpaired.stdout.index("hint: ") :]
    assert " ".join(hint.split()) == (
        f"hint: --ignore model pairs {len(CHAT_PROMPTS)} more interactions (the same requests "
        "sent to another model): add it to compare two model versions"
    )
    mixed = invoke("diff", suites["old"], suites["new"] / "chat.json")
    assert mixed.exit_code == 2 and "give two cassette files or two directories" in mixed.stderr


def test_diff_warns_when_ignored_fields_leave_interactions_sharing_a_key(
    suites: dict[str, Path],
) -> None:
    old, new = suites["old"] / "chat.json", suites["new"] / "chat.json"
    blind = ("-i", "messages", "-i", "input")  # no prompt counts: requests of one shape collide
    warned = document(invoke("diff", old, new, *blind, "--json"))["warnings"]
    # Three plain chat completions, and two streamed ones, on each side.
    assert sorted((w["side"], w["interactions"]) for w in warned) == [
        ("new", 2), ("new", 3), ("old", 2), ("old", 3),
    ]  # fmt: skip
    three = next(w for w in warned if (w["side"], w["interactions"]) == ("old", 3))
    assert set(three) == {"file", "side", "key", "interactions", "message"}
    assert three["message"].startswith(f"{old}: 3 interactions share the key {three['key']}")
    human = invoke("diff", old, new, *blind)
    assert f"replay: warning: {three['message']}\n" in human.stderr
    assert human.stderr.count("replay: warning: ") == 4


# list and show


def test_list_json_counts_what_was_recorded(suites: dict[str, Path]) -> None:
    result = invoke("list", suites["old"], "--json")
    assert result.exit_code == 0, result.output
    listing = document(result)
    rows = {Path(row["path"]).name: row for row in listing["cassettes"]}
    chat, other = rows["chat.json"], rows["providers.json"]
    assert set(chat) == {
        "path", "interactions", "responses", "providers", "models", "streamed", "errors",
        "prompt_tokens", "completion_tokens", "cost_usd", "audio_messages", "audio_bytes",
        "size_bytes", "recorded_first", "recorded_last", "answered_by_another_model",
    }  # fmt: skip
    assert (chat["audio_messages"], chat["audio_bytes"]) == (0, 0)
    assert (chat["interactions"], chat["responses"], chat["streamed"], chat["errors"]) == (
        7, 7, 2, 0,
    )  # fmt: skip
    assert chat["prompt_tokens"] == sum(len(tokens(p)) for p in CHAT_PROMPTS)
    assert chat["models"] == ["model-1"]
    assert chat["size_bytes"] == (suites["old"] / "chat.json").stat().st_size
    assert other["providers"] == ["ai21", "anthropic", "groq", "lighton", "workflowai"]
    assert other["cost_usd"] is not None and other["streamed"] == 1
    total = listing["total"]
    assert total["cassettes"] == 2 and total["interactions"] == 13
    assert total["completion_tokens"] == chat["completion_tokens"] + other["completion_tokens"]
    human = invoke("list", suites["old"]).stdout.splitlines()  # 80 columns: one block each
    assert human[0] == str(suites["old"] / "chat.json")
    total_at = human.index("total")
    assert human[total_at + 1].startswith("  inter 13  resp 13")
    assert max(map(len, human)) <= 80


def test_show_assembles_streams_and_filters_by_key(suites: dict[str, Path]) -> None:
    cassette = suites["new"] / "chat.json"
    shown = document(invoke("show", cassette, "--json"))
    by_prompt = {i["prompt"]: i for i in shown["interactions"]}
    stream = by_prompt["stream a poem please"]["responses"][0]
    assert stream["streamed"] and stream["text"] == "A poem about: stream a poem please"
    assert by_prompt["a long essay on rivers"]["responses"][0]["finish_reason"] == "length"
    key = by_prompt["weather in Paris"]["key"]
    one = invoke("show", cassette, "--key", key[:6])
    assert one.exit_code == 0
    assert f"{key} POST" in one.stdout
    assert 'tool call get_weather({"query":"weather in Paris","unit":"celsius"})' in one.stdout
    raw = document(invoke("show", cassette, "--key", key, "--raw"))
    assert raw == {key: store.load(cassette).interactions[key]}
    missing = invoke("show", cassette, "--key", "zzz")
    assert missing.exit_code == 1 and "zzz" in missing.stderr


# scan and verify


def test_scan_finds_a_planted_key_without_printing_it(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    clean = invoke("scan", suites["old"])
    assert clean.exit_code == 0, clean.output
    cassette = tmp_path / "leaky.json"
    shutil.copy(suites["old"] / "chat.json", cassette)
    entries = store.load(cassette).interactions
    key = sorted(entries)[2]
    entries[key]["responses"][0]["headers"]["x-debug"] = f"key was {PLANTED}"
    store.save(cassette, entries)
    result = invoke("scan", tmp_path, "--json")
    assert result.exit_code == 1
    found = document(result)
    assert found == {
        "files_scanned": 1,
        "findings": [
            {
                "path": str(cassette),
                "key": key,
                "field": "responses[0].headers.x-debug",
                "match": f"{PLANTED[:6]}… ({len(PLANTED)} characters)",
                "rule": "an OpenAI project key shape (sk-proj-…)",
            }
        ],
        "problems": [],
        "unreadable": [],
    }
    human = run_cli("scan", cassette)
    assert human.returncode == 1
    assert human.stdout.splitlines()[-1] == "1 secret found in 1 cassette"
    assert str(cassette) in human.stdout and key in human.stdout
    assert f"  {PLANTED[:6]}… ({len(PLANTED)} characters): an OpenAI project key" in human.stdout
    assert PLANTED not in human.stdout + human.stderr
    # A value of this environment's secret variables is named after the variable.
    own = "team-" + "Qv7w" * 5
    entries[key]["responses"][0]["headers"]["x-debug"] = f"key was {own}"
    store.save(cassette, entries)
    named = document(run_cli("scan", cassette, "--json", MY_SERVICE_TOKEN=own))["findings"]
    assert [finding["rule"] for finding in named] == ["the value of $MY_SERVICE_TOKEN"]


def test_verify_names_every_problem(suites: dict[str, Path], tmp_path: Path) -> None:
    assert invoke("verify", suites["old"]).exit_code == 0
    good = store.load(suites["old"] / "chat.json").interactions
    first, second = sorted(good)[:2]
    broken = {
        "truncated.json": (suites["old"] / "chat.json").read_bytes()[:500],
        "future.json": b'{"version": 2, "interactions": {}}',
        "no-responses.json": store.dump({first: {"request": good[first]["request"]}}),
        "bad-status.json": store.dump(
            {second: {**good[second], "responses": [{"status": 42, "recorded_at": "x"}]}}
        ),
        "bad-key.json": store.dump({"not-a-key": good[first]}),
    }
    for name, data in broken.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "fixture.json").write_text('{"not": "a cassette"}')
    result = invoke("verify", tmp_path, "--json")
    assert result.exit_code == 1
    report = document(result)
    assert report["ok"] is False
    problems = {Path(f["path"]).name: " | ".join(f["problems"]) for f in report["files"]}
    assert set(problems) == set(broken)  # the fixture is passed over, and named
    assert report["skipped"] == [
        {
            "path": str(tmp_path / "fixture.json"),
            "reason": 'JSON that is not a cassette (no "interactions"), not checked',
        }
    ]
    assert "not valid JSON" in problems["truncated.json"]
    assert "unknown format version 2" in problems["future.json"]
    assert (
        f"interaction {first} is malformed: missing field 'responses'"
        in problems["no-responses.json"]
    )
    assert "status 42 is not an HTTP status code" in problems["bad-status.json"]
    assert "a key is 32 hexadecimal digits" in problems["bad-key.json"]
    human = run_cli("verify", tmp_path)
    assert human.returncode == 1
    assert human.stdout.endswith(
        f"skipped {tmp_path / 'fixture.json'}: JSON that is not a cassette (no "
        '"interactions"), not checked\n'
        "0 of 5 cassettes are valid (1 file skipped, named above)\n"
    )


def test_an_unreadable_cassette_exits_2_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "interactions": [')
    for command in ("list", "scan", "prune"):
        result = invoke(command, bad)
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.startswith(f"replay: cassette {bad}: is not valid JSON")
    finished = run_cli("show", bad)
    assert finished.returncode == 2
    assert finished.stderr.startswith(f"replay: cassette {bad}:")
    assert "Traceback" not in finished.stderr
    assert run_cli("list", tmp_path / "missing.json").returncode == 2


@pytest.mark.parametrize("command", ["show", "list"])
def test_a_reader_that_stops_reading_ends_the_command_quietly(
    suites: dict[str, Path], command: str
) -> None:
    """``replay show X | head -1``: no message, and the status of a process ended by SIGPIPE."""
    reading, writing = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-m", "replay", command, str(suites["old"] / "chat.json")],
        stdout=writing,
        stderr=subprocess.PIPE,
        text=True,
    )
    os.close(writing)
    os.close(reading)  # before the command wrote anything, so its first write fails
    _, stderr = process.communicate(timeout=120)
    assert (process.returncode, stderr) == (128 + 13, "")


def test_colors_only_when_wanted(suites: dict[str, Path]) -> None:
    assert color_wanted(None, True, {}) is True
    assert color_wanted(None, True, {"NO_COLOR": "1"}) is False
    assert color_wanted(None, False, {}) is False
    assert color_wanted(True, False, {"NO_COLOR": "1"}) is True
    colored = invoke("--color", "diff", suites["old"], suites["new"], "--ignore", "model")
    assert "\x1b[" in colored.stdout


# prune


def replay_run(cassette: Path, url: str, prompts: list[str], *options: str) -> int:
    return run_in_process(cassette, url, prompts, uuid.uuid4().hex, *options).returncode


def test_prune_keeps_exactly_what_the_last_complete_run_used(tmp_path: Path) -> None:
    chat, unused, fixture = tmp_path / "chat.json", tmp_path / "unused.json", tmp_path / "f.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, chat, "model-1", CHAT_PROMPTS)
        record_chat(server.url, unused, "model-1", ["nobody asks this any more"])
        url = server.url
    fixture.write_text('{"not": "a cassette"}')
    before = chat.read_bytes()

    no_record = invoke("prune", tmp_path, "--yes")
    assert no_record.exit_code == 1
    assert "no usage record" in no_record.stdout and chat.read_bytes() == before

    half = CHAT_PROMPTS[::2]
    wait_for_next_second()
    assert replay_run(chat, url, half) == 0
    used = usage.last_complete_run(usage.read(tmp_path) or {})
    assert used is not None and len(used.cassettes["chat.json"]) == len(half)

    dry = invoke("prune", tmp_path, "--json")
    assert dry.exit_code == 1
    plan = document(dry)
    assert plan["applied"] is False and chat.read_bytes() == before
    assert plan["directories"][0]["run"]["id"] == used.id
    assert plan["directories"][0]["message"].endswith("(1 process)")
    files = {Path(f["path"]).name: f for f in plan["files"]}
    assert files["unused.json"]["delete_file"] is True
    removed = {entry["key"] for entry in files["chat.json"]["remove"]}
    assert removed == set(store.load(chat).interactions) - used.cassettes["chat.json"]
    assert files["chat.json"]["kept"] == len(half)

    pruned = run_cli("prune", tmp_path, "--yes")
    assert pruned.returncode == 0, pruned.stderr
    assert "removed the file" in pruned.stdout
    assert set(store.load(chat).interactions) == used.cassettes["chat.json"]
    assert not unused.exists() and fixture.read_text() == '{"not": "a cassette"}'
    assert not (tmp_path / ".unused.json.lock").exists()  # nothing left of the cassette
    assert (tmp_path / ".chat.json.lock").exists()  # kept beside the cassette kept

    assert replay_run(chat, url, half) == 0
    assert replay_run(chat, url, CHAT_PROMPTS[1:2]) != 0  # really gone
    assert invoke("prune", tmp_path, "--yes").stdout.strip().endswith("nothing to prune")


def test_prune_goes_by_no_incomplete_run_and_by_date_on_request(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, chat, "model-1", CHAT_PROMPTS[:2])
        url = server.url
    wait_for_next_second()
    assert replay_run(chat, url, CHAT_PROMPTS[:1], "--interrupt") != 0
    result = invoke("prune", tmp_path, "--yes")
    assert result.exit_code == 1
    assert "no complete run recorded" in result.stdout and "KeyboardInterrupt" in result.stdout
    assert len(store.load(chat).interactions) == 2

    wait_for_next_second()
    by_date = invoke("prune", tmp_path, "--older-than", "0", "--yes", "--json")
    assert by_date.exit_code == 0, by_date.output
    assert document(by_date)["interactions_removed"] == 2 and not chat.exists()
    assert not (tmp_path / ".chat.json.lock").exists()


def test_prune_json_shape(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_bytes(store.dump({}))
    result = invoke("prune", tmp_path, "--json")
    assert result.exit_code == 1  # no usage record to go by
    plan = document(result)
    assert set(plan) == {
        "applied", "directories", "files", "unreadable", "interactions_removed", "files_removed",
    }  # fmt: skip
    [directory] = plan["directories"]
    assert directory.pop("message").startswith(f"no usage record ({usage.record_path(tmp_path)})")
    assert directory == {
        "directory": str(tmp_path), "usage_record": False, "run": None, "stale": False,
        "missing_test_module": None,
    }  # fmt: skip
    assert (plan["files"], plan["applied"], plan["files_removed"]) == ([], False, 0)


# bad input: one line naming the file, never a traceback


def stored_entry(recorded_at: str = "2024-05-01T10:00:00Z", **response: Any) -> dict[str, Any]:
    """A minimal well-formed entry, for inputs no SDK would produce."""
    return {
        "request": {"method": "POST", "url": "http://127.0.0.1/v1/chat", "headers": {}},
        "responses": [{"status": 200, "headers": {}, "recorded_at": recorded_at, **response}],
    }


def usage_record(directory: Path, **run: Any) -> Path:
    record = usage.record_path(directory)
    fields = {"started": "2024-05-01T10:00:00Z", "ended": "2024-05-01T10:01:00Z",
              "complete": True, "cassettes": {}} | run  # fmt: skip
    record.write_text(json.dumps({"version": 1, "runs": {"r1": fields}}))
    return record


@pytest.mark.parametrize(
    ("started", "why"),
    [("yesterday", "not an ISO 8601 date"), ("2024-05-01T10:00:00", "has no time zone")],
)
def test_prune_with_a_bad_date_in_the_usage_record_exits_2_naming_it(
    tmp_path: Path, started: str, why: str
) -> None:
    (tmp_path / "c.json").write_bytes(store.dump({"a" * 32: stored_entry()}))
    record = usage_record(tmp_path, started=started)
    result = invoke("prune", tmp_path)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"replay: cassette {record}: is not a usage record")
    assert why in result.stderr and repr(started) in result.stderr


def test_prune_of_odd_but_readable_input_says_so_and_removes_nothing(tmp_path: Path) -> None:
    odd = {"a" * 32: {**stored_entry(), "responses": 5}}
    (tmp_path / "c.json").write_bytes(store.dump(odd))
    _usage_record(tmp_path).write_text('{"version": 1, "runs": {}}')
    result = invoke("prune", tmp_path, "--older-than", "0", "--json")
    assert result.exit_code == 0, result.output
    [note] = document(result)["directories"]
    assert note["run"] is None and "no complete run recorded" in note["message"]
    assert document(result)["files"] == []  # an entry with no readable date is never guessed at
    for days in ("1e10", "inf"):  # further back than dates go: nothing is that old
        assert invoke("prune", tmp_path, "--older-than", days, "--yes").exit_code == 0
    nan = invoke("prune", tmp_path, "--older-than", "nan")
    assert nan.exit_code == 2 and "--older-than" in nan.stderr
    assert store.load(tmp_path / "c.json").interactions == odd


def test_scan_reports_a_body_that_is_not_base64_and_still_scans_the_rest(tmp_path: Path) -> None:
    key = "b" * 32
    bad = stored_entry(body={"base64": "!!" + PLANTED})
    (tmp_path / "c.json").write_bytes(store.dump({key: bad}))
    result = invoke("scan", tmp_path, "--json")
    assert result.exit_code == 1, result.output
    found = document(result)
    assert found["problems"] == [
        {
            "path": str(tmp_path / "c.json"),
            "key": key,
            "field": "responses[0].body.base64",
            "reason": "not valid base64 (scanned as text)",
        }
    ]
    assert [f["field"] for f in found["findings"]] == ["responses[0].body.base64"]
    human = invoke("scan", tmp_path)
    assert human.exit_code == 1 and "not valid base64" in human.stdout


def _compressed(encoding: str, data: bytes) -> bytes:
    if encoding == "gzip":
        return gzip.compress(data)
    if encoding == "deflate":
        return zlib.compress(data)
    if encoding == "br":
        return bytes(brotli.compress(data))
    return bytes(zstandard.ZstdCompressor().compress(data))


@pytest.mark.parametrize("encoding", ["gzip", "deflate", "br", "zstd"])
def test_scan_undoes_the_content_encoding_of_a_body_kept_compressed(
    tmp_path: Path, encoding: str
) -> None:
    echoed = _compressed(encoding, f'{{"echo": "Bearer {PLANTED}"}}'.encode())
    whole = stored_entry(headers={"content-encoding": encoding}, body=store.encode_body(echoed))
    # A stream's chunks go through one decoder in order: the key is split between two.
    middle = len(echoed) // 2
    chunks = [{"at": 0.0, **store.encode_body(part)} for part in (echoed[:middle], echoed[middle:])]
    streamed = stored_entry(headers={"content-encoding": encoding}, chunks=chunks)
    (tmp_path / "c.json").write_bytes(store.dump({"a" * 32: whole, "b" * 32: streamed}))

    result = invoke("scan", tmp_path, "--json")
    assert result.exit_code == 1, result.output
    found = document(result)
    assert found["problems"] == []
    assert {(f["key"][0], f["match"]) for f in found["findings"]} == {
        ("a", f"{PLANTED[:6]}… ({len(PLANTED)} characters)"),
        ("b", f"{PLANTED[:6]}… ({len(PLANTED)} characters)"),
    }


def test_scan_reports_a_body_its_content_encoding_does_not_fit_and_scans_it_as_stored(
    tmp_path: Path,
) -> None:
    entry = stored_entry(headers={"content-encoding": "gzip"}, body={"base64": "bm90IGd6aXA="})
    (tmp_path / "c.json").write_bytes(store.dump({"a" * 32: entry}))
    found = document(invoke("scan", tmp_path, "--json"))
    assert [problem["reason"] for problem in found["problems"]] == [
        "not what its content-encoding says (scanned as stored)"
    ]


KILLED_RECORDER = """
import os, sys
from replay import Cassette
from replay._core.model import Chunk, Request, Response
cassette = Cassette(sys.argv[1])
request = Request("POST", "http://127.0.0.1/v1/chat", (), b'{"model": "m", "prompt": "hi"}')
body = (Chunk(b'{"ok": 1}', 0.0),)
answer = Response(200, (("content-type", "application/json"),), body, "2026-01-01T00:00:00Z")
cassette.add(cassette.decide(request), answer)
os._exit(0)  # killed before its first save: only the journal is on disk
"""


def test_a_cassette_that_is_only_its_journal_is_read_when_named(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    env = {k: v for k, v in os.environ.items() if k != "REPLAY_MODE"}
    subprocess.run([sys.executable, "-c", KILLED_RECORDER, path], env=env, check=True)
    assert not path.exists() and (tmp_path / ".c.json.journal").is_dir()
    for command in ("show", "verify", "list", "scan"):
        result = invoke(command, path, "--json")
        assert result.exit_code == 0, (command, result.output)
    assert [i["url"] for i in document(invoke("show", path, "--json"))["interactions"]] == [
        "http://127.0.0.1/v1/chat"
    ]
    assert document(invoke("diff", path, path, "--json"))["summary"]["unchanged"] == 1


def test_a_missing_path_is_bad_usage_before_any_output(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    """Every argument is checked before anything is printed: not a whole diff, then the error;
    verify and scan agree with the others (they used to report "0 of 1 valid", "0 secrets")."""
    missing = tmp_path / "missing.json"
    chat = suites["old"] / "chat.json"
    commands = {
        "show": [missing],
        "list": [chat, missing],
        "verify": [chat, missing],
        "scan": [chat, missing],
        "prune": [chat, missing],
        "diff": [chat, missing],
        "report": [chat, missing, "-o", tmp_path / "report.html"],
        "rerun": [chat, missing, "--out", tmp_path / "out", "--dry-run"],
        "sync": [missing, tmp_path / "copy"],  # printed "0 cassettes synced", then the error
    }
    for command, arguments in commands.items():
        finished = run_cli(command, *arguments)
        assert (finished.returncode, finished.stdout) == (2, ""), (command, finished.stdout)
        assert finished.stderr.startswith(f"Usage: replay {command} "), command
        assert f"{missing}: no such file or directory" in finished.stderr, command
        assert "Traceback" not in finished.stderr


def test_show_labels_a_transport_failure_without_a_body(
    tmp_path: Path, llm_server: FakeLLMServer
) -> None:
    cassette = tmp_path / "timed-out.json"
    with replay.Cassette(cassette) as recording:
        client = httpx.Client(transport=replay.ReplayTransport(recording), timeout=0.2)
        with pytest.raises(httpx.ReadTimeout):
            client.post(
                f"{llm_server.url}/v1/chat/completions",
                json={"model": "slow", "messages": [{"role": "user", "content": "hi"}]},
                headers={"authorization": f"Bearer {llm_server.api_key}"},
            )
    [entry] = store.load(cassette).interactions.values()
    result = invoke("show", cassette)
    assert result.exit_code == 0, result.output
    assert f"  response 1: transport failure {entry['responses'][0]['recorded_at']}" in (
        result.stdout.splitlines()
    )
    assert "    error: ReadTimeout: " in result.stdout
    assert "1 pair: 1 unchanged" in invoke("diff", cassette, cassette).stdout
    assert invoke("verify", cassette).stdout == "1 of 1 cassette is valid\n"


def test_version_is_the_installed_package_s() -> None:
    result = invoke("--version")
    assert result.exit_code == 0
    assert result.stdout == f"replay, version {importlib.metadata.version('replay-llm')}\n"
    assert replay.__version__ == importlib.metadata.version("replay-llm")


def test_prune_keeps_what_is_re_recorded_between_showing_and_removing(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, chat, "model-1", CHAT_PROMPTS[:2])
        wait_for_next_second()
        assert replay_run(chat, server.url, CHAT_PROMPTS[:1]) == 0
        [directory] = prune.directories([tmp_path])
        policy = prune.Policy(directory.run, None)
        shown = prune.plan(chat, store.load(chat).interactions, policy)
        assert len(shown.reasons) == 1  # the second prompt, not asked by the run
        server.model_version = "v2"  # a new answer: an unchanged one keeps its recording date
        record_chat(server.url, chat, "model-1", CHAT_PROMPTS[1:2], "all")  # meanwhile
    removed = prune.apply(chat, policy)
    assert removed.reasons == {}
    assert set(store.load(chat).interactions) >= set(shown.reasons)


def test_prune_does_not_go_by_a_run_older_than_the_newest_run_seen(tmp_path: Path) -> None:
    kept, gone = tmp_path / "kept" / "chat.json", tmp_path / "gone" / "chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, kept, "model-1", CHAT_PROMPTS[:1])
        record_chat(server.url, gone, "model-1", CHAT_PROMPTS[:2])
        url = server.url
    wait_for_next_second()
    first = uuid.uuid4().hex
    assert run_in_process(kept, url, CHAT_PROMPTS[:1], first).returncode == 0
    assert run_in_process(gone, url, CHAT_PROMPTS[:1], first).returncode == 0
    wait_for_next_second()
    assert replay_run(kept, url, CHAT_PROMPTS[:1]) == 0  # the tests of gone/ were deleted
    before = gone.read_bytes()

    result = invoke("prune", tmp_path, "--yes", "--json")
    assert result.exit_code == 1, result.output
    plan = document(result)
    notes = {Path(note["directory"]).name: note for note in plan["directories"]}
    assert (notes["gone"]["stale"], notes["gone"]["run"]) == (True, None)
    stale = notes["gone"]["message"]
    assert stale.startswith(f"stale usage record: its last complete run, {first}")
    assert notes["kept"]["stale"] is False and notes["kept"]["run"]["id"] != first
    assert plan["files"] == [] and gone.read_bytes() == before
    human = invoke("prune", tmp_path)
    assert "nothing is removed here for lack of use" in human.stdout

    alone = invoke("prune", gone.parent, "--yes")  # named on its own, it goes by its own run
    assert alone.exit_code == 0, alone.output
    assert f"{gone}: removed 1 interaction\n" in alone.stdout
    assert len(store.load(gone).interactions) == 1


def test_prune_removes_the_cassettes_of_a_deleted_test_module(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    kept = tests / "cassettes" / "test_kept" / "test_chat.json"
    gone = tests / "cassettes" / "test_gone" / "test_chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, kept, "model-1", CHAT_PROMPTS[:1])
        record_chat(server.url, gone, "model-1", CHAT_PROMPTS[:2])
        url = server.url
    for module in ("test_kept.py", "test_gone.py"):
        (tests / module).write_text("def test_chat():\n    pass\n")
    wait_for_next_second()
    both = uuid.uuid4().hex
    assert run_in_process(kept, url, CHAT_PROMPTS[:1], both).returncode == 0
    assert run_in_process(gone, url, CHAT_PROMPTS[:2], both).returncode == 0  # used it all
    (tests / "test_gone.py").unlink()
    assert replay_run(kept, url, CHAT_PROMPTS[:1]) == 0  # the suite, test_gone.py deleted
    before = {path: path.read_bytes() for path in (kept, gone)}

    dry = invoke("prune", tests, "--dry-run", "--json")
    assert dry.exit_code == 1, dry.output  # something left to remove
    plan = document(dry)
    notes = {Path(note["directory"]).name: note for note in plan["directories"]}
    missing = tests.resolve() / "test_gone.py"
    assert notes["test_gone"]["missing_test_module"] == str(missing)
    assert notes["test_gone"]["message"].startswith(f"orphaned: its test module {missing}")
    assert notes["test_kept"]["missing_test_module"] is None
    [orphaned] = plan["files"]
    assert (orphaned["path"], orphaned["delete_file"]) == (str(gone), True)
    assert {entry["reason"] for entry in orphaned["remove"]} == {
        "test module test_gone.py no longer exists"
    }
    assert len(orphaned["remove"]) == 2
    human = invoke("prune", tests, "--dry-run", "--yes")
    assert f"{gone}: would remove the file\n" in human.stdout
    assert "(test module test_gone.py no longer exists)" in human.stdout
    assert {path: path.read_bytes() for path in before} == before

    pruned = run_cli("prune", tests, "--yes")
    assert pruned.returncode == 0, pruned.stdout + pruned.stderr
    assert f"{gone}: removed the file" in pruned.stdout
    assert not gone.exists() and not (gone.parent / ".test_chat.json.lock").exists()
    assert kept.read_bytes() == before[kept]


def test_prune_takes_no_directory_for_orphaned_unless_the_layout_is_evident(
    tmp_path: Path,
) -> None:
    alone = tmp_path / "alone" / "cassettes" / "test_gone"  # no test module beside cassettes/
    custom = tmp_path / "tests" / "cassettes" / "fixtures"  # not named like a test module
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_other.py").write_text("def test_other():\n    pass\n")
    entries = {"a" * 32: stored_entry()}
    for directory in (alone, custom):
        directory.mkdir(parents=True)
        (directory / "c.json").write_bytes(store.dump(entries))

    result = invoke("prune", tmp_path, "--yes", "--json")
    assert result.exit_code == 1, result.output  # no usage record: nothing to go by
    plan = document(result)
    assert [note["missing_test_module"] for note in plan["directories"]] == [None, None]
    assert plan["files"] == []
    assert all(store.load(d / "c.json").interactions == entries for d in (alone, custom))


# A new user's first commands: damaged input, narrow terminals, options on either side


def damaged_copy(suite: Path, target: Path) -> dict[str, Path]:
    """``suite`` copied with a truncated cassette and one with a malformed interaction added."""
    shutil.copytree(suite, target)
    truncated, malformed = target / "truncated.json", target / "other" / "malformed.json"
    truncated.write_bytes((suite / "chat.json").read_bytes()[:300])
    entries = store.load(suite / "chat.json").interactions
    key = sorted(entries)[0]
    malformed.write_bytes(store.dump({key: {**entries[key], "responses": 5}}))
    return {"truncated": truncated, "malformed": malformed}


def test_one_unreadable_cassette_does_not_stop_the_others(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    damaged = damaged_copy(suites["old"], tmp_path / "old")
    leaky = tmp_path / "old" / "chat.json"
    entries = store.load(leaky).interactions
    entries[sorted(entries)[1]]["responses"][0]["headers"]["x-debug"] = PLANTED
    store.save(leaky, entries)

    listed = run_cli("list", tmp_path / "old", "--json")
    assert listed.returncode == 2
    assert [row["path"] for row in document(listed)["cassettes"]] == [
        str(leaky), str(tmp_path / "old" / "other" / "providers.json"),
    ]  # fmt: skip
    assert f"replay: cassette {damaged['truncated']}: is not valid JSON" in listed.stderr
    assert f"replay: cassette {damaged['malformed']}: interaction " in listed.stderr
    assert listed.stderr.splitlines()[-1] == "replay: 2 inputs passed over (named above)"
    assert "Traceback" not in listed.stderr

    scanned = run_cli("scan", tmp_path / "old", "--json")
    assert scanned.returncode == 2  # the secret found is reported all the same
    report = document(scanned)
    assert [Path(f["path"]) for f in report["findings"]] == [leaky]
    assert report["files_scanned"] == 3  # the malformed one is still scanned as stored
    assert report["unreadable"] == [f"cassette {damaged['truncated']}: " + report[
        "unreadable"][0].split(": ", 1)[1]]  # fmt: skip

    diffed = run_cli("diff", suites["old"], tmp_path / "old", "--json")
    assert diffed.returncode == 2
    summary = document(diffed)["summary"]
    assert (summary["unchanged"], summary["only_new"]) == (13, 0)
    assert len(document(diffed)["unreadable"]) == 2

    # sync copied the malformed interaction, exit status 0, to where others replay from
    synced = run_cli("sync", tmp_path / "old", tmp_path / "copy")
    assert synced.returncode == 2
    assert f"replay: cassette {damaged['malformed']}: interaction " in synced.stderr
    assert "Traceback" not in synced.stderr
    copied = {
        p.relative_to(tmp_path / "copy").as_posix() for p in (tmp_path / "copy").rglob("*.json")
    }
    assert copied == {"chat.json", "other/providers.json"}


def test_verify_scan_and_list_fail_on_a_path_without_cassettes(
    suites: dict[str, Path], tmp_path: Path
) -> None:
    """A mistyped directory must not pass for a clean one, nor list as an empty total."""
    (tmp_path / "fixture.json").write_text('{"not": "a cassette"}')
    for command in ("verify", "scan", "list"):
        finished = run_cli(command, suites["old"], tmp_path)
        assert finished.returncode == 2, (command, finished.stdout)
        assert finished.stderr == f"replay: no cassettes found under {tmp_path}\n"
        assert run_cli(command, suites["old"]).returncode == 0


def test_diff_names_the_models_and_labels_tokens(suites: dict[str, Path]) -> None:
    result = invoke("diff", suites["old"], suites["new"], "--ignore", "model")
    lines = result.stdout.splitlines()
    assert lines[:2] == [f"OLD {suites['old']}: model-1", f"NEW {suites['new']}: model-2"]
    poem = answer_for("write a poem about the sea", "v2").text
    prompt = len(tokens("write a poem about the sea"))
    before = len(tokens(answer_for("write a poem about the sea", "v1").text))
    assert f"  tokens in/out: {prompt}/{before} -> {prompt}/{len(tokens(poem))}" in lines
    assert any(line.startswith("tokens in/out: OLD ") for line in lines)
    as_json = document(invoke("diff", suites["old"], suites["new"], "-i", "model", "--json"))
    assert as_json["models"] == {"old": ["model-1"], "new": ["model-2"]}


def test_diff_ignore_host_pairs_recordings_from_two_servers(tmp_path: Path) -> None:
    prompts = CHAT_PROMPTS[:3]
    sides = {}
    for name in ("hosted", "local"):
        with FakeLLMServer(api_key=API_KEY) as server:  # each on a port of its own
            sides[name] = tmp_path / name / "chat.json"
            record_chat(server.url, sides[name], "model-1", prompts)
    apart = document(run_cli("diff", sides["hosted"], sides["local"], "--json"))
    assert apart["summary"]["only_old"] == len(prompts)
    paired = run_cli("diff", sides["hosted"], sides["local"], "--ignore", "host", "--json")
    assert paired.returncode == 0, paired.stdout
    assert document(paired)["summary"]["unchanged"] == len(prompts)


def test_list_and_diff_fit_an_80_column_terminal(suites: dict[str, Path]) -> None:
    deep = ["list", suites["old"], suites["new"]]
    listed = run_cli(*deep, COLUMNS="80").stdout.splitlines()
    assert max(map(len, listed)) <= 80, listed
    # Nothing cut or left out (paths and models were cut, four columns dropped): each cassette
    # a block, its path whole on a line, every field wrapped below it.
    assert "…" not in "".join(listed) and "not shown" not in "".join(listed)
    wide = run_cli(*deep, COLUMNS="1000").stdout.splitlines()
    assert wide[0].split()[:3] == ["path", "inter", "resp"] and "…" not in "".join(wide)
    paths = [row.split()[0] for row in wide[1:-1]]
    assert [line for line in listed if not line.startswith("  ")] == [*paths, "total"]
    fields = " ".join(line.strip() for line in listed if line.startswith("  "))
    for title in ("inter", "resp", "providers", "models", "stream", "err", "tokens in/out"):
        assert fields.count(f"{title} ") == len(paths) + 1, title
    assert "model-1" in fields and "model-2" in fields
    diffed = run_cli("diff", suites["old"], suites["new"], "-i", "model", COLUMNS="80").stdout
    assert max(map(len, diffed.splitlines())) <= 80, diffed
    as_json = document(run_cli("diff", suites["old"], suites["new"], "-i", "model", "--json",
                               COLUMNS="80"))  # fmt: skip
    assert all(len(pair["old_key"]) == 32 and "…" not in pair["url"] for pair in as_json["pairs"])


def test_json_and_color_are_taken_before_or_after_the_command(suites: dict[str, Path]) -> None:
    cassette = suites["old"] / "chat.json"
    after, before = invoke("list", cassette, "--json"), invoke("--json", "list", cassette)
    assert document(after) == document(before)
    assert "\x1b[" in invoke("show", cassette, "--color").stdout
    assert "\x1b[" in invoke("--color", "show", cassette).stdout
    assert "\x1b[" not in invoke("--color", "show", cassette, "--no-color").stdout
    finished = run_cli("--json", "verify", cassette)
    assert finished.returncode == 0 and document(finished)["ok"] is True


def test_prune_shows_the_prompt_of_what_it_removes(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    with FakeLLMServer(api_key=API_KEY) as server:
        record_chat(server.url, chat, "model-1", CHAT_PROMPTS[:2])
        url = server.url
    wait_for_next_second()
    assert replay_run(chat, url, CHAT_PROMPTS[:1]) == 0
    shown = run_cli("prune", tmp_path)
    assert shown.returncode == 1
    [removed] = document(run_cli("prune", tmp_path, "--json"))["files"][0]["remove"]
    assert removed["prompt"] == CHAT_PROMPTS[1]
    assert f"  - {removed['key'][:12]} ({removed['reason']})" in shown.stdout.splitlines()
    assert f"    prompt: {CHAT_PROMPTS[1]}" in shown.stdout.splitlines()


def _usage_record(directory: Path) -> Path:
    """Where the usage record of ``directory`` goes, its folder made, for a test to write it."""
    path = usage.record_path(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_every_command_takes_color_after_its_name() -> None:
    for name in main.commands:  # type: ignore[attr-defined]
        result = invoke(name, "--no-color", "--help")
        assert result.exit_code == 0, (name, result.output)
        assert "--color / --no-color" in result.output, name


def test_a_number_option_given_a_word_says_what_it_takes(tmp_path: Path) -> None:
    """``--older-than abc`` said "is not a valid float range"; ``fake-server --model-version
    v9`` started a server answering as v2."""
    for days in ("abc", "-1", "nan", ""):
        result = invoke("prune", tmp_path, "--older-than", days)
        assert result.exit_code == 2
        assert f"'{days}' is not a number of days (30, or 0.5 for twelve hours)" in result.stderr
        assert "Traceback" not in result.output
    version = invoke("fake-server", "--model-version", "v9")
    assert version.exit_code == 2
    assert "'v9' is not one of 'v1', 'v2'" in version.stderr
