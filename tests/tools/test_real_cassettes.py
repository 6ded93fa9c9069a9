"""pydantic-ai's committed vcrpy cassettes (``bench/cassettes/pydantic-ai/``, MIT, see its
README), recorded from the real providers, converted by ``replay import-vcr`` and replayed.

Real providers answer in ways our fake server never does (cookies, account headers, odd
bodies); these files hold what they did. Every interaction is replayed once, in recorded
order, through httpx with nothing listening, and its status and body checked against
the YAML; the secrets the YAML holds must be gone from the converted files, ``replay scan``
must agree, and converting again must give the same bytes. All files are used: converting
and replaying them takes a few seconds.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
import yaml
from click.testing import CliRunner, Result

import replay
from replay._core.redact import ACCOUNT_HEADERS, PLACEHOLDER, looks_like_secret
from replay._core.secret_names import Verdict, field_verdict, secret_header, secret_param
from replay._core.streams import BodyDecoder
from replay.tools.cli import main

SOURCE = Path(__file__).parents[2] / "bench" / "cassettes" / "pydantic-ai"
SOURCES = sorted(SOURCE.rglob("*.yaml"))
SHORTEST_SECRET = 8
"""Shorter values ("1", "Referer") are ordinary words that a converted file may well hold."""


def invoke(*args: Any) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args])


def converted_copy(folder: Path) -> Path:
    shutil.copytree(SOURCE, folder)
    result = invoke("import-vcr", folder)
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return converted_copy(tmp_path_factory.mktemp("real") / "pydantic-ai")


def recorded_interactions(source: Path) -> list[dict[str, Any]]:
    document = yaml.load(source.read_text(), Loader=yaml.CSafeLoader)
    interactions: list[dict[str, Any]] = document["interactions"]
    return interactions


def header(message: dict[str, Any], name: str) -> str:
    values = (message.get("headers") or {}).get(name) or [""]
    return str(values[0])


def as_bytes(value: Any) -> bytes:
    """A body as the YAML holds it: text, ``!!binary`` bytes, or JSON kept parsed."""
    if value is None:
        return b""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    return json.dumps(value).encode()


def request_body(request: dict[str, Any]) -> bytes:
    return as_bytes(request.get("parsed_body", request.get("body")))


def response_body(response: dict[str, Any]) -> bytes:
    """Decoded as the YAML stores it: ``parsed_body`` is decoded already, a ``string`` body
    is what the server sent, compressed when ``content-encoding`` says so."""
    if "parsed_body" in response:
        return as_bytes(response["parsed_body"])
    data = as_bytes(response["body"]["string"])
    decoder = BodyDecoder(header(response, "content-encoding"))
    return decoder.decode(data) if decoder.active else data


def same_json(replayed: Any, recorded: Any, field: str = "") -> bool:
    """Equal, but that redaction may have made a secret-shaped value ``REDACTED``: one under
    a secret field's name, or one that looks like a key or token wherever it is."""
    if replayed == PLACEHOLDER and replayed != recorded:
        return field_verdict(field) is Verdict.SECRET or looks_like_secret(str(recorded))
    if isinstance(replayed, dict) and isinstance(recorded, dict):
        return replayed.keys() == recorded.keys() and all(
            same_json(replayed[name], recorded[name], name) for name in replayed
        )
    if isinstance(replayed, list) and isinstance(recorded, list):
        return len(replayed) == len(recorded) and all(
            same_json(one, other, field) for one, other in zip(replayed, recorded, strict=True)
        )
    return bool(replayed == recorded)


def same_body(replayed: bytes, recorded: bytes) -> bool:
    if replayed == recorded:
        return True
    try:
        return same_json(json.loads(replayed), json.loads(recorded))
    except ValueError:  # not JSON: the bytes had to be equal
        return False


def test_every_committed_cassette_converts_and_replays_as_recorded(converted: Path) -> None:
    assert len(SOURCES) == 265  # the committed subset, README of bench/cassettes/pydantic-ai
    replayed = 0
    problems = []
    with httpx.Client() as client:
        for source in SOURCES:
            target = converted / source.relative_to(SOURCE).with_suffix(".json")
            recorded = recorded_interactions(source)
            with replay.use_cassette(target, mode="none") as cassette:
                for index, interaction in enumerate(recorded):
                    request, response = interaction["request"], interaction["response"]
                    content_type = header(request, "content-type")
                    answer = client.request(
                        request["method"],
                        request["uri"],
                        content=request_body(request),
                        headers={"content-type": content_type} if content_type else {},
                    )
                    where = f"{source.relative_to(SOURCE)}, interaction {index}"
                    if answer.status_code != response["status"]["code"]:
                        problems.append(f"{where}: status {answer.status_code}")
                    elif not same_body(answer.content, response_body(response)):
                        problems.append(f"{where}: body differs")
            assert cassette.replayed == len(recorded), source
            replayed += len(recorded)
    assert problems == []
    assert replayed == 415  # README's "Performance": 415 interactions in the 265 files


def secrets_in(interaction: dict[str, Any]) -> Iterator[str]:
    """The credential and account values the YAML holds: secret and account headers (each
    cookie's value alone), secret query parameters, and secret JSON fields' values."""
    for message in (interaction["request"], interaction["response"]):
        for name, values in (message.get("headers") or {}).items():
            if secret_header(name.lower()) or name.lower() in ACCOUNT_HEADERS:
                for value in values:
                    yield str(value)
                    if name.lower() in {"cookie", "set-cookie"}:
                        for crumb in str(value).split(";"):
                            yield crumb.partition("=")[2].strip()
        yield from json_secrets(message.get("parsed_body"))
    for name, value in parse_qsl(urlsplit(interaction["request"]["uri"]).query):
        if secret_param(name):
            yield value


def json_secrets(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for name, inner in value.items():
            if field_verdict(name) is Verdict.SECRET and isinstance(inner, str | int):
                yield str(inner)
            yield from json_secrets(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from json_secrets(inner)


def test_no_secret_of_the_yaml_reaches_the_converted_files_and_scan_finds_none(
    converted: Path,
) -> None:
    checked = 0
    for source in SOURCES:
        text = source.with_suffix(".json").name
        converted_text = (converted / source.relative_to(SOURCE).parent / text).read_text()
        for interaction in recorded_interactions(source):
            for secret in secrets_in(interaction):
                if len(secret) >= SHORTEST_SECRET and secret != PLACEHOLDER:
                    checked += 1
                    assert secret not in converted_text, (source, secret[:12])
    assert checked >= 100  # cookies, organizations, projects: the test has something to find

    scanned = invoke("scan", "--json", converted)
    assert scanned.exit_code == 0, scanned.output
    assert json.loads(scanned.stdout)["findings"] == []


def test_converting_again_gives_the_same_bytes(converted: Path, tmp_path: Path) -> None:
    again = converted_copy(tmp_path / "pydantic-ai")
    targets = sorted(path.relative_to(again) for path in again.rglob("*.json"))
    assert len(targets) == len(SOURCES)
    assert targets == sorted(path.relative_to(converted) for path in converted.rglob("*.json"))
    for target in targets:
        assert (again / target).read_bytes() == (converted / target).read_bytes(), target
