from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core.model import Chunk, Request, Response
from replay._core.redact import PLACEHOLDER, Redactor, environment_secrets, looks_like_secret

KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123"


def redactor(**options: object) -> Redactor:
    return Redactor(environ={}, **options)  # type: ignore[arg-type]


def test_secret_headers_are_replaced_whatever_their_value() -> None:
    request = Request(
        "GET",
        "https://x.test/",
        (
            ("authorization", "Bearer abc"),
            ("x-api-key", "k"),
            ("x-goog-api-key", "g"),
            ("cookie", "session=1"),
            ("accept", "application/json"),
        ),
        b"",
    )
    r = redactor()
    headers = dict(r.request(request, r.with_secrets_of(request)).headers)
    assert headers == {
        "authorization": PLACEHOLDER,
        "x-api-key": PLACEHOLDER,
        "x-goog-api-key": PLACEHOLDER,
        "cookie": PLACEHOLDER,
        "accept": "application/json",
    }


def test_extra_secret_headers_are_case_insensitive() -> None:
    r = redactor(secret_headers=["X-Team-Token"])
    assert r.headers((("x-team-token", "t"),), r.known) == (("x-team-token", PLACEHOLDER),)


def test_secret_query_parameters_and_userinfo() -> None:
    r = redactor()
    url = r.url("https://user:pw@gen.test/v1/models?key=AIzaXYZ&alt=sse&sig=s1")
    assert (
        url
        == f"https://{PLACEHOLDER}@gen.test/v1/models?key={PLACEHOLDER}&alt=sse&sig={PLACEHOLDER}"
    )


def test_urls_without_secrets_are_left_as_they_are() -> None:
    url = "https://api.test/v1/chat?b=2&a=%20x"
    assert redactor().url(url) == url


def test_secret_json_fields_in_bodies() -> None:
    body = b'{"api_key": "abc\\"def", "password":"p", "prompt": "keep"}'
    assert redactor().body(body) == (
        b'{"api_key": "REDACTED", "password":"REDACTED", "prompt": "keep"}'
    )


def test_environment_secrets_by_name_and_shape() -> None:
    environ = {
        "OPENAI_API_KEY": KEY,
        "GITHUB_TOKEN": "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8",
        "DB_SECRET": "hunter2hunter2",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "LIGHTON_API_KEY": "123e4567-e89b-12d3-a456-426614174000",
        # Named like secrets, shaped like words, model names and paths: a cassette recorded
        # with them set must not lose every "gpt-4o-mini" to REDACTED.
        "MODEL_KEY": "gpt-4o-mini",
        "DEFAULT_MODEL_KEY": "claude-3-5-sonnet-20241022",
        "MY_API_KEY_FILE": "/path/of/the/key/file",
        "FEATURE_TOKEN": "enabled",
        "SHORT_KEY": "1",
        "HOME": "/root/home/dir",
    }
    assert environment_secrets(environ) == {
        KEY,
        environ["GITHUB_TOKEN"],
        "hunter2hunter2",
        environ["AWS_SECRET_ACCESS_KEY"],
        environ["LIGHTON_API_KEY"],
    }


@pytest.mark.parametrize(
    "value",
    ["gpt-4o-mini", "claude-3-5-sonnet-20241022", "gemini-2.5-flash-preview-05-20",
     "meta-llama/Meta-Llama-3.1-8B-Instruct", "internationalization", "Authorization"],
)  # fmt: skip
def test_model_names_and_words_do_not_look_like_secrets(value: str) -> None:
    assert not looks_like_secret(value)


def test_environment_secrets_are_scrubbed_everywhere() -> None:
    secret = "tok-8Hq2Lx5Wz3Kd7Pm"
    r = Redactor(environ={"CUSTOM_TOKEN": secret, "MODEL_KEY": "gpt-4o-mini"})
    request = Request(
        "POST",
        f"https://x.test/p?q={secret}",
        (),
        f'{{"a":"{secret}","model":"gpt-4o-mini"}}'.encode(),
    )
    stored = r.request(request, r.known)
    assert secret not in stored.url and secret.encode() not in stored.body
    assert b'"model":"gpt-4o-mini"' in stored.body


def test_secrets_carried_by_the_request_are_scrubbed_from_its_response() -> None:
    carried = "plain-literal-secret-9"
    request = Request("POST", "https://x.test/", (("authorization", f"Bearer {carried}"),), b"")
    r = redactor()
    echo = f'{{"error": "Incorrect API key provided: {carried}"}}'.encode()
    response = Response(401, (), (Chunk(echo[:30], 0.0), Chunk(echo[30:], 0.1)), "t")
    stored = r.response(response, r.with_secrets_of(request))
    assert carried.encode() not in stored.body
    assert stored.body == b'{"error": "Incorrect API key provided: REDACTED"}'
    assert len(stored.chunks) == 2


def test_a_secret_in_one_header_among_many_is_scrubbed_and_the_others_kept() -> None:
    """Header values are searched joined for the needles of secrets, then one by one only
    when one is there: the value holding it is scrubbed, each other kept as it was."""
    carried = "plain-literal-secret-9"
    request = Request("POST", "https://x.test/", (("authorization", f"Bearer {carried}"),), b"")
    r = redactor()
    scrub = r.with_secrets_of(request)
    headers = (
        ("content-type", "application/json"),
        ("x-echo", f"key={carried}"),
        ("x-request-id", "req_0123456789abcdef"),
        ("x-shape", f"{KEY} seen"),
        ("authorization", f"Bearer {carried}"),
        ("x-split", "ends in sk"),
        ("x-after", "-starts with a dash"),
    )
    assert r.headers(headers, scrub) == (
        ("content-type", "application/json"),
        ("x-echo", f"key={PLACEHOLDER}"),
        ("x-request-id", "req_0123456789abcdef"),
        ("x-shape", f"sk-proj-{PLACEHOLDER} seen"),
        ("authorization", PLACEHOLDER),
        ("x-split", "ends in sk"),
        ("x-after", "-starts with a dash"),
    )
    plain = (("content-type", "application/json"), ("x-request-id", "req_0123456789abcdef"))
    assert r.headers(plain, scrub) == plain


def test_provider_key_shapes_are_scrubbed_even_when_unknown() -> None:
    r = redactor()
    text = f"keys: {KEY} sk-ant-api03-{'x' * 30} gsk_{'a' * 30} AIza{'b' * 35} task-{'c' * 30}"
    scrubbed = r.text(text, r.known)
    assert scrubbed.count(PLACEHOLDER) == 4
    assert f"task-{'c' * 30}" in scrubbed


def test_user_literal_secrets() -> None:
    r = redactor(secrets=["my-own-secret"])
    assert r.body(b"x my-own-secret y") == b"x REDACTED y"


def test_secret_json_fields_in_responses_and_their_streams() -> None:
    r = redactor()
    body = b'{"access_token": "ya29.a0AfH6SMB", "token_type": "bearer", "password": "p\\"w"}'
    response = Response(200, (), (Chunk(body[:25], 0.0), Chunk(body[25:], 0.1)), "t")
    stored = r.response(response, r.known)
    assert stored.body == (
        b'{"access_token": "REDACTED", "token_type": "bearer", "password": "REDACTED"}'
    )
    assert len(stored.chunks) == 2


def test_secret_parameters_in_form_bodies() -> None:
    r = redactor()
    form = b"grant_type=client_credentials&client_secret=s3cr3t-value&scope=a+b"
    stored = r.body(form, "application/x-www-form-urlencoded; charset=utf-8")
    assert stored == b"grant_type=client_credentials&client_secret=REDACTED&scope=a+b"
    # A pair named like a secret is one in any text: a form-encoded answer labelled otherwise.
    assert r.body(form, "text/plain") == stored


JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlMDEyMzQ1Njc4OQ"


def test_account_and_cloud_credential_headers_are_replaced() -> None:
    r = redactor()
    headers = (
        ("openai-organization", "acme-research-q7d2kf"),
        ("openai-project", "proj_Zq8Rk2VbN4mX7pLs1TdY9wEc"),
        ("anthropic-organization-id", "5b4f3e2d-1c0b-4a99-8877-665544332211"),
        ("x-amz-security-token", "IQoJb3JpZ2luX2VjEJr"),
        ("x-amz-date", "20250801T100000Z"),
    )
    assert dict(r.headers(headers, r.known)) == {
        "openai-organization": PLACEHOLDER,
        "openai-project": PLACEHOLDER,
        "anthropic-organization-id": PLACEHOLDER,
        "x-amz-security-token": PLACEHOLDER,
        "x-amz-date": "20250801T100000Z",
    }


def test_a_presigned_urls_signature_and_credentials_are_replaced() -> None:
    url = (
        "https://b.s3.amazonaws.com/k.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&X-Amz-Credential=AKIAQ3EGWXYZ7EXAMPL4%2F20250801%2Fus-east-1%2Fs3%2Faws4_request"
        "&X-Amz-Date=20250801T100000Z&X-Amz-Security-Token=FwoGZXIvYXdzEBYa"
        "&X-Amz-Signature=0f1e2d3c4b5a6978"
    )
    assert redactor().url(url) == (
        "https://b.s3.amazonaws.com/k.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={PLACEHOLDER}&X-Amz-Date=20250801T100000Z"
        f"&X-Amz-Security-Token={PLACEHOLDER}&X-Amz-Signature={PLACEHOLDER}"
    )


def test_tokens_are_replaced_by_their_shape_whatever_field_holds_them() -> None:
    body = (
        b'{"access_token": "ya29.a0AfB_byMadeUp0123456789abcdef", "session": "'
        + JWT.encode()
        + b'", "text": "key id AKIAQ3EGWXYZ7EXAMPL4, refresh 1//0gMadeUpRefreshToken0123456"}'
    )
    assert redactor().body(body) == (
        b'{"access_token": "REDACTED", "session": "eyJREDACTED", '
        b'"text": "key id AKIAREDACTED, refresh 1//0REDACTED"}'
    )
    unsigned = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyIn0."  # alg "none": no signature
    assert redactor().body(f"t={unsigned}&x=1".encode()) == b"t=eyJREDACTED&x=1"


def test_what_merely_resembles_a_token_is_kept() -> None:
    body = (
        b'{"model": "gpt-4o-2024-08-06", "image": "eyJpbWFnZSI6ImRhdGEifQ==", '
        b'"word": "keyJam.ab.cd", "version": "v1.2.3", "id": "AKIA-not-a-key"}'
    )
    assert redactor().body(body) == body


SIGNATURE = "sv2/AbC+dEf8Jq2Lw5Nc7Xt3=="
"""A base64 value, with the characters URLs and echoes write in several ways."""


@pytest.mark.parametrize(
    "echo",
    [
        SIGNATURE,  # "+" sent unencoded in the URL, echoed as it came
        SIGNATURE.replace("+", " "),  # read as a space by the server
        "sv2/AbC%2BdEf8Jq2Lw5Nc7Xt3%3D%3D",  # percent-encoded with "/" kept, as a path is
        "sv2/AbC%2bdEf8Jq2Lw5Nc7Xt3%3d%3d",
    ],
)
def test_a_query_secret_is_scrubbed_in_each_way_it_can_be_read_and_echoed(echo: str) -> None:
    request = Request("GET", f"https://x.test/blob?sig={SIGNATURE}&a=b", (), b"")
    r = redactor()
    scrub = r.with_secrets_of(request)
    body = f'{{"error": "signature {echo} does not match"}}'.encode()
    answer = Response(200, (("x-echo", echo),), (Chunk(body, 0.0),), "t")
    redacted = r.response(answer, scrub)
    assert (
        redacted.chunks[0].data == f'{{"error": "signature {PLACEHOLDER} does not match"}}'.encode()
    )
    assert dict(redacted.headers)["x-echo"] == PLACEHOLDER
    assert "AbC" not in r.url(request.url, scrub)


@pytest.mark.parametrize("token", ["eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl", KEY])
@pytest.mark.parametrize("cut", [5, 40, 75])
def test_a_key_shape_written_with_json_escapes_is_redacted_across_chunks(
    token: str, cut: int
) -> None:
    """A JSON reader, and the cassette's parsed body, see the key the escapes spell; the key
    shapes alone cannot. Escaped text that spells no key is left as it came."""
    escaped = "".join(f"\\u{ord(c):04x}" for c in token)
    body = f'{{"text": "you sent {escaped}", "note": "caf\\u00e9 \\u0041\\u0042"}}'.encode()
    answer = Response(200, (), (Chunk(body[:cut], 0.0), Chunk(body[cut:], 0.1)), "t")
    redacted = b"".join(
        chunk.data for chunk in redactor().response(answer, redactor().known).chunks
    )
    assert (
        redacted
        == f'{{"text": "you sent {PLACEHOLDER}", "note": "caf\\u00e9 \\u0041\\u0042"}}'.encode()
    )


@pytest.mark.parametrize("token", ["eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl", KEY])
def test_a_request_body_with_a_key_written_with_json_escapes_is_redacted(token: str) -> None:
    """As in a response; a body whose only escapes are of accented letters (``ensure_ascii``,
    ``\\u00e9``) is not scanned for such keys, and is left as it came."""
    escaped = "".join(f"\\u{ord(c):04x}" for c in token)
    accented = "caf\\u00e9 d\\u00e9j\\u00e0 AbCdEfGhIjKlMnOpQr"
    body = f'{{"text": "{accented} {escaped}"}}'.encode()
    assert redactor().body(body, "application/json") == (
        f'{{"text": "{accented} {PLACEHOLDER}"}}'.encode()
    )
    assert redactor().body(f'{{"text": "{accented}"}}'.encode()) == (
        f'{{"text": "{accented}"}}'.encode()
    )


_PIECES = (
    b'{"model": "gpt-4o", "content": "',
    b'", "api_key": "',
    b'"token": "abc123def456ghi789"',
    KEY.encode(),
    b"\\u0073\\u006b\\u002d",
    b"sk-proj-AAAABBBBCCCCDDDDEEEEFFFF",
    b"hunter2hunter2",
    b"hunter2%2Bhunter2",
    b"caf\\u00e9 ",
    b" plain words ",
    b"+",
    b'"}',
)


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(_PIECES), max_size=12),
    header_secret=st.sampled_from([KEY, "hunter2+hunter2", "hunter2hunter2", "sk-proj-AAAA"]),
    known=st.sampled_from([(), ("hunter2hunter2",), (KEY,)]),
    content_type=st.sampled_from(["application/json", "application/x-www-form-urlencoded"]),
)
def test_a_request_stored_from_its_body_redacted_for_its_key_is_the_request_redacted_whole(
    pieces: list[bytes], header_secret: str, known: tuple[str, ...], content_type: str
) -> None:
    """Recording reuses the body its key redacted, scrubbing it again only where a secret the
    request carried is in it: the stored request must be byte for byte the one redacting the
    whole request with those carried secrets makes."""
    r = redactor(secrets=known)
    request = Request(
        "POST",
        "https://x.test/v1?api_key=hunter2hunter2",
        (("authorization", f"Bearer {header_secret}"), ("content-type", content_type)),
        b"".join(pieces),
    )
    scrub = r.with_secrets_of(request)
    reused = r.request(request, scrub, r.redacted_body(request.body, content_type))
    assert reused == r.request(request, scrub)
