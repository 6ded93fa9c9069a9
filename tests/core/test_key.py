from __future__ import annotations

import orjson
import pytest

from replay._core.errors import ConfigError
from replay._core.key import KeyRules, canonical, differences, request_key
from replay._core.model import Request

URL = "https://api.openai.com/v1/chat/completions"
JSON = (("content-type", "application/json"),)


def post(body: object, url: str = URL, headers: tuple[tuple[str, str], ...] = JSON) -> Request:
    return Request("POST", url, headers, orjson.dumps(body))


def key(request: Request, **rules: tuple[str, ...]) -> str:
    return request_key(request, KeyRules(**rules))


def test_key_is_32_hex_characters() -> None:
    value = key(post({"model": "m"}))
    assert len(value) == 32 and int(value, 16) >= 0


def test_json_key_order_and_whitespace_do_not_count() -> None:
    a = Request("POST", URL, JSON, b'{"model": "m", "n": 1}')
    b = Request("POST", URL, JSON, b'{"n":1,"model":"m"}')
    assert key(a) == key(b)


def test_query_order_does_not_count_but_values_do() -> None:
    assert key(post({}, URL + "?a=1&b=2")) == key(post({}, URL + "?b=2&a=1"))
    assert key(post({}, URL + "?a=1")) != key(post({}, URL + "?a=2"))


def test_default_port_and_host_case_do_not_count() -> None:
    assert key(post({}, "https://API.openai.com:443/v1/chat/completions")) == key(post({}))


def test_headers_count_only_when_named() -> None:
    retry_0 = post({}, headers=(*JSON, ("x-stainless-retry-count", "0"), ("x-org", "a")))
    retry_1 = post({}, headers=(*JSON, ("x-stainless-retry-count", "1"), ("x-org", "b")))
    assert key(retry_0) == key(retry_1)
    assert key(retry_0, match_headers=("X-Org",)) != key(retry_1, match_headers=("X-Org",))


def test_ignored_paths_and_query_parameters() -> None:
    old = post({"model": "v1", "messages": [{"content": "hi", "name": "a"}]}, URL + "?t=1")
    new = post({"model": "v2", "messages": [{"content": "hi", "name": "b"}]}, URL + "?t=2")
    assert key(old) != key(new)
    assert key(old, ignore=("model", "messages[*].name", "t")) == key(
        new, ignore=("model", "messages[*].name", "t")
    )


def test_different_bodies_and_methods_differ() -> None:
    assert key(post({"prompt": "a"})) != key(post({"prompt": "b"}))
    assert key(Request("GET", URL, (), b"")) != key(Request("DELETE", URL, (), b""))


def test_multipart_boundary_does_not_count() -> None:
    def upload(boundary: str) -> Request:
        body = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n{{}}\n\r\n--{boundary}--\r\n"
        ).encode()
        headers = (("content-type", f"multipart/form-data; boundary={boundary}"),)
        return Request("POST", "https://api.openai.com/v1/files", headers, body)

    assert key(upload("a1b2c3")) == key(upload("zz99"))
    form = canonical(upload("a1b2c3"), KeyRules())["body"]["multipart"]
    assert [part["content"] for part in form] == [{"text": "batch"}, {"text": "{}\n"}]


def test_binary_bodies_are_keyed_by_their_bytes() -> None:
    a = Request("POST", URL, (), b"\xff\x00\x01")
    b = Request("POST", URL, (), b"\xff\x00\x02")
    assert key(a) != key(b)
    assert canonical(a, KeyRules())["body"] == {"base64": "/wAB"}


def test_differences_name_json_paths() -> None:
    found = differences(
        post({"model": "m", "messages": [{"content": "hi"}]}),
        post({"model": "m", "messages": [{"content": "ho"}]}, URL + "?x=1"),
        KeyRules(),
    )
    assert [(d.field, d.recorded, d.requested) for d in found] == [
        ("query.x", None, "1"),
        ("body.messages[0].content", "hi", "ho"),
    ]


def test_a_malformed_ignore_path_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"ignore=\['model', 'messages\['\]: 'messages\[' is not"):
        KeyRules(ignore=("model", "messages["))


LONG = 'a"\\\n\u00e9\u2028\U0001f600-' * 300_000  # over a piece (1 MiB), escapes, wide characters


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (
            orjson.dumps({"model": "m", "input": LONG, "n": [1, 2.5, None, {"b": "x", "a": True}]}),
            JSON,
        ),
        (orjson.dumps([LONG, {"z": list(range(100)), "a": LONG}]), JSON),
        (b'{"a":  "' + b"y" * 3_000_000 + b'"}  ', JSON),
        (LONG.encode(), (("content-type", "text/plain"),)),
        (bytes(range(256)) * 20_000 + b"\xff", ()),
    ],
)
def test_a_large_body_is_keyed_in_pieces_as_it_would_be_whole(
    body: bytes, content_type: tuple[tuple[str, str], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay._core import key as key_module

    request = Request("POST", URL + "?b=2&a=1", content_type, body)
    whole = [key(request), key(request, ignore=("body.n",))]
    monkeypatch.setattr(key_module, "LARGE_BODY", 1000)
    assert [key(request), key(request, ignore=("body.n",))] == whole
