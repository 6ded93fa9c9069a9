"""No byte of an API key reaches the cassette, wherever the request and its answer carry it.

Hypothesis builds requests that carry a key in one of the places a client
sends one (each secret and account header, each secret query parameter, those
of presigned URLs included, URL userinfo, secret JSON fields; a JSON Web Token
in any field at all) and answers that echo it (the response body, stream
chunks split anywhere, headers, transport error messages) and name the account
in their headers, records them through the cassette and reads the file back.
``REPLAY_STRESS=1`` (the nox ``stress`` session) runs 1,000 examples.
"""

from __future__ import annotations

import os
import string
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import Cassette
from replay._cassette import Record
from replay._core.model import Chunk, Outcome, Request, Response, TransportFailure
from replay._core.redact import (
    ACCOUNT_HEADERS,
    SECRET_HEADERS,
    SECRET_JSON_FIELDS,
    SECRET_QUERY_PARAMS,
)

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60
AUTH_HEADERS = sorted((SECRET_HEADERS | ACCOUNT_HEADERS) - {"cookie", "set-cookie"})
BASE64URL = string.ascii_letters + string.digits + "-_"

keys = st.builds(
    lambda prefix, body: prefix + body,
    st.sampled_from(["", "sk-", "sk-proj-", "sk-ant-", "gsk_", "hf_", "xai-", "key-", "ya29."]),
    st.text(BASE64URL, min_size=16, max_size=48),
).filter(lambda key: len(set(key)) >= 8)
json_web_tokens = st.builds(
    lambda header, payload, signature: f"eyJ{header}.{payload}.{signature}",
    st.text(BASE64URL, min_size=8, max_size=40),
    st.text(BASE64URL, min_size=8, max_size=60),
    st.text(BASE64URL, min_size=0, max_size=43),
).filter(lambda token: len(set(token)) >= 8)
account_ids = st.text(BASE64URL, min_size=12, max_size=36).filter(lambda v: len(set(v)) >= 8)


@st.composite
def carried(draw: st.DrawFn, key: str) -> Request:
    """A request that sends ``key`` where a client sends credentials, and maybe elsewhere too;
    a JSON Web Token anywhere at all."""
    places = ["header", "query", "userinfo", "json"]
    place = draw(st.sampled_from([*places, "any_field"] if key.startswith("eyJ") else places))
    headers: list[tuple[str, str]] = [("content-type", "application/json")]
    query = "?stream=true"
    netloc = "api.example.test"
    body: dict[str, object] = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    if place == "header":
        name = draw(st.sampled_from(AUTH_HEADERS))
        scheme = draw(st.sampled_from(["Bearer ", "Token ", ""]))
        headers.append((name, scheme + key))
    elif place == "query":
        query += f"&{draw(st.sampled_from(sorted(SECRET_QUERY_PARAMS)))}={key}"
    elif place == "userinfo":
        netloc = f"{draw(st.sampled_from(['user', key]))}:{key}@{netloc}"
    elif place == "json":
        body[draw(st.sampled_from(SECRET_JSON_FIELDS))] = key
    else:
        body[draw(st.sampled_from(["session", "state", "user", "assertion"]))] = key
    if draw(st.booleans()):
        body["metadata"] = {"echo": f"the key is {key}"}
    url = f"https://{netloc}/v1/chat/completions{query}"
    return Request("POST", url, tuple(headers), orjson.dumps(body))


@st.composite
def echoed(draw: st.DrawFn, key: str, account: str) -> Outcome:
    """An answer that repeats ``key`` (in a body, across stream chunks, a header, an error)
    and names the ``account`` in a header, as OpenAI and Anthropic do."""
    kind = draw(st.sampled_from(["json", "stream", "error_body", "transport_error"]))
    account_header = draw(st.sampled_from(sorted(ACCOUNT_HEADERS)))
    if kind == "transport_error":
        return TransportFailure("ConnectError", f"refused for {key}", "2024-01-01T00:00:00Z")
    if kind == "stream":
        text = f'data: {{"delta": "your key {key} is fine"}}\n\ndata: [DONE]\n\n'.encode()
        cuts = sorted(set(draw(st.lists(st.integers(1, len(text) - 1), max_size=6))))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        chunks = tuple(Chunk(piece, i / 100) for i, piece in enumerate(pieces))
        headers = (("content-type", "text/event-stream"), (account_header, account))
        return Response(200, headers, chunks, "t")
    status = 401 if kind == "error_body" else 200
    answer = (
        {"error": {"message": f"Incorrect API key provided: {key}"}}
        if status == 401
        else {"id": "chatcmpl-abc123DEF456", "choices": [{"text": f"you sent {key}"}]}
    )
    headers = (("content-type", "application/json"), ("x-echo", key), (account_header, account))
    return Response(status, headers, (Chunk(orjson.dumps(answer), 0.01),), "t")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_no_byte_of_the_key_reaches_the_cassette(tmp_path: Path, data: st.DataObject) -> None:
    key = data.draw(st.one_of(keys, json_web_tokens))
    account = data.draw(account_ids)
    request = data.draw(carried(key))
    outcome = data.draw(echoed(key, account))
    path = tmp_path / f"{abs(hash((key, request))) % 10**12}.json"
    with Cassette(path, "all") as cassette:
        decision = cassette.decide(request)
        assert isinstance(decision, Record)
        cassette.add(decision, outcome)
    stored = path.read_bytes()
    assert b"REDACTED" in stored
    for secret in (key, account):
        windows = {secret[i : i + 12] for i in range(len(secret) - 11)}
        leaked = sorted(window for window in windows if window.encode() in stored)
        assert not leaked, f"{secret!r} leaked as {leaked} from {request} / {outcome}"
