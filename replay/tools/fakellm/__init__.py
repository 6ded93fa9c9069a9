"""A local fake LLM API server for tests and demos.

``FakeLLMServer`` speaks just enough of several providers' wire formats for the
real SDKs to parse its answers, so record/replay can be exercised end to end
without network access or keys::

    with FakeLLMServer(api_key="sk-test-abc", chunk_delay=0.005) as server:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="sk-test-abc")

From a shell, ``replay fake-server [--port N]`` (or ``python -m replay.tools.fakellm``)
serves it until Ctrl-C and prints the environment variables that point the SDKs at
it (:func:`environment`).

Endpoints (each also answers under an ``/openai`` prefix, as groq's SDK uses):

* ``POST /v1/chat/completions``: OpenAI chat, optionally streamed, with logprobs and tools.
* ``POST /v1/responses``, ``GET /v1/responses/{id}``: OpenAI Responses, optionally streamed.
* ``POST /v1/messages``: Anthropic Messages, optionally streamed.
* ``POST /studio/v1/{model}/complete``: AI21 J2 complete.
* ``POST /studio/v1/chat/completions``: AI21 Jamba chat (the ai21 SDK's ``chat.completions``).
* ``POST /lighton/api/v1/generate``: LightOn Paradigm.
* ``POST /workflowai/v1/chat/completions``: WorkflowAI, OpenAI chat plus per-choice extras.
* ``POST /v1/files``, ``GET /v1/files/{id}``: multipart upload, then fetch by issued id.
* ``POST /v1beta/models/{model}:generateContent`` (or ``/v1/...``), and
  ``:streamGenerateContent?alt=sse``: Gemini (the google-genai SDK).
* ``POST /v2/chat``: Cohere v2 chat (the cohere SDK's ``ClientV2``), optionally streamed.
* ``POST /api/chat``: Ollama chat, streamed as NDJSON unless ``"stream": false``.

Cohere and Ollama always answer with text, even when the request offers tools.

Answer rule. The prompt P is the text of the last user message (or ``input``,
``prompt``, ``text``, whichever the format uses). With the server's
``model_version`` V, every format derives its answer from ``answer_for(P, V)``:

* text is ``f"Answer to: {P[:40]}"``;
* if the request has ``tools``, the answer is a call to the first tool with
  arguments ``{"query": P[:40]}``;
* the finish reason is "stop" (Anthropic "end_turn", J2 "endoftext", Cohere "COMPLETE").

``model_versions`` gives some model names a version of their own, so one server
answers two models differently (``{"model-b": "v2"}``); other models answer as V.
``aliases`` maps a requested model to the model the answer names (``{"fake-latest":
"fake-2024-11-20"}``), as a provider's alias resolves to a dated version.

When V is anything but "v1", prompts containing (case-insensitively) "poem" answer
``f"A poem about: {P[:40]}"``, "long" finish with "length" (Anthropic "max_tokens",
Cohere "MAX_TOKENS", Responses status "incomplete"), and "weather" add ``"unit":
"celsius"`` to the tool arguments. Every other prompt answers identically in all
versions. Tokens are whitespace-led words (``tokens(text)``), streamed one per chunk.

Ids, timestamps and the headers ``x-request-id``, ``openai-processing-ms``, ``cf-ray``,
``x-ratelimit-remaining-requests`` and ``x-ratelimit-reset-requests`` are random on
every response, so replay tests see what real providers vary. Every response also names
the account as OpenAI and Anthropic do (``openai-organization``, ``openai-project``,
``anthropic-organization-id``: ``account_headers``, made up per server), which must never
reach a cassette.

Authentication: ``Authorization: Bearer <key>``, ``x-api-key``, ``api-key`` or
``x-goog-api-key`` must carry the server's key; otherwise a 401 whose message echoes
the presented key in full. ``/api/chat`` needs no key, as a local Ollama does.

Special model names, on any endpoint: ``error-<code>`` answers that HTTP status with an
OpenAI-style error (plus ``retry-after: 1`` for 429 and 503); ``gzip`` gzip-compresses
a non-streamed body when the client accepts gzip; ``slow`` waits ``slow_delay`` (3 s)
before answering. ``fail_next(count, status, retry_after)`` makes the next ``count``
requests answer ``status`` (429 by default) with that ``retry-after``, as rate limits do.

Every error on the Cohere and Ollama routes takes its provider's shape instead of
OpenAI's: ``{"message": ...}`` for Cohere, ``{"error": ...}`` for Ollama.

``end_delay`` (seconds, 0 by default) holds a stream open after its last event before
ending the body, as a server may after ``[DONE]``: a client that stops reading at the
final event has that event long before the body ends.
"""

from __future__ import annotations

from replay.tools.fakellm.routes import (
    MODEL_VERSIONS,
    Answer,
    ReceivedRequest,
    answer_for,
    tokens,
)
from replay.tools.fakellm.server import DEFAULT_API_KEY, DEFAULT_PORT, FakeLLMServer, environment

__all__ = [
    "DEFAULT_API_KEY",
    "DEFAULT_PORT",
    "MODEL_VERSIONS",
    "Answer",
    "FakeLLMServer",
    "ReceivedRequest",
    "answer_for",
    "environment",
    "tokens",
]
