"""The rule of names: a name is a secret's by its words, in any case and separator style, and
ordinary LLM answers (token counts, logprobs' tokens, tokenizer names, prose about secrets)
are left exactly as they came."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import (
    GENERIC_FIELD_NAMES,
    PLAIN_FIELD_NAMES,
    SECRET_FIELD_NAMES,
    SECRET_HEADER_NAMES,
)

from replay._core import redact
from replay._core.model import Chunk, Response
from replay._core.secret_names import (
    Verdict,
    field_verdict,
    secret_header,
    secret_variable,
    verdict,
    words,
)


@pytest.mark.parametrize(
    "name", ["SecretAccessKey", "secret_access_key", "secret-access-key", "secretAccessKey"]
)
def test_every_separator_style_is_the_same_words(name: str) -> None:
    assert words(name) == ("secret", "access", "key")
    assert verdict(name) is Verdict.SECRET


@pytest.mark.parametrize("name", SECRET_FIELD_NAMES)
def test_secret_names_are_secrets(name: str) -> None:
    assert verdict(name) is Verdict.SECRET


@pytest.mark.parametrize("name", GENERIC_FIELD_NAMES)
def test_bare_words_are_secrets_only_when_shaped_like_one(name: str) -> None:
    assert verdict(name) is Verdict.IF_SHAPED


@pytest.mark.parametrize("name", PLAIN_FIELD_NAMES)
def test_names_that_count_or_describe_are_not_secrets(name: str) -> None:
    assert field_verdict(name) is Verdict.PLAIN


@pytest.mark.parametrize("name", SECRET_HEADER_NAMES)
def test_secret_headers(name: str) -> None:
    assert secret_header(name)


@pytest.mark.parametrize(
    "name",
    [
        "x-ratelimit-remaining-tokens",
        "idempotency-key",
        "sec-websocket-key",
        "content-type",
        "x-amz-server-side-encryption-customer-key-md5",
        "anthropic-ratelimit-input-tokens-reset",
    ],
)
def test_ordinary_headers(name: str) -> None:
    assert not secret_header(name)


def test_environment_names() -> None:
    assert secret_variable("DATABASE_PASSWORD") and secret_variable("OPENAI_API_KEY")
    assert secret_variable("MISTRAL_KEY") and not secret_variable("MODEL_NAME")
    environ = {
        "DATABASE_PASSWORD": "Tr0ub4dor-and-3",
        "PGPASSWORD": "postgres",
        "MODEL_KEY": "gpt-4o-mini",
    }
    assert redact.environment_secrets(environ) == {"Tr0ub4dor-and-3"}


ORDINARY_ANSWERS = [
    {
        "id": "chatcmpl-1",
        "choices": [
            {
                "message": {"role": "assistant", "content": "The secret to a good key is length."},
                "logprobs": {
                    "content": [
                        {
                            "token": "The",
                            "logprob": -0.1,
                            "bytes": [84, 104, 101],
                            "top_logprobs": [],
                        },
                        {"token": " secret", "logprob": -0.3, "bytes": None, "top_logprobs": []},
                        {"token": "Password123", "logprob": -2.0, "top_logprobs": []},
                    ]
                },
            }
        ],
        "usage": {
            "prompt_tokens": 12,
            "completion_tokens": 7,
            "total_tokens": 19,
            "prompt_tokens_details": {"cached_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0},
        },
    },
    {"usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 9, "totalTokenCount": 12}},
    {"model": "llama3", "tokenizer": "cl100k_base", "max_tokens": 256, "token_count": 40},
    {"type": "thinking", "thinking": "...", "signature": "EqQBCkgIARABGAIiQL3eX0aZ9"},
    {"content": "Your API key goes in the key= parameter; never share a password or token."},
    {"access_token_expires_at": 1893456000, "token_type": "bearer", "expires_in": 3600},
]


@pytest.mark.parametrize("answer", ORDINARY_ANSWERS)
def test_ordinary_llm_answers_are_not_touched(answer: dict[str, object]) -> None:
    body = json.dumps(answer).encode()
    redactor = redact.Redactor(environ={})
    response = Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), "t")
    assert redactor.response(response, redactor.known) is response
    assert redactor.body(body, "application/json") == body


NAME_STYLES = st.sampled_from(SECRET_FIELD_NAMES)
VALUE = st.from_regex(r"[A-Za-z]{4}[0-9]{4}[A-Za-z0-9]{8,20}", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(
    name=NAME_STYLES,
    value=VALUE,
    place=st.sampled_from(["json", "xml", "form", "url", "fragment", "escaped-url"]),
)
def test_a_value_named_like_a_secret_is_taken_from_every_position(
    name: str, value: str, place: str
) -> None:
    texts = {
        "json": f'{{"outer": {{"{name}": "{value}"}}}}',
        "xml": f"<Result><{name}>{value}</{name}></Result>",
        "form": f"a=1&{name}={value}&b=2",
        "url": f'{{"url": "https://h.example/p?x=1&{name}={value}&y=2"}}',
        "fragment": f"see https://h.example/cb#{name}={value}&state=s",
        "escaped-url": (
            f'{{"next": "https%3A%2F%2Fh.example%2Fp%3Fx%3D1%26{name}%3D{value}%26y%3D2"}}'
        ),
    }
    body = texts[place].encode()
    redactor = redact.Redactor(environ={})
    response = Response(200, (), (Chunk(body, 0.0),), "t")
    stored = redactor.response(response, redactor.known).chunks[0].data
    assert value.encode() not in stored, (place, stored)
    assert value.encode() not in redactor.body(body, "application/octet-stream")


SEPARATORS = st.sampled_from([": ", ":", " = ", "=", " : ", ': "', "= '"])
WORD_CASES = st.sampled_from([str.lower, str.upper, str.capitalize])
JOINS = st.sampled_from([" ", "_", "-", "."])
TEXT_NAMES = st.sampled_from(
    [("my", "token"), ("api", "key"), ("secret", "key"), ("access", "token"), ("password",)]
)


@settings(max_examples=200, deadline=None)
@given(
    name=TEXT_NAMES,
    case=WORD_CASES,
    join=JOINS,
    separator=SEPARATORS,
    value=VALUE,
    place=st.sampled_from(["text", "json string", "error"]),
)
def test_free_text_names_in_every_style_and_separator_take_a_secret_shaped_value(
    name: tuple[str, ...], case: object, join: str, separator: str, value: str, place: str
) -> None:
    """'my token: ...', 'API KEY = ...', 'Secret-Key: "..."': the rule's words in any case,
    joined by spaces or any separator, before a colon or an equals sign; the pre-check sees
    each (a lower-case ``token`` or ``key`` before a space is one too)."""
    assert callable(case)
    written = join.join(case(word) for word in name)
    text = f"Here is {written}{separator}{value} for you"
    body = {
        "text": text,
        "json string": json.dumps({"content": text}),
        "error": json.dumps({"error": {"message": text}}),
    }[place].encode()
    assert redact.hinted(body), body
    redactor = redact.Redactor(environ={})
    response = Response(200, (), (Chunk(body, 0.0),), "t")
    assert value.encode() not in redactor.response(response, redactor.known).chunks[0].data
    assert value.encode() not in redactor.body(body, "application/json")
    assert redactor.text(text, redactor.known) == text.replace(value, "REDACTED")


@pytest.mark.parametrize(
    "prose",
    [
        "The password: never share it with anyone.",
        "Remember the key: practice makes perfect.",
        "token count: 12 of 4096",
        "A secret: the recipe is mostly butter.",
        "api key = the one on your dashboard",
    ],
)
def test_prose_naming_a_secret_keeps_its_words(prose: str) -> None:
    """In free text a value is taken only when it looks like a secret too."""
    body = json.dumps({"content": prose}).encode()
    redactor = redact.Redactor(environ={})
    assert redactor.body(body, "application/json") == body
