"""Moving from vcrpy: cassettes recorded by vcrpy itself through the local server, converted,
then replayed by replay with the server stopped; and vcrpy writing and reading our format."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import groq
import openai
import pytest
import vcr

import replay
from replay._core.errors import CassetteError
from replay.tools.fakellm import FakeLLMServer
from replay.tools.vcr import Imported, import_cassette, import_paths, register

KEY = "sk-vcr-test-8Hq3Wn5Tz1Ry6Kc0"


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(api_key=KEY, chunk_delay=0.001) as running:
        yield running


def _calls(url: str) -> dict[str, Any]:
    """What a suite asks through the SDKs: openai on httpx2 (plain and streamed), groq on httpx
    (its answer gzip-compressed on the wire), and what it got, ids and times left out."""
    client = openai.OpenAI(base_url=url + "/v1", api_key=KEY, max_retries=0)
    chat = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hello there"}]
    )
    stream = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "tell me a story"}], stream=True
    )
    streamed = [chunk.choices[0].delta.content for chunk in stream if chunk.choices]
    compressed = groq.Groq(base_url=url, api_key=KEY, max_retries=0).chat.completions.create(
        model="gzip", messages=[{"role": "user", "content": "hi groq"}]
    )
    return {
        "chat": chat.model_dump(exclude={"id", "created", "system_fingerprint"}),
        "stream": streamed,
        "groq": compressed.model_dump(exclude={"id", "created", "system_fingerprint", "x_groq"}),
    }


def test_vcrpy_yaml_converts_and_replays_the_same_sdk_results(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    yaml_cassette = tmp_path / "cassettes" / "test_chat.yaml"
    with vcr.use_cassette(str(yaml_cassette), record_mode="once"):
        recorded = _calls(server.url)
    assert b"!!binary" in yaml_cassette.read_bytes()  # vcrpy kept groq's gzip body as it came

    imported = import_cassette(yaml_cassette)
    assert isinstance(imported, Imported)
    assert imported.target == tmp_path / "cassettes" / "test_chat.json"
    assert imported.interactions == 3
    assert yaml_cassette.exists()
    text = imported.target.read_text()
    assert KEY not in text
    entries = json.loads(text)["interactions"].values()
    responses = [entry["responses"][0] for entry in entries]
    assert all(entry["request"]["headers"]["authorization"] == "REDACTED" for entry in entries)
    assert sorted(("chunks" in r, "json" in r.get("body", {})) for r in responses) == [
        (False, True),
        (False, True),
        (True, False),
    ]
    stream = next(r for r in responses if "chunks" in r)
    events = [chunk["text"] for chunk in stream["chunks"]]  # vcrpy's one body, split by event
    assert len(events) == len(recorded["stream"]) + 1  # and [DONE]
    assert all(event.startswith("data: ") and event.endswith("\n\n") for event in events)
    assert all("content-encoding" not in r["headers"] for r in responses)

    server.stop()
    with replay.use_cassette(imported.target, mode="none") as cassette:
        assert _calls(server.url) == recorded
    assert cassette.replayed == 3


def test_vcrpy_json_serializer_output_converts_beside_and_with_delete_in_place(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    source = tmp_path / "test_json.json"
    with vcr.use_cassette(str(source), serializer="json"):
        client = openai.OpenAI(base_url=server.url + "/v1", api_key=KEY, max_retries=0)
        answer = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "q"}]
        )
    original = source.read_bytes()

    beside = import_cassette(source)
    assert isinstance(beside, Imported)
    assert (beside.target, source.read_bytes()) == (tmp_path / "test_json.replay.json", original)
    assert import_cassette(source) == replace(beside, unchanged=True)
    beside.target.write_text("{}")
    with pytest.raises(CassetteError, match=r"test_json.replay.json exists already"):
        import_cassette(source, delete=True)
    beside.target.unlink()

    in_place = import_cassette(source, delete=True)
    assert isinstance(in_place, Imported)
    assert in_place.target == source
    assert not (tmp_path / "test_json.replay.json").exists()
    server.stop()
    with replay.use_cassette(source, mode="none"):
        replayed = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "q"}]
        )
    assert replayed.choices == answer.choices


def test_what_cannot_be_converted_is_reported_and_nothing_is_written(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("interactions: [\n")
    not_vcr = tmp_path / "other.yml"
    not_vcr.write_text("just: a mapping\n")
    bad_status = tmp_path / "bad_status.yaml"
    bad_status.write_text(
        "interactions:\n- request: {method: GET, uri: 'http://x/', body: null, headers: {}}\n"
        "  response: {status: {code: ok, message: OK}, headers: {}, body: {string: ''}}\n"
    )
    ours = tmp_path / "ours.json"
    ours.write_text('{"version": 1, "interactions": {}}')

    results = import_paths([tmp_path, ours])
    reasons = {source.name: str(result) for source, result in results}
    assert reasons == {
        "bad_status.yaml": f"cassette {bad_status}: interaction 0, response.status.code: "
        "'ok' is not an HTTP status code",
        "broken.yaml": reasons["broken.yaml"],
        "other.yml": f"Skipped(source={not_vcr!r}, "
        "reason='is not a vcrpy cassette (no list of interactions)')",
        "ours.json": f"Skipped(source={ours!r}, reason='is a replay cassette already')",
    }
    assert reasons["broken.yaml"].startswith(f"cassette {broken}: is neither YAML nor JSON")
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "bad_status.yaml",
        "broken.yaml",
        "other.yml",
        "ours.json",
    ]


def test_import_vcr_command_reports_and_exits_1_on_failures(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    good = tmp_path / "good.yaml"
    with vcr.use_cassette(str(good)):
        groq.Groq(base_url=server.url, api_key=KEY, max_retries=0).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}]
        )
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("  response:\n", "  response:\n    cookies: []\n"))

    command = [sys.executable, "-m", "replay", "import-vcr", "--delete", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 1, result.stderr
    reason = "interaction 0, response.cookies: not a field vcrpy writes; not converted"
    assert result.stdout.splitlines() == [
        f"converted {good} -> {tmp_path / 'good.json'} (1 interaction)",
        f"{bad}: {reason}",
        "1 converted, 0 already converted, 0 skipped, 1 not converted",
    ]
    assert not good.exists()
    assert (tmp_path / "good.json").exists()
    assert bad.exists()
    assert not (tmp_path / "bad.json").exists()

    again = subprocess.run(
        [*command[:-1], "--json", str(bad)], check=False, capture_output=True, text=True
    )
    assert (again.returncode, json.loads(again.stdout)) == (
        1,
        {"converted": [], "skipped": [], "failed": [{"source": str(bad), "reason": reason}]},
    )


def _urllib_chat(url: str, prompt: str) -> str:
    body = {"model": "m", "messages": [{"role": "user", "content": prompt}]}
    request = urllib.request.Request(
        url + "/v1/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        content: str = json.loads(response.read())["choices"][0]["message"]["content"]
        return content


def test_vcrpy_with_the_replay_serializer_shares_our_format(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    my_vcr = register(vcr.VCR(match_on=("method", "uri", "body")))
    path = tmp_path / "urllib.json"
    with my_vcr.use_cassette(str(path), serializer="replay", record_mode="new_episodes"):
        assert _urllib_chat(server.url, "one") == "Answer to: one"
    with my_vcr.use_cassette(str(path), serializer="replay", record_mode="new_episodes"):
        assert _urllib_chat(server.url, "one") == "Answer to: one"  # replayed, not added again
        assert _urllib_chat(server.url, "two") == "Answer to: two"
    assert len(server.requests) == 2

    cassette = replay.Cassette(path, mode="none")
    assert [i.request.header("authorization") for i in cassette.interactions] == ["REDACTED"] * 2
    assert KEY not in path.read_text()

    server.stop()
    with my_vcr.use_cassette(str(path), serializer="replay", record_mode="none"):
        assert _urllib_chat(server.url, "two") == "Answer to: two"
        assert _urllib_chat(server.url, "one") == "Answer to: one"


def test_the_serializer_alone_writes_our_format_through_vcrpys_own_persister(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    my_vcr = vcr.VCR()
    my_vcr.register_serializer("replay", register(vcr.VCR()).serializers["replay"])
    path = tmp_path / "plain.json"
    with my_vcr.use_cassette(str(path), serializer="replay"):
        assert _urllib_chat(server.url, "three") == "Answer to: three"
    [interaction] = replay.Cassette(path).interactions
    assert json.loads(interaction.outcomes[0].body)["choices"][0]["message"]["content"] == (
        "Answer to: three"
    )


def test_a_broken_cassette_read_through_vcrpy_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"version": 1, "interactions": {"k": {"request": {"method": 7}}}}')
    my_vcr = register(vcr.VCR())
    with (
        pytest.raises(CassetteError, match="interaction k is malformed") as raised,
        my_vcr.use_cassette(str(path), serializer="replay"),
    ):
        pass
    assert raised.value.path == path
    assert str(raised.value).startswith(f"cassette {path}: ")


def test_metadata_vcrpy_would_save_is_refused_not_dropped(
    server: FakeLLMServer, tmp_path: Path
) -> None:
    path = tmp_path / "seeded.json"
    my_vcr = register(vcr.VCR())
    with (
        pytest.raises(CassetteError, match="metadata: what the tests stored") as raised,
        my_vcr.use_cassette(str(path), serializer="replay") as cassette,
    ):
        cassette.get_metadata("seed", 42)
        assert _urllib_chat(server.url, "four") == "Answer to: four"
    assert raised.value.path == path
    assert not path.exists()
    # vcrpy undoes its patches after saving, so a save that raises leaves http.client and
    # urllib3 patched until its context's generator is collected: held by the traceback.
    del raised
    gc.collect()
