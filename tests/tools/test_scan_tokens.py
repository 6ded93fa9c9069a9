"""``replay scan`` finds JSON Web Tokens, cloud credentials and account headers that an older
cassette (or a hand edit) holds, and passes what replay itself recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
from click.testing import CliRunner

import replay
from replay._store import cassette_file as store
from replay.tools.cli import main
from replay.tools.fakellm import FakeLLMServer

KEY = "sk-scan-test-0123456789abcdef"
JWT = (
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIiwic2NvcGUiOiJyZWFkIn0"
    ".c2lnbmF0dXJlLWZvci10ZXN0cy0wMTIzNDU2Nzg5"
)
GOOGLE_TOKEN = "ya29.a0AfB_byMadeUpAccessTokenForScan0123456789"
AWS_KEY_ID = "AKIAQ3EGWXYZ7SCANTST"


def _findings(path: Path) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(main, ["scan", "--json", str(path)])
    return result.exit_code, json.loads(result.stdout)["findings"]


def test_scan_finds_tokens_and_unredacted_account_headers(tmp_path: Path) -> None:
    with FakeLLMServer(api_key=KEY) as server:
        path = tmp_path / "chat.json"
        with replay.use_cassette(path, mode="all"):
            openai.OpenAI(base_url=server.url + "/v1", api_key=KEY).chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
    assert _findings(path) == (0, [])  # what replay wrote holds none

    # As an older version, or a hand edit, would have left it.
    entries = store.load(path).interactions
    [key] = entries
    response = entries[key]["responses"][0]
    response["headers"]["openai-organization"] = "acme-research-q7d2kf"
    response["body"]["json"]["refresh"] = JWT
    entries[key]["request"]["url"] += f"?X-Amz-Credential={AWS_KEY_ID}%2F20250801"
    entries[key]["request"]["headers"]["x-goog-token"] = GOOGLE_TOKEN
    store.save(path, entries)

    status, findings = _findings(path)
    assert status == 1
    found = {(finding["field"], finding["match"]) for finding in findings}
    assert found == {
        ("responses[0].headers.openai-organization", "acme-r… (20 characters)"),
        ("responses[0].body.json.refresh", f"eyJhbG… ({len(JWT)} characters)"),
        ("request.url", f"AKIAQ3… ({len(AWS_KEY_ID)} characters)"),
        ("request.headers.x-goog-token", f"ya29.a… ({len(GOOGLE_TOKEN)} characters)"),
    }
    human = CliRunner().invoke(main, ["scan", str(path)])
    assert JWT not in human.stdout and GOOGLE_TOKEN not in human.stdout
