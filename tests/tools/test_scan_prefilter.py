"""``replay scan``'s pre-filter: an interaction it calls clean holds nothing the full rule
finds (hypothesis plants secrets of every kind at random places in realistic interactions),
and the interactions replay itself writes are called clean, so they are not walked."""

from __future__ import annotations

import base64
import copy
import gzip
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay._core import redact
from replay._core.redact import (
    _KEY_SHAPE,
    ACCOUNT_HEADERS,
    HINT_WORDS,
    KEY_SHAPE_SEARCHES,
    Redactor,
    SecretHeaders,
    hint_at,
    hinted,
)
from replay._core.secret_names import (
    LOWERED_TO_ASCII,
    NAME_WORDS,
    Verdict,
    field_verdict,
    secret_header,
    secret_variable,
    verdict,
)
from replay._store import cassette_file as store
from replay.tools import scan
from replay.tools.inventory import CassetteFile

KNOWN = Redactor(secrets=["my-own-literal-secret-0123"]).known
HEADERS = SecretHeaders(ACCOUNT_HEADERS)
KEY = "sk-proj-" + "Ab3" * 10

CHAT: dict[str, Any] = {
    "request": {
        "method": "POST",
        "url": "https://api.openai.com/v1/chat/completions",
        "headers": {
            "authorization": "REDACTED",
            "content-type": "application/json",
            "openai-organization": "REDACTED",
            "user-agent": "OpenAI/Python 1.0",
            "x-api-key": "REDACTED",
        },
        "body": {
            "json": {
                "model": "gpt-4o-mini",
                "max_tokens": 100,
                "messages": [{"role": "user", "content": "Which key opens the monkey's design?"}],
            }
        },
    },
    "responses": [
        {
            "status": 200,
            "headers": {"content-type": "application/json", "x-request-id": "req_123"},
            "body": {
                "json": {
                    "id": "chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz",
                    "choices": [
                        {
                            "message": {"role": "assistant", "content": "Token: a signal."},
                            "logprobs": {"content": [{"token": "Key", "logprob": -0.1}]},
                        }
                    ],
                    "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
                }
            },
            "recorded_at": "2024-01-01T00:00:00Z",
        }
    ],
}
STREAM: dict[str, Any] = {
    "request": copy.deepcopy(CHAT["request"]),
    "responses": [
        {
            "status": 200,
            "headers": {"content-type": "text/event-stream"},
            "chunks": [
                {
                    "at": 0.01 * n,
                    "text": f'data: {{"choices": [{{"delta": {{"content": "{w}"}}}}]}}\n\n',
                }
                for n, w in enumerate(["The ", "secret ", "Signature ", "of\n", "keys="])
            ],
            "complete": True,
            "recorded_at": "2024-01-01T00:00:00Z",
        }
    ],
}
THINKING: dict[str, Any] = copy.deepcopy(CHAT)
THINKING["responses"][0]["body"]["json"]["content"] = [
    {"type": "thinking", "thinking": "Hmm.", "signature": "EqQBCkYIARgCIkDnOtSig0123456789abcdef"}
]

SECRETS = [
    KEY,
    "sk-ant-api03-" + "x9Y" * 10,
    "AKIAQ3EGWXYZ7SCANTST",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.c2lnbmF0dXJl",
    "ya29.a0AfB_byMadeUpAccessTokenForScan0123456789",
    "org-" + "Q" * 24,
    "my-own-literal-secret-0123",
    "hunter2hunter2X9",  # only a secret by its name
]
NAMES = [
    "api_key",
    "KeY",
    "token",
    "TOKEN",
    "client_secret",
    "SessionToken",
    "x-goog-api-key",
    "authorization",
    "cookie",
    "openai-organization",
    "password",
    "to\u212aen",  # the Kelvin sign: "token" once lowered
    "a.token",
    "token[0]",
    "signature",
]


def _texts(secret: str, name: str) -> list[str]:
    """A secret in a text, as the rule would take it: bare, after a line break or a quote,
    as a query or form pair, a JSON field, an XML element, a bearer token."""
    return [
        f"see {secret} here",
        f"line\n{secret}",
        f'"{secret}"',
        f"https://x.test/p?{name}={secret}&a=1",
        f'{{"{name}": "{secret}"}}',
        f'data: {{"{name}": "{secret}"}}\n\n',
        f"<{name}>{secret}</{name}>",
        f"Bearer {secret}",
        f"%3F{name}%3D{secret}",
    ]


def _entry(draw: st.DrawFn) -> dict[str, Any]:
    entry = copy.deepcopy(draw(st.sampled_from([CHAT, STREAM, THINKING])))
    secret = draw(st.sampled_from(SECRETS))
    name = draw(st.sampled_from(NAMES))
    request, response = entry["request"], entry["responses"][0]
    place = draw(st.integers(0, 9))
    if place == 0:
        request["headers"][name.lower()] = secret
    elif place == 1:
        response["headers"][name.lower()] = draw(st.sampled_from([secret, [secret]]))
    elif place == 2:
        body = request["body"]["json"]
        for _ in range(draw(st.integers(0, 3))):
            body = body.setdefault(draw(st.sampled_from(["a", "credentials", "b"])), {})
        body[name] = draw(st.sampled_from([secret, [secret], {"v": secret}, 12345678]))
    elif place == 3:
        request["url"] += f"?{name}={secret}"
    elif place == 4:
        text = draw(st.sampled_from(_texts(secret, name)))
        request["body"]["json"]["messages"][0]["content"] += text
    elif place == 5 and "chunks" in response:
        chunks = response["chunks"]
        at = draw(st.integers(0, len(chunks) - 1))
        cut = draw(st.integers(0, len(chunks[at]["text"])))
        text = draw(st.sampled_from(_texts(secret, name)))
        chunks[at]["text"] = chunks[at]["text"][:cut] + text + chunks[at]["text"][cut:]
    elif place == 6:
        data = draw(st.sampled_from(_texts(secret, name))).encode()
        if draw(st.booleans()):
            response["headers"]["content-encoding"] = "gzip"
            data = gzip.compress(data)
        response.pop("chunks", None)
        response["body"] = {"base64": base64.b64encode(data).decode()}
    elif place == 7:
        request["headers"]["headers"] = "x"  # a name that reads like the headers object
        request["body"]["json"]["headers"] = {name: secret}
    elif place == 8:
        response["headers"][name.lower()] = "REDACTED, " + secret
    # place 9 (and 5 without chunks): nothing planted, only the noise below
    noise = draw(st.text(alphabet='abcKEYSig "\\\n=</%3Dtokenx:{}', max_size=40))
    request["body"]["json"]["messages"].append({"role": "user", "content": noise})
    return entry


entries = st.composite(_entry)()


def _cassette(tmp_path: Path, interactions: dict[str, Any]) -> CassetteFile:
    path = tmp_path / "c.json"
    return CassetteFile(path, path.name, 0, interactions)


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=entries)
def test_an_interaction_called_clean_holds_nothing_the_rule_finds(
    entry: dict[str, Any], tmp_path: Path
) -> None:
    cassette = _cassette(tmp_path, {"k": entry})
    full = scan.scan_entry(cassette, "k", KNOWN, {}, HEADERS)
    if scan.Prefilter(KNOWN, HEADERS).clean(entry):
        assert full == ([], [])
    # And the scan, pre-filter and all, finds what the full rule finds.
    found, problems = scan.scan_cassette(cassette, KNOWN, {}, HEADERS)
    assert found == full[0]
    assert problems[: len(full[1])] == full[1]


@pytest.mark.parametrize("entry", [CHAT, STREAM, THINKING], ids=["chat", "stream", "thinking"])
def test_what_replay_writes_is_clean_without_a_walk(entry: dict[str, Any]) -> None:
    """Redacted headers, usage counts, logprobs' tokens, a thinking block's signature and
    prose full of ``key`` and ``Signature`` are settled by the pre-filter alone."""
    assert scan.Prefilter(KNOWN, HEADERS).clean(entry)


@pytest.mark.parametrize(
    "entry",
    [
        {"request": {"headers": {"authorization": "Bearer " + KEY}}},
        {"request": {"body": {"json": {"KeY": "hunter2hunter2X9"}}}},
        {"request": {"body": {"json": {"to\u212aen": "hunter2hunter2X9"}}}},
        {"request": {"body": {"json": {"nested": {"password": "correct-horse"}}}}},
        {"request": {"url": "https://x.test/?sig=abcdefgh"}},
        {"responses": [{"chunks": [{"text": 'data: {"client_secret": "abc"}'}]}]},
        {"responses": [{"body": {"text": "line\n" + KEY}}]},
        {"responses": [{"body": {"base64": base64.b64encode(KEY.encode()).decode()}}]},
    ],
)
def test_what_the_rule_takes_is_not_clean(entry: dict[str, Any], tmp_path: Path) -> None:
    assert not scan.Prefilter(KNOWN, HEADERS).clean(entry)
    assert scan.scan_entry(_cassette(tmp_path, {"k": entry}), "k", KNOWN, {}, HEADERS) != (
        [],
        [],
    )


def test_scan_of_a_file_finds_the_same_with_the_pre_filter(tmp_path: Path) -> None:
    """Many interactions, a few with secrets: the findings and problems are those of the full
    rule run on every interaction."""
    interactions: dict[str, Any] = {}
    for number in range(60):
        entry = copy.deepcopy([CHAT, STREAM, THINKING][number % 3])
        if number % 7 == 0:
            entry["request"]["body"]["json"]["messages"][0]["content"] += f" {KEY}"
        if number % 11 == 0:
            entry["responses"][0]["headers"]["x-api-key"] = "plain-text-key-value"
        interactions[f"{number:032x}"] = entry
    path = tmp_path / "big.json"
    store.save(path, interactions)
    cassette = CassetteFile(path, path.name, 0, store.load(path).interactions)
    findings, problems = scan.scan_cassette(cassette, KNOWN, {}, HEADERS)
    full = [scan.scan_entry(cassette, key, KNOWN, {}, HEADERS) for key in sorted(interactions)]
    assert findings == [finding for found, _ in full for finding in found]
    assert len(findings) == 9 + 6
    assert problems == []


# The rule's own data, as the pre-filter reads it


WORDS = ["secret", "token", "key", "api", "access", "private", "password", "sig", "x", "id"]
WORDS += ["count", "type", "cookie", "auth", "authorization", "credentials", "passphrase"]


@st.composite
def _names(draw: st.DrawFn) -> str:
    said = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4))
    cased = [draw(st.sampled_from([w, w.upper(), w.capitalize(), w.swapcase()])) for w in said]
    name = draw(st.sampled_from(["_", "-", "", "."])).join(cased)
    if draw(st.booleans()):
        name = "".join(draw(st.sampled_from([c, c.swapcase()])) for c in name)
    return name


@given(name=_names())
def test_every_name_the_rule_takes_holds_a_name_word(name: str) -> None:
    taken = (
        verdict(name) is not Verdict.PLAIN
        or field_verdict(name) is not Verdict.PLAIN
        or secret_header(name.lower())
        or secret_variable(name)
    )
    if taken:
        assert any(word in name.lower() for word in NAME_WORDS)


def test_only_these_characters_lower_to_ascii() -> None:
    found = [
        chr(point)
        for point in range(0x80, 0x110000)
        if any(ord(c) < 0x80 for c in chr(point).lower())
    ]
    assert tuple(found) == LOWERED_TO_ASCII


@given(
    text=st.text(alphabet='ab\n"\\ -_.AK', max_size=12),
    secret=st.sampled_from(SECRETS),
    after=st.text(alphabet='ab\n"\\ -_.Z9', max_size=6),
)
def test_a_key_shape_in_a_text_is_found_in_its_json(text: str, secret: str, after: str) -> None:
    data = (text + secret + after).encode()
    if _KEY_SHAPE.search(data) is not None:
        written = orjson.dumps(data.decode())
        assert any(search.search(written) for search in KEY_SHAPE_SEARCHES)


@given(
    data=st.binary(max_size=30) | st.text(alphabet='tokenKEYSig"_=ab ', max_size=30).map(str.encode)
)
def test_a_hint_is_where_the_lowered_data_holds_a_hint_word(data: bytes) -> None:
    lowered = data.lower()
    at_words = any(
        hint_at(data[start:])
        for word in HINT_WORDS
        for start in range(len(data))
        if lowered.startswith(word, start)
    )
    assert at_words == hinted(data)


def _named_secrets_by_every_pattern(data: bytes) -> list[str]:
    """named_secrets as it was before its pairs' pre-check: every pattern run."""
    if not hinted(data):
        return []
    found = []
    for rewriter, group, read in (
        (redact.SECRET_FIELDS, 3, redact._json_text),
        (redact.XML_FIELDS, 4, redact._xml_text),
        (redact._PAIR_SIGNS, 3, redact._form_text),
        (redact.TEXT_PAIRS, 3, redact._form_text),
    ):
        if not rewriter.leaves(data):
            found += [
                read(match.group(group))
                for match in rewriter.pattern.finditer(data)
                if rewriter.replace(match) != match.group()
            ]
    return found


@given(
    parts=st.lists(
        st.sampled_from(NAMES + SECRETS + ["=", "%3D", "%3F", "&", "+", "/", "==", " ", "Key"])
        | st.text(alphabet="aZ9_-.=%3D+/&\\u0026", max_size=8),
        max_size=12,
    )
)
def test_the_pairs_pre_check_changes_nothing_named_secrets_finds(parts: list[str]) -> None:
    data = "".join(parts).encode()
    assert list(redact.named_secrets(data)) == _named_secrets_by_every_pattern(data)
