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
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlencode, urlsplit, urlunsplit

import orjson

from replay._core.model import Chunk, Frame, GrpcCall, Headers, Request, Response, WebSocketSession
from replay._core.rewrite import Rewriter

PLACEHOLDER = "REDACTED"
_PLACEHOLDER_BYTES = PLACEHOLDER.encode()

SECRET_HEADERS = frozenset(
    {
        "authorization",  # bearer keys and tokens, AWS SigV4 signatures, Basic credentials
        "proxy-authorization",
        "x-api-key",
        "api-key",  # Azure OpenAI
        "x-goog-api-key",
        "ocp-apim-subscription-key",
        "x-amz-security-token",  # AWS temporary credentials (Bedrock through STS, SSO)
        "cookie",
        "set-cookie",
    }
)
ACCOUNT_HEADERS = frozenset({"openai-organization", "openai-project", "anthropic-organization-id"})
"""Not credentials, but they name the user's organization: kept off disk like secrets."""
SECRET_QUERY_PARAMS = frozenset(
    {
        "key",
        "api_key",
        "apikey",
        "api-key",
        "access_token",
        "token",
        "sig",
        "signature",
        "client_secret",
        "password",
        "refresh_token",
        "id_token",
        "x-amz-signature",  # a presigned URL's signature and credentials (names compared lowered)
        "x-amz-credential",
        "x-amz-security-token",
    }
)
SECRET_JSON_FIELDS = (
    "api_key",
    "apiKey",
    "access_token",
    "accessToken",
    "refresh_token",
    "refreshToken",
    "id_token",
    "idToken",
    "auth_token",
    "authToken",
    "session_token",
    "sessionToken",
    "SessionToken",  # AWS STS credentials
    "secret_key",
    "secretKey",
    "secret_access_key",
    "SecretAccessKey",
    "private_key",
    "privateKey",
    "client_secret",
    "clientSecret",
    "password",
    "passwd",
)
GENERIC_SECRET_FIELDS = ("token", "secret")
"""Redacted only where the value looks like a secret: OpenAI's logprobs name each generated
piece of text ``"token"``, and that is the answer, not a credential."""
MIN_SECRET_LENGTH = 8
"""Shorter environment values ("1", "true") would scrub ordinary text, so they are left alone."""

_ENV_NAME = re.compile(r"(_KEY|_TOKEN|_SECRET)$|API_KEY")
_NOT_INSIDE_A_WORD = rb"(?<![A-Za-z0-9_\-])"
_KEY_SHAPES = (
    _NOT_INSIDE_A_WORD + rb"sk-(?:ant-|proj-|svcacct-)?[A-Za-z0-9_\-]{20,}",
    _NOT_INSIDE_A_WORD + rb"gsk_[A-Za-z0-9]{20,}",
    _NOT_INSIDE_A_WORD + rb"AIza[0-9A-Za-z_\-]{35}",
    _NOT_INSIDE_A_WORD + rb"xai-[A-Za-z0-9]{20,}",
    _NOT_INSIDE_A_WORD + rb"hf_[A-Za-z0-9]{20,}",
    _NOT_INSIDE_A_WORD + rb"ya29\.[A-Za-z0-9_\-]{20,}",  # a Google OAuth access token
    _NOT_INSIDE_A_WORD + rb"1//0[A-Za-z0-9_\-]{20,}",  # a Google OAuth refresh token
    _NOT_INSIDE_A_WORD + rb"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])",  # an AWS access key id
    # A JSON Web Token: base64url header (``{"`` is ``eyJ``), payload and signature (empty
    # when unsigned). OAuth access, refresh and id tokens, Azure AD and Vertex bearer tokens.
    _NOT_INSIDE_A_WORD + rb"eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{2,}\.[A-Za-z0-9_\-]*",
    rb"(?<=Bearer )[A-Za-z0-9._~+/\-]{16,}=*",
)
_LONG_KEY_NEEDLES = (b"sk-", b"gsk_", b"AIza", b"xai-", b"hf_", b"ya29.", b"1//0", b"AKIA", b"ASIA")
"""The shapes above holding one of these also hold :data:`~replay._core.rewrite.WORD_RUN`
bytes of ``[A-Za-z0-9_-]`` in a row (20 or more after the prefix; an AWS key id's 20)."""
_SHORT_KEY_NEEDLES = (b"eyJ", b"Bearer ")
_KEY_SHAPE_NEEDLES = (*_LONG_KEY_NEEDLES, *_SHORT_KEY_NEEDLES)
"""Every key shape above contains one of these: text without them is not scanned for keys."""
_SECRET_FIELD_NAMES = tuple(name.encode() for name in SECRET_JSON_FIELDS)
_GENERIC_FIELD_NAMES = tuple(name.encode() for name in GENERIC_SECRET_FIELDS)
_FIELD = re.compile(
    rb'("(' + b"|".join((*_SECRET_FIELD_NAMES, *_GENERIC_FIELD_NAMES)) + rb')"\s*:\s*)'
    rb'("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+\-]*)'
)


def _field_value(match: re.Match[bytes]) -> bytes:
    if match.group(2) in _GENERIC_FIELD_NAMES and not looks_like_secret(_json_text(match.group(3))):
        return match.group()
    return match.group(1) + b'"' + _PLACEHOLDER_BYTES + b'"'


def _json_text(value: bytes) -> str:
    """A JSON string's text, escapes undone (``"\\u2581favorite"`` is a word, not a key)."""
    try:
        text = orjson.loads(value)
    except orjson.JSONDecodeError:
        return value.decode("utf-8", "replace")
    return text if isinstance(text, str) else str(text)


_FIELD_CLOSE = re.compile(
    rb'"(?<=(?:'
    + b"|".join(sorted({name[-2:] for name in (*_SECRET_FIELD_NAMES, *_GENERIC_FIELD_NAMES)}))
    + rb')")'
)
"""Where a match of :data:`_FIELD` can be: a quote closing the last two letters of a secret
field's name (``en"`` for ``token`` and ``access_token``). A body without one has no secret
field; sre finds out in half the instructions of a scan by :data:`_FIELD` itself (25,000 against
46,000 for a 2 KB request), which tries the names at every quote."""
SECRET_FIELDS = Rewriter(_FIELD, _field_value)
"""Replaces the values of secret JSON fields (a string or a number), in requests and in
responses alike. No needles: the pattern opens with a quote, which sre looks for alone before
trying the names, one scan of the body (14 µs for a 3 KB request here) where a search for
each of the 25 names took 120 µs, and ``token``, a word of any prose, sent most bodies on to
the pattern all the same."""


def _without_secret_fields(data: bytes) -> bytes:
    """``SECRET_FIELDS.apply(data)``, after the look for a closing quote of a secret field's
    name (:data:`_FIELD_CLOSE`), which most answers lack and which takes half the instructions
    of a search by :data:`_FIELD` itself."""
    return data if _FIELD_CLOSE.search(data) is None else SECRET_FIELDS.apply(data)


def _secret_fields_in(chunks: tuple[Chunk, ...]) -> tuple[Chunk, ...]:
    """``SECRET_FIELDS.apply_to(chunks)``, after the same look, in the chunks joined (a name
    and its value may span chunks of a stream): most answers give their chunks back as they
    are."""
    data = chunks[0].data if len(chunks) == 1 else b"".join(chunk.data for chunk in chunks)
    return chunks if _FIELD_CLOSE.search(data) is None else SECRET_FIELDS.apply_to(chunks)


_SECRET_FIELD_VALUE = re.compile(
    rb'"(?:' + b"|".join(_SECRET_FIELD_NAMES) + rb')"\s*:\s*(?:"([^"\\]*)"|(-?[0-9][0-9.]*))'
)
"""A secret JSON field's value, when it has no escapes: servers echo it like a header's."""
_GENERIC_FIELD_VALUE = re.compile(
    rb'"(?:' + b"|".join(_GENERIC_FIELD_NAMES) + rb')"\s*:\s*"([^"\\]*)"'
)
_MULTIPART_FIELD = re.compile(
    rb'(content-disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n)'
    rb"(.*?)(?=\r\n--)",
    re.IGNORECASE | re.DOTALL,
)
"""A form field of a multipart body: its headers, its name and its value."""
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


def environment_secrets(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    """The values of variables named like secrets that also look like one: a model name in
    ``MODEL_KEY`` must not turn every mention of that model into ``REDACTED``."""
    environ = os.environ if environ is None else environ
    return frozenset(
        value
        for name, value in environ.items()
        if _ENV_NAME.search(name.upper()) and looks_like_secret(value)
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


class Redactor:
    """The redaction rules of one cassette, compiled once: replay only runs finished patterns."""

    def __init__(
        self,
        secrets: Iterable[str] = (),
        secret_headers: Iterable[str] = (),
        secret_params: Iterable[str] = (),
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.secrets = environment_secrets(environ) | {s for s in secrets if s}
        self.secret_headers = (
            SECRET_HEADERS | ACCOUNT_HEADERS | {name.lower() for name in secret_headers}
        )
        self.secret_params = SECRET_QUERY_PARAMS | {name.lower() for name in secret_params}
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
        secret = tuple([(name, value) for name, value in request.headers if name in secret_headers])
        place = (secret, request.url)
        rewriter = self._carried.get(place)
        if rewriter is None:
            rewriter = self._scrubbing(request, False)
            if len(self._carried) >= _URLS_KEPT:
                self._carried.clear()
            self._carried[place] = rewriter
        return rewriter

    def _scrubbing(self, request: Request, named: bool) -> Rewriter:
        carried = set(_carried_secrets(request, self.secret_headers, self._secret_name, named))
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
        query = self._form(parts.query)
        rebuilt = (
            url
            if (netloc, query) == (parts.netloc, parts.query)
            else urlunsplit(parts._replace(netloc=netloc, query=query))
        )
        return rewriter.apply(rebuilt.encode()).decode()

    def _form(self, encoded: str) -> str:
        """A query string or form body with the values of secret parameters replaced."""
        if not encoded:
            return encoded
        pairs = parse_qsl(encoded, keep_blank_values=True)
        if not any(name.lower() in self.secret_params for name, _ in pairs):
            return encoded
        return urlencode(
            [
                (name, PLACEHOLDER if name.lower() in self.secret_params else value)
                for name, value in pairs
            ]
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
        if _FIELD_CLOSE.search(body) is None:
            return _escaped_keys(body), form
        fields, named = _FIELD.subn(_field_value, body)  # SECRET_FIELDS.apply, counted
        return _escaped_keys(fields), form or named > 0

    def _multipart_field(self, match: re.Match[bytes]) -> bytes:
        if not self._secret_name(match.group(2).decode("latin-1")):
            return match.group()
        return match.group(1) + _PLACEHOLDER_BYTES

    def _secret_name(self, name: str) -> bool:
        return name.lower() in self.secret_params or name in SECRET_JSON_FIELDS

    def headers(self, headers: Headers, rewriter: Rewriter) -> Headers:
        secret_headers = self.secret_headers
        kept = [value for name, value in headers if name not in secret_headers]
        # The usual case: one search, not one per header.
        if rewriter.leaves("\n".join(kept).encode()):
            if len(kept) == len(headers):
                return headers  # no secret header, no secret in one: as they came (most answers)
            return tuple(
                (name, PLACEHOLDER if name in secret_headers else value) for name, value in headers
            )
        return tuple(
            (
                name,
                PLACEHOLDER if name in secret_headers else rewriter.apply(value.encode()).decode(),
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
        chunks = rewriter.apply_to(ESCAPED_KEYS.apply_to(_secret_fields_in(response.chunks)))
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
        return tuple(
            replace(frame, data=rewriter.apply(_without_secret_fields(frame.data)))
            for frame in frames
        )

    def holds_secret(self, data: bytes, rewriter: Rewriter) -> bool:
        """Whether redaction would change ``data``: a secret field, a known or carried secret,
        or a string shaped like a key."""
        return rewriter.apply(_escaped_keys(_without_secret_fields(data))) != data

    def text(self, text: str, rewriter: Rewriter) -> str:
        return rewriter.apply(text.encode()).decode(errors="replace")


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


@lru_cache(maxsize=64)
def _scrubber(secrets: frozenset[str]) -> Rewriter:
    """Compiled once per set of secrets: a test suite's cassettes, and a recording session's
    requests carrying the same key, share one pattern."""
    literals = sorted(
        {form.encode() for s in secrets if s for form in echoed_forms(s)}, key=len, reverse=True
    )
    alternatives = [re.escape(s) for s in literals] + list(_KEY_SHAPES)
    pattern = re.compile(b"|".join(alternatives))
    return Rewriter(
        pattern,
        lambda match: _PLACEHOLDER_BYTES,
        (*literals, *_SHORT_KEY_NEEDLES),
        _LONG_KEY_NEEDLES,
    )


def _carried_secrets(
    request: Request,
    secret_headers: frozenset[str],
    secret_name: Callable[[str], bool],
    named: bool = True,
) -> Iterable[str]:
    for name, value in request.headers:
        if name in ("cookie", "set-cookie"):
            yield from _long_enough(v for _, _, v in _cookies(value))
        elif name in secret_headers:
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
        yield from _long_enough(_body_secrets(request, secret_name))


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


def _body_secrets(request: Request, secret_name: Callable[[str], bool]) -> Iterator[str]:
    for match in _SECRET_FIELD_VALUE.finditer(request.body):
        quoted, number = match.group(1, 2)
        yield (number if quoted is None else quoted).decode("utf-8", "replace")
    for match in _GENERIC_FIELD_VALUE.finditer(request.body):
        value = _json_text(b'"' + match.group(1) + b'"')
        if looks_like_secret(value):
            yield value
    content_type = request.header("content-type") or ""
    if content_type.startswith("application/x-www-form-urlencoded"):
        for name, value in _form_pairs(request.body.decode("latin-1")):
            if secret_name(name):
                yield value
    elif content_type.startswith("multipart/form-data"):
        for match in _MULTIPART_FIELD.finditer(request.body):
            if secret_name(match.group(2).decode("latin-1")):
                yield match.group(3).decode("utf-8", "replace")
