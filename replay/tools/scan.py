"""``replay scan``: secrets that escaped redaction, searched in every string of stored entries.

The same rule as redaction's: the secrets' shapes (API keys, tokens, JSON Web Tokens,
account ids) and this environment's secret values anywhere; the value of a header, of a
body's field, of a ``name=value`` pair (a signed URL's signature, a form-encoded answer) or
of an XML element in a text, named like a secret (:mod:`replay._core.secret_names`), unless
it is the placeholder: a cassette written by an older version, or edited by hand, may still
hold one. Each finding names the rule that matched it: the value of which environment
variable, a key shape, an unredacted secret header, or a value named like a secret.

Fast: every string is first given the cheap looks redaction gives a body (a memchr of each
needle's rarest byte, a name's hint), and only the few strings one of them finds are
searched by a pattern.

Base64 bodies and chunks are decoded first, and then their ``content-encoding``
(gzip, deflate, br, zstd) undone as recording does: a body kept compressed (an
encoding this machine could not undo when it was recorded, an older cassette, an
imported one) is scanned for what it says, not for its compressed bytes. One that is
not valid base64, or whose encoding cannot be undone here, is scanned as it stands
and reported as a problem, since a damaged body may still hold a key in plain text.
Pure: it takes parsed entries and returns findings; the command line reads the files
and prints.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

import orjson

from replay._core.errors import CassetteError
from replay._core.redact import (
    ACCOUNT_HEADERS,
    HINT_WORDS,
    KEY_SHAPE_SEARCHES,
    PLACEHOLDER,
    SUBPROTOCOL_HEADER,
    Scrubber,
    SecretHeaders,
    environment_secrets,
    hint_at,
    looks_like_secret,
    may_name_a_pair,
    named_secrets,
    names_in_text,
    subprotocol_keys,
)
from replay._core.rewrite import Rewriter
from replay._core.secret_names import LOWERED_TO_ASCII, NAME_WORDS, Verdict, field_verdict
from replay._core.streams import BodyDecoder
from replay._store import cassette_file as store
from replay.tools.inventory import CassetteFile

MASK_SHOWN = 6
"""How many characters of a secret found are shown."""
KEY_SHAPES = (
    ("sk-ant-", "an Anthropic key shape (sk-ant-…)"),
    ("sk-proj-", "an OpenAI project key shape (sk-proj-…)"),
    ("sk-", "an OpenAI-style key shape (sk-…)"),
    ("gsk_", "a Groq key shape (gsk_…)"),
    ("AIza", "a Google key shape (AIza…)"),
    ("xai-", "an xAI key shape (xai-…)"),
    ("hf_", "a Hugging Face token shape (hf_…)"),
    ("eyJ", "a JSON Web Token (eyJ….….…)"),
    ("ya29.", "a Google OAuth token shape (ya29.…)"),
    ("1//0", "a Google OAuth refresh token shape (1//0…)"),
    ("AKIA", "an AWS access key id shape (AKIA…)"),
    ("ASIA", "an AWS temporary access key id shape (ASIA…)"),
    ("ek_", "an OpenAI Realtime client secret shape (ek_…)"),
    ("org-", "an OpenAI organization id (org-…)"),
    ("user-", "an OpenAI user id (user-…)"),
    ("proj_", "an OpenAI project id (proj_…)"),
)
"""What a match starting so is named after, the longest prefix first."""


@dataclass(frozen=True)
class Finding:
    path: str
    key: str
    field: str
    secret: str
    rule: str
    """Which rule matched: ``the value of $NAME`` or a key shape."""

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "key": self.key,
            "field": self.field,
            "match": self.masked,
            "rule": self.rule,
        }

    @property
    def masked(self) -> str:
        return f"{self.secret[:MASK_SHOWN]}… ({len(self.secret)} characters)"


@dataclass(frozen=True)
class Problem:
    """A string that could not be decoded for scanning, or an interaction not in the format
    (its strings are scanned as stored all the same)."""

    path: str
    key: str
    field: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class _Text:
    where: str
    text: str
    problem: str | None = None


def _strings(value: Any, where: str, decoder: BodyDecoder | None = None) -> Iterator[_Text]:
    """Every string in a stored entry, with its path; base64 bodies decoded.

    ``decoder`` undoes the content-encoding of the request or response being walked; it
    is stateful, so the chunks of one response go through it in order, as they arrived.
    """
    if isinstance(value, dict):
        decoder = _decoder_for(value) or decoder
        for name, item in value.items():
            if name == "base64" and isinstance(item, str):
                yield _decoded(item, f"{where}.{name}", decoder)
            else:
                yield from _strings(item, f"{where}.{name}", decoder)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{where}[{index}]", decoder)
    elif isinstance(value, str):
        yield _Text(where, value)


def _decoder_for(message: dict[str, Any]) -> BodyDecoder | None:
    """A decoder for a stored request or response sent with a content-encoding."""
    headers = message.get("headers")
    if not isinstance(headers, dict):
        return None
    encoding = next(
        (value for name, value in headers.items() if str(name).lower() == "content-encoding"),
        None,
    )
    return BodyDecoder(encoding) if isinstance(encoding, str) and encoding.strip() else None


def _decoded(encoded: str, where: str, decoder: BodyDecoder | None) -> _Text:
    try:
        data = store.decode_body({"base64": encoded})
    except ValueError:  # binascii.Error
        return _Text(where, encoded, "not valid base64 (scanned as text)")
    if decoder is None:
        return _Text(where, data.decode("utf-8", errors="replace"))
    if not decoder.decodes:
        problem = "a content-encoding this machine cannot undo (scanned as stored)"
        return _Text(where, data.decode("utf-8", errors="replace"), problem)
    try:
        content = decoder.decode(data)
    except Exception:  # each decompressor has its own error
        problem = "not what its content-encoding says (scanned as stored)"
        return _Text(where, data.decode("utf-8", errors="replace"), problem)
    return _Text(where, content.decode("utf-8", errors="replace"))


_HEADER_FIELD = re.compile(r"(?:^|\.)headers\.(?P<name>[^.]+)$")
_BODY_FIELD = re.compile(r"\.json(?:\.|\[).*?(?P<name>[^.\[\]]+)(?:\[\d+\])*$")
"""A string inside a body kept parsed (``....body.json.credentials.SessionToken``): the name
of the field holding it, its list indexes left out. The cassette's own fields (``key``,
``digest``) are outside every ``json`` and never taken for a secret's."""


def _redacted(value: str) -> bool:
    """Whether a stored value is what redaction writes: the placeholder, alone, after a kept
    prefix (``org-REDACTED``) or in each of a repeated header's values."""
    return all(
        (part.endswith(PLACEHOLDER) and len(part) <= len(PLACEHOLDER) + 8) or not part
        for part in value.split(", ")
    )


def _unredacted_header(field: str, value: str, secret_headers: SecretHeaders) -> bool:
    """A secret or account header whose stored value is not (only) the placeholder."""
    match = _HEADER_FIELD.search(field)
    if match is None:
        return False
    name = match.group("name").lower()
    if not secret_headers[name]:
        return False
    if name == SUBPROTOCOL_HEADER:
        return any(key != PLACEHOLDER for _, key in subprotocol_keys(value))
    return not _redacted(value)


def _unredacted_field(field: str, value: str) -> bool:
    """A body's field named like a secret (the rule of :mod:`replay._core.secret_names`) whose
    value is not the placeholder."""
    match = _BODY_FIELD.search(field)
    if match is None or _redacted(value):
        return False
    said = field_verdict(match.group("name"))
    return said is Verdict.SECRET or (said is Verdict.IF_SHAPED and looks_like_secret(value))


def environment_rules(environ: Mapping[str, str]) -> dict[str, str]:
    """Each secret value of the environment -> the rule naming the variables that hold it."""
    secrets = environment_secrets(environ)
    names: dict[str, list[str]] = {}
    for name, value in sorted(environ.items()):
        if value in secrets:
            names.setdefault(value, []).append(f"${name}")
    return {value: f"the value of {' and '.join(held)}" for value, held in names.items()}


def rule_of(match: re.Match[bytes], environment: Mapping[str, str]) -> str:
    secret = match.group().decode(errors="replace")
    if secret in environment:
        return environment[secret]
    for prefix, shape in KEY_SHAPES:
        if secret.startswith(prefix):
            return shape
    if match.string[: match.start()].endswith(b"Bearer "):
        return "a bearer token (Bearer …)"
    return "a key shape"


NAMED_RULE = "a value named like a secret"
HEADER_RULE = "a secret or account header not redacted"


def scan_cassette(
    cassette: CassetteFile,
    known: Rewriter,
    environ: Mapping[str, str] = os.environ,
    secret_headers: SecretHeaders | None = None,
) -> tuple[list[Finding], list[Problem]]:
    """What redaction would have taken out of ``cassette``: the matches of ``known`` (the
    key shapes and known secrets of :class:`~replay._core.redact.Redactor`), headers and body
    fields named like secrets, and ``name=value`` pairs, XML elements and JSON fields so named
    inside any stored text.

    Each interaction is first written out whole as JSON and searched in C (:class:`Prefilter`):
    one that holds nothing any rule could take is not walked string by string. The others,
    and each string in them, are looked at first by the cheap tests redaction itself uses (the
    needles of ``known``, a name's hint, ``</``), which settle almost all of them; only a string
    one of them finds is searched by a pattern."""
    findings: list[Finding] = []
    problems: list[Problem] = []
    environment = environment_rules(environ)
    headers = SecretHeaders(ACCOUNT_HEADERS) if secret_headers is None else secret_headers
    prefilter = Prefilter(known, headers)
    for key in sorted(cassette.entries):
        found, unreadable = (
            ([], [])
            if prefilter.clean(cassette.entries[key])
            else (scan_entry(cassette, key, known, environment, headers))
        )
        findings += found
        problems += unreadable
        if not unreadable:  # a string problem already says why it is malformed
            problems.extend(_format_problem(cassette, key))
    return findings, problems


def scan_entry(
    cassette: CassetteFile,
    key: str,
    known: Rewriter,
    environment: Mapping[str, str],
    headers: SecretHeaders,
) -> tuple[list[Finding], list[Problem]]:
    """The findings in one interaction, string by string, and the strings it could not decode."""
    findings: list[Finding] = []
    problems: list[Problem] = []
    path = str(cassette.path)
    for found in _strings(cassette.entries[key], ""):
        field = found.where.lstrip(".")
        if found.problem is not None:
            problems.append(Problem(path, key, field, found.problem))
        if _unredacted_header(field, found.text, headers):
            findings.append(Finding(path, key, field, found.text, HEADER_RULE))
            continue
        if _unredacted_field(field, found.text):
            findings.append(Finding(path, key, field, found.text, NAMED_RULE))
            continue
        data = found.text.encode()
        shaped: list[str] = []
        if not known.leaves(data) and _may_match(known, data):
            for match in known.pattern.finditer(data):
                secret = match.group().decode(errors="replace")
                if not _redacted(secret):
                    shaped.append(secret)
                    findings.append(Finding(path, key, field, secret, rule_of(match, environment)))
        for secret in named_secrets(data):
            if not any(shape in secret for shape in shaped):  # found once is enough
                findings.append(Finding(path, key, field, secret, f"{NAMED_RULE} (in text)"))
    return findings, problems


def _may_match(known: Rewriter, data: bytes) -> bool:
    """Whether ``known``'s pattern may match in ``data``: one of its literals is there, or a
    key shape's search matches (each opens with a literal, so these run at ``find``'s speed,
    where the pattern, its shapes asking of the byte before them, is tried at every byte)."""
    return any(literal in data for literal in _literals(known)) or any(
        search.search(data) is not None for search in KEY_SHAPE_SEARCHES
    )


def _literals(known: Rewriter) -> tuple[bytes, ...]:
    """The literals ``known`` seeks besides the key shapes (all its needles, if it does not
    say which those are)."""
    return known.literals if isinstance(known, Scrubber) else known.needles


_REDACTED_VALUES = tuple(b'"' + PLACEHOLDER.encode() + b'"' + after for after in (b",", b"}"))


class Prefilter:
    """Whether a stored interaction may hold anything :func:`scan_entry` finds, decided over
    the interaction written out as compact JSON, by searches in C: an interaction it calls
    clean holds nothing any rule takes (a property test holds the two to that).

    Every string of the interaction is in that JSON, escaped (``"``, ``\\`` and control
    characters), and every name of its objects. What the rules find, and where it is seen:

    - a key shape: one of :data:`~replay._core.redact.KEY_SHAPE_SEARCHES` matches (a key is
      never escaped); a known secret: one of its forms, written as JSON, is there;
    - a name the rule takes (a header, a body's field) holds one of
      :data:`~replay._core.secret_names.NAME_WORDS`, and a text :func:`hinted` finds a hint in
      holds one of :data:`~replay._core.redact.HINT_WORDS`: each place the JSON, lowered,
      holds one of those words is looked at alone. In a name whose value is a string (not
      the placeholder), the rule is asked of that name and value as for a header and as for a
      body's field; in a text, :func:`hinted` is asked of the word and the rest of its text;
    - a name whose value is a list, a character ``str.lower`` makes ASCII of
      (:data:`~replay._core.secret_names.LOWERED_TO_ASCII`), or a ``base64`` body (decoded for
      the search, or a problem) sends the interaction to :func:`scan_entry` whole.
    """

    def __init__(self, known: Rewriter, secret_headers: SecretHeaders) -> None:
        self.secret_headers = secret_headers
        self.literals = tuple(orjson.dumps(literal.decode())[1:-1] for literal in _literals(known))
        """The known secrets' forms as a JSON string writes them."""
        names = {word.encode() for word in NAME_WORDS}
        names |= {name.lower().encode() for name in (*secret_headers.added, SUBPROTOCOL_HEADER)}
        words = names | HINT_WORDS
        self.words = tuple(
            HINT_WORDS | {name for name in names if not any(w != name and w in name for w in words)}
        )
        """Lowered. Every hint's own word, as :meth:`_plain_at` asks :func:`hinted` about the
        word it found; a name's word only if it holds no other (a name is judged whole)."""
        self.stops = (b'"base64"', *(character.encode() for character in LOWERED_TO_ASCII))

    def clean(self, entry: Any) -> bool:
        try:
            data = orjson.dumps(entry)
        except (TypeError, orjson.JSONEncodeError):
            return False
        if any(stop in data for stop in self.stops) or any(
            literal in data for literal in self.literals
        ):
            return False
        if any(search.search(data) is not None for search in KEY_SHAPE_SEARCHES):
            return False
        lowered = data.lower()
        look = _Look(data, self.secret_headers)
        for word in self.words:
            found = lowered.find(word)
            while found >= 0:
                if not look.plain_at(found, found + len(word)):
                    return False
                found = lowered.find(word, found + 1)
        return True


class _Look:
    """:meth:`Prefilter.clean`'s looks at the places in one interaction's JSON that hold a word:
    each text judged once, the spans of its ``headers`` objects found once."""

    def __init__(self, data: bytes, secret_headers: SecretHeaders) -> None:
        self.data = data
        self.secret_headers = secret_headers
        self.texts: dict[int, bool] = {}
        """Where a text opens -> whether it is plain."""

    def plain_at(self, start: int, stop: int) -> bool:
        """Whether the word at ``data[start:stop]`` makes no rule take anything: in a text, it
        is no hint, or the text has nothing :func:`named_secrets` finds; in a name, the name's
        value is not a list, and is a string only if the rule takes nothing of it there (as a
        header's, if the name is in a ``headers`` object, and as a body field's)."""
        data = self.data
        end = _string_end(data, stop)
        if end < 0:
            return False
        if data[end + 1 : end + 2] != b":":  # in a text, not a name
            if not hint_at(data[start:end]):
                return True
            opening = _string_start(data, start)
            plain = self.texts.get(opening)
            if plain is None:
                plain = not self._may_name(opening, end) or not any(
                    named_secrets(orjson.loads(data[opening : end + 1]).encode())
                )
                self.texts[opening] = plain
            return plain
        value = data[end + 2 : end + 3]
        if value != b'"':
            return value != b"["
        if data[end + 2 : end + 13] in _REDACTED_VALUES:
            return True
        opening = max(data.rfind(b'{"', 0, start), data.rfind(b',"', 0, start)) + 1
        value_end = _string_end(data, end + 3)
        if value_end < 0:
            return False
        name = orjson.loads(data[opening : end + 1])
        text = orjson.loads(data[end + 2 : value_end + 1])
        where = "headers" if self._in_headers(opening) else ""
        return not (
            _unredacted_header(f"{where}.{name}", text, self.secret_headers)
            or _unredacted_field(f".json.{name}", text)
        )

    def _may_name(self, opening: int, end: int) -> bool:
        """Whether the text between these quotes may hold what
        :func:`~replay._core.redact.named_secrets` finds: a JSON field or an XML element
        (it holds a quote or ``</``), or a pair whose name holds a word of
        :data:`~replay._core.secret_names.NAME_WORDS` (the name the rule takes of a pair is
        in the run of name bytes before its ``=`` or ``%3D``; a base64 image's padding has a
        run of random letters before it)."""
        data = self.data
        if data.find(b'\\"', opening, end) >= 0 or data.find(b"</", opening, end) >= 0:
            return True
        return may_name_a_pair(data, opening, end, _ESCAPED_NAME_BYTES) or names_in_text(
            data[opening:end]
        )

    @cached_property
    def _headers(self) -> list[tuple[int, int]]:
        """The spans of the objects that are the value of a name ``headers`` (or ``….headers``):
        where a field path reads ``headers.NAME``."""
        data = self.data
        spans = []
        found = data.find(_HEADERS)
        while found >= 0:
            if data[found - 1 : found] in (b'"', b"."):
                opening = found + len(_HEADERS) - 1
                spans.append((opening, _object_end(data, opening)))
            found = data.find(_HEADERS, found + 1)
        return spans

    def _in_headers(self, at: int) -> bool:
        return any(opening < at < end for opening, end in self._headers)


_HEADERS = b'headers":{'
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]]')


def _object_end(data: bytes, opening: int) -> int:
    """Where the object or list opening at ``data[opening]`` closes (the end of the data if
    it does not): strings passed over whole."""
    depth = 0
    for token in _TOKEN.finditer(data, opening):
        mark = token.group()
        if mark in (b"{", b"["):
            depth += 1
        elif mark in (b"}", b"]"):
            depth -= 1
            if not depth:
                return token.start()
    return len(data)


_ESCAPED_NAME_BYTES = bytes(
    byte for byte in range(256) if re.fullmatch(rb"[\w.\-\\]", bytes([byte])) is not None
)
"""The bytes of a pair's name, and a backslash: in a text written as JSON, an escape (``\\n``)
before a name reads as more of its run."""


def _string_start(data: bytes, inside: int) -> int:
    """Where the JSON string holding ``data[inside]`` opens: the last quote before it that an
    odd number of backslashes does not escape (a text holds no bare quote)."""
    start = data.rfind(b'"', 0, inside)
    while start > 0 and _escaped(data, start):
        start = data.rfind(b'"', 0, start)
    return max(start, 0)


def _escaped(data: bytes, quote: int) -> bool:
    before = quote
    while before > 0 and data[before - 1] == 0x5C:  # a backslash
        before -= 1
    return (quote - before) % 2 == 1


def _string_end(data: bytes, start: int) -> int:
    """The closing quote of the JSON string ``start`` is in (-1 if none): the first quote from
    there that an odd number of backslashes does not escape."""
    end = data.find(b'"', start)
    while end > 0 and data[end - 1] == 0x5C and _escaped(data, end):
        end = data.find(b'"', end + 1)
    return end


def _format_problem(cassette: CassetteFile, key: str) -> Iterator[Problem]:
    """An interaction not in the format: its strings were scanned as stored all the same."""
    try:
        store.decode(cassette.path, key, cassette.entries[key])
    except CassetteError as error:
        yield Problem(str(cassette.path), key, "", f"{error.reason} (scanned as stored)")
