"""``secret_fields=``: names a user declares secret on top of the rule (an in-house session
header, a customer reference field) are redacted wherever a name is, as the rule's own names
are: a header, a query parameter, a JSON field of the request and of the answer, an XML
element, a ``name=value`` pair and free text. Through the openai SDK against a scripted server
on 127.0.0.1; a request carrying other values of them replays the recording, and the option
flows from ``[tool.replay]`` and the marker, adding up."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import openai
import pytest
from leaks import Answer, assert_never_in, assert_never_written, scripted

import replay
from replay.tools.config import checked, merged, settings

SESSION = "acmeSession0123"
CUSTOMER = "cust-4242-zulu"
ISSUED = "cust-7777-new"
"""A reference only the answer gives, in prose: found by its name alone, not as an echo.
Neither these nor the two above are named or shaped like a secret: the rule keeps them."""
FIELDS = ["x-acme-session", "customer_ref"]


def echoing(path: str, headers: dict[str, str], body: bytes) -> Answer:
    """An answer repeating the customer reference in a field, in an XML-ish text, in a
    ``name=value`` link and in prose, and the session in a header."""
    customer = json.loads(body)["customer_ref"]
    query = parse_qs(urlsplit(path).query)["customer_ref"][0]
    text = (
        f"<customer_ref>{customer}</customer_ref> see https://h.example/c?customer_ref={query}"
        f" and Customer Ref: {ISSUED}"
    )
    answer = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": "gpt-4o-mini",
        "customer_ref": customer,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
    }
    session = headers["x-acme-session"]
    return Answer(json.dumps(answer).encode(), headers={"x-acme-session": session})


def ask(url: str, session: str, customer: str) -> str:
    client = openai.OpenAI(base_url=url + "/v1", api_key="sk-test", max_retries=0)
    answer = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "hello"}],
        extra_headers={"X-Acme-Session": session},
        extra_query={"customer_ref": customer},
        extra_body={"customer_ref": customer},
    )
    return str(answer.choices[0].message.content)


def test_declared_names_are_redacted_everywhere_and_matched_without_their_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    cassette = tmp_path / "cassettes" / "fields.json"
    with scripted(echoing) as url:
        with replay.use_cassette(cassette, secret_fields=FIELDS) as recording:
            recorded = ask(url, SESSION, CUSTOMER)
    assert recording.recorded == 1 and recorded.count(CUSTOMER) == 2 and ISSUED in recorded
    assert_never_written(tmp_path, SESSION, CUSTOMER, ISSUED)
    for other in ("otherSession987", "cust-0000-alfa"):  # the server is stopped
        with replay.use_cassette(cassette, "none", secret_fields=FIELDS) as replaying:
            replayed = ask(url, other, other)
        assert replaying.replayed == 1 and other not in replayed
    assert replayed == (
        "<customer_ref>REDACTED</customer_ref> see https://h.example/c?customer_ref=REDACTED"
        " and Customer Ref: REDACTED"
    )


def test_without_the_option_the_rule_keeps_them(tmp_path: Path) -> None:
    """What the test above proves is the option's doing: the rule takes neither name."""
    cassette = tmp_path / "plain.json"
    with scripted(echoing) as url, replay.use_cassette(cassette):
        ask(url, SESSION, CUSTOMER)
    stored = cassette.read_bytes()
    assert all(value.encode() in stored for value in (SESSION, CUSTOMER, ISSUED))


def test_secret_fields_add_up_over_the_marker_the_fixture_and_pyproject() -> None:
    marker = checked("marker", {"secret_fields": ["x-acme-session"]})
    fixture = checked("fixture", {"secret_fields": "customer_ref"})
    pyproject = checked("pyproject", {"secret_fields": ["tenant", "customer_ref"]})
    options = merged([marker, fixture, pyproject])
    assert settings(options, None, {}).secret_fields == ("x-acme-session", "customer_ref", "tenant")


def test_secret_fields_from_pyproject_and_the_marker_reach_the_cassette(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    pytester.makefile(".toml", pyproject='[tool.replay]\nsecret_fields = ["customer_ref"]\n')
    with scripted(echoing) as url:
        pytester.makepyfile(
            f"""
            import openai
            import pytest

            @pytest.mark.replay(secret_fields=["x-acme-session"])
            def test_call():
                client = openai.OpenAI(base_url="{url}/v1", api_key="sk-test", max_retries=0)
                client.chat.completions.create(
                    model="m",
                    messages=[{{"role": "user", "content": "hello"}}],
                    extra_headers={{"x-acme-session": "{SESSION}"}},
                    extra_query={{"customer_ref": "{CUSTOMER}"}},
                    extra_body={{"customer_ref": "{CUSTOMER}"}},
                )
            """
        )
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    written = b"".join(p.read_bytes() for p in (pytester.path / "cassettes").rglob("*.json"))
    assert b"x-acme-session" in written and b"customer_ref" in written
    assert_never_in(written, SESSION, CUSTOMER)
