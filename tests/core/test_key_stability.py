"""The request keys of a fixed corpus, pinned: a change to them orphans every user's cassettes.

If this test fails, the key function changed. That is a breaking change of the
cassette format: bump ``store.FORMAT_VERSION`` and give users a migration, do
not update these values.
"""

from __future__ import annotations

import pytest

from replay._core.key import KeyRules, request_key
from replay._core.model import Request

JSON = (("content-type", "application/json"),)
CHAT = "https://api.openai.com/v1/chat/completions"
MESSAGES = "https://api.anthropic.com/v1/messages"
MULTIPART = b'--abc\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--abc--\r\n'

CORPUS: list[tuple[Request, KeyRules, str]] = [
    (
        Request("GET", "https://api.openai.com/v1/models", (), b""),
        KeyRules(),
        "af816f9109d35a9fbf3c21a3b851cbdd",
    ),
    (
        Request(
            "POST", CHAT, JSON, b'{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}'
        ),
        KeyRules(),
        "f84e77b9693e49b9489a69a07eb19890",
    ),
    (
        Request(
            "POST",
            CHAT,
            JSON,
            b'{ "messages": [{"content": "hi", "role": "user"}], "model": "gpt-4o" }',
        ),
        KeyRules(),
        "f84e77b9693e49b9489a69a07eb19890",
    ),
    (
        Request(
            "GET",
            "https://generativelanguage.googleapis.com/v1beta/models?pageSize=5&alt=json",
            (),
            b"",
        ),
        KeyRules(),
        "85b9d9960233088dcfc03c32a48183c9",
    ),
    (
        Request(
            "GET",
            "https://generativelanguage.googleapis.com/v1beta/models?alt=json&pageSize=5",
            (),
            b"",
        ),
        KeyRules(),
        "85b9d9960233088dcfc03c32a48183c9",
    ),
    (
        Request("get", "HTTPS://API.Anthropic.com:443/v1/messages", (), b""),
        KeyRules(),
        "482e69c1474067ff75d6fded13820a97",
    ),
    (
        Request("POST", MESSAGES, JSON, b'{"model":"claude-3-5","max_tokens":10}'),
        KeyRules(ignore=("model",)),
        "99f744ee6065ba23e174b9f0a7a0cdad",
    ),
    (
        Request("POST", MESSAGES, JSON, b'{"model":"claude-4","max_tokens":10}'),
        KeyRules(ignore=("model",)),
        "99f744ee6065ba23e174b9f0a7a0cdad",
    ),
    (
        Request("POST", MESSAGES, (("anthropic-version", "2023-06-01"),), b"{}"),
        KeyRules(match_headers=("Anthropic-Version",)),
        "2169ae032980a474cad88eb2b11e9516",
    ),
    (
        Request(
            "POST",
            "http://localhost:8000/generate",
            (("content-type", "text/plain"),),
            "héllo".encode(),
        ),
        KeyRules(),
        "750d5c37847028caa29674f60741d42d",
    ),
    (
        Request("POST", "http://localhost:8000/upload", (), bytes(range(256))),
        KeyRules(),
        "2f4d1482b4f0df8edf7edc69bfe15ecf",
    ),
    (
        Request(
            "POST",
            "https://api.openai.com/v1/files",
            (("content-type", "multipart/form-data; boundary=abc"),),
            MULTIPART,
        ),
        KeyRules(),
        "5ed8a884177230ece16cfacbcad5359e",
    ),
]


@pytest.mark.parametrize(("request_", "rules", "pinned"), CORPUS)
def test_request_keys_are_pinned(request_: Request, rules: KeyRules, pinned: str) -> None:
    assert request_key(request_, rules) == pinned


def test_the_corpus_keys_are_distinct_where_the_requests_differ() -> None:
    assert len({pinned for _, _, pinned in CORPUS}) == len(CORPUS) - 3
