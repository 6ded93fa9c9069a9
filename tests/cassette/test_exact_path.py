"""Replay's fast path (an exact digest of the request's bytes) and its canonical key always agree.

Hypothesis records requests of every kind the key reads (JSON in any key order and spacing,
text and form bodies, query strings in any order, secrets in headers, query and body, ids a
response gave and a later request sends back, ignore rules and matched headers), then replays
from the file: for the requests as sent, for the requests as the file stores them, and for
the same JSON in other orders, ``key_for`` (fast path first) equals ``key_of`` (canonical).
"""

from __future__ import annotations

import os
import string
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import Cassette
from replay._cassette import Record
from replay._core.key import exact_digest
from replay._core.model import Chunk, Request, Response

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 60
KEY = "sk-proj-Abcdefghijklmnopqrstuvwx0123"
ANSWER_ID = "chatcmpl-8oK8GnO4xYzAbCdEfGhIjKlMnOp"
SCRUBBED = (KEY.encode(), ANSWER_ID.encode(), b"password", b"api_key", b"key=")
"""What recording replaces in a request: a secret, a known id, a secret field or parameter."""

words = st.text(string.ascii_letters + string.digits + " -_#", max_size=12)
scalars = st.none() | st.booleans() | st.integers(-5, 10**6) | words
json_values = st.recursive(
    scalars | st.sampled_from([KEY, f"Bearer {KEY}", ANSWER_ID]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["model", "api_key", "temperature", "n", "x"]), inner, max_size=4
        )
    ),
    max_leaves=8,
)


@st.composite
def requests(draw: st.DrawFn) -> Request:
    method = draw(st.sampled_from(["POST", "GET", "post"]))
    query = draw(
        st.lists(st.sampled_from(["a=1", "b=2", "key=" + KEY, "temperature=3"]), max_size=3)
    )
    host = draw(st.sampled_from(["api.example.test", "API.example.test:443", "127.0.0.1:8080"]))
    url = f"https://{host}/v1/chat" + ("?" + "&".join(query) if query else "")
    kind = draw(st.sampled_from(["json", "json", "text", "form", "none"]))
    headers: list[tuple[str, str]] = []
    if draw(st.booleans()):
        headers.append(("authorization", f"Bearer {KEY}"))
    if draw(st.booleans()):
        headers.append(("x-model", draw(st.sampled_from(["m1", "m2"]))))
    body = b""
    if kind == "json":
        value = draw(
            st.dictionaries(st.sampled_from(["model", "api_key", "temperature", "m"]), json_values)
        )
        body = orjson.dumps(value, option=draw(st.sampled_from([0, orjson.OPT_SORT_KEYS])))
        if draw(st.booleans()):
            body = orjson.dumps(value, option=orjson.OPT_INDENT_2)
        headers.append(("content-type", "application/json"))
    elif kind == "text":
        body = draw(st.sampled_from([b"hello", KEY.encode(), b"id " + ANSWER_ID.encode()]))
        headers.append(("content-type", "text/plain"))
    elif kind == "form":
        body = draw(st.sampled_from([b"a=1&b=2", b"password=hunter22hunter&a=1"]))
        headers.append(("content-type", "application/x-www-form-urlencoded"))
    return Request(method, url, tuple(headers), body)


def reordered(request: Request) -> list[Request]:
    """The same JSON body in other key orders and spacing: equal keys, different bytes."""
    try:
        value = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return []
    options = (0, orjson.OPT_SORT_KEYS, orjson.OPT_INDENT_2)
    return [
        Request(request.method, request.url, request.headers, orjson.dumps(value, option=option))
        for option in options
    ]


ANSWER = Response(
    200,
    (("content-type", "application/json"),),
    (Chunk(orjson.dumps({"id": ANSWER_ID, "choices": [{"text": "ok"}]}), 0.01),),
    "2024-01-01T00:00:00Z",
)
RULES = st.sampled_from([((), ()), (("temperature",), ()), ((), ("x-model",))])


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    recorded=st.lists(requests(), min_size=1, max_size=6),
    asked=st.lists(requests(), max_size=4),
    rules=RULES,
)
def test_fast_path_and_canonical_key_agree(
    tmp_path_factory: pytest.TempPathFactory,
    recorded: list[Request],
    asked: list[Request],
    rules: tuple[tuple[str, ...], tuple[str, ...]],
) -> None:
    path = tmp_path_factory.mktemp("exact") / "c.json"
    ignore, match_headers = rules
    with Cassette(path, "new_episodes", ignore=ignore, match_headers=match_headers) as recording:
        firsts: dict[str, Request] = {}  # the first request recorded under each key: its digest
        for request in recorded:
            decision = recording.decide(request)
            if isinstance(decision, Record):
                recording.add(decision, ANSWER)
                firsts.setdefault(decision.key, request)
    replaying = Cassette(path, "none", ignore=ignore, match_headers=match_headers)
    stored = [interaction.request for interaction in replaying.interactions]
    probes = [*recorded, *stored, *asked]
    for probe in [*probes, *(variant for p in probes for variant in reordered(p))]:
        assert replaying.key_for(probe) == replaying.key_of(probe), probe
    # Not vacuous: a request with nothing to redact or replace is found by its digest.
    plain = [r for r in firsts.values() if not any(s in r.url.encode() + r.body for s in SCRUBBED)]
    for request in plain:
        assert exact_digest(request, replaying.rules) in replaying._exact_keys, request


def test_a_request_sent_as_recorded_takes_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    request = Request(
        "POST",
        "https://api.example.test/v1/chat",
        (("content-type", "application/json"), ("authorization", f"Bearer {KEY}")),
        b'{"model":"m","messages":[{"role":"user","content":"hi"}]}',
    )
    with Cassette(tmp_path / "c.json", "once") as recording:
        decision = recording.decide(request)
        assert isinstance(decision, Record)
        recording.add(decision, ANSWER)
    entry = orjson.loads((tmp_path / "c.json").read_bytes())["interactions"][decision.key]
    assert entry["request"]["sent"] == exact_digest(decision.request, recording.rules)

    replaying = Cassette(tmp_path / "c.json", "none")
    monkeypatch.setattr(replaying, "key_of", lambda request: pytest.fail("canonical path taken"))
    assert replaying.key_for(request) == decision.key
    assert replaying.decide(request).outcome.status == 200  # type: ignore[union-attr]


def test_a_request_in_another_order_takes_the_canonical_path(tmp_path: Path) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    sent = Request("POST", "https://api.example.test/v1", (), orjson.dumps(body))
    with Cassette(tmp_path / "c.json", "once") as recording:
        decision = recording.decide(sent)
        assert isinstance(decision, Record)
        recording.add(decision, ANSWER)
    replaying = Cassette(tmp_path / "c.json", "none")
    other = Request("POST", sent.url, (), orjson.dumps(body, option=orjson.OPT_SORT_KEYS))
    assert exact_digest(other, replaying.rules) != exact_digest(sent, replaying.rules)
    assert replaying.key_for(other) == decision.key
