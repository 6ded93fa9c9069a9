"""The body markers are sought longest first, and the URL's rules looked up once
(:func:`providers.detect`): the provider chosen is the one whose markers are all in the body's
head, the first in order, for every body."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import providers
from replay._core.providers import BUILTIN, OPENAI_COMPATIBLE, Provider, detect

THEIRS = Provider("theirs", body_markers=("zz", "object", "zz"))
MARKERS = sorted({marker for p in (*BUILTIN, THEIRS) for marker in p.body_markers})
PIECES = st.sampled_from([f'"{marker}"' for marker in MARKERS]) | st.sampled_from(
    ['{"', '": 1, ', "}", " ", '"typ', 'e"', "\xe9", "x" * 4000]
)
BODIES = st.lists(PIECES, max_size=12).map(lambda pieces: "".join(pieces).encode())


def _by_markers(body: bytes, extra: tuple[Provider, ...]) -> Provider:
    head = body[:4096]
    for provider in (*extra, *BUILTIN):
        markers = provider.body_markers
        if markers and all(b'"' + marker.encode() + b'"' in head for marker in markers):
            return provider
    return OPENAI_COMPATIBLE


@settings(max_examples=1000, deadline=None)
@given(body=BODIES, extra=st.sampled_from([(), (THEIRS,)]))
def test_a_url_naming_no_provider_takes_the_first_whose_markers_are_all_there(
    body: bytes, extra: tuple[Provider, ...]
) -> None:
    assert detect("http://127.0.0.1:8000/v1/chat/completions", body, extra) is _by_markers(
        body, extra
    )


def test_a_url_naming_a_provider_wins_over_the_body() -> None:
    body = b'{"candidates": [], "usageMetadata": {}}'
    assert detect("https://api.anthropic.com/v1/messages", body) is providers.ANTHROPIC
    assert detect("http://localhost/x", body) is providers.GEMINI
