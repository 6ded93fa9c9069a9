"""Provider rules: which response fields and headers of an LLM API change on every call.

A provider is recognised by the host, then the path, then the shape of the
response body; anything unrecognised (local vLLM or llama.cpp servers,
proxies) gets the OpenAI-compatible rules, which most servers speak.
Users add their own with ``Cassette(..., providers=[Provider(...)])``; theirs
are tried first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

STABLE_HEADERS = frozenset(
    {
        "content-type",
        "content-encoding",
        "content-language",
        "content-disposition",
        "cache-control",
        "pragma",
        "vary",
        "server",
        "via",
        "alt-svc",
        "accept-ranges",
        "allow",
        "location",
        "link",
        "www-authenticate",
        "strict-transport-security",
        "content-security-policy",
        "referrer-policy",
        "permissions-policy",
        "cross-origin-opener-policy",
        "cross-origin-resource-policy",
        "cross-origin-embedder-policy",
        "x-content-type-options",
        "x-frame-options",
        "x-xss-protection",
        "x-robots-tag",
        "x-accel-buffering",
        "timing-allow-origin",
        "access-control-allow-origin",
        "access-control-allow-credentials",
        "access-control-allow-headers",
        "access-control-allow-methods",
        "access-control-expose-headers",
        "access-control-max-age",
        "cf-cache-status",
        "x-should-retry",
        "retry-after",
        "openai-version",
        "anthropic-version",
    }
)
"""Response headers kept verbatim: their values describe the API, not the call. Every other
header's value gets a stand-in of its shape (``normalize.stand_in``), so a header no one has
seen yet (a gateway's request id, a cloud's latency) can never make a recording churn."""

ID_PREFIXES = frozenset(
    {
        "chatcmpl",
        "cmpl",
        "msg",
        "resp",
        "rs",
        "fc",
        "ws",
        "mcp",
        "ig",
        "ctc",
        "call",
        "toolu",
        "srvtoolu",
        "tooluse",
        "bdrk",
        "fp",
        "fb",
        "file",
        "batch",
        "run",
        "step",
        "thread",
        "asst",
        "vs",
        "vsfb",
        "req",
        "gen",
        "ft",
        "ftjob",
        "evt",
        "compl",
        "modr",
        "img",
        # The Realtime API's events, conversation items and sessions.
        "event",
        "item",
        "sess",
    }
)
"""Words that open generated ids (``chatcmpl-``, ``msg_``, ``resp_``) and are kept in their
placeholders for the reader. Only these: any other leading run of letters may be random."""

_ID_FIELDS = frozenset(
    {
        "id",
        "call_id",
        "item_id",
        "response_id",
        "previous_response_id",
        "tool_use_id",
        "tool_call_id",
        "file_id",
        "batch_id",
        "thread_id",
        "run_id",
        "assistant_id",
        "vector_store_id",
        "input_file_id",
        "output_file_id",
    }
)
_TIME_FIELDS = frozenset({"created", "created_at", "completed_at", "expires_at"})


@dataclass(frozen=True)
class Provider:
    name: str
    hosts: tuple[str, ...] = ()
    """Host names, matched as suffixes (``openai.com`` matches ``api.openai.com``)."""
    paths: tuple[str, ...] = ()
    """Path fragments that identify the API on any host (a local server, a proxy)."""
    body_markers: tuple[str, ...] = ()
    """Top-level response fields that, all present, identify the API."""
    id_fields: frozenset[str] = _ID_FIELDS
    """String fields whose values are normalized when they look generated (not model names),
    besides every field named like an id (``*_id``, ``*Id``)."""
    opaque_fields: frozenset[str] = frozenset({"system_fingerprint", "responseId"})
    """String fields whose values are always normalized."""
    number_fields: frozenset[str] = _TIME_FIELDS
    """Numeric fields that change on every call: timestamps, durations. Their RFC 3339 string
    values are fixed too, as those of every field named like a moment (``*_at``, ``*Time``)."""
    padding_fields: frozenset[str] = frozenset()
    """String fields that only pad a message to a random length, so that its size tells
    nothing of its content (Bedrock's ``p``): their value is fixed, whatever its length."""
    stable_headers: frozenset[str] = STABLE_HEADERS
    """Response headers kept verbatim; every other one gets a stand-in of its shape."""
    volatile_headers: frozenset[str] = frozenset()
    """Headers among ``stable_headers`` that this API makes volatile all the same."""
    volatile_header_prefixes: tuple[str, ...] = ()
    id_prefixes: frozenset[str] = ID_PREFIXES
    """Words kept at the start of an id's placeholder (``chatcmpl-``)."""

    def matches_host(self, host: str) -> bool:
        return any(host == h or host.endswith("." + h) for h in self.hosts)

    def matches_path(self, path: str) -> bool:
        return any(fragment in path for fragment in self.paths)

    def keeps_header(self, name: str) -> bool:
        """Whether a response header's value is stored as it came (ids chained in it aside)."""
        return (
            name in self.stable_headers
            and name not in self.volatile_headers
            and not name.startswith(self.volatile_header_prefixes)
        )


OPENAI_COMPATIBLE = Provider("openai-compatible")
OPENAI = Provider("openai", hosts=("api.openai.com",), paths=("/v1/responses",))
ANTHROPIC = Provider(
    "anthropic",
    hosts=("api.anthropic.com",),
    paths=("/v1/messages",),
    body_markers=("type", "stop_reason"),
)
AI21 = Provider(
    "ai21", hosts=("api.ai21.com",), paths=("/studio/v1/",), body_markers=("completions", "prompt")
)
LIGHTON = Provider(
    "lighton",
    hosts=("lighton.ai",),
    paths=("/lighton/",),
    body_markers=("request_id", "outputs"),
    opaque_fields=frozenset({"request_id", "system_fingerprint"}),
)
WORKFLOWAI = Provider(
    "workflowai",
    hosts=("workflowai.com",),
    paths=("/workflowai/",),
    body_markers=("feedback_token",),
    opaque_fields=frozenset({"feedback_token", "system_fingerprint"}),
    number_fields=_TIME_FIELDS | {"duration_seconds"},
)
GROQ = Provider(
    "groq",
    hosts=("api.groq.com",),
    paths=("/openai/v1/",),
    number_fields=_TIME_FIELDS | {"queue_time", "prompt_time", "completion_time", "total_time"},
)
MISTRAL = Provider("mistral", hosts=("api.mistral.ai",))
GEMINI = Provider(
    "gemini",
    hosts=("generativelanguage.googleapis.com", "aiplatform.googleapis.com"),
    paths=(":generateContent", ":streamGenerateContent"),
    body_markers=("candidates", "usageMetadata"),
)
BEDROCK = Provider(
    "bedrock",
    hosts=("amazonaws.com",),
    paths=("/converse", "/invoke"),
    number_fields=_TIME_FIELDS | {"latencyMs", "invocationLatency", "firstByteLatency"},
    padding_fields=frozenset({"p"}),
)

BUILTIN: tuple[Provider, ...] = (
    OPENAI,
    ANTHROPIC,
    AI21,
    LIGHTON,
    WORKFLOWAI,
    GROQ,
    MISTRAL,
    GEMINI,
    BEDROCK,
)


def detect(url: str, body: bytes, extra: Sequence[Provider] = ()) -> Provider:
    """The rules for a request to ``url`` whose response body is ``body``."""
    theirs = tuple(extra)
    try:
        by_url, marked = _rules(url, theirs)
    except TypeError:  # a user's provider holding a list is no dict key: worked out anew
        by_url, marked = _rules.__wrapped__(url, theirs)
    if by_url is not None:
        return by_url
    # Read as Latin-1, one character per byte, as the markers are: ``in`` on bytes first
    # tries its operand as an integer and raises inside, at the cost of a search of the body.
    head = body[:4096].decode("latin-1")
    for provider, markers in marked:
        if all(map(head.__contains__, markers)):
            return provider
    return OPENAI_COMPATIBLE


@lru_cache(maxsize=256)
def _rules(
    url: str, extra: tuple[Provider, ...]
) -> tuple[Provider | None, tuple[tuple[Provider, tuple[str, ...]], ...]]:
    """What :func:`detect` needs of ``url`` and the user's providers, worked out once for each
    (one look-up per response): the provider the URL names, and the body markers."""
    return _by_url(url, extra), _marked(extra)


def _by_url(url: str, extra: tuple[Provider, ...]) -> Provider | None:
    """The provider ``url`` names by its host, else by its path, if any: the same for every
    response of a recording session's URL, so worked out once for each."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    candidates = (*extra, *BUILTIN)
    for provider in candidates:
        if provider.matches_host(host):
            return provider
    for provider in candidates:
        if provider.matches_path(parts.path):
            return provider
    return None


def _marked(extra: tuple[Provider, ...]) -> tuple[tuple[Provider, tuple[str, ...]], ...]:
    """Each provider that has body markers, in the order tried, with them as the quoted bytes
    sought in a body, read as Latin-1: the longest first, as a body of another API lacks the
    first one sought as a rule, and a longer needle is ruled out in fewer steps."""
    return tuple(
        (
            provider,
            tuple(
                sorted(
                    [(b'"' + m.encode() + b'"').decode("latin-1") for m in provider.body_markers],
                    key=len,
                    reverse=True,
                )
            ),
        )
        for provider in (*extra, *BUILTIN)
        if provider.body_markers
    )
