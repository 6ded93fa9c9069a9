"""The re-keyed index passes over entries known to key as recorded, and is the same for it.

``Cassette._rekeyed_index`` (current key -> the stored keys of the requests it gathers) keys
again only the entries it cannot prove unchanged: not those a request found by their exact
digest, nor those whose stored digest is their request's under today's rules. Hypothesis
records requests under several rules (ignore, match_headers) into one file, drops some stored
digests (a cassette recorded before them), replays and records under other rules, and checks
the index against the one built by keying every entry again, as it was built before.
(Each shortcut left out, or taken where it does not hold, fails it: tried.)
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import Cassette, CassetteMiss
from replay._cassette import Record
from replay._core.key import request_key
from replay._core.model import Chunk, Request, Response

EXAMPLES = 1_000 if os.environ.get("REPLAY_STRESS") == "1" else 80
KEY = "sk-proj-Abcdefghijklmnopqrstuvwx0123"
ANSWER_ID = "chatcmpl-8oK8GnO4xYzAbCdEfGhIjKlMnOp"
URL = "https://api.example.test/v1/chat"


FIELDS = {
    "model": ["m1", "m2"],
    "temperature": [0, 1],
    "content": ["hi", ANSWER_ID],
    "team": ["a", "b"],
    "secret": [False, True],
    "query": ["", "?temperature=2", f"?key={KEY}"],
    "method": ["POST", "GET"],
    "sorted": [False, True],
}
"""What a request is made of: each a choice among a few, so that requests often differ in one
field alone, the one rules may ignore or match."""

choices = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in FIELDS.items()})


def build(choice: dict[str, object]) -> Request:
    value: dict[str, object] = {
        "model": choice["model"],
        "temperature": choice["temperature"],
        "messages": [{"role": "user", "content": choice["content"]}],
    }
    if choice["secret"]:
        value["api_key"] = KEY
    body = orjson.dumps(value, option=orjson.OPT_SORT_KEYS if choice["sorted"] else 0)
    headers = (("content-type", "application/json"), ("x-team", str(choice["team"])))
    return Request(str(choice["method"]), URL + str(choice["query"]), headers, body)


@st.composite
def requests(draw: st.DrawFn, like: list[dict[str, object]] | None = None) -> Request:
    """A request; given ``like``, one of those with one field changed."""
    if not like:
        return build(draw(choices))
    choice = dict(draw(st.sampled_from(like)))
    name = draw(st.sampled_from(sorted(FIELDS)))
    choice[name] = draw(st.sampled_from(FIELDS[name]))
    return build(choice)


RULES = st.sampled_from(
    [
        ((), ()),
        (("model",), ()),
        (("temperature",), ()),
        ((), ("x-team",)),
        (("model",), ("x-team",)),
    ]
)


def answer(at: str) -> Response:
    body = orjson.dumps({"id": ANSWER_ID, "choices": [{"text": at}]})
    return Response(200, (("content-type", "application/json"),), (Chunk(body, 0.0),), at)


def keyed_again(cassette: Cassette) -> dict[str, tuple[str, ...]]:
    """The index as built by keying every stored request again (each entry decoded whole)."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for stored_key in cassette._base().interactions:
        interaction = cassette._interaction(stored_key)
        if interaction is None or not interaction.outcomes:
            continue
        current = request_key(interaction.request, cassette.rules)
        groups.setdefault(current, []).append((interaction.outcomes[0].recorded_at, stored_key))
    return {
        current: tuple(stored_key for _, stored_key in sorted(group))
        for current, group in groups.items()
        if [stored_key for _, stored_key in group] != [current]
    }


def play(cassette: Cassette, asked: list[Request], times: list[str]) -> None:
    for number, request in enumerate(asked):
        try:
            decision = cassette.decide(request)
        except CassetteMiss:
            continue
        if isinstance(decision, Record):
            cassette.add(decision, answer(times[number % len(times)]))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=st.lists(choices, min_size=1, max_size=5),
    rules=st.lists(RULES, min_size=1, max_size=3),
    data=st.data(),
    times=st.lists(st.sampled_from(["2026-01-01", "2026-01-02", "2026-01-03"]), min_size=1),
    undigested=st.sets(st.integers(0, 14)),
    replay_rules=st.none() | RULES,
    mode=st.sampled_from(["none", "new_episodes"]),
)
def test_the_index_is_the_one_keying_every_entry_gives(
    tmp_path_factory: pytest.TempPathFactory,
    first: list[dict[str, object]],
    rules: list[tuple[tuple[str, ...], tuple[str, ...]]],
    data: st.DataObject,
    times: list[str],
    undigested: set[int],
    replay_rules: tuple[tuple[str, ...], tuple[str, ...]] | None,
    mode: str,
) -> None:
    path = tmp_path_factory.mktemp("rekeyed") / "c.json"
    warnings.simplefilter("ignore")  # merges under other rules warn, as they should
    recorded = [build(choice) for choice in first]
    for number, (ignore, match_headers) in enumerate(rules):
        with Cassette(path, "new_episodes", ignore=ignore, match_headers=match_headers) as session:
            if number == 0:
                play(session, recorded, times)
            else:  # the first session's requests, each with a field changed
                play(session, data.draw(st.lists(requests(first), max_size=5)), times)
    document = orjson.loads(path.read_bytes())
    for number, entry in enumerate(document["interactions"].values()):
        if number in undigested:
            entry["request"].pop("sent", None)
    path.write_bytes(orjson.dumps(document))
    ignore, match_headers = rules[0] if replay_rules is None else replay_rules  # None: the first's
    cassette = Cassette(path, mode, ignore=ignore, match_headers=match_headers)
    asked = data.draw(st.lists(requests(first), max_size=5))
    play(cassette, [*recorded, *asked, *asked], times)  # some found by digest, some twice
    cassette._rekeyed = None  # built again from what this session now holds
    assert cassette._rekeyed_index() == keyed_again(cassette)


def test_a_request_found_by_its_digest_gathers_one_recorded_under_other_rules(
    tmp_path: Path,
) -> None:
    """Not vacuous: an entry passed over (found by its digest) still gathers the others."""
    path = tmp_path / "c.json"
    first = Request("POST", URL, (("content-type", "application/json"),), b'{"model":"m1"}')
    second = Request("POST", URL, (("content-type", "application/json"),), b'{"model":"m2"}')
    with Cassette(path, "once", ignore=["model"]) as cassette:
        play(cassette, [first], ["2026-01-01"])
    with Cassette(path, "new_episodes") as cassette:
        play(cassette, [second], ["2026-01-02"])
    cassette = Cassette(path, "none", ignore=["model"])
    play(cassette, [first], [])
    assert cassette._found_exactly  # the first was found by its digest
    with pytest.warns(UserWarning, match="one request under the current rules"):
        play(cassette, [first], [])
    assert len(next(iter(cassette._rekeyed_index().values()))) == 2
    assert cassette._rekeyed_index() == keyed_again(cassette)
