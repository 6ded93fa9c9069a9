"""A recorded request's body is stored from the JSON value its key parsed: the same entry as
parsing the stored body again."""

from __future__ import annotations

from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import Cassette
from replay._cassette import Record
from replay._core.model import Chunk, Interaction, Request, Response
from replay._store import cassette_file as store

KEY = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX"
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from([1.5, 1e-05, 0.1])
    | st.sampled_from(
        [
            "a",
            KEY,
            "plainvalue1plainvalue1",
            "chatcmpl-abcdefghij0123456789",
            "x\u00e9",
            "hunter2hunter2",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["model", "api_key", "token", "id", "messages", "b\u00e9"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)
_LAYOUTS = st.sampled_from(
    [
        orjson.dumps,
        lambda v: orjson.dumps(v) + b"\n",
        lambda v: orjson.dumps(v, option=orjson.OPT_INDENT_2),
        lambda v: orjson.dumps(v).replace(b":", b": "),
    ]
)
_HEADERS = st.sampled_from(
    [
        (("content-type", "application/json"),),
        (("content-type", "application/json"), ("authorization", f"Bearer {KEY}")),
        (("content-type", "application/json"), ("x-api-key", "plainvalue1plainvalue1")),
        (("content-type", "multipart/form-data; boundary=xyz"),),
        (),
    ]
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    calls=st.lists(
        st.tuples(
            st.dictionaries(st.sampled_from(["a", "b"]), _VALUES) | _VALUES, _LAYOUTS, _HEADERS
        ),
        min_size=1,
        max_size=4,
    ),
    ignore=st.sampled_from([(), ("model",)]),
)
def test_a_stored_body_is_encoded_as_parsed_again(
    tmp_path: Path,
    calls: list[tuple[object, object, tuple[tuple[str, str], ...]]],
    ignore: tuple[str, ...],
) -> None:
    cassette = Cassette(tmp_path / "c.json", "all", ignore=ignore, secrets=["hunter2hunter2"])
    answer = b'{"id": "chatcmpl-abcdefghij0123456789"}'
    for value, layout, headers in calls:
        body = layout(value)  # type: ignore[operator]
        record = cassette.decide(Request("POST", "https://api.example.com/v1", headers, body))
        assert isinstance(record, Record)
        carried = store.encode(Interaction(record.key, record.request, []), record.parsed)
        assert carried == store.encode(Interaction(record.key, record.request, []))
        cassette.add(record, Response(200, (), (Chunk(answer, 0.0),), "2024"))  # ids learned
