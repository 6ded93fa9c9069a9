"""Recording through the transport keeps account ids and tokens off disk, as import-vcr does.

The openai and anthropic SDKs record against the fake server, which names the account in
its answers (``openai-organization``, ``openai-project``, ``anthropic-organization-id``)
as the real APIs do; the client sends its organization and project, and a JSON Web Token
in a field no secret list names. Then the calls replay with the server stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anthropic
import httpx2
import openai
from conftest import TEST_API_KEY, StoppedServer, cassette_bytes

import replay
from replay.tools.fakellm import FakeLLMServer

ORGANIZATION = "org-MadeUpOrganizationId42"
PROJECT = "proj_MadeUpProjectForTests42"
JWT = (
    "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxNzU0MDAzNjAwfQ"
    ".TWFkZVVwU2lnbmF0dXJlRm9yVGVzdHMwMTIz"
)


def _calls(url: str, cassette: replay.Cassette) -> tuple[str, str, str]:
    http = httpx2.Client(transport=replay.ReplayTransport(cassette))
    client = openai.OpenAI(
        http_client=http,
        base_url=url + "/v1",
        api_key=TEST_API_KEY,
        organization=ORGANIZATION,
        project=PROJECT,
        max_retries=0,
    )
    chat = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hello"}], user=JWT
    )
    stream = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "stream it"}], stream=True
    )
    streamed = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    claude = anthropic.Anthropic(
        http_client=httpx2.Client(transport=replay.ReplayTransport(cassette)),
        base_url=url,
        api_key=TEST_API_KEY,
        max_retries=0,
    ).messages.create(
        model="claude-sonnet", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
    )
    text = claude.content[0].text if claude.content[0].type == "text" else ""
    return chat.choices[0].message.content or "", streamed, text


def test_account_headers_and_tokens_never_reach_the_cassette(
    llm_server: FakeLLMServer, server_gone: Callable[[], StoppedServer], cassette_path: Path
) -> None:
    with replay.Cassette(cassette_path, mode="all") as cassette:
        recorded = _calls(llm_server.url, cassette)
    sent = llm_server.requests[0]
    assert (sent.headers["openai-organization"], sent.headers["openai-project"]) == (
        ORGANIZATION,
        PROJECT,
    )
    stored = cassette_bytes(cassette_path)
    for value in (ORGANIZATION, PROJECT, JWT, *llm_server.account_headers.values()):
        assert value.encode() not in stored, value
    answers = [entry.outcomes[0] for entry in replay.Cassette(cassette_path).interactions]
    named = [
        (name, value)
        for answer in answers
        for name, value in answer.headers
        if name in llm_server.account_headers
    ]
    assert len(named) == 3 * len(answers) and {value for _, value in named} == {"REDACTED"}

    gone = server_gone()
    with replay.Cassette(cassette_path, mode="none") as cassette:
        assert _calls(llm_server.url, cassette) == recorded
    assert cassette.replayed == 3
    gone.assert_untouched()
