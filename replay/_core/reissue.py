"""Recorded requests made ready to send again: another model, other settings, another host, a key.

``replay rerun`` (:mod:`replay.tools.rerun`) re-issues the requests of a cassette
against the live API. What it sends is the stored request, changed here:

- :func:`with_model` puts another model in the body's ``model`` field and in the
  URL path of providers that name the model there (Gemini ``models/NAME:verb``,
  AI21 J2 ``/studio/v1/NAME/complete``, Bedrock ``/model/NAME/invoke``);
- :func:`with_setting` sets any JSON path of the body (``temperature=0``);
- :func:`with_upstream` points it at another host (a proxy, a deployment);
- :func:`with_credential` puts the real key where redaction left its placeholder.

Conversations: a request may send back an id an earlier answer issued
(``previous_response_id``, a file id, a tool call id in the history). The
cassette holds the placeholders normalization gave those ids;
:func:`conversations` finds which interactions depend on which, in recorded
order, and :func:`issued_pairs` pairs a recorded answer's ids with the ids the
new answer issued, so the later requests of a rerun send the new ids.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import orjson

from replay._core import jsonpath
from replay._core.key import is_json, parse_json
from replay._core.model import Interaction, Request, Response
from replay._core.normalize import issued_ids
from replay._core.providers import Provider, detect
from replay._core.redact import PLACEHOLDER
from replay._core.secret_names import secret_header, secret_param

_PATH_MODELS = (
    re.compile(r"(?P<head>/(?:tuned)?[mM]odels/)(?P<model>[^/:]+)(?P<tail>:[A-Za-z]+)$"),
    re.compile(r"(?P<head>/studio/v1/)(?P<model>(?!chat$)[^/]+)(?P<tail>/complete)$"),
    re.compile(r"(?P<head>/model/)(?P<model>[^/]+)(?P<tail>/(?:invoke|converse)[a-z-]*)$"),
)
"""Gemini, AI21 J2 and Bedrock name the model in the URL path."""
NOT_RESENT_HEADERS = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "cookie", "proxy-authorization"}
)
"""Set again by the HTTP client for the new request, or redacted past use."""


def parse_setting(text: str) -> tuple[str, Any]:
    """``temperature=0`` -> ("temperature", 0); the value is JSON when it parses, else a string.

    Raises ValueError for text without ``=`` or with a path that is not a JSON path.
    """
    path, sep, raw = text.partition("=")
    if not sep:
        raise ValueError(f'{text!r} is not PATH=VALUE (like temperature=0 or metadata.run="a")')
    jsonpath.parse(path)
    try:
        value: Any = orjson.loads(raw)
    except orjson.JSONDecodeError:
        value = raw
    return path, value


def model_in_path(url: str) -> str | None:
    path = urlsplit(url).path
    for pattern in _PATH_MODELS:
        found = pattern.search(path)
        if found:
            return found.group("model")
    return None


def with_model(request: Request, model: str) -> Request:
    """The request sent to ``model``: in the body's ``model`` field, and in the URL path."""
    parts = urlsplit(request.url)
    path = parts.path
    for pattern in _PATH_MODELS:
        path = pattern.sub(lambda m: m["head"] + quote(model, safe="") + m["tail"], path)
    url = request.url if path == parts.path else urlunsplit(parts._replace(path=path))
    body = parse_json(request.body)
    if isinstance(body, dict) and isinstance(body.get("model"), str):
        return _with_body(
            Request(request.method, url, request.headers, request.body), body | {"model": model}
        )
    return Request(request.method, url, request.headers, request.body)


def has_json_body(request: Request) -> bool:
    return isinstance(parse_json(request.body), dict)


def with_setting(request: Request, path: str, value: Any) -> Request:
    """The request with the JSON path ``path`` of its body set to ``value``; objects missing on
    the way are made. A body that is not a JSON object is left as it is."""
    body = parse_json(request.body)
    if not isinstance(body, dict):
        return request
    return _with_body(request, _set(body, jsonpath.parse(path), value))


def _set(node: Any, path: tuple[str | int, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, list):
        if head == jsonpath.WILDCARD:
            return [_set(item, rest, value) for item in node]
        if isinstance(head, int) and 0 <= head < len(node):
            return [_set(item, rest, value) if i == head else item for i, item in enumerate(node)]
        return node
    copy = dict(node) if isinstance(node, dict) else {}
    if head == jsonpath.WILDCARD:
        return {name: _set(item, rest, value) for name, item in copy.items()}
    copy[str(head)] = _set(copy.get(str(head)), rest, value)
    return copy


def _with_body(request: Request, body: Any) -> Request:
    return Request(request.method, request.url, request.headers, orjson.dumps(body))


def with_upstream(request: Request, upstream: str) -> Request:
    """The request sent to ``upstream``'s scheme and host; a path of ``upstream`` goes first."""
    target, parts = urlsplit(upstream), urlsplit(request.url)
    path = target.path.rstrip("/") + parts.path
    url = urlunsplit(parts._replace(scheme=target.scheme, netloc=target.netloc, path=path))
    return Request(request.method, url, request.headers, request.body)


def needs_credential(request: Request) -> bool:
    """Whether redaction took a credential out of the stored request: it must be put back."""
    if any(
        secret_header(name) and value == PLACEHOLDER
        for name, value in request.headers
        if name not in NOT_RESENT_HEADERS
    ):
        return True
    query = parse_qsl(urlsplit(request.url).query, keep_blank_values=True)
    return any(secret_param(name) and v == PLACEHOLDER for name, v in query)


def with_credential(request: Request, key: str | None) -> Request:
    """The request as it goes out: ``key`` where the placeholder stands, as a bearer token in
    ``authorization``; the headers the HTTP client sets itself left out."""
    headers = []
    for name, value in request.headers:
        if name in NOT_RESENT_HEADERS:
            continue
        if secret_header(name) and value == PLACEHOLDER:
            if key is None:
                continue
            value = f"Bearer {key}" if name == "authorization" else key
        headers.append((name, value))
    url = request.url
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if key is not None and any(
        secret_param(name) and value == PLACEHOLDER for name, value in query
    ):
        filled = [
            (name, key if secret_param(name) and value == PLACEHOLDER else value)
            for name, value in query
        ]
        url = urlunsplit(parts._replace(query=urlencode(filled)))
    return Request(request.method, url, tuple(headers), request.body)


# Conversations.


def _provider(interaction: Interaction, providers: Sequence[Provider]) -> Provider:
    first = next((o for o in interaction.outcomes if isinstance(o, Response)), None)
    return detect(interaction.request.url, first.body if first else b"", providers)


def issued_by(interaction: Interaction, providers: Sequence[Provider] = ()) -> list[bytes]:
    """The ids the answers of ``interaction`` issued: found in them, not sent in its request."""
    provider = _provider(interaction, providers)
    sent = interaction.request.url.encode() + interaction.request.body
    found: dict[bytes, None] = {}
    for outcome in interaction.outcomes:
        if isinstance(outcome, Response):
            for name, value in issued_ids(outcome.body, provider):
                # previous_response_id names an earlier answer: a retrieved response echoes
                # it, and recorded order (one-second dates) cannot tell which came first.
                if value not in sent and not name.startswith("previous_"):
                    found.setdefault(value)
    return list(found)


def conversations(
    interactions: Iterable[Interaction], providers: Sequence[Provider] = ()
) -> list[list[Interaction]]:
    """The interactions in recorded order, grouped into conversations: each group holds the
    interactions that send back ids issued by others of the group, each after those it needs.

    Recorded order is the date of the first response (one-second resolution), then the key;
    a request that sends an id is put after the interaction that issued it whatever the dates.
    """
    ordered = sorted(interactions, key=lambda i: (_recorded_at(i), i.key))
    issuer: dict[bytes, int] = {}
    for index, interaction in enumerate(ordered):
        for value in issued_by(interaction, providers):
            issuer.setdefault(value, index)
    needs: list[set[int]] = [set() for _ in ordered]
    if issuer:
        pattern = re.compile(b"|".join(map(re.escape, sorted(issuer, key=len, reverse=True))))
        for index, interaction in enumerate(ordered):
            sent = interaction.request.url.encode() + b"\n" + interaction.request.body
            needs[index] = {issuer[m.group()] for m in pattern.finditer(sent)} - {index}
    group = list(range(len(ordered)))

    def root(index: int) -> int:
        while group[index] != index:
            group[index] = group[group[index]]
            index = group[index]
        return index

    for index, needed in enumerate(needs):
        for other in needed:
            group[root(index)] = root(other)
    members: dict[int, list[int]] = {}
    for index in _dependency_order(needs):
        members.setdefault(root(index), []).append(index)
    chains = sorted(members.values(), key=lambda chain: min(chain))
    return [[ordered[index] for index in chain] for chain in chains]


def _dependency_order(needs: Sequence[set[int]]) -> list[int]:
    """Indexes in their own order, but each after the ones it needs (a cycle keeps its order)."""
    waiting = [len(needed) for needed in needs]
    needed_by: list[list[int]] = [[] for _ in needs]
    for index, needed in enumerate(needs):
        for other in needed:
            needed_by[other].append(index)
    ready = [index for index, count in enumerate(waiting) if count == 0]
    heapq.heapify(ready)
    done: list[int] = []
    while ready:
        index = heapq.heappop(ready)
        done.append(index)
        for later in needed_by[index]:
            waiting[later] -= 1
            if waiting[later] == 0:
                heapq.heappush(ready, later)
    seen = set(done)
    return done + [index for index in range(len(needs)) if index not in seen]


def _recorded_at(interaction: Interaction) -> str:
    return min((o.recorded_at for o in interaction.outcomes), default="")


def issued_pairs(
    recorded: Interaction, new_body: bytes, providers: Sequence[Provider] = ()
) -> dict[bytes, bytes]:
    """The ids ``recorded``'s first answer issued, each with the id the new answer issued in its
    place: paired by the field that holds them, in order of appearance."""
    provider = _provider(recorded, providers)
    first = next((o for o in recorded.outcomes if isinstance(o, Response)), None)
    if first is None:
        return {}
    issued = set(issued_by(recorded, providers))
    old = _by_field(issued_ids(first.body, provider))
    new = _by_field(issued_ids(new_body, provider))
    pairs: dict[bytes, bytes] = {}
    for field, values in old.items():
        for before, after in zip(values, new.get(field, ()), strict=False):
            if before in issued and before != after:
                pairs.setdefault(before, after)
    return pairs


def _by_field(found: Iterable[tuple[str, bytes]]) -> dict[str, list[bytes]]:
    fields: dict[str, dict[bytes, None]] = {}
    for field, value in found:
        fields.setdefault(field, {}).setdefault(value)
    return {field: list(values) for field, values in fields.items()}


def translated(request: Request, table: Mapping[bytes, bytes]) -> Request:
    """The request with each recorded id of ``table`` replaced by the id issued in its place."""
    if not table:
        return request
    pattern = re.compile(b"|".join(map(re.escape, sorted(table, key=len, reverse=True))))
    url = pattern.sub(lambda m: table[m.group()], request.url.encode()).decode()
    body = pattern.sub(lambda m: table[m.group()], request.body) if request.body else b""
    return Request(request.method, url, request.headers, body)


def model_requested(request: Request) -> str | None:
    """The model a request asks for: its body's ``model``, else the one in its URL path."""
    body = parse_json(request.body)
    if is_json(body) and isinstance(body, dict) and isinstance(body.get("model"), str):
        return str(body["model"])
    return model_in_path(request.url)
