"""Deterministic cassettes: unstable ids, timestamps and headers get stable stand-ins.

Re-recording a conversation whose answers did not change must leave the
cassette byte for byte identical, and two recordings of the same prompts must
differ only in what the model said. So before a response is stored:

- generated ids become placeholders of the same shape (a known word prefix such as
  ``chatcmpl-`` or ``msg_``, then the same length and kind of alphabet) derived from the
  request key, the response's position and the id's order of appearance: distinct
  interactions keep distinct ids, and one stream's chunks all share one. A value is an
  id by its shape (:func:`looks_generated`), in any field named like one (``id``,
  ``*_id``, ``*Id``) or listed by the provider; ``system_fingerprint`` and the like always;
- padding (Bedrock's ``p``, a random run of letters of random length) becomes
  :data:`FIXED_PADDING`;
- timestamps and durations (``created``, ``duration_seconds``) become a fixed number,
  ``1000000000`` for an integer and ``1.0`` for any other form, whatever the original's
  width (:func:`fixed_number`); RFC 3339 times (``createTime``) a fixed time of their shape
  (:func:`fixed_time`);
- response headers are kept verbatim only when known to be stable (``content-type``,
  ``cache-control``: :data:`replay._core.providers.STABLE_HEADERS`); every other value,
  of a header known or never seen, gets a stand-in of its shape (:func:`stand_in`).

Nothing is kept because it *looks* like a word: a random run of letters does too. What
is kept verbatim is what is known to be stable (headers, id prefixes, every other field
of the body); what changes is replaced by a value computed from the shape alone, so two
recordings of random values of one shape give the same bytes.

Recording looks like replay: the caller gets each response as it will be replayed, its ids
placeholders and its times fixed, chunk by chunk as it arrives (:class:`ShownBody`), so a
snapshot taken while recording holds on replay.

Ids chain: a later request may send back an id a response gave (the Responses
API's ``previous_response_id``, file ids). :class:`Normalizer` remembers each real id's
placeholder both ways: a request carrying a placeholder it issued goes upstream with the
real id (:meth:`Normalizer.upstream`), and is keyed and stored with the placeholder, which
the caller sends again on replay, so the request matches.

Replacement is textual (see :mod:`replay._core.rewrite`), so it works the same on a
JSON body, on server-sent events and on line-delimited JSON, and keeps chunk
boundaries.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from replay._core.eventstream import FrameCutter, rewriting_frame
from replay._core.key import multipart_boundary
from replay._core.model import (
    EVENTSTREAM_CONTENT_TYPE,
    Chunk,
    Frame,
    GrpcCall,
    Headers,
    Request,
    Response,
    WebSocketSession,
    merged_headers,
)
from replay._core.providers import ID_PREFIXES, Provider, detect
from replay._core.redact import PLACEHOLDER
from replay._core.rewrite import FieldRewriter, GrowingTable, Rewriter, Rewrites

FIXED_DATE = "Mon, 01 Jan 2024 00:00:00 GMT"
MULTIPART_BOUNDARY = "replay-boundary"
VOLATILE_REQUEST_HEADERS = frozenset(
    {
        "content-length",
        "connection",
        # Retry counters and timeouts of the Stainless SDKs (openai, anthropic, groq, ...).
        "x-stainless-retry-count",
        "x-stainless-read-timeout",
        "x-stainless-timeout",
        # A fresh id per call or per attempt: botocore, the Azure SDKs, client request ids.
        "amz-sdk-invocation-id",
        "amz-sdk-request",  # "attempt=1; max=3"
        "x-amz-date",  # the SigV4 signing time (the signature itself is a secret)
        "x-ms-client-request-id",
        "x-client-request-id",
        "x-request-id",
        "idempotency-key",
        "x-idempotency-key",
        # Distributed tracing.
        "traceparent",
        "tracestate",
        "x-amzn-trace-id",
        "sentry-trace",
        "baggage",
    }
)
"""Request headers a client sets anew for every call or attempt: not stored (they are no part
of a key unless named in ``match_headers``), so a recording does not change with them."""
SESSION_HEADERS = frozenset({"mcp-session-id"})
"""Headers in which a server hands out an id that the client sends back in a header of its
later requests (an MCP server's session over Streamable HTTP): the id gets one placeholder,
in the response that gave it and in every request and response after it."""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
_ID_TOKEN = re.compile(r"[A-Za-z0-9_\-]+")
_WORD = re.compile(r"[A-Za-z0-9+/_\-]+")
"""What a header value's placeholder is made of: runs of the characters of ids, base64 and
base64url. Punctuation between them (spaces, ``;``, ``=``, ``,``, ``.``) keeps its place."""
_ALPHABETS = (
    "0123456789",
    "0123456789abcdef",
    "0123456789ABCDEF",
    "0123456789abcdefghijklmnopqrstuvwxyz",
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
)
_DIGITS_ONLY, _LOWER_HEX = _ALPHABETS[:2]
_QUANTITY = re.compile(r"\d+(?:\.\d+)?|(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+")
"""A count or a duration: ``231``, ``0.25``, ``20ms``, ``6m0s``."""
_DIGITS = re.compile(r"\d+(?:\.\d+)?")
_ISO_TIME = re.compile(
    r"\d{4}-\d\d-\d\d(?P<separator>[Tt ])\d\d:\d\d(?P<seconds>:\d\d(?:\.(?P<fraction>\d+))?)?"
    r"(?P<offset>[Zz]|[+-]\d\d(?P<colon>:?)\d\d)?"
)
_HTTP_DATE = re.compile(r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT")
_INTEGER = re.compile(rb"-?\d+")
_NUMBER = rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"
FIXED_PADDING = b"replay-padding"
FIXED_INTEGER = b"1000000000"
FIXED_FRACTION = b"1.0"


def looks_generated(value: str, prefixes: frozenset[str] = ID_PREFIXES) -> bool:
    """Whether ``value`` is an id a server made up, judged by its shape alone.

    Yes for a UUID (after known word prefixes such as ``chatcmpl-``), a run of 8 or more
    digits, or a segment (between ``-`` and ``_``) of 8 or more characters that mixes
    letters and digits or has a capital past its first letter: ``chatcmpl-8oK8GnO4…``,
    ``chatcmpl-<uuid>``, Gemini's ``mK9PaLGY-KrDwnvgP_fHU8Qo``. No for model names, whose
    segments are words, versions and dates: ``gpt-4o-2024-08-06``, ``claude-3-5-sonnet-20241022``.
    """
    if not _ID_TOKEN.fullmatch(value):
        return False
    rest = value[len(word_prefix(value, prefixes)) :]
    if _UUID.fullmatch(rest) or (len(rest) >= 8 and rest.isdigit()):
        return True
    return any(map(_random_segment, rest.replace("_", "-").split("-")))


def _random_segment(segment: str) -> bool:
    """Whether a segment of an id (ASCII letters and digits alone, as :func:`looks_generated`
    cuts it) mixes letters and digits, or has a capital past its first letter and a lower case
    one: each asked of the whole segment by one string method (ids are judged in every
    answer), not of each of its characters."""
    if len(segment) < 8:
        return False
    if not (segment.isdigit() or segment.isalpha()):
        return True  # neither digits alone nor letters alone: both
    inner = segment[1:]
    return inner != inner.lower() and segment != segment.upper()


def word_prefix(value: str, prefixes: frozenset[str] = ID_PREFIXES) -> str:
    """The known words before ``-`` or ``_`` that start ``value`` (``chatcmpl-``, ``msg_bdrk_``).

    Only known words: a random run of letters before a separator (``aXqTbRrLmNpK-CDG``) looks
    just like a word, and keeping it would keep a real value that changes on every call.
    """
    words = _leading_words(prefixes).match(value)  # None never: it takes "" at least
    return value[: words.end()] if words else ""


@lru_cache(maxsize=16)
def _leading_words(prefixes: frozenset[str]) -> re.Pattern[str]:
    """The known words of ``prefixes`` each before ``-`` or ``_``, as many as open a value
    and leave something after them: one match where a match per word was made and its word
    looked up (ids are judged and given placeholders in every answer). A word is a whole run
    of letters (the separator follows it), so a prefix holding anything else opens nothing."""
    words = sorted(word for word in prefixes if _LETTERS.fullmatch(word))
    alternation = "|".join(map(re.escape, words)) or "(?!)"
    return re.compile(rf"(?:(?:{alternation})[-_](?=.))*", re.DOTALL)


_LETTERS = re.compile(r"[A-Za-z]+")


def shaped_placeholder(
    original: str, seed: str, prefixes: frozenset[str] = ID_PREFIXES, widest: bool = False
) -> str:
    """A stand-in for an id: its known word prefix, then a run of its length and alphabet.

    What follows the prefix is a UUID again if it was one; otherwise a run of the same length
    drawn from the value's kind of alphabet (digits, hex, one case, mixed case), chosen for the
    whole value and with no separators, never following where the original's digits, ``-``
    or ``_`` fell: those are random too (base64url ids), and a placeholder that followed them
    would change on every re-recording, and with it the keys of chained requests. ``widest``
    takes mixed case whatever the value drew, for values nothing sends back (header values).
    """
    prefix = word_prefix(original, prefixes)
    rest = original[len(prefix) :]
    if _UUID.fullmatch(rest):
        digest = _digest_stream(seed, 32).hex()[:32]
        uuid = "-".join((digest[:8], digest[8:12], digest[12:16], digest[16:20], digest[20:]))
        return prefix + (uuid.upper() if rest.isupper() else uuid)
    alnum = rest.encode().translate(None, _NOT_ASCII_ALNUM)
    if not alnum:
        return original
    alphabet = _ALPHABETS[-1] if widest else _alphabet_of(alnum)
    if prefix and alphabet == _DIGITS_ONLY:
        # After a word, digits alone are a hex run that drew no letter this time
        # (fp_2807999798 beside fp_a863319bf8): one alphabet for both, or it churns.
        alphabet = _LOWER_HEX
    return prefix + _run_of_kind(seed, len(rest), alphabet)


def _run_of_kind(seed: str, length: int, alphabet: str) -> str:
    """``length`` characters of ``alphabet`` from ``seed``, of a kind found again in them.

    Normalizing the result again must find the same alphabet and, from 8 characters on,
    take it for an id (it is one, and a chained request sends it back), never for a count:
    so a normalized cassette is a fixed point, and re-recording it changes nothing. The kind
    is made, not searched for: a letter first that tells the alphabet from a narrower one
    (beyond hex for one case, a capital then a lower case letter for mixed case), a digit last.
    """
    stream = _digest_stream(seed, length)
    drawn = stream.translate(_drawn_from(alphabet)).decode("ascii")
    letters, uppers, lowers, beyond_hex = _letters_of(alphabet)
    if not letters:
        return drawn
    if uppers and lowers:
        head = uppers[stream[0] % len(uppers)]
        if length > 1:
            head += lowers[stream[1] % len(lowers)]
    else:
        head = beyond_hex[stream[0] % len(beyond_hex)]
    if length > 2:  # every alphabet opens with the ten digits
        return head + drawn[len(head) : -1] + alphabet[stream[-1] % 10]
    return head + drawn[len(head) :]


@lru_cache(maxsize=len(_ALPHABETS))
def _drawn_from(alphabet: str) -> bytes:
    """A ``bytes.translate`` table: each byte of a digest to ``alphabet[byte % len(alphabet)]``,
    a whole run drawn in C rather than a character at a time."""
    return bytes(ord(alphabet[byte % len(alphabet)]) for byte in range(256))


@lru_cache(maxsize=len(_ALPHABETS))
def _letters_of(alphabet: str) -> tuple[str, str, str, str]:
    """An alphabet's letters, its capitals, its lower case letters, and its letters beyond hex
    (all its letters if it has none): sorted out once, not for every placeholder made."""
    letters = "".join(c for c in alphabet if c.isalpha())
    beyond_hex = "".join(c for c in letters if c not in "abcdefABCDEF") or letters
    uppers = "".join(c for c in letters if c.isupper())
    lowers = "".join(c for c in letters if c.islower())
    return letters, uppers, lowers, beyond_hex


_NOT_ASCII_ALNUM = bytes(byte for byte in range(256) if chr(byte) not in _ALPHABETS[-1])
"""Every byte but an ASCII letter or digit: what ``bytes.translate`` deletes to keep those."""
_DIGITS_AND_HEX = b"0123456789abcdefABCDEF"


def _alphabet_of(alnum: bytes) -> str:
    """The narrowest of :data:`_ALPHABETS` holding every byte of ``alnum`` (ASCII letters and
    digits), told by a few C-level tests of the bytes rather than a set of their characters
    made and compared with each alphabet's (a placeholder is made for every new id)."""
    if alnum.isdigit():
        return _DIGITS_ONLY
    within_hex = not alnum.translate(None, _DIGITS_AND_HEX)
    if alnum.islower():  # letters, all lower case
        return _LOWER_HEX if within_hex else _ALPHABETS[3]
    if alnum.isupper():
        return _ALPHABETS[2] if within_hex else _ALPHABETS[4]
    return _ALPHABETS[-1]


def stand_in(
    value: str,
    seed: str,
    prefixes: frozenset[str] = ID_PREFIXES,
    known: Callable[[str], str | None] = lambda word: None,
) -> str:
    """A deterministic value of ``value``'s shape, for a header not known to be stable.

    A date or time becomes a fixed one; a count or duration (``231``, ``6m0s``, ``0.25s``)
    becomes zeros (its width varies from call to call); every other run of id characters
    becomes a :func:`shaped_placeholder` of its length in mixed case, the punctuation between
    runs kept. Nothing of the
    original survives but its shape and the redaction placeholder: a rule that holds for
    values never seen before.
    """
    # By its first character, the shapes it cannot have are not tried: a date opens with a
    # capital, a time or a quantity with a digit, and an id (most headers) with neither.
    first = value[:1]
    if "A" <= first <= "Z" and _HTTP_DATE.fullmatch(value):
        return FIXED_DATE
    if first.isdigit():
        if value.isdecimal():  # a count (content-length): as _QUANTITY takes it, one zero
            return "0"
        if _ISO_TIME.fullmatch(value):
            return fixed_time(value)
        if _QUANTITY.fullmatch(value):
            return _DIGITS.sub("0", value)
    words = iter(range(1 << 30))

    def replace(match: re.Match[str]) -> str:
        word = match.group()
        if word == PLACEHOLDER:
            return word
        placeholder = known(word)
        if placeholder is not None:
            return placeholder  # an id the body gave: the header shows the body's placeholder
        if word[:1].isdigit() and _QUANTITY.fullmatch(word):
            return _DIGITS.sub("0", word)
        # Widest: a run's alphabet is a draw (Cloudflare's cf-ray, 16 hex digits then -IAD,
        # reads as capitals and digits when no hex letter came up), and a header is matched
        # by nothing and sent back by no one, so only its length and punctuation are kept.
        return shaped_placeholder(word, f"{seed}/{next(words)}", prefixes, widest=True)

    whole = _WORD.fullmatch(value)
    if whole is not None:  # one run (a request id, most values): no substitution made
        return replace(whole)
    return _WORD.sub(replace, value)


def fixed_number(original: bytes) -> bytes:
    """``1707004480`` -> ``1000000000``; ``2.34``, ``0.12345678901234567``, ``1e-05`` -> ``1.0``.

    Only whether the number is an integer survives (an SDK types ``created`` as one); its
    width, digits, sign and exponent do not, since they change from call to call and a body
    kept byte for byte (``"text"``) would change with them.
    """
    return FIXED_INTEGER if _INTEGER.fullmatch(original) else FIXED_FRACTION


def fixed_time(original: str) -> str:
    """``2025-03-05T12:34:56.789012+05:30`` -> ``2024-01-01T00:00:00.000000+00:00``.

    A fixed moment in the original's shape: its separator (``T``, ``t`` or a space), whether
    it has seconds, its number of fractional digits and its offset form (``Z``, ``z``,
    ``+HH:MM``, ``+HHMM`` or none), so a body kept byte for byte keeps its length. The offset's
    value is not kept (it moves with daylight saving time): any two times of one shape give
    the same placeholder. Anything else is returned as it is.
    """
    match = _ISO_TIME.fullmatch(original)
    if match is None:
        return original
    seconds = ""
    if match["seconds"]:
        fraction = match["fraction"]
        seconds = ":00" if fraction is None else ":00." + "0" * len(fraction)
    offset = match["offset"] or ""
    if offset not in ("", "Z", "z"):
        offset = "+00" + match["colon"] + "00"
    return f"2024-01-01{match['separator']}00:00{seconds}{offset}"


def _digest_stream(seed: str, length: int) -> bytes:
    if length <= 64:  # one block (ids, header values): no loop, no concatenation
        return hashlib.blake2b(f"{seed}/0".encode(), digest_size=64).digest()[:length]
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.blake2b(f"{seed}/{counter}".encode(), digest_size=64).digest()
        counter += 1
    return out[:length]


class Normalizer:
    """The normalization of one recording session; it remembers real ids for chained requests."""

    def __init__(self) -> None:
        self._ids = GrowingTable()
        self._placeholders = self._ids.replacements
        self._rewriter: Rewrites | None = None
        self._real_ids = GrowingTable()
        """Placeholder -> real id: what a request sent upstream carries in place of one."""
        self._issued: dict[str, int] = {}
        """How many placeholders each seed (one response) gave so far: the caller's view,
        made chunk by chunk, and the stored response, made whole, count alike."""
        self._lock = threading.Lock()

    def request(self, request: Request) -> Request:
        """The request as stored: real ids replaced, volatile headers and boundary made fixed."""
        # A list made whole, then the tuple: a generator is resumed once per header.
        headers = tuple(
            [
                (name, self._session_id(name, value) if name in SESSION_HEADERS else value)
                for name, value in request.headers
                if name not in VOLATILE_REQUEST_HEADERS
            ]
        )
        body = request.body
        content_type = request.header("content-type") or ""
        boundary = (
            multipart_boundary(content_type) if content_type.startswith("multipart/") else None
        )
        if boundary:
            body = body.replace(boundary.encode(), MULTIPART_BOUNDARY.encode())
            headers = tuple(
                (
                    name,
                    value.replace(boundary, MULTIPART_BOUNDARY)
                    if name == "content-type"
                    else value,
                )
                for name, value in headers
            )
        return Request(request.method, self.ids_in_url(request.url), headers, self.ids_in(body))

    def ids_in(self, data: bytes) -> bytes:
        """``data`` with every real id seen so far replaced by its placeholder."""
        rewriter = self._rewriter
        return self._ids.apply(rewriter, data) if rewriter is not None and data else data

    def ids_in_url(self, url: str) -> str:
        # ids_in's work without its call: a recorded request's URL is searched twice.
        rewriter = self._rewriter
        return (
            self._ids.apply(rewriter, url.encode()).decode()
            if rewriter is not None and url
            else url
        )

    def upstream(self, request: Request) -> Request | None:
        """``request`` as sent upstream, each placeholder this session issued put back to its
        real id; None when it carries none. A body sent in a ``content-encoding`` is sent as
        it is: its placeholders are out of sight."""
        if self._real_ids.rewriter is None:  # no placeholder issued yet: none to put back
            return None
        url = self.real_ids_in(request.url.encode()).decode()
        body = request.body
        if request.header("content-encoding") is None:
            body = self.real_ids_in(body)
        if url == request.url and body == request.body:
            return None
        return replace(request, url=url, body=body)

    def real_ids_in(self, data: bytes) -> bytes:
        """``data`` with each placeholder this session issued put back to its real id."""
        real_ids = self._real_ids.rewriter
        return self._real_ids.apply(real_ids, data) if real_ids is not None and data else data

    def _learn_ids(self, body: bytes, provider: Provider, seed: str) -> None:
        """Give each id ``body`` hands out a placeholder, the same wherever it appears."""
        with self._lock:
            issued = self._issued.get(seed, 0)
            for value in _discover_ids(body, provider):
                if value not in self._placeholders:
                    fake = shaped_placeholder(
                        value.decode(), f"{seed}/{issued}", provider.id_prefixes
                    ).encode()
                    self._ids.add(value, fake)
                    if fake != value:
                        self._real_ids.add(fake, value)
                    issued += 1
            self._issued[seed] = issued
            self._rewriter = self._ids.rewriter

    def _session_id(self, name: str, value: str, prefixes: frozenset[str] = ID_PREFIXES) -> str:
        """The placeholder of ``value``, a session id in a header of :data:`SESSION_HEADERS`,
        made the first time it is seen, in the response that hands it out or in a request
        that sends it back, whichever this session stores first (the client may send the id
        before the response that gave it is stored). So it is drawn from the header's name and
        the number of session ids seen before it, not from one response's seed."""
        real = value.encode()
        with self._lock:
            fake = self._placeholders.get(real)
            if fake is None:
                counted = f"session/{name}"  # no response's seed: those hold the key's hash
                sessions = self._issued.get(counted, 0)
                fake = shaped_placeholder(value, f"{counted}/{sessions}", prefixes).encode()
                self._issued[counted] = sessions + 1
                self._ids.add(real, fake)
                if fake != real:
                    self._real_ids.add(fake, real)
                self._rewriter = self._ids.rewriter
        return fake.decode()

    def shown(self, data: bytes, provider: Provider, seed: str) -> bytes:
        """Whole lines of a response body as the caller gets them while recording: as
        :meth:`response` will store them, ids found in them given their placeholders now."""
        self._learn_ids(data, provider, seed)
        return self._fixed(data, provider)

    def response(
        self, response: Response, provider: Provider, seed: str, shown: ShownWhole | None = None
    ) -> Response:
        """``shown``: the whole body as :meth:`shown` gave it to the caller, in one piece with
        this provider and seed; the same body is not normalized again."""
        if shown is not None and len(response.chunks) == 1 and shown.given == response.body:
            chunks: tuple[Chunk, ...] = (Chunk(shown.shown, response.chunks[0].at),)
        else:
            self._learn_ids(response.body, provider, seed)
            chunks = response.chunks
            if self._rewriter is not None:
                chunks = self._rewriter.apply_to(chunks)
            chunks = _fixed_values(provider).apply_to(chunks)
        return Response(
            status=response.status,
            headers=self._headers(response.headers, provider, seed),
            chunks=chunks,
            recorded_at=response.recorded_at,
            complete=response.complete,
            failure=response.failure,
        )

    def session(self, session: WebSocketSession, provider: Provider, seed: str) -> WebSocketSession:
        """Ids the server's text messages hand out become placeholders in the messages of both
        sides (a client message may send one back), and times are fixed, as in a body.
        Binary messages (audio) are kept as they are."""
        return replace(session, frames=self._messages(session.frames, provider, seed))

    def grpc_call(self, call: GrpcCall, provider: Provider, seed: str) -> GrpcCall:
        """A gRPC call's messages as a session's (their JSON views; bytes kept as they are),
        its initial metadata as response headers. Its trailing metadata is kept but for the
        ids the messages handed out: on an error it is the error's account of itself."""
        messages = self._messages(call.messages, provider, seed)
        trailing = tuple(
            (name, self.ids_in(value.encode("latin-1")).decode("latin-1"))
            for name, value in call.trailing_metadata
        )
        return replace(
            call,
            messages=messages,
            initial_metadata=self._headers(call.initial_metadata, provider, f"{seed}/initial"),
            trailing_metadata=trailing,
        )

    def _messages(
        self, frames: tuple[Frame, ...], provider: Provider, seed: str
    ) -> tuple[Frame, ...]:
        server_text = b"\n".join(
            frame.data for frame in frames if frame.text and not frame.from_client
        )
        self._learn_ids(server_text, provider, seed)
        return tuple(
            replace(frame, data=self._fixed(frame.data, provider)) if frame.text else frame
            for frame in frames
        )

    def shown_message(self, data: bytes, provider: Provider, seed: str) -> bytes:
        """A server text message as the caller gets it while recording: as :meth:`session`
        will store it, the ids it hands out given their placeholders now, in the order the
        stored session gives them."""
        self._learn_ids(data, provider, seed)
        return self._fixed(data, provider)

    def _fixed(self, data: bytes, provider: Provider) -> bytes:
        """``data`` with the ids seen so far as placeholders, its times and padding fixed."""
        return _fixed_values(provider).apply(self.ids_in(data))

    def _headers(self, headers: Headers, provider: Provider, seed: str) -> Headers:
        """Headers known to be stable are kept; every other value gets a stand-in of its shape."""
        normalized: list[tuple[str, str]] = []
        kept = []
        for name, value in headers:
            if name == "date":
                value = FIXED_DATE
            elif name in SESSION_HEADERS:
                value = self._session_id(name, value, provider.id_prefixes)
            elif provider.keeps_header(name):
                kept.append(len(normalized))
            else:
                value = stand_in(
                    value, f"{seed}/header/{name}", provider.id_prefixes, self._known_id
                )
            normalized.append((name, value))
        # The kept values searched for ids at once, joined by a quote, which no id holds (one
        # is a JSON string's characters) and no run of id characters crosses: most hold none.
        joined = '"'.join(normalized[index][1] for index in kept).encode()
        if kept and self.ids_in(joined) != joined:
            for index in kept:
                name, value = normalized[index]
                normalized[index] = (name, self.ids_in(value.encode()).decode())
        return tuple(normalized)

    def _known_id(self, word: str) -> str | None:
        placeholder = self._placeholders.get(word.encode())
        return None if placeholder is None else placeholder.decode()


_SHOWN_LIVE = ("json", "text/", "event-stream", EVENTSTREAM_CONTENT_TYPE)
"""Content types whose bodies the caller gets normalized while recording (JSON, NDJSON,
server-sent events, text, AWS event streams). Any other (audio, octet streams) is passed on
as it comes: it has no lines to cut at, and waiting for its end would stall a stream."""


@dataclass(frozen=True, slots=True)
class ShownWhole:
    """A body :meth:`Normalizer.shown` normalized in one piece: what it was given, what it
    gave, and the provider it detected."""

    given: bytes
    shown: bytes
    provider: Provider


class ShownBody:
    """A response body on its way to the caller while recording, as it will be replayed.

    Each piece is given on as soon as it ends a line: an id or a time never spans lines in the
    JSON, NDJSON or server-sent events of an API, so a line can be normalized alone, and the
    ids found in it get their placeholders then, in the order the stored response gives them
    (:meth:`Normalizer.shown`). The rest of a line waits for its end, or the body's. A stream's
    first event therefore reaches the caller as soon as it has arrived whole. An AWS event
    stream is given on frame by frame, each payload normalized as the stored frame will be.
    """

    def __init__(
        self,
        normalizer: Normalizer | None,
        url: str,
        content_type: str | None,
        providers: tuple[Provider, ...],
        seed: str,
    ) -> None:
        live = content_type is not None and any(kind in content_type for kind in _SHOWN_LIVE)
        self._normalizer = normalizer if live else None
        self._session_normalizer = normalizer
        """A WebSocket session's messages have no content type: their text ones are shown."""
        self._url = url
        self._providers = providers
        self._seed = seed
        self._provider: Provider | None = None
        self._held: list[bytes] = []
        eventstream = content_type is not None and EVENTSTREAM_CONTENT_TYPE in content_type
        self._frames = FrameCutter() if eventstream else None
        self._pieces = 0
        """How many pieces went to the caller normalized (or not: those count too)."""
        self._first: ShownWhole | None = None

    def feed(self, data: bytes) -> bytes:
        """What of ``data`` (and of what was held) the caller gets now."""
        if self._normalizer is None:
            return data
        if self._frames is not None:
            normalizer = self._normalizer
            return b"".join(
                rewriting_frame(frame, lambda view: self._shown(normalizer, view))
                for frame in self._frames.feed(data)
            )
        end = data.rfind(b"\n") + 1
        if not end:
            self._held.append(data)
            return b""
        lines = b"".join((*self._held, data[:end]))
        self._held = [data[end:]] if end < len(data) else []
        return self._shown(self._normalizer, lines)

    def rest(self) -> bytes:
        """What was held, at the body's end: a last line with no line break, or the part of a
        frame a stream was cut in."""
        if self._frames is not None:
            return self._frames.rest()
        held = b"".join(self._held)
        self._held = []
        if self._normalizer is None or not held:
            return held
        return self._shown(self._normalizer, held)

    def message(self, data: bytes) -> bytes:
        """A server text message of a WebSocket session, whole, as the caller gets it: as the
        stored session will give it (:meth:`Normalizer.session`, which detects the provider
        by the URL alone)."""
        normalizer = self._session_normalizer
        if normalizer is None:
            return data
        return normalizer.shown_message(data, detect(self._url, b"", self._providers), self._seed)

    @property
    def whole(self) -> ShownWhole | None:
        """The body as the caller got it, when it was normalized in one piece: the stored
        response's body is then the same (:meth:`Normalizer.response`)."""
        return self._first if self._pieces == 1 and not self._held else None

    def _shown(self, normalizer: Normalizer, data: bytes) -> bytes:
        if self._provider is None:
            self._provider = detect(self._url, data, self._providers)
        shown = normalizer.shown(data, self._provider, self._seed)
        self._pieces += 1
        if self._pieces == 1:
            self._first = ShownWhole(data, shown, self._provider)
        return shown


def _discover_ids(body: bytes, provider: Provider) -> list[bytes]:
    """The generated ids of a response, in order of first appearance."""
    return list(dict.fromkeys(value for _, value in issued_ids(body, provider)))


def issued_ids(body: bytes, provider: Provider) -> list[tuple[str, bytes]]:
    """Each generated id of a response with the field that holds it, in order of appearance:
    a rerun pairs the ids of a recorded answer with those of its new answer by field."""
    found: list[tuple[str, bytes]] = []
    for match in _ids_pattern(provider.id_fields, provider.opaque_fields).finditer(body):
        name, value = match.group(1).decode(), match.group(2)
        if value.endswith(_REDACTED):
            continue  # a secret redaction took (a token named so): it stays as it reads
        if name in provider.opaque_fields or looks_generated(
            value.decode("utf-8", "replace"), provider.id_prefixes
        ):
            found.append((name, value))
    return found


_REDACTED = PLACEHOLDER.encode()
_fixed_value_rewriters: dict[tuple[frozenset[str], frozenset[str]], Rewrites] = {}
_ID_NAMES = rb"[A-Za-z0-9_]*+(?:(?<=_id)|(?<=Id))"
"""Any field named like an id (``generation_id``, ``toolUseId``): its value counts when it
looks generated, so providers and fields never seen before are covered. The name is taken
whole (a quote follows it) and its end looked at, rather than each shorter run tried
against the endings: half the time over the quotes of a body."""
_TIME_NAMES = rb"[A-Za-z0-9_]*+(?:(?<=_at)|(?<=Time))"
"""Fields named like a moment (``created_at``, ``createTime``): an RFC 3339 value is fixed.
Taken whole and its end looked at, as :data:`_ID_NAMES`."""
_ISO_TIME_BYTES = _ISO_TIME.pattern.encode()


@lru_cache(maxsize=64)
def _ids_pattern(id_fields: frozenset[str], opaque_fields: frozenset[str]) -> re.Pattern[bytes]:
    """A field named like an id or one of these, and its string value. A name that
    :data:`_ID_NAMES` takes already (``call_id``, ``responseId``) is left out of the names,
    which sre tries one by one at every quote of a body: the alternative before them matches
    it, at the same place, and nothing else changes."""
    fields = sorted(id_fields | opaque_fields)
    kept = [name.encode() for name in fields if not re.fullmatch(_ID_NAMES, name.encode())]
    # Every name taken: an alternative matching nothing. (With no names at all, the empty
    # alternative the join gives stays, as it was: it takes a field named "".)
    names = b"|".join(map(re.escape, kept)) if kept or not fields else b"(?!)"
    return re.compile(
        rb'"' + _opening(fields) + b"(" + _ID_NAMES + b"|" + names + rb')"\s*:\s*"([^"\\]{4,256})"'
    )


_TIME_ENDS = (b'_at"', b'Time"')
"""How the names :data:`_TIME_NAMES` takes end, with the closing quote."""


def _field_needles(names: frozenset[str], ends: tuple[bytes, ...]) -> tuple[bytes, ...] | None:
    """What every match of a field pattern holds, for :func:`field_matches`: each of ``names``
    quoted, and ``ends``, those of its word-character names; a needle holding another left
    out (the other is found where it is). None when a name holds a quote: a needle inside it
    would not follow the quote that opens the match."""
    if any('"' in name for name in names):
        return None
    needles = {b'"' + name.encode() + b'"' for name in names}.union(ends)
    return tuple(sorted(n for n in needles if not any(o != n and o in n for o in needles)))


def _opening(fields: list[str]) -> bytes:
    """A lookahead at the byte after the opening quote of a field named like an id or a time
    (a word character: those names have one at least) or one of ``fields`` (its first byte;
    a quote, for the name ""). sre tries the alternatives after the quote at every quote of a
    body; this turns away in one step the quotes none can match, such as those closing a
    string (a third of the time of normalizing a chat completion's times)."""
    firsts = {name.encode()[:1] for name in fields}
    others = b"".join(re.escape(f) for f in sorted(firsts) if f and not _WORD_BYTE.fullmatch(f))
    return rb'(?=[A-Za-z0-9_"' + others + rb"])"


_WORD_BYTE = re.compile(rb"[A-Za-z0-9_]")


def _fixed_values(provider: Provider) -> Rewrites:
    """Numbers of the provider's time fields, RFC 3339 strings of fields named like times, and
    the values of its padding fields."""
    fields = (provider.number_fields, provider.padding_fields)
    rewriter = _fixed_value_rewriters.get(fields)
    if rewriter is None:
        names = _field_names(provider.number_fields)
        # The quote that opens all three stands before them, outside any group: sre then seeks
        # it alone, where three alternatives each opening with a group were tried at every
        # byte of the body (a 1.3 KB chat completion took 30 times as long).
        opening = _opening(sorted(provider.number_fields | provider.padding_fields))
        pattern = re.compile(
            rb'"' + opening + rb"(?:((?:" + names + rb')"\s*:\s*)(' + _NUMBER + rb")"
            rb"|((?:" + _TIME_NAMES + b"|" + names + rb')"\s*:\s*")'
            rb"(" + _ISO_TIME_BYTES + rb')"'
            rb"|(?P<padding>(?:" + _field_names(provider.padding_fields) + rb')"\s*:\s*")'
            rb'[A-Za-z0-9]*")'
        )
        needles = _field_needles(provider.number_fields | provider.padding_fields, _TIME_ENDS)
        rewriter = (
            Rewriter(pattern, _fixed_value)
            if needles is None
            else FieldRewriter(pattern, _fixed_value, needles)
        )
        _fixed_value_rewriters[fields] = rewriter
    return rewriter


def _field_names(fields: frozenset[str]) -> bytes:
    """An alternation of ``fields``, or a pattern matching nothing when there are none."""
    return b"|".join(re.escape(name.encode()) for name in sorted(fields)) or b"(?!)"


def _fixed_value(match: re.Match[bytes]) -> bytes:
    """The match opens with the quote its groups leave out."""
    if match.group(1) is not None:
        return b'"' + match.group(1) + fixed_number(match.group(2))
    if match.group(3) is not None:
        return b'"' + match.group(3) + fixed_time(match.group(4).decode()).encode() + b'"'
    return b'"' + match.group("padding") + FIXED_PADDING + b'"'


_DURATION_NAMES = (
    rb"[A-Za-z0-9_]*+(?:(?<=\"duration)|(?<=\"elapsed)|(?<=\"latency)|(?<=\"took)|(?<=\"time)"
    rb"|(?<=_duration)|(?<=Duration)|(?<=_elapsed)|(?<=Elapsed)|(?<=_latency)|(?<=Latency)"
    rb"|(?<=_time)|(?<=Time)|(?<=seconds)|(?<=Seconds)|(?<=_secs)|(?<=_ms)|(?<=Ms)|(?<=_ns)"
    rb"|(?<=Ns))"
)
"""Fields named like a duration, whose numbers a re-recording may find changed with nothing
else: ``duration``, ``elapsed``, ``latency``, ``took``, ``time`` alone, or a name ending in
``_duration``/``Duration``, ``_elapsed``/``Elapsed``, ``_latency``/``Latency``,
``_time``/``Time``, ``seconds``/``Seconds``, ``_secs``, ``_ms``/``Ms`` or ``_ns``/``Ns``
(``total_time``, ``duration_seconds``, ``eval_duration``, ``took_ms``, ``latencyMs``)."""
_BLANK = b"#"


@lru_cache(maxsize=64)
def _unstable_values(
    number_fields: frozenset[str], padding_fields: frozenset[str]
) -> tuple[re.Pattern[bytes], ...]:
    """The values :func:`unstable_blanked` blanks: numbers of the provider's time fields and of
    fields named like durations, RFC 3339 strings of fields named like times (or listed), and
    the provider's padding; each pattern's first group is the field up to its value."""
    listed = _field_names(number_fields)
    return (
        re.compile(rb'("(?:' + listed + b"|" + _DURATION_NAMES + rb')"\s*:\s*)' + _NUMBER),
        re.compile(
            rb'("(?:' + _TIME_NAMES + b"|" + listed + rb')"\s*:\s*)"' + _ISO_TIME_BYTES + b'"'
        ),
        re.compile(rb'("(?:' + _field_names(padding_fields) + rb')"\s*:\s*)"[A-Za-z0-9]*"'),
    )


def unstable_blanked(body: bytes, provider: Provider) -> bytes:
    """``body`` with every value that may change between two calls whose answer did not, and
    that normalization does not make the same in both, blanked: a time's stand-in keeps its
    original's number of decimals (Go's ``RFC3339Nano`` and Python's ``isoformat()`` drop
    zeros), a number's whether it was an integer (``2`` for ``2.0``), and a duration no
    provider lists is stored as sent. Ids are not blanked: a chained request sends back the
    placeholder the caller was shown, so one of another length is a change."""
    for pattern in _unstable_values(provider.number_fields, provider.padding_fields):
        body = pattern.sub(rb"\1" + _BLANK, body)
    return body


def unchanged_answer(stored: Response, new: Response, provider: Provider) -> bool:
    """Whether ``new``, a normalized response re-recorded where ``stored`` was, says nothing
    ``stored`` does not: the same status, completeness, headers (a value normalization gives
    a stand-in to may differ, one it keeps may not) and body but for the values
    :func:`unstable_blanked` blanks. Re-recording an unchanged conversation then keeps the
    stored bytes, so the file does not churn with the server's clock and formatting."""
    if (stored.status, stored.complete, stored.streamed) != (
        new.status,
        new.complete,
        new.streamed,
    ):
        return False
    if stored.failure is not None or new.failure is not None:
        return False  # a stream cut short: what was said is told by the bytes alone
    stored_headers, new_headers = merged_headers(stored.headers), merged_headers(new.headers)
    if stored_headers.keys() != new_headers.keys() or any(
        stored_headers[name] != new_headers[name]
        for name in stored_headers
        if name != "date" and provider.keeps_header(name)
    ):
        return False
    stored_body, new_body = stored.body, new.body
    return stored_body == new_body or unstable_blanked(stored_body, provider) == unstable_blanked(
        new_body, provider
    )
