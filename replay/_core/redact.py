"""Keep secrets off disk: every request and response passes through here before it is stored.

What is replaced by :data:`PLACEHOLDER`:

- the values of secret headers (``authorization``, ``x-api-key``, cookies, cloud
  credentials such as ``x-amz-security-token``, ...), of the headers naming the account
  (``openai-organization``, ``openai-project``, ``anthropic-organization-id``), and of
  secret query parameters (``key``, ``api_key``, ``access_token``, ``sig``, the
  ``X-Amz-Signature`` of a presigned URL, ...);
- the userinfo of a URL (``https://user:pass@host``);
- the values of secret JSON fields (``"api_key": "..."``) in request and response bodies,
  and of secret parameters in form-encoded request bodies;
- wherever they appear (URL, body, response, stream chunks, error messages): the
  values of environment variables whose names end in ``_KEY``, ``_TOKEN`` or
  ``_SECRET`` or contain ``API_KEY``; the secrets the request itself carried in
  its auth headers and parameters (servers echo them in error bodies); literal
  secrets the user names; and strings shaped like the major providers' API keys.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from replay._core.model import Headers, Request, Response
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
    "client_secret",
    "password",
)
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
_KEY_SHAPE_NEEDLES = (
    b"sk-",
    b"gsk_",
    b"AIza",
    b"xai-",
    b"hf_",
    b"ya29.",
    b"1//0",
    b"AKIA",
    b"ASIA",
    b"eyJ",
    b"Bearer ",
)
"""Every key shape above contains one of these: text without them is not scanned for keys."""
_SECRET_FIELD_NAMES = tuple(name.encode() for name in SECRET_JSON_FIELDS)
SECRET_FIELDS = Rewriter(
    re.compile(rb'("(?:' + b"|".join(_SECRET_FIELD_NAMES) + rb')"\s*:\s*")(?:[^"\\]|\\.)*"'),
    lambda match: match.group(1) + _PLACEHOLDER_BYTES + b'"',
    _SECRET_FIELD_NAMES,
)
"""Replaces the values of secret JSON fields, in requests and in responses alike."""
_SECRET_FIELD_VALUE = re.compile(
    rb'"(?:' + b"|".join(_SECRET_FIELD_NAMES) + rb')"\s*:\s*"([^"\\]*)"'
)
"""A secret JSON field's value, when it has no escapes: servers echo it like a header's."""


def environment_secrets(environ: Mapping[str, str] | None = None) -> frozenset[str]:
    environ = os.environ if environ is None else environ
    return frozenset(
        value
        for name, value in environ.items()
        if _ENV_NAME.search(name.upper()) and len(value) >= MIN_SECRET_LENGTH
    )


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

    def with_secrets_of(self, request: Request) -> Rewriter:
        """A rewriter that also scrubs what this request carried in its auth headers and query."""
        carried = set(_carried_secrets(request, self.secret_headers, self.secret_params))
        if carried <= self.secrets:
            return self.known
        return _scrubber(frozenset(self.secrets | carried))

    def url(self, url: str, rewriter: Rewriter | None = None) -> str:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            netloc = f"{PLACEHOLDER}@{netloc.rpartition('@')[2]}"
        query = self._form(parts.query)
        rebuilt = (
            url
            if (netloc, query) == (parts.netloc, parts.query)
            else urlunsplit(parts._replace(netloc=netloc, query=query))
        )
        return (rewriter or self.known).apply(rebuilt.encode()).decode()

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
        if content_type and content_type.startswith("application/x-www-form-urlencoded"):
            body = self._form(body.decode("latin-1")).encode("latin-1")
        return (rewriter or self.known).apply(SECRET_FIELDS.apply(body))

    def headers(self, headers: Headers, rewriter: Rewriter) -> Headers:
        return tuple(
            (
                name,
                PLACEHOLDER
                if name in self.secret_headers
                else rewriter.apply(value.encode()).decode(),
            )
            for name, value in headers
        )

    def request(self, request: Request, rewriter: Rewriter) -> Request:
        return Request(
            method=request.method,
            url=self.url(request.url, rewriter),
            headers=self.headers(request.headers, rewriter),
            body=self.body(request.body, request.header("content-type"), rewriter),
        )

    def response(self, response: Response, rewriter: Rewriter) -> Response:
        return Response(
            status=response.status,
            headers=self.headers(response.headers, rewriter),
            chunks=rewriter.apply_to(SECRET_FIELDS.apply_to(response.chunks)),
            recorded_at=response.recorded_at,
            complete=response.complete,
            failure=None
            if response.failure is None
            else replace(response.failure, message=self.text(response.failure.message, rewriter)),
        )

    def holds_secret(self, data: bytes, rewriter: Rewriter) -> bool:
        """Whether redaction would change ``data``: a secret field, a known or carried secret,
        or a string shaped like a key."""
        return rewriter.apply(SECRET_FIELDS.apply(data)) != data

    def text(self, text: str, rewriter: Rewriter) -> str:
        return rewriter.apply(text.encode()).decode(errors="replace")


@lru_cache(maxsize=64)
def _scrubber(secrets: frozenset[str]) -> Rewriter:
    """Compiled once per set of secrets: a test suite's cassettes, and a recording session's
    requests carrying the same key, share one pattern."""
    literals = sorted({s.encode() for s in secrets if s}, key=len, reverse=True)
    alternatives = [re.escape(s) for s in literals] + list(_KEY_SHAPES)
    pattern = re.compile(b"|".join(alternatives))
    return Rewriter(pattern, lambda match: _PLACEHOLDER_BYTES, (*literals, *_KEY_SHAPE_NEEDLES))


def _carried_secrets(
    request: Request, secret_headers: frozenset[str], secret_params: frozenset[str]
) -> Iterable[str]:
    for name, value in request.headers:
        if name in secret_headers and name not in ("cookie", "set-cookie"):
            scheme, _, credential = value.partition(" ")
            token = credential if credential and scheme.isalpha() else value
            if len(token) >= MIN_SECRET_LENGTH:
                yield token
    parts = urlsplit(request.url)
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name.lower() in secret_params and len(value) >= MIN_SECRET_LENGTH:
            yield value
    for userinfo in (parts.username, parts.password):
        if userinfo and len(userinfo) >= MIN_SECRET_LENGTH:
            yield unquote(userinfo)
    if request.body:
        for match in _SECRET_FIELD_VALUE.finditer(request.body):
            if len(match.group(1)) >= MIN_SECRET_LENGTH:
                yield match.group(1).decode("utf-8", "replace")
