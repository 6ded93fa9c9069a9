"""The caches of a recorded request's URL work give what working it out again gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay._core import key as request_keys
from replay._core.key import KeyRules
from replay._core.model import Request
from replay._core.redact import Redactor, _scrubber

_PARTS = st.sampled_from(
    [
        "",
        "a",
        "key",
        "api_key",
        "hunter2hunter2",
        "sk-abcdefghijklmnopqrstuvwxyz",
        "x%20y",
        "=",
        "&",
        "+",
        "@",
    ]
)
_URLS = st.builds(
    lambda scheme, user, host, port, path, query: f"{scheme}://{user}{host}{port}/{path}?{query}",
    st.sampled_from(["http", "https", "HTTPS", "ws"]),
    st.sampled_from(["", "user:hunter2hunter2@"]),
    st.sampled_from(["api.example.com", "LOCALHOST", "127.0.0.1"]),
    st.sampled_from(["", ":8080", ":443"]),
    _PARTS,
    st.lists(st.tuples(_PARTS, _PARTS), max_size=4).map(
        lambda pairs: "&".join(f"{name}={value}" for name, value in pairs)
    ),
)


@settings(max_examples=300)
@given(urls=st.lists(_URLS, min_size=1, max_size=6), secrets=st.lists(_PARTS, max_size=2))
def test_a_redacted_url_is_the_one_worked_out_again(urls: list[str], secrets: list[str]) -> None:
    redactor = Redactor(secrets=secrets, environ={})
    rewriters = [redactor.known, _scrubber(frozenset({"hunter2hunter2", *secrets}))]
    for _ in range(2):  # the second time from the cache
        for url in urls:
            for rewriter in rewriters:
                assert redactor.url(url, rewriter) == redactor._url(url, rewriter)
            assert redactor.url(url) == redactor._url(url, redactor.known)


@settings(max_examples=300)
@given(urls=st.lists(_URLS, min_size=1, max_size=6), ignore=st.sampled_from([(), ("key",)]))
def test_a_canonical_url_is_the_one_parsed_again(urls: list[str], ignore: tuple[str, ...]) -> None:
    rules = KeyRules(ignore)
    for url in urls:
        request = Request("GET", url, (), b"")
        first = request_keys.canonical(request, rules)
        request_keys._url_form.cache_clear()
        assert request_keys.canonical(request, rules) == first


_HEADERS = st.lists(
    st.tuples(
        st.sampled_from(["authorization", "cookie", "x-api-key", "accept", "x-goog-api-key"]),
        st.sampled_from(
            [
                "Bearer sk-abcdefghijklmnopqrstuvwxyz",
                "a=hunter2hunter2; b=1",
                "hunter2hunter2",
                "*/*",
            ]
        ),
    ),
    max_size=3,
).map(tuple)


@settings(max_examples=300)
@given(
    calls=st.lists(
        st.tuples(_HEADERS, _URLS, st.sampled_from([b"", b'{"api_key": "sk-abcdefghijkl"}'])),
        min_size=1,
        max_size=6,
    )
)
def test_the_secrets_a_request_carries_are_those_found_again(
    calls: list[tuple[tuple[tuple[str, str], ...], str, bytes]],
) -> None:
    redactor = Redactor(environ={})
    for _ in range(2):  # the second time from the cache
        for headers, url, body in calls:
            request = Request("POST", url, headers, body)
            redacted = redactor.redacted_body(body, "application/json")
            assert redactor.with_secrets_of(request, redacted) is redactor._scrubbing(
                request, redacted.named
            )
            assert redactor.with_secrets_of(request) is redactor._scrubbing(request, True)
