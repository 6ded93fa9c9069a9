"""``replay mcp``: the ``mcp`` SDK's stdio client runs it in place of a real MCPServer's command
(tests/mcp_server.py), which records the session; a new client process then replays it with
no server at all (its command names no program)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

TESTS = Path(__file__).parent.parent
SERVER = [sys.executable, str(TESTS / "mcp_server.py")]
GONE = ["no-such-mcp-server-program"]
"""A replay's server command: spawned, it would fail at once."""
KEY = "wk-live-7Gq2xLp9RsT4vN8mK3dF"
ARGUMENT_SECRET = "arg-Zx81LmQ0pRt5"
EXPECTED = {
    "tools": ["account", "add", "fail", "forecast", "tick", "weather"],
    "added": ["3"],
    "weather": {"city": "Paris", "celsius": 21.5},
    "failed": [True, "Error executing tool fail"],
    "readme": ["Ask for the weather in any city."],
    "forecast": ["Forecast Oslo: sunny"],  # the server asked the client's model (sampling)
    "logged": ["forecasting Oslo"],  # a notification the server sent before that
}


def client(
    *arguments: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[dict[str, Any], str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("REPLAY_MODE", "CI")}
    ran = subprocess.run(
        [sys.executable, str(TESTS / "mcp_client.py"), "stdio", *arguments],
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        cwd=cwd,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    result: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return result, ran.stderr


def messages(cassette: Path) -> list[dict[str, Any]]:
    (entry,) = orjson.loads(cassette.read_bytes())["interactions"].values()
    assert entry["request"]["url"] == "stdio://mcp"
    (session,) = entry["responses"]
    assert session["complete"] is True
    recorded: list[dict[str, Any]] = session["mcp"]
    return recorded


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One session recorded from the real server, its key in the environment and a secret
    among its arguments."""
    cassette = tmp_path_factory.mktemp("mcp") / "weather.json"
    got, _ = client(
        str(cassette),
        "--",
        *SERVER,
        "--api-key",
        ARGUMENT_SECRET,
        env={"WEATHER_API_KEY": KEY},
    )
    assert got == {**EXPECTED, "account": [f"using key {KEY}"]}  # relayed unchanged
    return cassette


def test_a_recorded_session_replays_with_no_server(recorded: Path) -> None:
    got, _ = client(str(recorded), "--mode", "none", "--", *GONE)
    assert got == {**EXPECTED, "account": ["using key REDACTED"]}


def test_the_session_is_stored_in_order_each_message_with_its_side(recorded: Path) -> None:
    flow = [
        (m["from"], m["json"].get("method") or ("result" in m["json"] and "result"))
        for m in messages(recorded)
    ]
    assert flow[:3] == [
        ("client", "initialize"),
        ("server", "result"),
        ("client", "notifications/initialized"),
    ]
    forecast = flow.index(("client", "tools/call"), len(flow) - 8)
    # The forecast: the server's log notification and sampling request, the client's answer
    # to it, then the server's result; the account tool after it.
    assert (
        flow[forecast - 2 : forecast + 5]
        == [
            ("client", "tools/call"),
            ("server", "result"),
            ("client", "tools/call"),
            ("server", "notifications/message"),
            ("server", "sampling/createMessage"),
            ("client", "result"),
            ("server", "result"),
        ][: len(flow[forecast - 2 : forecast + 5])]
        or flow
    )


def test_secrets_in_the_servers_environment_and_arguments_never_reach_the_cassette(
    recorded: Path,
) -> None:
    on_disk = b"".join(p.read_bytes() for p in recorded.parent.iterdir())
    assert KEY.encode() not in on_disk
    assert ARGUMENT_SECRET.encode() not in on_disk
    (entry,) = orjson.loads(recorded.read_bytes())["interactions"].values()
    assert entry["request"]["headers"]["command"].endswith("--api-key REDACTED")


def test_a_client_message_with_no_recording_gets_an_error_naming_the_cassette(
    recorded: Path,
) -> None:
    got, stderr = client(str(recorded), "--mode", "none", "--miss", "--", *GONE)
    assert got["added"] == ["3"] and got["forecast"] == EXPECTED["forecast"]
    assert got["missed"] == (
        f"replay: no recording for tools/call stdio://mcp in cassette {recorded}: none of the "
        "5 recorded has these params\n"
        "closest recorded request: tools/call (client message 4 as recorded), which differs "
        "in\n  params.arguments.b: recorded 2, requested 3"
    )
    assert f"replay mcp: no recording for tools/call stdio://mcp in cassette {recorded}" in stderr


def test_the_command_exits_non_zero_after_a_miss(recorded: Path) -> None:
    """Fed by hand: ids of the client's own choosing, the answer carrying them."""
    initialize, *_ = (m["json"] for m in messages(recorded) if m["from"] == "client")
    sent = [
        {**initialize, "id": "first"},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nope"}},
    ]
    ran = subprocess.run(
        [sys.executable, "-m", "replay", "mcp", str(recorded), "--mode", "none", "--", *GONE],
        input=b"".join(orjson.dumps(message) + b"\n" for message in sent),
        capture_output=True,
        timeout=60,
    )
    answers = [orjson.loads(line) for line in ran.stdout.splitlines()]
    assert answers[0]["id"] == "first" and answers[0]["result"]["serverInfo"]["name"] == (
        "weather-desk"
    )
    assert answers[1]["id"] == 7 and answers[1]["error"]["code"] == -32603
    assert "closest recorded request: tools/call" in answers[1]["error"]["message"]
    assert ran.returncode == 1, ran.stderr


def test_replay_mode_in_the_environment_overrides_the_mode(recorded: Path) -> None:
    got, _ = client(str(recorded), "--mode", "all", "--", *GONE, env={"REPLAY_MODE": "none"})
    assert got["added"] == ["3"]


def project(tmp_path: Path, table: str) -> Path:
    """A project whose pyproject.toml has ``table`` as ``[tool.replay]``: the directory below
    it that the command runs in."""
    (tmp_path / "pyproject.toml").write_text(f"[tool.replay]\n{table}\n")
    below = tmp_path / "tests"
    below.mkdir()
    return below


def relay_with_no_client(
    cwd: Path, *arguments: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``replay mcp`` run in ``cwd``, its input closed at once: recording, the server it
    starts ends, and the (empty) session is written."""
    environment = {k: v for k, v in os.environ.items() if k not in ("REPLAY_MODE", "CI")}
    return subprocess.run(
        [sys.executable, "-m", "replay", "mcp", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        cwd=cwd,
        timeout=60,
    )


def test_the_mode_comes_from_the_environment_the_flag_then_the_project(tmp_path: Path) -> None:
    below = project(tmp_path, 'mode = "none"')
    refused = relay_with_no_client(below, "new.json", "--", *SERVER)
    assert refused.returncode == 2, refused.stderr
    assert "replay: no recording for GET stdio://mcp in cassette new.json" in refused.stderr
    assert "mode 'none' never records" in refused.stderr
    assert not (below / "new.json").exists()

    flagged = relay_with_no_client(below, "new.json", "--mode", "once", "--", *SERVER)
    assert flagged.returncode == 0, flagged.stderr
    assert (below / "new.json").exists()

    overridden = relay_with_no_client(
        below, "other.json", "--mode", "once", "--", *SERVER, env={"REPLAY_MODE": "none"}
    )
    assert overridden.returncode == 2 and "mode 'none' never records" in overridden.stderr


def test_the_cassettes_options_come_from_the_project(tmp_path: Path) -> None:
    below = project(tmp_path, 'secrets = ["any city"]\nunused = "fail"')
    cassette = below / "weather.json"
    got, _ = client(str(cassette), "--", *SERVER, cwd=below)
    assert got["readme"] == EXPECTED["readme"]  # relayed unchanged, stored redacted
    assert b"any city" not in cassette.read_bytes() and b"REDACTED" in cassette.read_bytes()
    replayed, _ = client(str(cassette), "--mode", "none", "--", *GONE, cwd=below)
    assert replayed["readme"] == ["Ask for the weather in REDACTED."]
    # Another server's session in the cassette is not this process's to use: unused="fail"
    # (for the tests' cassettes) does not fail a replay of one session.
    other = relay_with_no_client(
        below, str(cassette), "--name", "other", "--mode", "new_episodes", "--", *SERVER
    )
    assert other.returncode == 0, other.stderr
    alone = relay_with_no_client(below, str(cassette), "--mode", "none", "--", *GONE)
    assert alone.returncode == 0, alone.stderr


def test_re_recording_an_unchanged_session_leaves_the_cassette_byte_identical(
    tmp_path: Path,
) -> None:
    cassette = tmp_path / "weather.json"
    recordings = []
    for mode in ("once", "all"):
        got, _ = client(str(cassette), "--mode", mode, "--", *SERVER)
        assert got == {**EXPECTED, "account": ["using key none"]}
        recordings.append(cassette.read_bytes())
    assert recordings[0] == recordings[1]


def replay_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "replay", *arguments], capture_output=True, text=True, timeout=60
    )


def test_show_reads_the_session_message_by_message(recorded: Path) -> None:
    shown = replay_command("show", str(recorded))
    assert shown.returncode == 0, shown.stderr
    lines = [line.strip() for line in shown.stdout.splitlines()]
    assert lines[0].endswith("GET stdio://mcp")
    assert lines[1].startswith("response 1: MCP session, ")
    assert '| client tools/call add {"a":1,"b":2}' in lines
    assert "| server result: 3" in lines
    assert "| server result: error: Error executing tool fail" in lines
    assert "| server sampling/createMessage Forecast Oslo" in lines


def test_diff_shows_the_first_message_that_differs_as_a_tool_result(
    recorded: Path, tmp_path: Path
) -> None:
    document = orjson.loads(recorded.read_bytes())
    (entry,) = document["interactions"].values()
    for message in entry["responses"][0]["mcp"]:
        if message["json"].get("result", {}).get("structuredContent") == {"result": "3"}:
            message["json"]["result"]["content"][0]["text"] = "4"
    changed = tmp_path / "changed.json"
    changed.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
    compared = replay_command("diff", str(recorded), str(changed))
    assert compared.returncode == 1, compared.stderr
    assert "-server result: 3\n  +server result: 4" in compared.stdout
    assert "jsonrpc" not in compared.stdout


def test_a_recording_stopped_before_the_session_ends_is_kept_incomplete(tmp_path: Path) -> None:
    cassette = tmp_path / "stopped.json"
    relay = subprocess.Popen(
        # The mode named: with CI set (and passed on, as here) it would be none.
        [sys.executable, "-m", "replay", "mcp", str(cassette), "--mode", "once", "--", *SERVER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert relay.stdin is not None and relay.stdout is not None
    initialize = request_of(1, "initialize", protocolVersion="2025-11-25", capabilities={})
    relay.stdin.write(orjson.dumps(initialize) + b"\n")
    relay.stdin.flush()
    assert orjson.loads(relay.stdout.readline())["result"]["serverInfo"]["name"] == "weather-desk"
    relay.terminate()  # as a client stopping its server does
    relay.wait(timeout=30)
    (entry,) = orjson.loads(cassette.read_bytes())["interactions"].values()
    (session,) = entry["responses"]
    assert session["complete"] is False
    assert [m["from"] for m in session["mcp"]] == ["client", "server"]


def request_of(id: int, method: str, **params: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": id,
        "method": method,
        "params": {"clientInfo": {"name": "by-hand", "version": "1"}, **params},
    }
