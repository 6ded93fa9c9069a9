"""No byte of an API key reaches the cassette, wherever the request and its answer carry it.

Hypothesis builds requests that carry a key in one of the places a client
sends one (each secret and account header, each secret query parameter, those
of presigned URLs included, URL userinfo, secret JSON fields, a cookie, a Basic
password, a form or multipart field, a body compressed in any coding; a JSON Web Token
in any field at all) and answers that echo it in any form servers use (as sent,
percent-encoded in either case, ``+`` for space or read as one, JSON-escaped) in
the response body, stream chunks split anywhere, headers, transport error
messages, and name the account in their headers; records them through the
cassette and reads the file back. The same fuzz also runs through httpx and a
real loopback server, with request and answer in every content encoding, and ``replay scan`` must
agree that the file holds nothing. ``REPLAY_STRESS=1`` (the nox ``stress``
session) runs 1,000 examples.
"""

from __future__ import annotations

import base64
import os
import re
import string
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, quote_plus

import httpx
import orjson
from echo_server import echo_server, encode
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from secret_samples import SECRET_FIELD_NAMES, SECRET_HEADER_NAMES, SECRET_PARAM_NAMES

from replay import Cassette, ReplayTransport
from replay._cassette import Record
from replay._core.model import Chunk, Outcome, Request, Response, TransportFailure
from replay._core.redact import ACCOUNT_HEADERS, STAND_IN_PREFIXES, _scrubber
from replay._store import cassette_file as store
from replay.tools import scan
from replay.tools.inventory import CassetteFile

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60
CONTENT_ENCODINGS = ["gzip", "deflate", "br", "zstd", "gzip, br", "zstd, deflate"]
"""Every coding a body can come in, alone and stacked, on requests and responses."""
AUTH_HEADERS = sorted({*SECRET_HEADER_NAMES, *ACCOUNT_HEADERS})
BASE64URL = string.ascii_letters + string.digits + "-_"


def _random_looking(secret: str) -> bool:
    """Twelve lower-case letters, ``-`` or ``_`` in a row could be a word the file holds anyway
    (``authorizatio``, ``content-type``), which the leak check would take for a piece of the
    secret."""
    return len(set(secret)) >= 8 and not re.search("[a-z_/+=-]{12}", secret)


keys = st.one_of(
    st.builds(
        lambda prefix, body: prefix + body,
        st.sampled_from(["", "sk-", "sk-proj-", "sk-ant-", "gsk_", "hf_", "xai-", "key-", "ya29."]),
        st.text(BASE64URL, min_size=16, max_size=48),
    ),
    # Base64 with "+", "/" and "=" (AWS secret keys, Azure SAS signatures): the characters
    # each echo form writes its own way.
    st.builds(
        lambda body, padding: body + padding,
        st.text(BASE64URL[:-2] + "+/", min_size=16, max_size=48),
        st.sampled_from(["", "=", "=="]),
    ),
).filter(_random_looking)
json_web_tokens = st.builds(
    lambda header, payload, signature: f"eyJ{header}.{payload}.{signature}",
    st.text(BASE64URL, min_size=8, max_size=40),
    st.text(BASE64URL, min_size=8, max_size=60),
    st.text(BASE64URL, min_size=0, max_size=43),
).filter(_random_looking)
account_ids = st.text(BASE64URL, min_size=12, max_size=36).filter(_random_looking)


ECHO_FORMS = {
    "as sent": lambda key: key,
    "percent": lambda key: quote(key, safe=""),
    "percent-lower": lambda key: "%".join(
        part if i == 0 else part[:2].lower() + part[2:]
        for i, part in enumerate(quote(key, safe="").split("%"))
    ),
    "percent-path": quote,  # "/" kept, as a path is encoded
    "plus": quote_plus,
    "space": lambda key: key.replace("+", " "),
    "json-slash": lambda key: key.replace("/", "\\/"),
    "json-unicode": lambda key: "".join(f"\\u{ord(c):04x}" for c in key),
}
"""How servers repeat what they were sent: in URLs, forms and JSON of every encoder."""
echo_forms = st.sampled_from(sorted(ECHO_FORMS)).map(ECHO_FORMS.__getitem__)


@st.composite
def carried(draw: st.DrawFn, key: str) -> Request:
    """A request that sends ``key`` where a client sends credentials, and maybe elsewhere too;
    a JSON Web Token anywhere at all."""
    places = ["header", "query", "userinfo", "json", "cookie", "basic", "form", "multipart"]
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
        query += f"&{draw(st.sampled_from(sorted(SECRET_PARAM_NAMES)))}={key}"
    elif place == "userinfo":
        # Percent-encoded as clients write it: a raw "/" would end the authority.
        secret = quote(key, safe="")
        netloc = f"{draw(st.sampled_from(['user', secret]))}:{secret}@{netloc}"
    elif place == "json":
        body[draw(st.sampled_from(SECRET_FIELD_NAMES))] = key
    elif place == "cookie":
        headers.append(("cookie", f"theme=dark; session={key}"))
    elif place == "basic":
        headers.append(
            ("authorization", "Basic " + base64.b64encode(f"me:{key}".encode()).decode())
        )
    elif place in ("form", "multipart"):
        field = draw(st.sampled_from(["api_key", "client_secret", "password", "access_token"]))
        return Request("POST", f"https://{netloc}/v1/files", *_form(place, {field: key}))
    else:
        body[draw(st.sampled_from(["session", "state", "user", "assertion"]))] = key
    if draw(st.booleans()):
        body["metadata"] = {"echo": f"the key is {key}"}
    url = f"https://{netloc}/v1/chat/completions{query}"
    content = orjson.dumps(body)
    encoding = draw(st.sampled_from(["identity", *CONTENT_ENCODINGS]))
    if encoding != "identity":  # some clients compress what they send
        headers.append(("content-encoding", encoding))
        content = encode(content, encoding)
    return Request("POST", url, tuple(headers), content)


def _form(shape: str, fields: dict[str, str]) -> tuple[tuple[tuple[str, str], ...], bytes]:
    """Headers and body of a form upload, as httpx encodes ``data=`` and ``files=``."""
    request = httpx.Request(
        "POST",
        "https://api.example.test/v1/files",
        data={**fields, "purpose": "assistants"},
        files={"file": ("notes.txt", b"the file's bytes")} if shape == "multipart" else None,
    )
    kept = ("content-type",)
    return tuple((k, v) for k, v in request.headers.items() if k in kept), request.read()


@st.composite
def echoed(draw: st.DrawFn, key: str, account: str) -> Outcome:
    """An answer that repeats ``key`` (in a body, across stream chunks, a header, an error),
    in any form servers repeat it, and names the ``account`` in a header, as OpenAI and
    Anthropic do."""
    sent = key
    key = draw(echo_forms)(key)
    kind = draw(st.sampled_from(["json", "stream", "error_body", "transport_error"]))
    account_header = draw(st.sampled_from(sorted(ACCOUNT_HEADERS)))
    if kind == "transport_error":  # the client library's words: the key as sent, or in a URL
        said = draw(st.sampled_from([sent, quote(sent, safe="")]))
        return TransportFailure("ReadTimeout", f"no answer for {said}", "2024-01-01T00:00:00Z")
    if kind == "stream":
        text = f'data: {{"delta": "your key {key} is fine"}}\n\ndata: [DONE]\n\n'.encode()
        cuts = sorted(set(draw(st.lists(st.integers(1, len(text) - 1), max_size=6))))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        chunks = tuple(Chunk(piece, i / 100) for i, piece in enumerate(pieces))
        headers = (("content-type", "text/event-stream"), (account_header, account))
        return Response(200, headers, chunks, "t")
    status = 401 if kind == "error_body" else 200
    answer = (
        {"error": {"message": "Incorrect API key provided: @"}}
        if status == 401
        else {"id": "chatcmpl-abc123DEF456", "choices": [{"text": "you sent @"}]}
    )
    # The echo form as the server's encoder wrote it into the JSON text (``\/``, ``\u0073``),
    # not escaped once more as a string of ours.
    body = orjson.dumps(answer).replace(b"@", key.encode())
    headers = (("content-type", "application/json"), ("x-echo", key), (account_header, account))
    return Response(status, headers, (Chunk(body, 0.01),), "t")


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
    leaked = _leaks(stored, key, account)
    assert not leaked, f"leaked as {leaked} from {request} / {outcome}"


def _leaks(stored: bytes, *secrets: str) -> list[str]:
    """The 12-character windows of each secret, in each echo form and as that form sits in a
    JSON string of the file, found in ``stored``: any would be a leak."""
    leaked: set[str] = set()
    for secret in secrets:
        for echo in ECHO_FORMS.values():
            for form in (echo(secret), orjson.dumps(echo(secret)).decode()[1:-1]):
                windows = {form[i : i + 12] for i in range(len(form) - 11)}
                leaked |= {window for window in windows if window.encode() in stored}
    return sorted(leaked)


@settings(
    max_examples=EXAMPLES // 2,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    key=keys,
    echo=echo_forms,
    encoding=st.sampled_from(["identity", *CONTENT_ENCODINGS]),
    request_encoding=st.sampled_from(["identity", *CONTENT_ENCODINGS]),
    carrier=st.sampled_from(["authorization", "x-api-key", "api-key", "cookie", "body"]),
)
def test_a_real_server_echoing_the_key_in_any_encoding_leaves_no_byte_of_it(
    tmp_path: Path,
    key: str,
    echo: Callable[[str], str],
    encoding: str,
    request_encoding: str,
    carrier: str,
) -> None:
    """Request and response bodies in every coding are stored decoded, redacted; the replay
    gives what was recorded."""
    answer = '{"error": {"message": "Incorrect API key provided: ' + echo(key) + '"}}'
    headers = {"x-echo-encoding": encoding}
    body = {"q": 1, "api_key": key} if carrier == "body" else {"q": 1}
    if carrier != "body":
        headers[carrier] = f"session={key}" if carrier == "cookie" else f"Bearer {key}"
    if request_encoding != "identity":
        headers["content-encoding"] = request_encoding
    content = encode(orjson.dumps(body), request_encoding)
    path = tmp_path / f"{uuid.uuid4().hex}.json"  # hypothesis may draw the same case twice
    with echo_server([answer.encode()]) as url:
        with httpx.Client(transport=ReplayTransport(Cassette(path))) as client:
            recorded = client.post(url + "/v1/chat", headers=headers, content=content).content
    with httpx.Client(transport=ReplayTransport(Cassette(path, "none"))) as client:
        replayed = client.post(url + "/v1/chat", headers=headers, content=content).json()
    assert orjson.loads(recorded)["error"]["message"].startswith("Incorrect API key provided: ")
    # A key of a known shape keeps its prefix before the placeholder; nothing else of it.
    stand_ins = {"REDACTED", *(f"{p.decode()}REDACTED" for p in STAND_IN_PREFIXES)}
    stand_in = replayed["error"]["message"].removeprefix("Incorrect API key provided: ")
    assert stand_in in stand_ins and key.startswith(stand_in.removesuffix("REDACTED"))
    stored = path.read_bytes()
    assert not _leaks(stored, key), f"{key!r} echoed as {echo(key)!r} in {encoding}"
    assert b'"content-encoding"' not in stored  # both bodies kept decoded
    cassette = CassetteFile(path, path.name, len(stored), store.load(path).interactions)
    assert scan.scan_cassette(cassette, _scrubber(frozenset({key})), environ={}) == ([], [])
