from __future__ import annotations

import itertools
import re

import orjson
import pytest
from bedrock_server import PADDING_ALPHABET, converse_stream_frames, invoke_stream_frames
from hypothesis import given
from hypothesis import strategies as st

from replay._core import eventstream
from replay._core.model import Chunk, Request, Response
from replay._core.normalize import (
    FIXED_DATE,
    Normalizer,
    ShownBody,
    fixed_number,
    fixed_time,
    looks_generated,
    shaped_placeholder,
)
from replay._core.providers import (
    AI21,
    BEDROCK,
    BUILTIN,
    LIGHTON,
    OPENAI_COMPATIBLE,
    WORKFLOWAI,
    Provider,
    detect,
)


def response(body: bytes, headers: tuple[tuple[str, str], ...] = ()) -> Response:
    return Response(200, headers, (Chunk(body, 0.0),), "t")


def test_generated_ids_are_told_from_model_names() -> None:
    for generated in (
        "chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh",
        "msg_01XFDUDYJgAACzvnptvVoYEL",
        "75a54d20-dda1-6db7-ff99-59b1af4fdfd3",
        "resp_67ccd2bed1ec8190b14f964abc054267",
        "fb_8YMnDbsifkBeAs814beb0dFOJdPeG_0",
    ):
        assert looks_generated(generated), generated
    for name in (
        "gpt-4o-2024-08-06",
        "claude-3-5-sonnet-20241022",
        "j2-mid",
        "llama-3.1-8b",
        "gpt-4o",
    ):
        assert not looks_generated(name), name


def test_placeholders_keep_prefix_length_and_kind_of_alphabet() -> None:
    original = "chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh"
    fake = shaped_placeholder(original, "seed")
    assert fake.startswith("chatcmpl-") and len(fake) == len(original) and fake != original
    # Another random id of the same kind gets the same placeholder: re-recording is stable.
    assert shaped_placeholder("chatcmpl-aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT", "seed") == fake
    assert shaped_placeholder(original, "seed") == fake
    assert shaped_placeholder(original, "other") != fake
    uuid = shaped_placeholder("75a54d20-dda1-6db7-ff99-59b1af4fdfd3", "s")
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", uuid)


def test_fixed_numbers_keep_only_whether_they_are_integers() -> None:
    for integer in (b"1707004480", b"1707004480123", b"0", b"-7", b"123456789012345678901234"):
        assert fixed_number(integer) == b"1000000000", integer
    for fraction in (b"2.34", b"0.1234", b"0.12345678901234567", b"-0.5", b"1e-05", b"2.5E+3"):
        assert fixed_number(fraction) == b"1.0", fraction
    assert fixed_number(b"1.0") == b"1.0"  # a normalized cassette is a fixed point


@pytest.mark.parametrize(
    ("original", "placeholder"),
    [
        ("2025-03-05T12:34:56Z", "2024-01-01T00:00:00Z"),
        ("2025-03-05T12:34:56.789012Z", "2024-01-01T00:00:00.000000Z"),
        ("2025-03-05T12:34:56.123456789Z", "2024-01-01T00:00:00.000000000Z"),
        ("2025-03-05T12:34:56.7+00:00", "2024-01-01T00:00:00.0+00:00"),
        ("2025-03-05T12:34:56+05:30", "2024-01-01T00:00:00+00:00"),
        ("2025-03-05T12:34:56-0800", "2024-01-01T00:00:00+0000"),
        ("2025-03-05 12:34:56.789", "2024-01-01 00:00:00.000"),
        ("2025-03-05t12:34:56z", "2024-01-01t00:00:00z"),
        ("2025-03-05T12:34", "2024-01-01T00:00"),
    ],
)
def test_fixed_times_keep_the_shape_of_the_original(original: str, placeholder: str) -> None:
    assert fixed_time(original) == placeholder
    assert fixed_time(placeholder) == placeholder


def test_times_of_one_shape_get_one_placeholder_in_bodies_and_headers() -> None:
    def normalized(moment: str) -> tuple[bytes, str]:
        body = b'{"created_at": "%s", "createTime": "%s"}' % (moment.encode(), moment.encode())
        headers = (("x-upstream-time", moment),)
        out = Normalizer().response(response(body, headers), OPENAI_COMPATIBLE, "k/0")
        return out.body, dict(out.headers)["x-upstream-time"]

    first = normalized("2025-03-05T12:34:56.789012+05:30")
    assert first == normalized("1999-12-31T23:59:59.000001-08:00")
    placeholder = "2024-01-01T00:00:00.000000+00:00"
    assert first == (b'{"created_at": "%s", "createTime": "%s"}' % ((placeholder.encode(),) * 2),
                     placeholder)  # fmt: skip


def test_openai_response_ids_timestamps_and_fingerprint() -> None:
    body = orjson.dumps(
        {
            "id": "chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh",
            "created": 1707004480,
            "model": "gpt-4o-2024-08-06",
            "system_fingerprint": "fp_fc7f1d7035",
            "choices": [{"message": {"tool_calls": [{"id": "call_Ab12Cd34Ef56Gh78"}]}}],
            "usage": {"prompt_tokens": 1707004480},
        }
    )
    headers = (
        ("date", "Tue, 03 Feb 2026 10:00:00 GMT"),
        ("x-request-id", "req_abc123def456"),
        ("openai-processing-ms", "231"),
        ("content-type", "application/json"),
    )
    out = Normalizer().response(response(body, headers), OPENAI_COMPATIBLE, "key/0")
    value = orjson.loads(out.body)
    assert (
        value["id"].startswith("chatcmpl-")
        and value["id"] != "chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh"
    )
    assert value["created"] == 1000000000
    assert value["usage"]["prompt_tokens"] == 1707004480  # only named fields are volatile
    assert value["model"] == "gpt-4o-2024-08-06"
    assert value["system_fingerprint"] != "fp_fc7f1d7035"
    assert value["choices"][0]["message"]["tool_calls"][0]["id"].startswith("call_")
    out_headers = dict(out.headers)
    assert out_headers["date"] == FIXED_DATE
    assert (
        out_headers["x-request-id"].startswith("req_")
        and out_headers["x-request-id"] != "req_abc123def456"
    )
    assert out_headers["content-type"] == "application/json"


def test_the_same_response_normalizes_the_same_way_in_every_session() -> None:
    body = b'{"id":"chatcmpl-AAAA1111bbbb","created":1707004480}'
    first = Normalizer().response(response(body), OPENAI_COMPATIBLE, "k/0")
    other_ids = b'{"id":"chatcmpl-ZZZZ9999yyyy","created":1799999999}'
    second = Normalizer().response(response(other_ids), OPENAI_COMPATIBLE, "k/0")
    assert first.body == second.body
    third = Normalizer().response(response(body), OPENAI_COMPATIBLE, "k/1")
    assert third.body != first.body


def test_all_chunks_of_a_stream_share_one_placeholder_and_keep_boundaries() -> None:
    event = b'data: {"id":"chatcmpl-Q1w2E3r4T5y6","created":1707004480,"choices":[]}\n\n'
    chunks = (
        Chunk(event, 0.01),
        Chunk(event[:20], 0.02),
        Chunk(event[20:], 0.03),
        Chunk(b"data: [DONE]\n\n", 0.04),
    )
    out = Normalizer().response(Response(200, (), chunks, "t"), OPENAI_COMPATIBLE, "k/0")
    assert len(out.chunks) == 4
    assert [c.at for c in out.chunks] == [0.01, 0.02, 0.03, 0.04]
    ids = set(re.findall(rb"chatcmpl-\w+", out.body))
    assert len(ids) == 1 and b"chatcmpl-Q1w2E3r4T5y6" not in ids
    assert out.chunks[1].data + out.chunks[2].data == out.chunks[0].data


def test_seed_providers_fields() -> None:
    lighton = b'{"request_id": "734e8d5a-a186-4d14-b2e4-be26f7fee6dc", "outputs": []}'
    assert b"734e8d5a" not in Normalizer().response(response(lighton), LIGHTON, "k/0").body
    ai21 = b'{"id": "75a54d20-dda1-6db7-ff99-59b1af4fdfd3", "prompt": {}, "completions": []}'
    assert b"75a54d20" not in Normalizer().response(response(ai21), AI21, "k/0").body
    workflow = (
        b'{"choices":[{"feedback_token":"fb_x","duration_seconds":2.34,"cost_usd":0.001234}]}'
    )
    out = orjson.loads(Normalizer().response(response(workflow), WORKFLOWAI, "k/0").body)
    choice = out["choices"][0]
    assert choice["feedback_token"] != "fb_x" and choice["feedback_token"].startswith("fb_")
    assert choice["duration_seconds"] == 1.0 and choice["cost_usd"] == 0.001234


def test_chained_ids_are_replaced_in_later_requests() -> None:
    normalizer = Normalizer()
    first = normalizer.response(
        response(b'{"id": "resp_9f8e7d6c5b4a3210"}'), OPENAI_COMPATIBLE, "k/0"
    )
    placeholder = orjson.loads(first.body)["id"]
    later = Request(
        "POST",
        "https://api.openai.com/v1/responses/resp_9f8e7d6c5b4a3210",
        (("content-type", "application/json"), ("x-stainless-retry-count", "0")),
        b'{"previous_response_id": "resp_9f8e7d6c5b4a3210"}',
    )
    stored = normalizer.request(later)
    assert stored.url.endswith(placeholder) and placeholder.encode() in stored.body
    assert b"resp_9f8e7d6c5b4a3210" not in stored.body
    assert dict(stored.headers) == {"content-type": "application/json"}


def test_normalizing_twice_changes_nothing() -> None:
    body = b'{"id":"chatcmpl-AAAA1111bbbb","created":1707004480}'
    once = Normalizer().response(response(body), OPENAI_COMPATIBLE, "k/0")
    twice = Normalizer().response(once, OPENAI_COMPATIBLE, "k/0")
    assert twice == once


def test_detection_by_host_path_and_body() -> None:
    assert detect("https://api.anthropic.com/v1/messages", b"").name == "anthropic"
    assert detect("http://127.0.0.1:8000/v1/messages", b"").name == "anthropic"
    assert (
        detect("http://127.0.0.1:8000/api/generate", b'{"request_id": "x", "outputs": []}').name
        == "lighton"
    )
    assert detect("http://localhost:8000/v1/chat/completions", b"{}").name == "openai-compatible"


@given(
    markers=st.lists(
        st.lists(st.sampled_from(["ab", "é", 'a"b', "b", "ñb"]), min_size=1), max_size=3
    ),
    pieces=st.lists(
        st.sampled_from([b'"ab"', b'"\xc3\xa9"', b'"a"b"', b'"b"', b"\xe9", b"x", b'"']),
        max_size=12,
    ),
)
def test_detection_by_body_markers_is_a_search_for_each_quoted_marker(
    markers: list[list[str]], pieces: list[bytes]
) -> None:
    """The markers sought in the body read as Latin-1 are found where their UTF-8 bytes are."""
    theirs = [Provider(f"p{n}", body_markers=tuple(m)) for n, m in enumerate(markers)]
    body = b"".join(pieces)
    expected = next(
        (
            provider.name
            for provider in (*theirs, *BUILTIN)
            if provider.body_markers
            and all(b'"' + m.encode() + b'"' in body[:4096] for m in provider.body_markers)
        ),
        OPENAI_COMPATIBLE.name,
    )
    assert detect("http://localhost:1/x", body, theirs).name == expected


def test_shapes_real_providers_send_never_survive() -> None:
    """Shapes from public recordings (groq's ``chatcmpl-<uuid>``, Gemini's ``responseId`` with
    ``-`` and ``createTime``, gateway and cloud headers), made up here to the same shapes."""
    groq = b'data: {"id":"chatcmpl-75a54d20-dda1-6db7-ff99-59b1af4fdfd3","x_groq":{}}\n\n'
    gemini = (
        b'{"candidates": [], "responseId": "mK9PaLGY-KrDwnvgP_fHU8Qo",'
        b' "createTime": "2025-01-15T10:11:12.345678Z"}'
    )
    headers = (
        ("cf-ray", "aXqTbRrLmNpKqWeR-CDG"),
        ("apim-request-id", "0f8fad5b-d9cb-469f-a165-70867728950e"),
        ("x-kong-request-id", "5c1f0a1b2c3d4e5f60718293"),
        ("x-kong-upstream-latency", "523"),
        ("traceresponse", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
        ("x-ms-client-request-id", "7c9e6679-7425-40de-944b-e07fc1f90ae7"),
        ("x-datadog-trace-id", "1234567890123456789"),
        ("x-amz-request-id", "4442587FB7D0A2F9"),
        ("x-amzn-requestid", "f3a1c2d4-5b6e-7f80-9a1b-2c3d4e5f6a7b"),
        ("x-amzn-bedrock-invocation-latency", "1187"),
        ("content-type", "text/event-stream"),
    )
    out = Normalizer().response(response(groq, headers), OPENAI_COMPATIBLE, "k/0")
    assert b"75a54d20" not in out.body and out.body.startswith(b'data: {"id":"chatcmpl-')
    for (name, value), (_, stored) in zip(headers[:-1], out.headers[:-1], strict=True):
        assert value not in stored, name
    assert dict(out.headers)["content-type"] == "text/event-stream"
    body = Normalizer().response(response(gemini), OPENAI_COMPATIBLE, "k/0").body
    assert b"mK9PaLGY" not in body and b"2025-01-15" not in body


def test_a_random_letter_run_is_not_a_prefix() -> None:
    one = Normalizer().response(
        response(b"{}", (("cf-ray", "aXqTbRrLmNpKqWeR-CDG"),)), OPENAI_COMPATIBLE, "k/0"
    )
    two = Normalizer().response(
        response(b"{}", (("cf-ray", "QwErTyUiOpAsDfGh-AMS"),)), OPENAI_COMPATIBLE, "k/0"
    )
    assert one.headers == two.headers and "aXqT" not in one.headers[0][1]


def test_a_header_run_that_drew_no_letter_of_a_kind_gets_the_same_placeholder() -> None:
    # Cloudflare's cf-ray: 16 hex digits and a colo; about one in two thousand draws no hex
    # letter, and read as capitals and digits it churned the cassette (found re-recording).
    drew_letters = (("cf-ray", "8a1b2c3d4e5f6789-CDG"),)
    drew_digits_only = (("cf-ray", "8012233445566789-CDG"),)
    one = Normalizer().response(response(b"{}", drew_letters), OPENAI_COMPATIBLE, "k/0")
    two = Normalizer().response(response(b"{}", drew_digits_only), OPENAI_COMPATIBLE, "k/0")
    assert one.headers == two.headers and len(one.headers[0][1]) == 20


def test_a_hex_run_after_a_word_that_drew_no_letter_keeps_the_hex_placeholder() -> None:
    # OpenAI's system_fingerprint is fp_ and ten hex digits; about one in a hundred is all digits.
    digits_only = shaped_placeholder("fp_2807999798", "seed")
    assert digits_only == shaped_placeholder("fp_a863319bf8", "seed")


# --- What the caller gets while recording (issue 24) -------------------------------------

STREAM = (
    b'data: {"id":"chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh","created":1707004480,"n":0}\n\n'
    b'data: {"id":"chatcmpl-8oK8GnO4O2wCZuzmU8FZYiIKPBmPh","created":1707004480,"n":1,'
    b'"tool_calls":[{"id":"call_Zx81kQ0pWm3nB6vYaa12"}]}\n\n'
    b"data: [DONE]\n\n"
)
URL = "https://api.openai.com/v1/chat/completions"


def shown_in_pieces(normalizer: Normalizer, pieces: list[bytes], seed: str) -> list[bytes]:
    shown = ShownBody(normalizer, URL, "text/event-stream", (), seed)
    return [*map(shown.feed, pieces), shown.rest()]


@pytest.mark.parametrize("cuts", [[], [10], [30, 31, 100], list(range(1, len(STREAM), 7))])
def test_the_caller_is_shown_the_body_as_it_will_be_stored(cuts: list[int]) -> None:
    # Cut anywhere, even inside an id: the caller gets the bytes the cassette will replay.
    edges = [0, *cuts, len(STREAM)]
    pieces = [STREAM[a:b] for a, b in itertools.pairwise(edges)]
    normalizer = Normalizer()
    shown = b"".join(shown_in_pieces(normalizer, pieces, "k/0"))
    stored = normalizer.response(response(STREAM), OPENAI_COMPATIBLE, "k/0").body
    assert shown == stored == Normalizer().response(response(STREAM), OPENAI_COMPATIBLE, "k/0").body
    assert b"8oK8GnO4" not in shown and b"Zx81kQ0p" not in shown
    assert b'"created":1000000000' in shown


def test_each_whole_line_is_shown_at_once_and_a_cut_one_waits_for_its_end() -> None:
    first_event, rest = STREAM.split(b"\n\n", 1)
    shown = ShownBody(Normalizer(), URL, "text/event-stream", (), "k/0")
    assert shown.feed(first_event + b"\n\n").startswith(b'data: {"id":"chatcmpl-')
    assert shown.feed(rest[:20]) == b""  # the id is not whole yet
    assert shown.feed(rest[20:]).endswith(b"data: [DONE]\n\n")
    assert shown.rest() == b""


def test_a_body_that_is_not_text_is_shown_as_it_came() -> None:
    for content_type in ("audio/mpeg", "application/octet-stream", None):
        shown = ShownBody(Normalizer(), URL, content_type, (), "k/0")
        assert shown.feed(STREAM[:10]) == STREAM[:10] and shown.rest() == b""
    as_sent = ShownBody(None, URL, "text/event-stream", (), "k/0")  # normalize=False
    assert as_sent.feed(STREAM) == STREAM


BEDROCK_URL = "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream"


def test_bedrock_padding_and_latencies_are_fixed_whatever_their_length() -> None:
    stored = []
    for _ in range(2):  # the server draws a new padding length and latency each time
        frames = converse_stream_frames(
            {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}
        )
        response = Response(
            200,
            (("content-type", eventstream.EVENTSTREAM_CONTENT_TYPE),),
            tuple(Chunk(frame, 0.0) for frame in frames),
            "t",
        )
        normalized = eventstream.rewriting_payloads(
            response, lambda r: Normalizer().response(r, BEDROCK, "k/0")
        )
        stored.append(normalized.body)
    assert stored[0] == stored[1]
    assert PADDING_ALPHABET[:8].encode() not in stored[0] and b'"p":"replay-padding"' in stored[0]
    assert b'"latencyMs":1000000000' in stored[0]


def test_an_aws_event_stream_is_shown_frame_by_frame_as_it_will_be_stored() -> None:
    data = b"".join(invoke_stream_frames({"messages": [{"role": "user", "content": "hi"}]}))
    content_type = eventstream.EVENTSTREAM_CONTENT_TYPE
    response = Response(200, (("content-type", content_type),), (Chunk(data, 0.0),), "t")
    shown = ShownBody(Normalizer(), BEDROCK_URL, content_type, (), "k/0")
    pieces = [shown.feed(data[start : start + 57]) for start in range(0, len(data), 57)]
    stored = eventstream.rewriting_payloads(
        eventstream.one_frame_per_chunk(response),
        lambda whole: Normalizer().response(whole, BEDROCK, "k/0"),
    )
    assert b"".join(pieces) == stored.body != data  # ids, times and padding as stored
    first_shown = next(n for n, piece in enumerate(pieces) if piece)
    assert 0 < first_shown < len(pieces) // 2  # each frame as soon as it is whole
    for piece in pieces:
        while piece:
            length = eventstream.frame_length(piece)
            assert length is not None
            eventstream.decode_frame(piece[:length])
            piece = piece[length:]
    assert shown.rest() == b""


def test_a_request_carrying_a_placeholder_goes_upstream_with_the_real_id() -> None:
    normalizer = Normalizer()
    body = b'{"id":"resp_67ccd2bed1ec8190b14f964abc054267","object":"response"}'
    shown = shown_in_pieces(normalizer, [body], "k/0")[-1]
    placeholder = orjson.loads(shown)["id"]
    asked = Request(
        "POST",
        f"https://api.openai.com/v1/responses/{placeholder}/cancel",
        (("content-type", "application/json"),),
        orjson.dumps({"previous_response_id": placeholder}),
    )
    sent = normalizer.upstream(asked)
    assert sent is not None
    assert (
        sent.url
        == "https://api.openai.com/v1/responses/resp_67ccd2bed1ec8190b14f964abc054267/cancel"
    )
    assert orjson.loads(sent.body) == {
        "previous_response_id": "resp_67ccd2bed1ec8190b14f964abc054267"
    }
    assert normalizer.request(asked) == asked  # stored, and keyed, with the placeholder
    unrelated = Request("GET", "https://api.openai.com/v1/models", (), b"")
    assert normalizer.upstream(unrelated) is None and Normalizer().upstream(asked) is None


def test_an_mcp_session_id_gets_one_placeholder_whichever_side_is_stored_first() -> None:
    """The client may send the id back before the answer that gave it is stored; either
    way the answer's header and every request's carry one placeholder, drawn from no
    response's seed, so a new server process's new id stores the same bytes."""
    url = "http://127.0.0.1:8000/mcp"
    provider = detect(url, b"")
    placeholders = set()
    for real in ("4487d0a05dae48c797fbaf881de5a487", "d1f0b400944a480c85d6ef3d78376dcd"):
        normalizer = Normalizer()
        sent = normalizer.request(Request("POST", url, (("mcp-session-id", real),), b"{}"))
        answer = Response(200, (("mcp-session-id", real),), (), "2026-01-01T00:00:00Z")
        given_back = normalizer.response(answer, provider, "key/0")
        assert sent.header("mcp-session-id") == given_back.header("mcp-session-id") != real
        placeholders.add(sent.header("mcp-session-id"))
    (placeholder,) = placeholders
    assert re.fullmatch(r"[0-9a-f]{32}", placeholder or "")
