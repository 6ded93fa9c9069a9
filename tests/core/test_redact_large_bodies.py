"""Redaction of a large body (an upload: audio, an image, a long prompt) costs C-level
searches, not a pattern tried at every byte: how many places the scrubber, the pairs' and
free text's patterns are tried does not grow with the bytes around the secrets. And the fast
paths redact exactly what the patterns alone redact (the oracles below: each pattern as it
was written before, run over the whole body with no pre-check)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from secret_samples import GENERIC_FIELD_NAMES, SECRET_FIELD_NAMES

from replay._core import redact
from replay._core.model import Chunk, Request
from replay._core.redact import NamedSecrets, Redactor
from replay._core.rewrite import Rewriter

API_KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
BOUNDARY = b"b0undary"


class Counted:
    """A compiled pattern that counts the places it is tried: every byte from where a search
    starts, or one for a match at a given place."""

    def __init__(self, pattern: re.Pattern[bytes]) -> None:
        self.pattern = pattern
        self.tried = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)

    def finditer(self, data: bytes, pos: int = 0) -> Iterator[re.Match[bytes]]:
        self.tried += len(data) - pos
        return self.pattern.finditer(data, pos)

    def search(self, data: bytes, pos: int = 0) -> re.Match[bytes] | None:
        self.tried += len(data) - pos
        return self.pattern.search(data, pos)

    def sub(self, replace: Any, data: bytes) -> bytes:
        self.tried += len(data)
        return self.pattern.sub(replace, data)

    def match(self, data: bytes, pos: int = 0) -> re.Match[bytes] | None:
        self.tried += 1
        return self.pattern.match(data, pos)


def upload(audio_bytes: int) -> bytes:
    """A multipart audio upload that carries the request's key and a JSON Web Token in a
    text part, its file part bytes of every value (``9:``, ``<=``: signs after name bytes)."""
    audio = (bytes(range(256)) * (audio_bytes // 256 + 1))[:audio_bytes]
    return b"".join(
        [
            b"--" + BOUNDARY + b'\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n',
            b"Signature of " + API_KEY.encode() + b" and eyJhbGciOi.eyJzdWIiOi.c2ln\r\n",
            b"--" + BOUNDARY + b'\r\nContent-Disposition: form-data; name="file"\r\n\r\n',
            audio + b"\r\n--" + BOUNDARY + b"--\r\n",
        ]
    )


def tried_by_scrubber(body: bytes) -> int:
    request = Request(
        "POST",
        "https://api.openai.com/v1/audio/transcriptions",
        (("authorization", f"Bearer {API_KEY}"),),
        body,
    )
    scrub = Redactor(environ={}).with_secrets_of(request)
    counted = Counted(scrub.pattern)
    scrubbed = replace(scrub, pattern=counted).apply(body)  # type: ignore[arg-type]
    assert API_KEY.encode() not in scrubbed and b"eyJhbGciOi" not in scrubbed
    return counted.tried


def test_the_scrubber_is_tried_at_no_more_places_in_a_large_upload_than_in_a_small_one() -> None:
    assert tried_by_scrubber(upload(1 << 20)) == tried_by_scrubber(upload(10_000)) < 100


def counting_names() -> tuple[NamedSecrets, list[Counted]]:
    """The rule's rewriters of values by their names, those of pairs and free text counting."""
    named = NamedSecrets()
    counters = []
    for attribute in ("pairs", "pair_signs", "texts"):
        counter = Counted(getattr(named, attribute).pattern)
        counters.append(counter)
        setattr(named, attribute, replace(getattr(named, attribute), pattern=counter))
    return named, counters


def tried_by_names(body: bytes) -> int:
    named, counters = counting_names()
    assert named.hinted(body) and redact.names_in_text(body)  # the patterns' pre-checks pass
    assert named.apply(body) == body and not list(named.values(body))
    return sum(counter.tried for counter in counters)


def test_pairs_and_free_text_are_not_scanned_in_a_large_upload_naming_no_secret() -> None:
    assert tried_by_names(upload(1 << 20)) == tried_by_names(upload(10_000)) == 0


def tried_in_a_prompt(prose_bytes: int) -> int:
    """A long prompt of words and spaces that names a pair and a value in free text."""
    prose = (b"lorem ipsum dolor sit amet " * (prose_bytes // 27 + 1))[:prose_bytes]
    body = b'{"content": "' + prose + b' api_key=Zx9Qw8Er7Ty6Ui5Op4As, my token: Ab3dEf6hIj9kLm2"}'
    named, counters = counting_names()
    redacted = named.apply(body)
    assert b"Zx9Qw8Er7Ty6Ui5Op4As" not in redacted and b"Ab3dEf6hIj9kLm2" not in redacted
    assert set(named.values(body)) == {"Zx9Qw8Er7Ty6Ui5Op4As", "Ab3dEf6hIj9kLm2"}
    return sum(counter.tried for counter in counters)


def test_pairs_and_free_text_are_tried_only_near_their_signs_in_a_long_prompt() -> None:
    assert tried_in_a_prompt(1 << 20) == tried_in_a_prompt(10_000) < 100


OLD_FIELD = re.compile(rb'("([^"\\]{1,80})"\s*:\s*)("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+\-]*)')
OLD_MULTIPART_FIELD = re.compile(
    rb'(content-disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)'
    rb"(.*?)(?=\r\n--)",
    re.IGNORECASE | re.DOTALL,
)
NAMES = [*SECRET_FIELD_NAMES, *GENERIC_FIELD_NAMES, "model", "Key", "signature"]
PIECES = st.one_of(
    st.sampled_from(['"', '\\"', ":", " ", ",", "{", "}", "\\", "\\u0073", "\r\n", "\r\n--"]),
    st.sampled_from(NAMES).map(lambda name: f'"{name}"'),
    st.sampled_from(NAMES).map(lambda name: f'"{name}" : '),
    st.sampled_from(NAMES).map(lambda name: f"{name}="),
    st.sampled_from(NAMES).map(lambda name: f"my {name}: "),
    st.sampled_from(NAMES).map(
        lambda name: f'Content-Disposition: form-data; name="{name}"\r\n\r\n'
    ),
    st.text("abcXYZ0123456789_-+/=.:%", max_size=30),
    st.text("ab Z9_-.\t:=", max_size=20),
    st.text("aZ9_.-%3DdFf26u0\\&=", max_size=90),
    st.sampled_from(["&", "?", "%3D", "%3d", "\\u0026", "=", " = ", "\t", "Bearer ", "task-"]),
    st.sampled_from([API_KEY, "sk-" + API_KEY, "Ab3dEf6hIj9kLm2nOp5q", "eyJhbGciOi.eyJz.c2"]),
    st.sampled_from([API_KEY.replace("-", "%2D"), "AKIAABCDEFGHIJKLMNOP", "Bearer abc/def+ghi=jk"]),
    st.binary(max_size=12).map(lambda data: data.decode("latin-1")),
)
BODIES = st.lists(PIECES, max_size=40).map(lambda pieces: "".join(pieces).encode("latin-1"))


def old_named(named: NamedSecrets, data: bytes) -> bytes:
    """What the rewriters of values by their names make of ``data`` with no pre-check at
    all, each pattern run over the whole of it, the field pattern as it was written before."""
    data = Rewriter(OLD_FIELD, named.fields.replace).apply(data)
    for rewriter in (named.xml, named.pairs, named.texts):
        data = Rewriter(rewriter.pattern, rewriter.replace).apply(data)
    return data


def old_values(named: NamedSecrets, data: bytes) -> list[str]:
    found = []
    for rewriter, group, read in (
        (named.fields, 3, redact._json_text),
        (named.xml, 4, redact._xml_text),
        (named.pairs, 3, redact._form_text),
        (named.texts, 3, redact._form_text),
    ):
        pattern = OLD_FIELD if rewriter is named.fields else rewriter.pattern
        for match in pattern.finditer(data):
            if rewriter.replace(match) != match.group():
                found.append(read(match.group(group)))
    return found


RULES = [NamedSecrets(), NamedSecrets(["customer_ref"])]


@settings(max_examples=600, deadline=None)
@given(body=BODIES, rules=st.sampled_from(RULES), cut=st.integers(0, 400))
def test_values_named_like_secrets_are_redacted_as_the_whole_patterns_redact_them(
    body: bytes, rules: NamedSecrets, cut: int
) -> None:
    assert rules.apply(body) == old_named(rules, body)
    chunks = (Chunk(body[:cut], 0.0), Chunk(body[cut:], 0.1))
    assert b"".join(chunk.data for chunk in rules.apply_to(chunks)) == old_named(rules, body)
    assert list(rules.values(body)) == old_values(rules, body)


@settings(max_examples=600, deadline=None)
@given(body=BODIES)
def test_the_word_before_a_sign_is_in_every_pair_and_text_the_rule_redacts(body: bytes) -> None:
    if not redact.names_a_secret_before(body, redact._PAIR_NAME_RUN, (b"=", b"%3")):
        assert not any(redact.PAIRS.spans(body))
    if not redact.names_a_secret_before(body, redact._TEXT_NAME_RUN, (b":", b"=")):
        assert not any(redact.TEXT_PAIRS.spans(body))


@settings(max_examples=600, deadline=None)
@given(body=BODIES)
def test_fields_and_multipart_values_are_matched_as_the_patterns_written_before(
    body: bytes,
) -> None:
    for new, old in ((redact._FIELD, OLD_FIELD), (redact._MULTIPART_FIELD, OLD_MULTIPART_FIELD)):
        assert [m.groups() for m in new.finditer(body)] == [m.groups() for m in old.finditer(body)]


@settings(max_examples=600, deadline=None)
@given(body=BODIES, carried=st.booleans())
def test_a_scrubber_tried_where_a_match_may_start_scrubs_as_its_whole_pattern(
    body: bytes, carried: bool
) -> None:
    headers = (("authorization", f"Bearer {API_KEY}"),) if carried else ()
    request = Request("POST", "https://api.example.com/v1/x", headers, b"")
    scrub = Redactor(secrets=["hunter2hunter2"], environ={}).with_secrets_of(request)
    assert spans(scrub.matches(body)) == spans(scrub.pattern.finditer(body))
    assert scrub.apply(body) == scrub.pattern.sub(scrub.replace, body)


@settings(max_examples=600, deadline=None)
@given(body=BODIES, rules=st.sampled_from(RULES))
def test_free_text_sought_at_the_words_before_a_sign_is_found_as_its_pattern_finds_it(
    body: bytes, rules: NamedSecrets
) -> None:
    assert spans(rules.texts.matches(body)) == spans(rules.texts.pattern.finditer(body))


@settings(max_examples=600, deadline=None)
@given(body=BODIES, rules=st.sampled_from(RULES))
def test_pairs_sought_at_the_names_before_a_sign_are_found_as_their_pattern_finds_them(
    body: bytes, rules: NamedSecrets
) -> None:
    assert spans(rules.pairs.matches(body)) == spans(rules.pairs.pattern.finditer(body))


def spans(matches: Iterator[re.Match[bytes]]) -> list[tuple[int, int]]:
    return [match.span() for match in matches]


def test_a_look_kept_for_a_large_body_answers_only_for_the_same_bytes() -> None:
    plain = b"x" * (redact._LOOKS_WORTH_KEEPING + 10)
    named = plain[:-17] + b" my token: Ab3dEf"
    assert len(named) == len(plain)
    for _ in range(2):  # each answered as looked at, then as kept
        assert not redact.hinted(plain) and redact.hinted(named) and redact.hinted(bytes(named))
        assert not redact._NAMES_IN_TEXT(plain) and redact._NAMES_IN_TEXT(named)
