"""Keep secrets off disk: every request and response passes through here before it is stored.

What is replaced by :data:`PLACEHOLDER`:

- the values of secret headers (``authorization``, ``x-api-key``, cookies, cloud
  credentials such as ``x-amz-security-token``, ...), of the headers naming the account
  (``openai-organization``, ``openai-project``, ``anthropic-organization-id``), and of
  secret query parameters (``key``, ``api_key``, ``access_token``, ``sig``, the
  ``X-Amz-Signature`` of a presigned URL, ...);
- the userinfo of a URL (``https://user:pass@host``);
- the values of secret JSON fields (``"api_key": "..."``, a number as well as a string) in
  request and response bodies, and of secret parameters in form-encoded and multipart
  request bodies; the generic names ``token`` and ``secret`` only where the value looks
  like a secret (:func:`looks_like_secret`), since ``"token"`` is also a logprob's text;
- wherever they appear (URL, body, response, stream chunks, error messages), and in every
  form a server may echo them in (percent-encoded, ``+`` for a space, JSON-escaped with
  ``\\/`` or ``\\uXXXX``): the values of environment variables whose names end in ``_KEY``,
  ``_TOKEN`` or ``_SECRET`` or contain ``API_KEY`` and that look like secrets; the secrets
  the request itself carried in its auth headers (a Basic password decoded, a SigV4
  signature alone), cookies, parameters and secret body fields (servers echo them in error
  bodies); literal secrets the user names; and strings shaped like the major providers'
  API keys.
"""

from __future__ import annotations

import base64
import binascii
import html
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlencode, urlsplit, urlunsplit

import orjson

from replay._core.model import Chunk, Frame, GrpcCall, Headers, Request, Response, WebSocketSession
from replay._core.rewrite import Rewriter, Rewrites, led_matches
from replay._core.secret_names import (
    NAME_WORDS,
    Verdict,
    field_verdict,
    names_a_password,
    secret_header,
    secret_param,
    secret_variable,
    verdict,
    words,
)

PLACEHOLDER = "REDACTED"
_PLACEHOLDER_BYTES = PLACEHOLDER.encode()

ACCOUNT_HEADERS = frozenset({"openai-organization", "openai-project", "anthropic-organization-id"})
"""Not credentials, but they name the user's organization: kept off disk like secrets."""
MIN_SECRET_LENGTH = 8
"""Shorter environment values ("1", "true") would scrub ordinary text, so they are left alone."""

_NOT_INSIDE_A_WORD = rb"(?<![A-Za-z0-9_\-])"
_KEY_SHAPE_FORMS: tuple[tuple[tuple[bytes, ...], bytes, bool], ...] = (
    ((b"sk-",), rb"(?:ant-|proj-|svcacct-)?[A-Za-z0-9_\-]{20,}", False),
    ((b"gsk_",), rb"[A-Za-z0-9]{20,}", False),
    ((b"AIza",), rb"[0-9A-Za-z_\-]{35}", False),
    ((b"xai-",), rb"[A-Za-z0-9]{20,}", False),
    ((b"hf_",), rb"[A-Za-z0-9]{20,}", False),
    ((b"ya29.",), rb"[A-Za-z0-9_\-]{20,}", False),  # a Google OAuth access token
    ((b"1//0",), rb"[A-Za-z0-9_\-]{20,}", False),  # a Google OAuth refresh token
    ((b"AKIA", b"ASIA"), rb"[0-9A-Z]{16}(?![0-9A-Z])", False),  # an AWS access key id
    # A JSON Web Token: base64url header (``{"`` is ``eyJ``), payload and signature (empty
    # when unsigned). OAuth access, refresh and id tokens, Azure AD and Vertex bearer tokens.
    ((b"eyJ",), rb"[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*", False),
    ((b"Bearer ",), rb"[A-Za-z0-9._~+/\-]{16,}=*", True),  # the token after it, not the word
    ((b"ek_",), rb"[A-Za-z0-9]{20,}", False),  # an OpenAI Realtime client secret
    # OpenAI's organization, user and project ids, in error texts and image URLs' paths.
    ((b"org-", b"user-", b"proj_"), rb"[A-Za-z0-9]{20,}", False),
)
"""Each key shape: its prefixes, what follows them, and whether the match starts after the
prefix (a bearer token) rather than with it. Other than a bearer token's, a match is not
inside a word: no letter, digit, ``_`` or ``-`` just before it."""


def _key_shape(prefixes: tuple[bytes, ...], rest: bytes, after: bool) -> bytes:
    alternatives = b"|".join(re.escape(prefix) for prefix in prefixes)
    if after:
        return b"(?<=" + alternatives + b")" + rest
    return _NOT_INSIDE_A_WORD + b"(?:" + alternatives + b")" + rest


_KEY_SHAPES = tuple(_key_shape(*form) for form in _KEY_SHAPE_FORMS)
KEY_SHAPE_SEARCHES = tuple(
    re.compile(re.escape(prefix) + rest)
    for prefixes, rest, _ in _KEY_SHAPE_FORMS
    for prefix in prefixes
)
"""A pattern per prefix of each key shape, with nothing asked of the byte before it: each
opens with a literal, which sre seeks as fast as ``find`` (an alternation of them is tried at
every byte, 20 times as slow). Whatever a key shape matches in a text, one of these matches
in that text, and in that text written as a JSON string (the bytes of a key are never
escaped): a scan's pre-filter over whole stored interactions."""
ACCOUNT_PREFIXES = (b"org-", b"user-", b"proj_", b"ek_")
STAND_IN_PREFIXES = (
    *(b"sk-ant-", b"sk-proj-", b"sk-svcacct-", b"sk-", b"gsk_", b"AIza", b"xai-", b"hf_"),
    *(b"ya29.", b"1//0", b"AKIA", b"ASIA", b"eyJ", *ACCOUNT_PREFIXES),
)
"""Each key shape keeps its prefix before the placeholder (``sk-proj-REDACTED``,
``AKIAREDACTED``, ``eyJREDACTED`` for a JSON Web Token, ``org-REDACTED``): a reader still sees
what was there, and a client that checks the prefix still parses it. Longest first."""
_LONG_KEY_NEEDLES = (
    *(b"sk-", b"gsk_", b"AIza", b"xai-", b"hf_", b"ya29.", b"1//0", b"AKIA", b"ASIA"),
    *ACCOUNT_PREFIXES,
)
"""The shapes above holding one of these also hold :data:`~replay._core.rewrite.WORD_RUN`
bytes of ``[A-Za-z0-9_-]`` in a row (20 or more after the prefix; an AWS key id's 20)."""
_SHORT_KEY_NEEDLES = (b"eyJ", b"Bearer ")
_KEY_SHAPE_NEEDLES = (*_LONG_KEY_NEEDLES, *_SHORT_KEY_NEEDLES)
"""Every key shape above contains one of these: text without them is not scanned for keys."""
_HINT_WORDS = (b"secret", b"passw", b"assphrase", b"credential", b"uthorization", b"ignature")
_HINT_NEEDLES = (
    *(variant for word in _HINT_WORDS for variant in (word, word.capitalize(), word.upper())),
    *(b"Token", b"TOKEN", b"Key", b"KEY", b"Sig", b"SIG"),
)
_HINTS = Rewriter(re.compile(b"(?!)"), lambda match: match.group(), _HINT_NEEDLES)
"""Only for :meth:`~replay._core.rewrite.Rewriter.leaves`: a memchr of each needle's rarest
byte, where a case-blind pattern of the words took 50 times as long."""
_TEXT_NAME_WORDS = 6
"""At most this many words in a name written in free text (``x-amz-security-token``, "my api
key"): :data:`_TEXT_PAIR` and the hints of lower-case words agree on it."""
_LOWER_HINT_WORDS = (b"token", b"key", b"sig")
_LOWER_HINTS = tuple(
    re.compile(
        word
        + rb"(?=[\"'_\-=%<>\\0-9A-Z:]|(?:[ .][A-Za-z0-9]++)"
        + b"{0,%d}+" % _TEXT_NAME_WORDS
        + rb"[ \t]*+[:=])"
    )
    for word in _LOWER_HINT_WORDS
)
"""The lower-case words that prose and usage counts are full of (``tokens``, ``keyboard``,
``design``, "a token of"): a hint only where a name goes on or ends (a quote, ``_``, ``-``,
``=``, ``:``, ``%``, ``<``, ``>``, a backslash, a digit, a capital), or where the words of a
name written with spaces or dots end in a ``:`` or ``=`` ("my token: ...", "api key = ...");
never before a space or a small letter otherwise. Each pattern opens with its word, which
sre seeks as a literal."""


HINT_WORDS = frozenset({needle.lower() for needle in _HINT_NEEDLES} | set(_LOWER_HINT_WORDS))
"""Every hint below, lowered: data :func:`hinted` finds a hint in holds one of these, lowered,
where the hint is (a pre-filter searches data lowered once for these, then asks
:func:`hinted` about the few places one is)."""


def hint_at(window: bytes) -> bool:
    """Whether ``window`` opens with a hint: data holds a hint exactly where this holds of the
    data from one of the places the data, lowered, holds a word of :data:`HINT_WORDS` (and
    what follows the word to the end of its text: a name written with spaces runs on to its
    ``:`` or ``=``)."""
    return window.startswith(_HINT_NEEDLES) or _LOWER_HINT_AT.match(window) is not None


_LOWER_HINT_AT = re.compile(b"|".join(hint.pattern for hint in _LOWER_HINTS))
"""Any of :data:`_LOWER_HINTS`, tried where it stands (at one place an alternation costs
nothing; searched, it is tried at every byte)."""


def hinted(data: bytes) -> bool:
    """Whether ``data`` may hold a name :func:`~replay._core.secret_names.verdict` takes as a
    secret's: every such name holds one of the hints, in the case it is written in (a
    ``secret``, ``Secret`` or ``SECRET``; a lower-case ``token``, ``key`` or ``sig`` followed
    by no small letter, or ending a text's name before its ``:`` or ``=``). Most answers have
    none, and are then not searched by the patterns of names below."""
    return _HINTED(data)


class _LastLook:
    """A look at data (``look``), its answer for the last large data kept for the next look
    at the same bytes: a request's body is looked at as it is redacted, and again as the
    values it names are read, each look reading all of an upload. One pair, replaced whole:
    threads need no lock (a race looks again)."""

    __slots__ = ("_last", "_look")

    def __init__(self, look: Callable[[bytes], bool]) -> None:
        self._look = look
        self._last: tuple[bytes | None, bool] = (None, False)

    def __call__(self, data: bytes) -> bool:
        if len(data) < _LOOKS_WORTH_KEEPING:
            return self._look(data)
        searched, answer = self._last
        if searched is not None and (searched is data or searched == data):
            return answer
        answer = self._look(data)
        self._last = (data, answer)
        return answer


_LOOKS_WORTH_KEEPING = 64 << 10
"""Smaller data is looked at again: the look costs less than keeping it."""
_HINTED = _LastLook(
    lambda data: (
        not _HINTS.leaves(data) or any(hint.search(data) is not None for hint in _LOWER_HINTS)
    )
)


_FIELD = re.compile(rb'("([^"\\]{1,80})"\s*:\s*)("[^"\\]*+(?:\\.[^"\\]*+)*+"|-?[0-9][0-9.eE+\-]*)')
"""A JSON field holding a string or a number: its name and colon, its name, its value. Any
name: the rule decides (a pattern of the names' words took three times as long), and only
in data :func:`hinted`. A string is read a run of plain bytes at a time, possessively (the
same strings as ``"(?:[^"\\]|\\.)*"``, where no backtracking ever finds a closing quote):
sre took 200 ns a byte over a long prompt or a base64 image one alternative at a time."""
_QUOTED_PLACEHOLDER = b'"' + _PLACEHOLDER_BYTES + b'"'
_XML_ELEMENT = re.compile(
    rb"<((?:[A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*))((?:\s[^<>]*)?>)([^<]+)</\1>"
)
"""An XML element holding text alone (``<SessionToken>...</SessionToken>``, AWS's answers),
its name with its namespace prefix, its local name, its attributes and its text."""
_PAIR = re.compile(
    rb"(?:(?<=%3[Ff])|(?<=%26)|(?<=%23)|(?<=\\u0026)|(?<![\w.\-%]))"
    rb"([A-Za-z][\w.\-]{0,63})(=|%3[Dd])((?:(?!%26|\\u0026)[^&\s\"'<>#\\,;()\[\]])+)"
)
"""A ``name=value`` pair wherever it is written: a URL's query or fragment in a body, a
header or a text (plain or percent-encoded inside another URL, or with ``&`` JSON-escaped),
and a form-encoded answer (an OAuth token's)."""
_TEXT_PAIR = re.compile(
    rb"(?<![A-Za-z0-9_\-.])((?:[A-Za-z][A-Za-z0-9]*[ _\-.]){0,%d}[A-Za-z][A-Za-z0-9]*)"
    rb"([ \t]*[:=][ \t]*(?:\\?[\"'])?)([^\s\"'<>,;&\\]+)" % (_TEXT_NAME_WORDS - 1)
)
"""A name and its value as free text writes them, the name in any style, spaces too ("my
token: ...", "api key = ...", ``Secret Key: ...``, ``password: "..."``): its name, what
separates it from its value (``:`` or ``=``, spaces, an opening quote, JSON-escaped inside a
JSON string or not), its value. A JSON
field's name is quoted, so none is taken for one of these."""


_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def names_in_text(data: bytes) -> bool:
    """Whether a ``:`` or ``=`` of ``data`` follows a letter or a digit (spaces or tabs
    between): in every match of :data:`_TEXT_PAIR`. A JSON field's colon follows a quote, so
    most bodies are settled by a few ``find`` calls, where the pattern tried every word."""
    for sign in (b":", b"="):
        at = data.find(sign)
        while at != -1:
            before = at - 1
            while before > 0 and data[before] in (32, 9):
                before -= 1
            if before >= 0 and data[before] in _NAME_BYTES:
                return True
            at = data.find(sign, at + 1)
    return False


_FEWEST_NAME_WORDS = tuple(
    sorted({w.encode() for w in NAME_WORDS if not any(o != w and o in w for o in NAME_WORDS)})
)
""":data:`~replay._core.secret_names.NAME_WORDS` less those holding another (``apikey``)."""
_TEXT_NAME_RUN = re.compile(rb"[a-z0-9 _\-.\t]*+")
"""What may stand, lowered, between a word of a free text's name and its ``:`` or ``=``."""
_PAIR_NAME_RUN = re.compile(rb"[a-z0-9_.\-]*+")
"""What may stand, lowered, between a word of a pair's name and its ``=`` or ``%3D``."""


def names_a_secret_before(data: bytes, run: re.Pattern[bytes], signs: tuple[bytes, ...]) -> bool:
    """Whether a word of :data:`~replay._core.secret_names.NAME_WORDS` in ``data`` (lowered)
    is followed by what ``run`` matches and then one of ``signs``: in every match of
    :data:`_TEXT_PAIR` (``_TEXT_NAME_RUN``, ``:`` or ``=``) or :data:`_PAIR`
    (``_PAIR_NAME_RUN``, ``=`` or ``%3``) whose name the rule takes, since every such name
    holds one of those words. Sought from each place a word is (``bytes.find``, in C), a
    run read once: a later word inside a run already read ends where it ended. An upload's
    bytes then cost a few searches, where the patterns tried every byte (50 to 350 ns each)."""
    lowered = data.lower()
    for word in _FEWEST_NAME_WORDS:
        found = lowered.find(word)
        while found >= 0:
            end = run.match(lowered, found + len(word)).end()  # type: ignore[union-attr]
            if lowered.startswith(signs, end):
                return True
            found = lowered.find(word, max(found + 1, end))
    return False


_NAMES_A_PAIR = _LastLook(lambda data: names_a_secret_before(data, _PAIR_NAME_RUN, (b"=", b"%3")))
_NAMES_IN_TEXT = _LastLook(lambda data: names_a_secret_before(data, _TEXT_NAME_RUN, (b":", b"=")))


def _secret_value(said: Verdict, value: bytes, text: Callable[[bytes], str]) -> bool:
    """Whether a value its name judged ``said`` is a secret; ``text`` reads it as written."""
    return said is Verdict.SECRET or (said is Verdict.IF_SHAPED and looks_like_secret(text(value)))


def _json_text(value: bytes) -> str:
    """A JSON string's text, escapes undone (``"\\u2581favorite"`` is a word, not a key)."""
    try:
        text = orjson.loads(value)
    except orjson.JSONDecodeError:
        return value.decode("utf-8", "replace")
    return text if isinstance(text, str) else str(text)


def _xml_text(value: bytes) -> str:
    return html.unescape(value.decode("utf-8", "replace"))


def _form_text(value: bytes) -> str:
    return unquote(value.decode("latin-1"))


def _text_secret(name: bytes, value: bytes) -> bool:
    """Whether free text's value is a secret: its name's, and shaped like one (a key, or for
    a password's name a password), since prose names secrets too ("the password: never
    share it")."""
    text = value.decode("utf-8", "replace")
    return looks_like_secret(text) or (
        names_a_password(name.decode("latin-1")) and looks_like_password(text)
    )


class _Verdicts(dict[bytes, Verdict]):
    """A name as written (bytes) -> what the rule says of it: one look-up in C per field,
    where decoding the name and asking the rule's cache cost four calls."""

    def __init__(self, judge: Callable[[str], Verdict]) -> None:
        super().__init__()
        self.judge = judge

    def __missing__(self, name: bytes) -> Verdict:
        said = self.judge(name.decode("latin-1"))
        if len(self) < 8192:  # names are few; a flood of made-up ones is not kept
            self[name] = said
        return said


@dataclass(frozen=True, slots=True)
class _ByName(Rewriter):
    """A rewriter whose pattern matches more than it changes (every field, element or pair,
    the rule deciding): what it leaves unchanged is given back as it came, not copied."""

    def apply(self, data: bytes) -> bytes:
        if self.needles and self.leaves(data):
            return data
        return Rewrites.apply(self, data)


@dataclass(frozen=True, slots=True)
class _TextPairs(_ByName):
    """:data:`_TEXT_PAIR`'s rewriter, its matches sought only where one may start: a match's
    name and the blanks after it are bytes of ``[A-Za-z0-9 _\\-.\\t]``, so it starts at a
    word of the run of those bytes that ends at a ``:`` or ``=``. The pattern, searched, is
    tried at every word of a body (350 ns a byte of prose); here each sign's run is found
    by ``bytes.rfind``, and the pattern tried at the words of its last six (a name has no
    more), found by one search."""

    def matches(self, data: bytes) -> Iterator[re.Match[bytes]]:
        marks = data.translate(_TEXT_RUN_MARKS)
        end = 0
        for sign in _SIGNS.finditer(data):
            at = sign.start()
            if at == 0 or marks[at - 1] != 97 or at <= end:
                continue
            run = marks.rfind(b" ", 0, at) + 1
            # At most five blanks inside a name, none after its last word but those before
            # the sign: it starts after the sixth blank back, wherever the run starts.
            name = data[run:at].rstrip(b" \t").translate(_TAB_AS_SPACE)
            blank = len(name)
            for _ in range(_TEXT_NAME_WORDS):
                blank = name.rfind(b" ", 0, blank)
                if blank < 0:
                    break
            for word in _WORD_START.finditer(data, max(run + blank + 1, end), at):
                if word.start() >= end and (match := self.pattern.match(data, word.start())):
                    end = match.end()
                    yield match
                    break


@dataclass(frozen=True, slots=True)
class _Pairs(_ByName):
    """:data:`_PAIR`'s rewriter, its matches sought only where one may start: a match's name
    is the last 64 bytes or fewer of the run of ``[\\w.\\-]`` bytes that ends at its ``=`` or
    ``%3D``, so it starts at a letter there, where its lookbehind holds (one search of those
    bytes). The pattern, searched, is tried at every byte of a body (100 ns each)."""

    def matches(self, data: bytes) -> Iterator[re.Match[bytes]]:
        marks = data.translate(_PAIR_NAME_MARKS)
        end = 0
        for sign in _PAIR_SIGN.finditer(data):
            at = sign.start()
            if at <= end:
                continue
            least = max(at - PAIR_NAME_LENGTH, 0)
            first = max(marks.rfind(b" ", least, at) + 1, least, end)
            for start in _PAIR_START.finditer(data, first, at):
                if (match := self.pattern.match(data, start.start())) is not None:
                    end = match.end()
                    yield match
                    break


_PAIR_SIGN = re.compile(rb"=|%3[Dd]")
_PAIR_START = re.compile(_PAIR.pattern.partition(b"([A-Za-z]")[0] + b"[A-Za-z]")
"""Where :data:`_PAIR` may match: its lookbehinds, and its name's first letter."""


_TEXT_RUN_MARKS = bytes(
    97 if re.fullmatch(rb"[A-Za-z0-9 _\-.\t]", bytes([byte])) else 32 for byte in range(256)
)
"""A ``bytes.translate`` table: what a name and its blanks are made of to ``a``, all else to a
space."""
_SIGNS = re.compile(rb"[:=]")
_TAB_AS_SPACE = bytes.maketrans(b"\t", b" ")
_WORD_START = re.compile(rb"(?<![A-Za-z0-9_\-.])[A-Za-z]")
"""Where :data:`_TEXT_PAIR` may match: its lookbehind, and its name's first letter."""


def _judged(
    judge: Callable[[str], Verdict], added: frozenset[tuple[str, ...]]
) -> Callable[[str], Verdict]:
    """``judge``, with the names whose words are in ``added`` secrets whatever their values."""
    if not added:
        return judge
    return lambda name: Verdict.SECRET if words(name) in added else judge(name)


class NamedSecrets:
    """The rewriters of values by their names (JSON fields, XML elements, ``name=value`` pairs,
    names and values in free text), for the rule and the names a user adds to it
    (``secret_fields=``). :data:`RULE` is the rule's alone."""

    def __init__(self, added: Iterable[str] = ()) -> None:
        self.added = frozenset(name.lower() for name in added)
        self.added_words = frozenset(words(name) for name in self.added)
        """The added names as words: ``customer_ref`` is also ``customerRef``, "Customer Ref"."""
        fields = _Verdicts(_judged(field_verdict, self.added_words))
        names = _Verdicts(_judged(verdict, self.added_words))

        def field_value(match: re.Match[bytes]) -> bytes:
            said = fields[match.group(2)]
            if said is Verdict.PLAIN:  # most fields: settled before the value is read
                return match.group()
            value = match.group(3)
            if value in (b'""', _QUOTED_PLACEHOLDER) or not _secret_value(said, value, _json_text):
                return match.group()
            return match.group(1) + _QUOTED_PLACEHOLDER

        def xml_value(match: re.Match[bytes]) -> bytes:
            said = names[match.group(2)]
            if said is Verdict.PLAIN:
                return match.group()
            value = match.group(4)
            if value == _PLACEHOLDER_BYTES or not _secret_value(said, value, _xml_text):
                return match.group()
            name = match.group(1)
            return b"<" + name + match.group(3) + _PLACEHOLDER_BYTES + b"</" + name + b">"

        def pair_value(match: re.Match[bytes]) -> bytes:
            said = names[match.group(1)]
            if said is Verdict.PLAIN:
                return match.group()
            value = match.group(3)
            if value == _PLACEHOLDER_BYTES or not _secret_value(said, value, _form_text):
                return match.group()
            return match.group(1) + match.group(2) + _PLACEHOLDER_BYTES

        def text_value(match: re.Match[bytes]) -> bytes:
            name, value = match.group(1), match.group(3)
            if value.endswith(_PLACEHOLDER_BYTES):
                return match.group()
            # Prose runs on into a name ("and Customer Ref: ..."): an added name ends it.
            said = words(name.decode("latin-1")) if self.added_words else ()
            added = any(said[start:] in self.added_words for start in range(len(said)))
            if not added and (names[name] is Verdict.PLAIN or not _text_secret(name, value)):
                return match.group()
            return name + match.group(2) + _PLACEHOLDER_BYTES

        self.fields = _ByName(_FIELD, field_value)
        """Replaces the values of JSON fields named like secrets (a string or a number), in
        requests and in responses alike."""
        self.xml = _ByName(_XML_ELEMENT, xml_value, (b"</",))
        """Replaces the text of XML elements named like secrets."""
        self.pairs = _Pairs(_PAIR, pair_value)
        """Replaces the values of ``name=value`` pairs named like secrets: a signed URL's
        signature, credential and token wherever the URL appears."""
        self.pair_signs = _Pairs(_PAIR, pair_value, (b"=", b"%3"))
        """For :meth:`~replay._core.rewrite.Rewriter.leaves`: in every match of :data:`_PAIR`."""
        self.texts = _TextPairs(_TEXT_PAIR, text_value, (b":", b"="))
        """Replaces the values free text names so, when they look like secrets."""
        self._added_hint = (
            re.compile(
                b"|".join(
                    rb"[\W_]*".join(re.escape(word.encode()) for word in said)
                    for said in sorted(self.added_words)
                ),
                re.IGNORECASE,
            )
            if self.added
            else None
        )

    def in_header(self, value: bytes) -> bytes:
        """A header's value with the values its pairs and text name so replaced."""
        value = self.pairs.apply(value)
        return self.texts.apply(value) if names_in_text(value) else value

    def hinted(self, data: bytes) -> bool:
        """:func:`hinted`, or one of the added names in any case."""
        return hinted(data) or (
            self._added_hint is not None and bool(self._added_hint.search(data))
        )

    def apply(self, data: bytes) -> bytes:
        """``data`` with every value named like a secret replaced, after the cheap looks that
        settle most answers: :meth:`hinted`, then ``</``, ``=`` and ``:``."""
        return self.rewrite(data) if self.hinted(data) else data

    def rewrite(self, data: bytes) -> bytes:
        """:meth:`apply` of data :meth:`hinted` already."""
        data = self.xml.apply(self.fields.apply(data))
        data = data if self._leaves_pairs(data) else self.pairs.apply(data)
        return self.texts.apply(data) if self._may_name_in_text(data) else data

    def _leaves_pairs(self, data: bytes) -> bool:
        """Whether :attr:`pairs` changes nothing in ``data``, known from cheap looks: no
        ``=`` nor ``%3``, or (the rule's names alone) no name word before one."""
        return self.pair_signs.leaves(data) or (not self.added and not _NAMES_A_PAIR(data))

    def _may_name_in_text(self, data: bytes) -> bool:
        """Whether :attr:`texts` may change ``data``: a name before a ``:`` or ``=``, and (the
        rule's names alone) a name word in one."""
        return names_in_text(data) and (bool(self.added) or _NAMES_IN_TEXT(data))

    def apply_to(self, chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
        """The same over chunks, each rewriter on the chunks joined (a name and its value may
        span chunks of a stream): most answers give their chunks back as they are."""
        data = chunks[0].data if len(chunks) == 1 else b"".join(chunk.data for chunk in chunks)
        if not self.hinted(data):
            return chunks
        chunks = self.fields.apply_to(chunks)
        if not self.xml.leaves(data):
            chunks = self.xml.apply_to(chunks)
        if not self._leaves_pairs(data):
            chunks = self.pairs.apply_to(chunks)
        return self.texts.apply_to(chunks) if self._may_name_in_text(data) else chunks

    def values(self, data: bytes) -> Iterator[str]:
        """The values in ``data`` that :meth:`apply` replaces, as written: a secret an answer
        hands out (a session token, a role's secret key) is then sought in every later call."""
        if not self.hinted(data):
            return
        for rewriter, value_group, read in (
            (self.fields, 3, _json_text),
            (self.xml, 4, _xml_text),
            (self.pair_signs, 3, _form_text),
            (self.texts, 3, _form_text),
        ):
            if (
                rewriter.leaves(data)
                or (rewriter is self.texts and not self._may_name_in_text(data))
                or (rewriter is self.pair_signs and self._leaves_pairs(data))
            ):
                continue
            for match in rewriter.matches(data):
                if rewriter.replace(match) != match.group():
                    yield read(match.group(value_group))


RULE = NamedSecrets()
"""The rule's rewriters of values by their names, with no name added."""
SECRET_FIELDS, XML_FIELDS, PAIRS, TEXT_PAIRS = RULE.fields, RULE.xml, RULE.pairs, RULE.texts
_PAIR_SIGNS = RULE.pair_signs
NAMED = (SECRET_FIELDS, XML_FIELDS, PAIRS, TEXT_PAIRS)
"""Every rewriter of values by their names, in the order they run."""
_without_secret_fields = RULE.apply
named_secrets = RULE.values


PAIR_NAME_LENGTH = 64
"""The longest name :data:`_PAIR` reads."""
_PAIR_NAME_BYTES = bytes(b for b in range(256) if re.fullmatch(rb"[\w.\-]", bytes([b])))
_PAIR_NAME_MARKS = bytes(97 if byte in _PAIR_NAME_BYTES else 32 for byte in range(256))
"""A ``bytes.translate`` table: the bytes of a pair's name to ``a``, all else to a space."""
_NAME_WORD_BYTES = tuple(word.encode() for word in NAME_WORDS)


def may_name_a_pair(
    data: bytes, start: int = 0, end: int | None = None, name_bytes: bytes = _PAIR_NAME_BYTES
) -> bool:
    """Whether ``data[start:end]`` may hold a ``name=value`` pair the rule takes: the name of
    one is the end of the run of ``name_bytes`` before its ``=`` or ``%3D``, and holds a word
    of :data:`~replay._core.secret_names.NAME_WORDS`. Most signs have none before them (a
    base64 body's padding, ``?model=``): a pair's pattern, tried at every byte, is not run."""
    end = len(data) if end is None else end
    for sign in (b"=", b"%3"):
        found = data.find(sign, start, end)
        while found >= 0:
            run = data[max(start, found - PAIR_NAME_LENGTH - 8) : found]
            run = run[len(run.rstrip(name_bytes)) :].lower()
            if any(word in run for word in _NAME_WORD_BYTES):
                return True
            found = data.find(sign, found + 1, end)
    return False


_MULTIPART_FIELD = re.compile(
    rb'(content-disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)'
    rb"((?:[^\r]++|\r(?!\n--))*+)(?=\r\n--)",
    re.IGNORECASE | re.DOTALL,
)
"""A form field of a multipart body: its headers, its name and its value, up to the first
``\\r\\n--`` (as ``(.*?)(?=\\r\\n--)``, a run without ``\\r`` at a time, where the lazy dot tried
the lookahead at every byte of an uploaded file)."""
_ESCAPED_RUN = re.compile(rb"(?:\\u00[0-7][0-9a-fA-F]|[A-Za-z0-9._~+/=\-]){16,}")
"""A run of a key's characters, some of them JSON-escaped (``\\u0065\\u0079\\u004a``)."""
_ESCAPE = re.compile(rb"\\u00([0-7][0-9a-fA-F])")
_KEY_SHAPE = re.compile(b"|".join(_KEY_SHAPES))


def _escaped_key(match: re.Match[bytes]) -> bytes:
    """A run holding a key's shape once its escapes are undone: a JSON reader sees the key,
    and the cassette keeps the body parsed, so it is replaced whole."""
    run = match.group()
    if b"\\u00" not in run:
        return run
    decoded = _ESCAPE.sub(lambda escape: bytes([int(escape.group(1), 16)]), run)
    return _PLACEHOLDER_BYTES if _KEY_SHAPE.search(decoded) else run


ESCAPED_KEYS = Rewriter(_ESCAPED_RUN, _escaped_key, (b"\\u00",))
"""Key shapes (a JSON Web Token, ``sk-...``) written with ``\\uXXXX`` escapes, which the shapes
themselves cannot see; a secret the request carried has its escaped forms among its echoes."""
_ASCII_ESCAPE = re.compile(rb"\\u00[0-7]")
"""In every run :data:`ESCAPED_KEYS` replaces. A body JSON-encoded with ``ensure_ascii`` has
``\\u00`` before each accented letter (``\\u00e9``): scanning it for runs made computing its key,
on replay too, 7 times as slow; looking for this first costs a tenth of that key."""


def _escaped_keys(data: bytes) -> bytes:
    # Its needle first: a body with no backslash at all (most) is settled by one memchr.
    if ESCAPED_KEYS.leaves(data) or not _ASCII_ESCAPE.search(data):
        return data
    return ESCAPED_KEYS.apply(data)


_SIGV4 = re.compile(r"\bSignature=([0-9a-fA-F]{16,})|\bCredential=([^/,\s]+)")
_SECRET_RUN = re.compile(r"[A-Za-z0-9]{12,}")
_UUID_SHAPE = re.compile(r"[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_WHITESPACE = re.compile(r"\s")


def looks_like_secret(value: str) -> bool:
    """Whether a value has the shape of a key, token or password rather than of a word, a
    model name or a path: twelve characters or more, no whitespace, and a run of twelve or
    more letters and digits that mixes letters with digits (or, from sixteen on, upper with
    lower case), or a UUID. ``gpt-4o-mini``, ``claude-3-5-sonnet-20241022``, ``true`` and
    ``/usr/local/bin`` are not; ``sk-proj-...``, AWS secret keys and ``hunter2hunter2`` are.
    """
    if len(value) < 12 or _WHITESPACE.search(value):
        return False
    if _UUID_SHAPE.fullmatch(value):
        return True
    for run in _SECRET_RUN.findall(value):
        has_digit = any(c.isdigit() for c in run)
        if has_digit and any(c.isalpha() for c in run):
            return True
        upper = sum(c.isupper() for c in run)
        if len(run) >= 16 and upper >= 2 and len(run) - upper >= 2 and not has_digit:
            return True
    return False


def looks_like_password(value: str) -> bool:
    """Whether a value named a password has a chosen password's shape rather than a word's:
    eight characters or more, no whitespace, three of lower case, upper case, digits and
    other signs (``Tr0ub4dor-and-3``; not ``postgres``)."""
    if len(value) < MIN_SECRET_LENGTH or _WHITESPACE.search(value):
        return False
    kinds = (str.islower, str.isupper, str.isdigit)
    counted = sum(any(kind(c) for c in value) for kind in kinds)
    return counted + any(not c.isalnum() for c in value) >= 3


def environment_secrets(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """The values of variables named like secrets (:func:`secret_variable`: the rule for
    names, or a name ending in ``KEY``) that also look like one: a model name in ``MODEL_KEY``
    must not turn every mention of that model into ``REDACTED``. A password's value need only
    look like a password (:func:`looks_like_password`)."""
    environ = os.environ if environ is None else environ
    return frozenset(
        value
        for name, value in environ.items()
        if secret_variable(name)
        and (looks_like_secret(value) or (names_a_password(name) and looks_like_password(value)))
    )


_SECRET_ARGUMENT = re.compile(r"(_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD)$|API_KEY")


def argument_secrets(arguments: Sequence[str]) -> frozenset[str]:
    """The values a command line names as secrets: of ``--api-key VALUE``, ``--token=VALUE``
    and ``GITHUB_TOKEN=VALUE`` (an option or a variable named like a secret), at least
    :data:`MIN_SECRET_LENGTH` long. Keys of the major providers' shapes are scrubbed wherever
    they are, named or not."""
    found: set[str] = set()
    for index, argument in enumerate(arguments):
        name, equals, value = argument.partition("=")
        if not equals and name.startswith("-") and index + 1 < len(arguments):
            value = arguments[index + 1]
        name = "_" + name.lstrip("-").replace("-", "_").upper()
        if _SECRET_ARGUMENT.search(name) and len(value) >= MIN_SECRET_LENGTH:
            found.add(value)
    return frozenset(found)


def hide_userinfo(netloc: str) -> str:
    """``netloc`` with the user and password before its ``@`` shown as the placeholder."""
    return f"{PLACEHOLDER}@{netloc.rpartition('@')[2]}" if "@" in netloc else netloc


def hidden_credentials(url: str) -> str:
    """``url`` with the user and password before the ``@`` of its authority as ``***``: how
    a configured URL (``replay serve --upstream``) is shown."""
    scheme, slashes, rest = url.partition("://")
    if not slashes:
        return url
    authority, slash, path = rest.partition("/")
    if "@" not in authority:
        return url
    return f"{scheme}://***@{authority.rpartition('@')[2]}{slash}{path}"


@dataclass(frozen=True, slots=True)
class RedactedBody:
    """A request body redacted for its key: ``fields`` with its secret fields, form parameters
    and escaped keys replaced, ``known`` that with the known secrets scrubbed as well."""

    fields: bytes
    known: bytes
    named: bool = True
    """Whether the body as sent may name a secret field (it has a secret JSON field's name, or
    it is a form): if not, :meth:`Redactor.with_secrets_of` need not look for their values."""


SUBPROTOCOL_HEADER = "sec-websocket-protocol"
_SUBPROTOCOL_KEY = re.compile(r"([^,\s]*?(?:key|token))\.([^,\s]+)", re.IGNORECASE)
"""A WebSocket subprotocol carrying a key, as browsers and some SDKs send one
(``openai-insecure-api-key.sk-...``): the name before the last dot, and the key."""


def subprotocol_keys(value: str) -> Iterator[tuple[str, str]]:
    for match in _SUBPROTOCOL_KEY.finditer(value):
        yield match.group(1), match.group(2)


def _secret_header_value(name: str, value: str) -> str:
    """A secret header's value as stored: the placeholder, or a subprotocol list with only
    the keys replaced (``openai-insecure-api-key.REDACTED, realtime``)."""
    if name != SUBPROTOCOL_HEADER:
        return PLACEHOLDER
    return _SUBPROTOCOL_KEY.sub(lambda match: f"{match.group(1)}.{PLACEHOLDER}", value)


class SecretHeaders(dict[str, bool]):
    """Header name (lowered) -> whether its value is a secret (:func:`secret_header`), or is
    in ``added`` (the account's headers, the user's own): a dict, so a name seen before costs
    one look-up in C, and the rule runs once per name."""

    def __init__(self, added: Iterable[str]) -> None:
        super().__init__()
        self.added = frozenset(added)

    def __missing__(self, name: str) -> bool:
        # The subprotocol header's keys alone are secrets: :func:`_secret_header_value`.
        secret = name in self.added or name == SUBPROTOCOL_HEADER or secret_header(name)
        if len(self) < _URLS_KEPT * 16:  # names are few; a flood of made-up ones is not kept
            self[name] = secret
        return secret


class Redactor:
    """The redaction rules of one cassette, compiled once: replay only runs finished patterns."""

    def __init__(
        self,
        secrets: Iterable[str] = (),
        secret_headers: Iterable[str] = (),
        secret_params: Iterable[str] = (),
        environ: Mapping[str, str] | None = None,
        secret_fields: Iterable[str] = (),
    ) -> None:
        self.secrets = environment_secrets(environ) | {s for s in secrets if s}
        fields = frozenset(name.lower() for name in secret_fields)
        self.secret_headers = SecretHeaders(
            ACCOUNT_HEADERS | fields | {name.lower() for name in secret_headers}
        )
        """Header name (lowered) -> whether its value is a secret or names the account."""
        self.secret_params = fields | {name.lower() for name in secret_params}
        """Names of parameters and fields the user adds to the rule (compared lowered)."""
        self.named = NamedSecrets(fields) if fields else RULE
        """The rewriters of values by their names: the rule's, and the ``secret_fields``
        added to it, which are secrets in every place a name is (a JSON or XML field, a
        header, a query, form or multipart parameter, a ``name=value`` pair or free text)."""
        self.known = _scrubber(frozenset(self.secrets))
        self._known_needles = frozenset(self.known.needles)
        self._urls: dict[tuple[str, int], tuple[Rewriter, str]] = {}
        """(URL, id of a rewriter) -> that rewriter and the URL it redacts: :meth:`url`."""
        self._carried: dict[tuple[Headers, str], Rewriter] = {}
        """(secret headers, URL) -> the rewriter of what they carry: :meth:`with_secrets_of`."""
        self._only_carried: dict[int, tuple[Rewriter, Rewriter | None]] = {}
        """id of a rewriter -> it and what :meth:`_carried_forms` makes of it."""

    def with_secrets_of(self, request: Request, redacted: RedactedBody | None = None) -> Rewriter:
        """A rewriter that also scrubs what this request carried: in its auth headers and
        cookies, its query, and the secret fields of its body; ``redacted``, if given, is its
        body as :meth:`redacted_body` redacted it."""
        named = redacted is None or redacted.named
        if request.body and named:
            return self._scrubbing(request, True)
        # What the secret headers and the URL carry alone: the same for a session's every call
        # with one key to one URL, so kept (by equal values; one dict operation at a time).
        secret_headers = self.secret_headers
        secret = tuple([(name, value) for name, value in request.headers if secret_headers[name]])
        place = (secret, request.url)
        rewriter = self._carried.get(place)
        if rewriter is None:
            rewriter = self._scrubbing(request, False)
            if len(self._carried) >= _URLS_KEPT:
                self._carried.clear()
            self._carried[place] = rewriter
        return rewriter

    def _scrubbing(self, request: Request, named: bool) -> Rewriter:
        carried = set(
            _carried_secrets(request, self.secret_headers, self._secret_name, self.named, named)
        )
        if carried <= self.secrets:
            return self.known
        return _scrubber(frozenset(self.secrets | carried))

    def url(self, url: str, rewriter: Rewriter | None = None) -> str:
        rewriter = rewriter or self.known
        # By the rewriter's identity, and the rewriter kept with the answer so that its id is
        # not reused while the entry stands: a rewriter is immutable, and a session's requests
        # go to few URLs with few rewriters (its key, the known secrets), each URL redacted
        # twice per recorded request. One dict operation at a time: no lock needed.
        cached = self._urls.get((url, id(rewriter)))
        if cached is not None and cached[0] is rewriter:
            return cached[1]
        redacted = self._url(url, rewriter)
        if len(self._urls) >= _URLS_KEPT:
            self._urls.clear()
        self._urls[url, id(rewriter)] = (rewriter, redacted)
        return redacted

    def _url(self, url: str, rewriter: Rewriter) -> str:
        parts = urlsplit(url)
        netloc = hide_userinfo(parts.netloc)
        query, fragment = self._form(parts.query), self._form(parts.fragment)
        rebuilt = (
            url
            if (netloc, query, fragment) == (parts.netloc, parts.query, parts.fragment)
            else urlunsplit(parts._replace(netloc=netloc, query=query, fragment=fragment))
        )
        return rewriter.apply(rebuilt.encode()).decode()

    def _form(self, encoded: str) -> str:
        """A query string or form body with the values of secret parameters replaced."""
        if not encoded:
            return encoded
        pairs = parse_qsl(encoded, keep_blank_values=True)
        if not any(self._secret_name(name) for name, _ in pairs):
            return encoded
        return urlencode(
            [(name, PLACEHOLDER if self._secret_name(name) else value) for name, value in pairs]
        )

    def body(
        self, body: bytes, content_type: str | None = None, rewriter: Rewriter | None = None
    ) -> bytes:
        if not body:
            return body
        return (rewriter or self.known).apply(self._fields(body, content_type))

    def redacted_body(self, body: bytes, content_type: str | None) -> RedactedBody:
        """``body`` as :meth:`body` redacts it for the known secrets, with the step before."""
        if not body:
            return RedactedBody(body, body, named=False)
        fields, named = self._named_fields(body, content_type)
        return RedactedBody(fields, self.known.apply(fields), named)

    def body_from(self, redacted: RedactedBody, rewriter: Rewriter) -> bytes:
        """What :meth:`body` makes with ``rewriter`` of the body ``redacted`` was made of: the
        same as for the known secrets unless a form of a secret only ``rewriter`` scrubs (one
        its request carried) is in it, since then every other alternative of its pattern
        matches where the known one's does. A search for those few forms, not a redaction."""
        if rewriter is self.known:
            return redacted.known
        carried = self._carried_forms(rewriter)
        if carried is None or carried.leaves(redacted.fields):
            return redacted.known
        return rewriter.apply(redacted.fields)

    def _carried_forms(self, rewriter: Rewriter) -> Rewriter | None:
        """A rewriter whose needles are those of ``rewriter`` the known secrets have not (the
        forms of the secrets its request carried), sought by :meth:`Rewriter.leaves`: each by
        its rarest byte first, a ``memchr`` that settles most (a JSON-escaped form's
        backslash), where ``find`` read the body once per form. None if it has no such needle.
        Kept by the rewriter's identity, with the rewriter, as :meth:`url` keeps its answers:
        a session's requests carry few secrets. One dict operation at a time: no lock."""
        kept = self._only_carried.get(id(rewriter))
        if kept is not None and kept[0] is rewriter:
            return kept[1]
        known_needles = self._known_needles
        carried = tuple(needle for needle in rewriter.needles if needle not in known_needles)
        forms = Rewriter(rewriter.pattern, rewriter.replace, carried) if carried else None
        if len(self._only_carried) >= _URLS_KEPT:
            self._only_carried.clear()
        self._only_carried[id(rewriter)] = (rewriter, forms)
        return forms

    def _fields(self, body: bytes, content_type: str | None) -> bytes:
        """``body`` with its secret fields, form parameters and escaped keys replaced."""
        return self._named_fields(body, content_type)[0]

    def _named_fields(self, body: bytes, content_type: str | None) -> tuple[bytes, bool]:
        """:meth:`_fields`, and whether the body may name a secret field: a form, or a body
        in which the pattern of secret fields found a name. Every value
        :func:`_body_secrets` reads from JSON is in a match of that pattern (each of its
        patterns matches a subset of what :data:`_FIELD` matches), so none has any if it found
        none: its count is the proof, one scan where two more would find nothing."""
        form = False
        if content_type and content_type.startswith("application/x-www-form-urlencoded"):
            body, form = self._form(body.decode("latin-1")).encode("latin-1"), True
        elif content_type and content_type.startswith("multipart/form-data"):
            body, form = _MULTIPART_FIELD.sub(self._multipart_field, body), True
        named = self.named.hinted(body)
        if named:
            body = self.named.rewrite(body)
        return _escaped_keys(body), form or named

    def _multipart_field(self, match: re.Match[bytes]) -> bytes:
        if not self._secret_name(match.group(2).decode("latin-1")):
            return match.group()
        return match.group(1) + _PLACEHOLDER_BYTES

    def _secret_name(self, name: str) -> bool:
        return (
            secret_param(name)
            or name.lower() in self.secret_params
            or (self.named is not RULE and words(name) in self.named.added_words)
        )

    def headers(self, headers: Headers, rewriter: Rewriter) -> Headers:
        secret_headers = self.secret_headers
        kept = [value for name, value in headers if not secret_headers[name]]
        joined = "\n".join(kept).encode()
        # The usual case: one search, not one per header.
        if rewriter.leaves(joined) and not self.named.hinted(joined):
            if len(kept) == len(headers):
                return headers  # no secret header, no secret in one: as they came (most answers)
            return tuple(
                (name, _secret_header_value(name, value) if secret_headers[name] else value)
                for name, value in headers
            )
        return tuple(
            (
                name,
                _secret_header_value(name, value)
                if secret_headers[name]
                else rewriter.apply(self.named.in_header(value.encode())).decode(),
            )
            for name, value in headers
        )

    def request(
        self, request: Request, rewriter: Rewriter, redacted: RedactedBody | None = None
    ) -> Request:
        """``request`` redacted; ``redacted``, if given, is its body as redacted for its key."""
        return Request(
            method=request.method,
            url=self.url(request.url, rewriter),
            headers=self.headers(request.headers, rewriter),
            body=self.body(request.body, request.header("content-type"), rewriter)
            if redacted is None
            else self.body_from(redacted, rewriter),
        )

    def response(self, response: Response, rewriter: Rewriter) -> Response:
        headers = self.headers(response.headers, rewriter)
        named = self.named.apply_to(response.chunks)
        if named is not response.chunks:
            learned = self._learn(b"".join(chunk.data for chunk in response.chunks))
            named = named if learned is None else learned.apply_to(named)
        chunks = rewriter.apply_to(ESCAPED_KEYS.apply_to(named))
        if headers is response.headers and chunks is response.chunks and response.failure is None:
            return response  # nothing to redact (most answers): no copy made of it
        return Response(
            status=response.status,
            headers=headers,
            chunks=chunks,
            recorded_at=response.recorded_at,
            complete=response.complete,
            failure=None
            if response.failure is None
            else replace(response.failure, message=self.text(response.failure.message, rewriter)),
        )

    def session(self, session: WebSocketSession, rewriter: Rewriter) -> WebSocketSession:
        """Secrets out of the messages of both sides, text and binary alike."""
        return replace(session, frames=self._frames(session.frames, rewriter))

    def grpc_call(self, call: GrpcCall, rewriter: Rewriter) -> GrpcCall:
        """Secrets out of a gRPC call's messages (as a session's), metadata (as headers) and
        status details."""
        return replace(
            call,
            messages=self._frames(call.messages, rewriter),
            initial_metadata=self.headers(call.initial_metadata, rewriter),
            trailing_metadata=self.headers(call.trailing_metadata, rewriter),
            details=self.text(call.details, rewriter),
        )

    def _frames(self, frames: tuple[Frame, ...], rewriter: Rewriter) -> tuple[Frame, ...]:
        scrubbed = []
        for frame in frames:
            data = self.named.apply(frame.data)
            if data is not frame.data:
                learned = self._learn(frame.data)
                data = data if learned is None else learned.apply(data)
            scrubbed.append(replace(frame, data=rewriter.apply(data)))
        return tuple(scrubbed)

    def _learn(self, data: bytes) -> Rewriter | None:
        """Seek the secrets an answer hands out by name (a role's secret key, a session
        token, a client secret) in every later request and answer of this session, as the
        known secrets are: the client sends them back, or the server echoes them. Only those
        that look like secrets (:func:`looks_like_secret`): a word under a secret's name would
        scrub that word everywhere. A rewriter of the new ones, to scrub the rest of this
        answer; None if there are none."""
        found = {value for value in self.named.values(data) if looks_like_secret(value)}
        new = frozenset(found - self.secrets)
        if not new:
            return None
        # Whole new values, never mutated: a thread reading the old ones meanwhile is right
        # for the calls before this answer.
        self.secrets = self.secrets | new
        self.known = _scrubber(frozenset(self.secrets))
        self._known_needles = frozenset(self.known.needles)
        self._carried, self._urls, self._only_carried = {}, {}, {}
        return _scrubber(new)

    def holds_secret(self, data: bytes, rewriter: Rewriter) -> bool:
        """Whether redaction would change ``data``: a secret field, a known or carried secret,
        or a string shaped like a key."""
        return rewriter.apply(_escaped_keys(self.named.apply(data))) != data

    def text(self, text: str, rewriter: Rewriter) -> str:
        return rewriter.apply(self.named.apply(text.encode())).decode(errors="replace")


_URLS_KEPT = 256
"""URLs :meth:`Redactor.url` keeps redacted, headers and URLs :meth:`Redactor.with_secrets_of`
keeps the rewriter of, and rewriters :meth:`Redactor._carried_forms` keeps the needles of, at
most: all are forgotten when there are more."""


def echoed_forms(secret: str) -> Iterator[str]:
    """``secret`` as servers echo it: as sent; percent-encoded (either case of hex, ``/`` kept
    or not, as a path or a query value is encoded); with ``+`` read as a space; JSON-escaped
    (``\\/``, ``\\uXXXX`` for every character, or only for ``<``, ``>``, ``&`` as Go's
    encoder does)."""
    yield secret
    for encoded in (quote(secret, safe=""), quote(secret), quote_plus(secret, safe="")):
        yield encoded
        yield re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), encoded)
    yield secret.replace("+", " ")
    yield secret.replace("/", "\\/")
    for shape in ("\\u{:04x}", "\\u{:04X}"):
        yield "".join(shape.format(ord(c)) for c in secret)
        yield "".join(shape.format(ord(c)) if c in "<>&" else c for c in secret)


def _key_placeholder(match: re.Match[bytes]) -> bytes:
    """The stand-in of a key shape (its prefix kept: :data:`STAND_IN_PREFIXES`) or of a known
    secret: a literal that is no key shape keeps nothing of itself."""
    found = match.group()
    if _KEY_SHAPE.fullmatch(found):
        for prefix in STAND_IN_PREFIXES:
            if found.startswith(prefix):
                return prefix + _PLACEHOLDER_BYTES
    return _PLACEHOLDER_BYTES


_STAND_IN = re.compile(
    b"(?:"
    + b"|".join(re.escape(prefix) for prefix in STAND_IN_PREFIXES)
    + b")"
    + _PLACEHOLDER_BYTES
)


def keyed_stand_ins(data: bytes) -> bytes:
    """``data`` with each key shape's stand-in as a request's key reads it: the placeholder
    alone, its prefix left out. A request carrying a key matches its recording whichever
    stand-in the version that recorded it wrote (``REDACTED`` before shapes kept prefixes)."""
    if _PLACEHOLDER_BYTES not in data:
        return data
    return _STAND_IN.sub(_PLACEHOLDER_BYTES, data)


def keyed_url_stand_ins(url: str) -> str:
    """:func:`keyed_stand_ins` of a URL (``.../organizations/org-REDACTED/...``)."""
    return url if PLACEHOLDER not in url else keyed_stand_ins(url.encode()).decode()


@dataclass(frozen=True, slots=True)
class Scrubber(Rewriter):
    """A rewriter of known secrets and key shapes (:func:`_scrubber`), which says which."""

    literals: tuple[bytes, ...] = ()
    """The secrets' forms it seeks as written; the rest of its pattern is the key shapes."""

    def matches(self, data: bytes) -> Iterator[re.Match[bytes]]:
        return led_matches(self.pattern, (*_lead(self.literals), *_KEY_SHAPE_LEADS), data)

    def apply(self, data: bytes) -> bytes:
        """As :meth:`Rewriter.apply`, each match sought by :func:`led_matches` where one may
        start: at a secret's form, a key shape's prefix, or after ``Bearer ``."""
        if self.leaves(data):
            return data
        return Rewrites.apply(self, data)


def _lead(literals: Iterable[bytes]) -> tuple[tuple[bytes, int], ...]:
    return tuple((literal, 0) for literal in literals)


_KEY_SHAPE_LEADS = tuple(
    (prefix, len(prefix) if after else 0)
    for prefixes, _, after in _KEY_SHAPE_FORMS
    for prefix in prefixes
)
"""Where a match of each key shape starts: at its prefix, or just after it (a bearer token)."""


@lru_cache(maxsize=64)
def _scrubber(secrets: frozenset[str]) -> Scrubber:
    """Compiled once per set of secrets: a test suite's cassettes, and a recording session's
    requests carrying the same key, share one pattern."""
    literals = sorted(
        {form.encode() for s in secrets if s for form in echoed_forms(s)}, key=len, reverse=True
    )
    alternatives = [re.escape(s) for s in literals] + list(_KEY_SHAPES)
    pattern = re.compile(b"|".join(alternatives))
    return Scrubber(
        pattern,
        _key_placeholder,
        (*literals, *_SHORT_KEY_NEEDLES),
        _LONG_KEY_NEEDLES,
        tuple(literals),
    )


def _carried_secrets(
    request: Request,
    secret_headers: SecretHeaders,
    secret_name: Callable[[str], bool],
    rules: NamedSecrets,
    named: bool = True,
) -> Iterable[str]:
    for name, value in request.headers:
        if name in ("cookie", "set-cookie"):
            yield from _long_enough(v for _, _, v in _cookies(value))
        elif name == SUBPROTOCOL_HEADER:
            yield from _long_enough(key for _, key in subprotocol_keys(value))
        elif secret_headers[name]:
            yield from _long_enough(_credentials(value))
    parts = urlsplit(request.url)
    for name, value in _form_pairs(parts.query):
        if secret_name(name) and len(value) >= MIN_SECRET_LENGTH:
            yield value
    if "@" in parts.netloc:  # none without one: not parsed for them on every recorded call
        for userinfo in (parts.username, parts.password):
            if userinfo and len(userinfo) >= MIN_SECRET_LENGTH:
                yield unquote(userinfo)
    if request.body and named:
        yield from _long_enough(_body_secrets(request, secret_name, rules))


def _form_pairs(encoded: str) -> Iterator[tuple[str, str]]:
    """A query string's or form body's pairs, each value read both ways a server may read
    it: with ``+`` as a space (forms), and with ``+`` as itself (a base64 key a client put in
    a URL unencoded, which the server then echoes as it came)."""
    yield from parse_qsl(encoded, keep_blank_values=True)
    for pair in encoded.split("&"):
        name, equals, value = pair.partition("=")
        if equals and "+" in value:
            yield unquote(name.replace("+", " ")), unquote(value)


def _long_enough(values: Iterable[str]) -> Iterator[str]:
    return (value for value in values if len(value) >= MIN_SECRET_LENGTH)


def _cookies(header: str) -> Iterator[tuple[str, str, str]]:
    for pair in header.split(";"):
        name, equals, value = pair.strip().partition("=")
        if equals:
            yield name, equals, value


def _credentials(value: str) -> Iterator[str]:
    """What an auth header carries: the whole value, its token after the scheme, a Basic
    header's user and password decoded, a SigV4 header's signature and access key id."""
    scheme, _, credential = value.partition(" ")
    yield credential if credential and scheme.isalpha() else value
    if scheme.lower() == "basic" and credential:
        try:
            user, _, password = base64.b64decode(credential, validate=True).decode().partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return
        yield from (user, password)
    for signature, access_key in _SIGV4.findall(value):
        yield signature or access_key


def _body_secrets(
    request: Request, secret_name: Callable[[str], bool], rules: NamedSecrets
) -> Iterator[str]:
    yield from rules.values(request.body)
    content_type = request.header("content-type") or ""
    if content_type.startswith("application/x-www-form-urlencoded"):
        for name, value in _form_pairs(request.body.decode("latin-1")):
            if secret_name(name):
                yield value
    elif content_type.startswith("multipart/form-data"):
        for match in _MULTIPART_FIELD.finditer(request.body):
            if secret_name(match.group(2).decode("latin-1")):
                yield match.group(3).decode("utf-8", "replace")
