"""import-vcr on the cassette layouts LLM projects commit, beyond what vcrpy writes by default.

The cassettes in ``vcr_shapes/`` are written for these tests, made to the shapes of public
projects' files (named in a comment at the top of each); none is copied from them. Each is
converted through the ``replay import-vcr`` command and replayed with the openai SDK, the
network unreachable.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from botocore.eventstream import EventStreamBuffer
from click.testing import CliRunner, Result

import replay
from replay._store import cassette_file as store
from replay.tools.cli import main
from replay.tools.vcr import _recording_dates

SHAPES = Path(__file__).parent / "vcr_shapes"
"""Test cassettes, each made to the shape of a public project's file, named in its comment."""
PYDANTIC_AI = (SHAPES / "pydantic_ai_parsed_body.yaml").read_text()
LANGCHAIN = (SHAPES / "langchain_requests_responses.yaml").read_text()
XAI_PROTO = (SHAPES / "pydantic_ai_xai_proto.xai.yaml").read_text()
XAI_SAMPLES = (SHAPES / "pydantic_ai_xai_samples.xai.yaml").read_text()
MAPPING_BODY = (SHAPES / "pydantic_ai_mapping_body.yaml").read_text()
CASSETTER = (SHAPES / "cassetter.yaml").read_text()

OPENAI_KEY = "sk-test-not-a-real-key-0000"


def invoke(*args: Any) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args])


def _source(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _entries(path: Path) -> dict[str, Any]:
    return store.load(path).interactions


def test_pydantic_ai_parsed_bodies_keep_every_interaction_and_replay_with_openai(
    tmp_path: Path,
) -> None:
    source = _source(tmp_path / "test_openai_instructions.yaml", PYDANTIC_AI)
    result = invoke("import-vcr", tmp_path)
    target = tmp_path / "test_openai_instructions.json"
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"converted {source} -> {target} (3 interactions)",
        "1 converted, 0 already converted, 0 skipped, 0 not converted",
    ]
    entries = _entries(target)
    assert len(entries) == 3  # three distinct requests, three keys: no body was lost
    bodies = [entry["request"]["body"]["json"] for entry in entries.values()]
    assert sorted(body["messages"][0]["content"] for body in bodies) == [
        "And of Italy?",
        "What is the capital of France?",
        "What is the capital of France?",
    ]
    responses = [entry["responses"][0] for entry in entries.values()]
    for response in responses:
        assert "body" in response or "chunks" in response
        assert response["headers"]["openai-organization"] == "REDACTED"
        assert response["recorded_at"] == "1970-01-01T00:00:00Z"  # no Date in any: unknown
    text = target.read_text()
    assert "acme-research-q7d2kf" not in text
    assert "proj_Zq8Rk2VbN4mX7pLs1TdY9wEc" not in text

    client = openai.OpenAI(base_url="https://api.openai.com/v1", api_key=OPENAI_KEY)
    with replay.use_cassette(target, mode="none") as cassette:
        france = client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "What is the capital of France?"}]
        )
        italy = client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "And of Italy?"}]
        )
        stream = client.chat.completions.create(
            model="gpt-4o",
            messages=[{"role": "user", "content": "What is the capital of France?"}],
            stream=True,
        )
        streamed = "".join(chunk.choices[0].delta.content or "" for chunk in stream)
    assert france.choices[0].message.content == "The capital of France is Paris."
    assert italy.choices[0].message.content == "Rome."
    assert streamed == "Paris."
    assert cassette.replayed == 3


def test_langchain_gzip_yaml_is_found_converted_and_replayed(tmp_path: Path) -> None:
    folder = tmp_path / "tests" / "cassettes"
    folder.mkdir(parents=True)
    source = folder / "test_chat_openai.yaml.gz"
    source.write_bytes(gzip.compress(LANGCHAIN.encode()))
    result = invoke("import-vcr", "--json", tmp_path)
    assert result.exit_code == 0, result.output
    target = folder / "test_chat_openai.json"
    assert json.loads(result.stdout) == {
        "converted": [
            {"source": str(source), "target": str(target), "interactions": 2, "unchanged": False}
        ],
        "skipped": [],
        "failed": [],
    }
    entries = _entries(target)
    urls = sorted(entry["request"]["url"] for entry in entries.values())
    assert urls[0].startswith("https://acme-eastus.openai.azure.com/openai/deployments/")
    dates = sorted(entry["responses"][0]["recorded_at"] for entry in entries.values())
    assert dates == ["2025-08-01T10:00:00Z", "2025-08-01T10:00:01Z"]
    assert "proj_Xb4Tn8Qw2Lm6Zr0Vc3Kp7Hs1" not in target.read_text()

    client = openai.OpenAI(base_url="https://api.openai.com/v1", api_key=OPENAI_KEY)
    with replay.use_cassette(target, mode="none"):
        answer = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": "Say hello"}],
            stream=False,
            temperature=0.0,
        )
    assert answer.choices[0].message.content == "Hello!"


def test_what_is_not_understood_fails_that_file_alone_naming_the_interaction_and_field(
    tmp_path: Path,
) -> None:
    good = _source(tmp_path / "good.yaml", PYDANTIC_AI)
    cassetter = _source(tmp_path / "cassetter.yaml", CASSETTER)
    odd_body = _source(
        tmp_path / "odd_body.yaml",
        PYDANTIC_AI.replace("      string: |+\n", "      encoding: utf-8\n      string: |+\n"),
    )
    both = _source(
        tmp_path / "both.yaml",
        PYDANTIC_AI.replace("    method: POST\n", "    method: POST\n    body: x\n", 1),
    )
    metadata = _source(tmp_path / "metadata.yaml", PYDANTIC_AI + "metadata:\n  seed: 42\n")

    result = invoke("import-vcr", tmp_path)
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines == [
        f"converted {good} -> {tmp_path / 'good.json'} (3 interactions)",
        f"{both}: interaction 0, request.parsed_body: request has both body and parsed_body",
        f"{cassetter}: interaction 0, response.body.type: not a field vcrpy writes; not converted",
        f"{metadata}: metadata: what the tests stored with vcrpy's Cassette.get_metadata has "
        "no place in a replay cassette",
        f"{odd_body}: interaction 2, response.body.encoding: not a field vcrpy writes; "
        "not converted",
        "1 converted, 0 already converted, 0 skipped, 4 not converted",
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "both.yaml",
        "cassetter.yaml",
        "good.json",
        "good.yaml",
        "metadata.yaml",
        "odd_body.yaml",
    ]


def test_other_tools_recordings_are_skipped_in_a_folder_and_refused_when_named(
    tmp_path: Path,
) -> None:
    proto = _source(tmp_path / "test_xai_system_prompt.xai.yaml", XAI_PROTO)
    samples = _source(tmp_path / "test_xai_tool_return.xai.yaml", XAI_SAMPLES)
    empty = _source(tmp_path / "test_nothing.yaml", "interactions: []\nversion: 1\n")
    no_pairs = "is not a vcrpy cassette (no interaction has a request or response)"

    in_folder = invoke("import-vcr", tmp_path)
    assert in_folder.exit_code == 0, in_folder.output
    assert in_folder.stdout.splitlines() == [
        f"{empty}: has no interactions: nothing to convert, no file written, skipped",
        f"{proto}: is not a vcrpy cassette (no list of interactions), skipped",
        f"{samples}: {no_pairs}, skipped",
        "0 converted, 0 already converted, 3 skipped, 0 not converted",
    ]
    named = invoke("import-vcr", "--json", proto, samples, empty)
    assert named.exit_code == 1
    assert json.loads(named.stdout) == {
        "converted": [],
        "skipped": [
            {
                "source": str(empty),
                "reason": "has no interactions: nothing to convert, no file written",
            }
        ],
        "failed": [
            {"source": str(proto), "reason": "is not a vcrpy cassette (no list of interactions)"},
            {"source": str(samples), "reason": no_pairs},
        ],
    }
    assert sorted(tmp_path.iterdir()) == [empty, proto, samples]


def test_a_vcrpy_list_with_one_foreign_entry_is_an_error_naming_it(tmp_path: Path) -> None:
    """Only a list with no request or response at all is another tool's: one that has some
    is a vcrpy cassette, and what it cannot read fails it, interaction named."""
    entry = XAI_SAMPLES.split("interactions:\n", 1)[1]
    mixed = _source(
        tmp_path / "mixed.yaml",
        PYDANTIC_AI.replace("interactions:\n", "interactions:\n" + entry, 1),
    )

    result = invoke("import-vcr", tmp_path)
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[0] == (
        f"{mixed}: interaction 0, request_sample: not a field vcrpy writes; not converted"
    )


def test_bodies_written_as_yaml_structure_are_their_compact_json(tmp_path: Path) -> None:
    source = _source(
        tmp_path / "test_tool_choice_matrix[list_single-huggingface].yaml", MAPPING_BODY
    )
    target = source.with_suffix(".json")
    result = invoke("import-vcr", tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"converted {source} -> {target} (2 interactions)"

    with replay.use_cassette(target, mode="none") as cassette:
        recorded = cassette.in_recorded_order()
        with httpx.Client() as client:
            chat = client.post(
                "https://router.huggingface.co/nebius/v1/chat/completions", json={"model": "x"}
            )
            batch = client.post("https://router.huggingface.co/nebius/v1/batch", json=[])
    chat_body = json.loads(recorded[0][0].body)
    assert chat_body["tool_choice"] == "required"
    assert chat_body["tools"][0]["function"]["parameters"]["required"] == ["city"]
    assert recorded[0][0].body == json.dumps(chat_body, separators=(",", ":")).encode()
    assert recorded[1][0].body == b'[{"name":"get_weather","arguments":{"city":"Paris"}}]'
    assert chat.json()["choices"][0]["finish_reason"] == "tool_calls"
    assert batch.json() == {"results": [{"weather": "sunny"}]}
    assert cassette.replayed == 2


def test_converting_again_skips_what_is_converted_and_force_overwrites(tmp_path: Path) -> None:
    source = _source(tmp_path / "chat.yaml", PYDANTIC_AI)
    target = tmp_path / "chat.json"
    assert invoke("import-vcr", tmp_path).exit_code == 0
    first = target.read_bytes()

    again = invoke("import-vcr", tmp_path)
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines() == [
        f"already converted {source} -> {target} (3 interactions)",
        "0 converted, 1 already converted, 0 skipped, 0 not converted",
    ]
    target.write_bytes(store.dump({}))
    differs = invoke("import-vcr", tmp_path)
    assert differs.exit_code == 1
    assert differs.stdout.splitlines()[0] == (
        f"{source}: {target} exists already, with other content (--force overwrites it)"
    )
    assert target.read_bytes() == store.dump({})
    forced = invoke("import-vcr", "--force", tmp_path)
    assert forced.exit_code == 0, forced.output
    assert target.read_bytes() == first


def test_recorded_at_comes_from_the_date_headers_never_from_the_file(tmp_path: Path) -> None:
    dated = PYDANTIC_AI.replace(
        "      openai-organization:\n      - acme-research-q7d2kf\n    parsed_body:\n"
        "      choices:\n      - finish_reason: stop\n        index: 0\n        message:\n"
        "          content: Rome.",
        "      date:\n      - Tue, 08 Apr 2025 16:30:56 GMT\n"
        "      openai-organization:\n      - acme-research-q7d2kf\n    parsed_body:\n"
        "      choices:\n      - finish_reason: stop\n        index: 0\n        message:\n"
        "          content: Rome.",
    )
    assert dated != PYDANTIC_AI
    converted = []
    for checkout, mtime in (("one", 1_000_000_000), ("two", 1_700_000_000)):
        source = tmp_path / checkout / "chat.yaml"
        source.parent.mkdir()
        source.write_text(dated)
        os.utime(source, (mtime, mtime))
        assert invoke("import-vcr", source).exit_code == 0
        converted.append(source.with_suffix(".json").read_bytes())
    assert converted[0] == converted[1]
    dates = {
        entry["request"]["body"]["json"]["messages"][0]["content"]
        + (" (stream)" if "stream" in entry["request"]["body"]["json"] else ""): entry["responses"][
            0
        ]["recorded_at"]
        for entry in _entries(tmp_path / "one" / "chat.json").values()
    }
    assert dates == {  # its own Date; else the nearest before it; else the nearest after
        "What is the capital of France?": "2025-04-08T16:30:56Z",
        "And of Italy?": "2025-04-08T16:30:56Z",
        "What is the capital of France? (stream)": "2025-04-08T16:30:56Z",
    }


def test_an_interaction_without_a_date_takes_the_nearest_before_it_else_after() -> None:
    first, second = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC), datetime(2025, 6, 7, tzinfo=UTC)
    assert _recording_dates([None, first, None, second, None]) == [
        "2025-01-02T03:04:05Z",
        "2025-01-02T03:04:05Z",
        "2025-01-02T03:04:05Z",
        "2025-06-07T00:00:00Z",
        "2025-06-07T00:00:00Z",
    ]
    assert _recording_dates([None, None]) == ["1970-01-01T00:00:00Z"] * 2


def test_a_conversion_leaves_no_usage_record_and_no_lock_file(tmp_path: Path) -> None:
    folder = tmp_path / "cassettes"
    folder.mkdir()
    (folder / "chat.yaml").write_text(PYDANTIC_AI)
    (folder / "more.yaml.gz").write_bytes(gzip.compress(LANGCHAIN.encode()))
    command = [sys.executable, "-m", "replay", "import-vcr", str(folder)]
    for _ in range(2):  # converting, then finding it converted
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stderr == ""
    assert sorted(path.name for path in folder.iterdir()) == [
        "chat.json",
        "chat.yaml",
        "more.json",
        "more.yaml.gz",
    ]


def test_missing_pyyaml_advice_names_this_python_and_this_clone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _source(tmp_path / "old.yaml", "interactions: []\n")
    monkeypatch.setitem(sys.modules, "yaml", None)  # as if PyYAML were not installed
    result = invoke("import-vcr", source)
    assert result.exit_code == 2, result.output
    clone = Path(replay.__file__).resolve().parents[1]
    pip = f"{sys.executable} -m pip install"
    assert result.stderr == (
        f"replay: import-vcr needs PyYAML: {pip} 'replay-llm[vcr]' "
        f"(from this clone: {pip} -e '{clone}[vcr]')\n"
    )
    # The path named is this checkout, whose [vcr] extra brings PyYAML: it works from anywhere.
    assert 'vcr = ["vcrpy>=7", "PyYAML>=6"]' in (clone / "pyproject.toml").read_text()
    assert sorted(tmp_path.iterdir()) == [source]


CREDENTIALS = (SHAPES / "credentials_default_vcrpy.yaml").read_text()
MADE_UP_CREDENTIALS = {
    "AWS access key id in a SigV4 authorization": "ASIAQ3EGWXYZ7EXAMPL3",
    "SigV4 signature": "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
    "x-amz-security-token header": "IQoJb3JpZ2luX2VjEJr",
    "presigned URL X-Amz-Credential": "AKIAQ3EGWXYZ7EXAMPL4",
    "presigned URL X-Amz-Security-Token": "FwoGZXIvYXdzEBYaDPresignedSessionToken0123",
    "presigned URL X-Amz-Signature": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "OAuth client_secret in a form": "d-FL95Q19q7MQmFpd7hHD0Ty",
    "Google refresh token in a form": "MadeUpRefreshTokenForTests",
    "Google access token (body and bearer)": "MadeUpAccessTokenForTests",
    "Google id_token, a JWT": "Xk3vQ9pL2mN8rT5wY1zA4bC7dE0fG6hJ",
    "Azure api-key": "3f9a7c1e5b2d4086a1c3e5f7b9d0a2c4",
    "Azure AD bearer JWT, echoed in the error": "Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc",
    "Azure SAS sig": "madeUpSasSignature",
    "OpenAI organization id sent": "org-MadeUpOrganizationId01",
    "OpenAI project": "proj_MadeUpProjectId0123456789",
    "OpenAI organization answered": "acme-research-q7d2kf",
    "a JWT in a field no list names": "c2lnbmF0dXJlMDEyMzQ1Njc4OQ",
    "Anthropic key": "sk-ant-api03-MadeUpAnthropicKey",
    "Anthropic organization": "5b4f3e2d-1c0b-4a99-8877-665544332211",
}


def test_credentials_and_account_ids_of_every_cloud_stay_off_disk_and_scan_agrees(
    tmp_path: Path,
) -> None:
    source = _source(tmp_path / "test_clouds.yaml", CREDENTIALS)
    assert all(secret in CREDENTIALS for secret in MADE_UP_CREDENTIALS.values())

    result = invoke("import-vcr", source)
    assert result.exit_code == 0, result.output
    target = tmp_path / "test_clouds.json"
    stored = target.read_text()
    kept = {what: secret for what, secret in MADE_UP_CREDENTIALS.items() if secret in stored}
    assert kept == {}
    # 9 answers under 8 keys: the two Azure calls differ only in their (secret) auth header
    assert sorted(len(entry["responses"]) for entry in _entries(target).values()) == [1] * 7 + [2]
    scanned = invoke("scan", target)
    assert (scanned.exit_code, scanned.stdout) == (0, "0 secrets found in 1 cassette\n")


BEDROCK = (SHAPES / "bedrock_event_streams.yaml").read_bytes()


def test_bedrock_event_streams_with_binary_header_values_convert_and_replay_frames(
    tmp_path: Path,
) -> None:
    """botocore's request header values are bytes (``!!binary``), its streaming answers AWS
    event streams: the frames are kept decoded, their ids normalized when asked, and replay
    gives back frames botocore's own parser reads, lengths and checksums made anew."""
    (tmp_path / "test_bedrock.yaml").write_bytes(BEDROCK)
    result = invoke("import-vcr", "--normalize", tmp_path)
    assert result.exit_code == 0, result.output
    target = tmp_path / "test_bedrock.json"
    text = target.read_text()
    for secret in ("ASIAQ3EGWXYZ7EXAMPL3", "9e1b7f3c25d04e6a", "IQoJb3JpZ2luX2VjEJr"):
        assert secret not in text
    assert "msg_bdrk_01Kq8VnLz3WcXy5Rt7PmB2Hd" not in text  # normalized inside the base64
    assert '"Hello! How can I help"' in text and '"contentBlockDelta"' in text
    assert '"text": "Bonjour"' in text  # the invoke stream's base64 shown decoded

    def frames(url: str, body: str) -> list[tuple[dict[str, Any], bytes]]:
        cassette = replay.Cassette(target, "none")
        with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
            headers = {"content-type": "application/json"}
            with client.stream("POST", url, content=body, headers=headers) as response:
                parsed = []
                for chunk in response.iter_raw():
                    buffer = EventStreamBuffer()
                    buffer.add_data(chunk)
                    (message,) = list(buffer)  # one whole frame per chunk
                    parsed.append((message.headers, message.payload))
                return parsed

    host = "https://bedrock-runtime.us-east-1.amazonaws.com/model/"
    converse = frames(
        host + "us.amazon.nova-micro-v1%3A0/converse-stream",
        '{"messages": [{"role": "user", "content": [{"text": "Hello"}]}], '
        '"inferenceConfig": {"maxTokens": 64}}',
    )
    assert [headers[":event-type"] for headers, _ in converse] == [
        "messageStart",
        "contentBlockDelta",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
    ]
    assert json.loads(converse[1][1])["delta"]["text"] == "Hello! How can I help"
    invoked = frames(
        host + "anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream",
        '{"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64, '
        '"messages": [{"role": "user", "content": "Hello"}]}',
    )
    first = json.loads(base64.b64decode(json.loads(invoked[0][1])["bytes"]))
    assert first["message"]["id"].startswith("msg_bdrk_")
    assert first["message"]["id"] != "msg_bdrk_01Kq8VnLz3WcXy5Rt7PmB2Hd"
    shown = invoke("show", target)
    assert "| Hello! How can I help you today?" in shown.output
    assert "| Bonjour" in shown.output
