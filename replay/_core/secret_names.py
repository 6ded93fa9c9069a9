"""Which names hold a secret: one rule for JSON and XML fields, headers, query, form and
fragment parameters, cookies and environment variables, in any case and separator style.

The rule, as :doc:`safety` states it: a name is a secret's when one of its words is
``secret``, ``token``, ``password``, ``passwd``, ``passphrase``, ``credential(s)``,
``signature``, ``sig``, ``apikey`` or ``authorization``, or it ends in ``api key``,
``private key`` or ``access key`` (a header: in ``key``); unless its last word says it
describes one rather than holds it (:data:`DESCRIBING_WORDS`: ``count``, ``type``,
``details``, ...) or it is on the short list of names that are not secrets
(:data:`NOT_SECRET_NAMES`). ``SecretAccessKey``, ``secret_access_key``,
``secret-access-key`` and ``secretAccessKey`` are the words ``secret access key`` alike.

The bare words ``token``, ``secret`` and ``key`` (:data:`GENERIC_NAMES`) are also what
OpenAI's logprobs call each piece of an answer and what many APIs call anything: their value
is a secret only when it looks like one (:func:`replay._core.redact.looks_like_secret`).
"""

from __future__ import annotations

import re
from enum import Enum
from functools import lru_cache


class Verdict(Enum):
    """What a name says of its value."""

    PLAIN = 0
    """Not a secret's name."""
    SECRET = 1
    """Its value is a secret, whatever it looks like."""
    IF_SHAPED = 2
    """A bare ``token``, ``secret`` or ``key``: a secret when the value looks like one."""


SECRET_WORDS = frozenset(
    {
        "secret",
        "secrets",
        "token",
        "password",
        "passwd",
        "passphrase",
        "credential",
        "credentials",
        "signature",
        "sig",
        "apikey",
        "authorization",
    }
)
SECRET_ENDINGS = (("api", "key"), ("private", "key"), ("access", "key"))
"""Two last words that make a name a secret's (``x-goog-api-key``, ``privateKey``)."""
DESCRIBING_WORDS = frozenset(
    {
        "count",
        "counts",
        "type",
        "usage",
        "details",
        "limit",
        "limits",
        "budget",
        "id",
        "ids",
        "index",
        "logprob",
        "logprobs",
        "at",
        "expires",
        "expiry",
        "expiration",
        "md5",
        "version",
        "url",
        "uri",
        "endpoint",
        "name",
        "length",
        "method",
    }
)
"""A last word that describes the secret the other words name, rather than hold it:
``promptTokenCount``, ``token_type``, ``client_secret_expires_at``, ``token_endpoint``,
``x-amz-server-side-encryption-customer-key-md5``."""
NOT_SECRET_NAMES = frozenset(
    {
        "idempotency-key",  # a retry's id, sent by the SDKs
        "sec-websocket-key",  # the handshake's nonce
    }
)
"""Names the words would take that are not secrets, compared lowered. Plural ``tokens``
(``max_tokens``, ``total_tokens``, ``*_tokens_details``) and ``tokenizer`` are words of
their own and need no entry."""
NOT_SECRET_FIELDS = frozenset({"signature", "thoughtsignature", "thought_signature"})
"""JSON fields that are not secrets though named so: a thinking block's signature
(Anthropic's ``signature``, Gemini's ``thoughtSignature``), which the API checks when it is
sent back. ``signature=`` in a URL is still a secret's. Compared lowered."""
GENERIC_NAMES = frozenset({"token", "secret", "key"})
HEADER_ONLY_NAMES = frozenset({"cookie", "set-cookie"})
"""Headers that are secrets whole, though their names are no secret's."""

KEY_WORD = "key"
"""A last word that makes a header's or an environment variable's name a secret's."""
NAME_WORDS = frozenset(
    SECRET_WORDS
    | GENERIC_NAMES
    | {ending[-1] for ending in SECRET_ENDINGS}
    | HEADER_ONLY_NAMES
    | {KEY_WORD}
)
"""Every name the rule takes (:func:`verdict` not plain, :func:`secret_header`,
:func:`secret_variable`) holds one of these once lowered: a pre-filter seeks them, lowered,
in stored data before it asks the rule about the few names that hold one."""
LOWERED_TO_ASCII = ("\u0130", "\u212a")
"""The only characters beyond ASCII that ``str.lower`` makes ASCII letters of (``İ``, the
Kelvin sign ``K``): a name holding one may be a secret's though its bytes, lowered as ASCII,
hold no word of :data:`NAME_WORDS`."""

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def words(name: str) -> tuple[str, ...]:
    """The words of a name, lowered: ``SecretAccessKey``, ``secret_access_key``,
    ``secret-access-key`` and ``secretAccessKey`` are all ``("secret", "access", "key")``;
    ``APIKey`` is ``("api", "key")``."""
    return tuple(word.lower() for word in _WORD.findall(name))


@lru_cache(maxsize=4096)
def verdict(name: str) -> Verdict:
    """What the name of a JSON or XML field, a query, form or fragment parameter, a cookie
    or an environment variable says of its value (see the module's docstring)."""
    lowered = name.lower()
    if lowered in GENERIC_NAMES:
        return Verdict.IF_SHAPED
    if lowered in NOT_SECRET_NAMES:
        return Verdict.PLAIN
    said = words(name)
    if not said or said[-1] in DESCRIBING_WORDS:
        return Verdict.PLAIN
    if SECRET_WORDS.intersection(said) or said[-2:] in SECRET_ENDINGS:
        return Verdict.SECRET
    return Verdict.PLAIN


def field_verdict(name: str) -> Verdict:
    """:func:`verdict` for a JSON field's name, which :data:`NOT_SECRET_FIELDS` spares."""
    return Verdict.PLAIN if name.lower() in NOT_SECRET_FIELDS else verdict(name)


@lru_cache(maxsize=4096)
def secret_header(name: str) -> bool:
    """Whether a header's value is a secret: by :func:`verdict`, by a last word ``key``
    (``ocp-apim-subscription-key``, ``x-amz-server-side-encryption-customer-key``), or a
    cookie. ``name`` lowered, as headers are kept."""
    if name in HEADER_ONLY_NAMES:
        return True
    if name in NOT_SECRET_NAMES:
        return False
    said = words(name)
    return verdict(name) is not Verdict.PLAIN or (bool(said) and said[-1] == KEY_WORD)


def secret_param(name: str) -> bool:
    """Whether a query, form or fragment parameter is a secret whatever its value looks like:
    a URL's ``?key=`` and ``?token=`` are, so the bare words count here."""
    return verdict(name) is not Verdict.PLAIN


def secret_variable(name: str) -> bool:
    """Whether an environment variable is named like a secret: by the rule, or a name
    ending in ``KEY`` (``OPENAI_API_KEY``, ``MISTRAL_KEY``)."""
    said = words(name)
    return verdict(name) is not Verdict.PLAIN or (bool(said) and said[-1] == KEY_WORD)


PASSWORD_WORDS = frozenset({"password", "passwd", "passphrase"})


def names_a_password(name: str) -> bool:
    """A password's name: its value need not look random (``Tr0ub4dor-and-3``)."""
    return not PASSWORD_WORDS.isdisjoint(words(name))
