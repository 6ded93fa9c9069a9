"""Credentials of real cloud and LLM flows never reach disk: each flow through its real SDK
(boto3's STS, SSO, Cognito and container credentials providers, S3's SSE-C; the openai SDK's
realtime client secrets, images and rate limits; MCP tool configs in openai and anthropic
requests; Azure "On your data"; requests for OAuth; websockets' subprotocol key), against a
scripted server on 127.0.0.1 that answers as the real service does. Then every file replay
wrote is searched for each secret in every form it could take (raw, base64 at every
alignment, percent-encoded, hex, JSON-escaped), and the calls replay with the server stopped.
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import anthropic
import boto3
import botocore.credentials
import botocore.exceptions
import httpx2
import openai
import pytest
import requests
import websockets.sync.client
import websockets.sync.server
from conftest import cassette_bytes, port_refuses
from leaks import Answer, Route, assert_never_written, scripted

import replay

ACCESS_KEY = "ASIAQ7FAKEEXAMPLE4XZ"
SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY9"
SESSION_TOKEN = "IQoJb3JpZ2luX2VjEFAKEsessionTOKEN0123456789abcdefXYZ/+=="
BEARER = "ssoBearerT0kenFakeValue4242ZZqq"
CONTAINER_TOKEN = "c0ntainerAuthT0kenFake77ZZ"
EPHEMERAL = "ek_68af1e2c3b4d5e6f7a8b9c0d1e2f3a4b"
MCP_TOKEN = "mcpConnectorT0ken9Zq8Yx7Wv6"
AZURE_DATA_KEY = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
ORGANIZATION = "org-AbCdEfGhIjKlMnOpQrStUvWx"
USER = "user-ZyXwVuTsRqPoNmLkJiHgFeDc"
SAS_SIGNATURE = "Zk9vQmFyQmF6+c2lnbmF0dXJl/MDEyMzQ1Njc4OQ=="
S3_SIGNATURE = "4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b"
SSE_C_KEY = base64.b64encode(b"0123456789abcdef0123456789ABCDEF").decode()
ACCESS_TOKEN = "oauthAccessT0kenValue31337xyz"
REFRESH_TOKEN = "oauthRefreshT0kenValue42424abc"
FRAGMENT_TOKEN = "fragmentT0kenValue98765qwert"
SUBPROTOCOL_KEY = "realtimeBrowserKey0Q1w2E3r4T5y"
VENDOR_KEYS = {
    "xi-api-key": "elevenLabsK3yFake0123456789",
    "x-portkey-api-key": "portkeyK3yFake0123456789ab",
    "x-subscription-token": "braveSubscriptionT0ken9876",
}
DATABASE_PASSWORD = "Tr0ub4dor-and-3"


def record_then_replay(
    tmp_path: Path, route: Route, calls: Callable[[str], Any], *secrets: str
) -> tuple[Any, Any]:
    """Record ``calls`` against the scripted server, search every file written for each
    secret, then replay them with the server stopped; both results."""
    cassette = tmp_path / "cassettes" / "flow.json"
    with scripted(route) as url, replay.use_cassette(cassette) as recording:
        recorded = calls(url)
    assert recording.recorded > 0
    assert_never_written(tmp_path, *secrets)
    with replay.use_cassette(cassette, "none") as replaying:
        replayed = calls(url)
    assert replaying.replayed == recording.recorded
    assert_never_written(tmp_path, *secrets)
    return recorded, replayed


@pytest.fixture(autouse=True)
def aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    for name in ("AWS_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        monkeypatch.setenv(name, str(tmp_path / "absent")) if name != "AWS_PROFILE" else None
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAQ7FAKEEXAMPLE1XZ")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "longTermSecretFake0123456789abcdefGHIJ")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")


STS_XML = f"""<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <AssumedRoleId>AROA3XFRBF535PLBIFPI4:s3-access-example</AssumedRoleId>
      <Arn>arn:aws:sts::123456789012:assumed-role/demo/s3-access-example</Arn>
    </AssumedRoleUser>
    <Credentials>
      <AccessKeyId>{ACCESS_KEY}</AccessKeyId>
      <SecretAccessKey>{SECRET_KEY}</SecretAccessKey>
      <SessionToken>{SESSION_TOKEN}</SessionToken>
      <Expiration>2030-01-01T00:00:00Z</Expiration>
    </Credentials>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</AssumeRoleResponse>""".encode()


def test_sts_assume_role_answer_keeps_its_credentials_off_disk(tmp_path: Path) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        return Answer(STS_XML, "text/xml")

    def calls(url: str) -> str:
        sts = boto3.client("sts", endpoint_url=url)
        answer = sts.assume_role(
            RoleArn="arn:aws:iam::123456789012:role/demo", RoleSessionName="session"
        )
        return str(answer["Credentials"]["AccessKeyId"])

    recorded, replayed = record_then_replay(tmp_path, route, calls, SECRET_KEY, SESSION_TOKEN)
    assert recorded == ACCESS_KEY and replayed == "ASIAREDACTED"  # its prefix kept


def test_sso_role_credentials_and_bearer_header_stay_off_disk(tmp_path: Path) -> None:
    seen: list[str] = []

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        seen.append(headers.get("x-amz-sso_bearer_token", ""))
        credentials = {
            "accessKeyId": ACCESS_KEY,
            "secretAccessKey": SECRET_KEY,
            "sessionToken": SESSION_TOKEN,
            "expiration": 1893456000000,
        }
        return Answer(json.dumps({"roleCredentials": credentials}).encode())

    def calls(url: str) -> str:
        sso = boto3.client("sso", endpoint_url=url)
        answer = sso.get_role_credentials(
            roleName="r", accountId="123456789012", accessToken=BEARER
        )
        return str(answer["roleCredentials"]["secretAccessKey"])

    recorded, replayed = record_then_replay(
        tmp_path, route, calls, BEARER, SECRET_KEY, SESSION_TOKEN
    )
    assert seen == [BEARER] and recorded == SECRET_KEY and replayed == "REDACTED"


def test_cognito_identity_secret_key_stays_off_disk(tmp_path: Path) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        credentials = {
            "AccessKeyId": ACCESS_KEY,
            "SecretKey": SECRET_KEY,
            "SessionToken": SESSION_TOKEN,
            "Expiration": 1893456000,
        }
        answer = {"IdentityId": "us-east-1:11111111-2222", "Credentials": credentials}
        return Answer(json.dumps(answer).encode(), "application/x-amz-json-1.1")

    def calls(url: str) -> str:
        cognito = boto3.client("cognito-identity", endpoint_url=url)
        answer = cognito.get_credentials_for_identity(IdentityId="us-east-1:11111111-2222")
        return str(answer["Credentials"]["SecretKey"])

    recorded, replayed = record_then_replay(tmp_path, route, calls, SECRET_KEY, SESSION_TOKEN)
    assert recorded == SECRET_KEY and replayed == "REDACTED"


def test_container_credentials_provider_token_and_authorization_stay_off_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        seen.append(headers.get("authorization", ""))
        credentials = {
            "AccessKeyId": ACCESS_KEY,
            "SecretAccessKey": SECRET_KEY,
            "Token": SESSION_TOKEN,
            "Expiration": "2030-01-01T00:00:00Z",
        }
        return Answer(json.dumps(credentials).encode())

    def calls(url: str) -> str:
        monkeypatch.setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", url + "/v2/credentials")
        monkeypatch.setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN", CONTAINER_TOKEN)
        provider = botocore.credentials.ContainerProvider()
        credentials = provider.load()
        assert credentials is not None
        return str(credentials.get_frozen_credentials().token)

    recorded, replayed = record_then_replay(
        tmp_path, route, calls, SECRET_KEY, SESSION_TOKEN, CONTAINER_TOKEN
    )
    assert seen == [CONTAINER_TOKEN] and recorded == SESSION_TOKEN and replayed == "REDACTED"


def test_s3_sse_c_key_header_and_presigned_urls_in_an_answer_stay_off_disk(
    tmp_path: Path,
) -> None:
    presigned = (
        "https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={ACCESS_KEY}%2F20240101%2Fus-east-1%2Fs3%2Faws4_request"
        "&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600"
        f"&X-Amz-Security-Token={quote(SESSION_TOKEN, safe='')}"
        f"&X-Amz-SignedHeaders=host&X-Amz-Signature={S3_SIGNATURE}"
    )

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        if path.startswith("/files"):
            return Answer(json.dumps({"download_url": presigned}).encode())
        return Answer(b"", "application/xml", headers={"etag": '"abc"'})

    def calls(url: str) -> str:
        s3 = boto3.client("s3", endpoint_url=url)
        s3.put_object(
            Bucket="bucket",
            Key="k",
            Body=b"data",
            SSECustomerAlgorithm="AES256",
            SSECustomerKey=base64.b64decode(SSE_C_KEY).decode(),
        )
        return str(requests.get(url + "/files/1", timeout=10).json()["download_url"])

    recorded, replayed = record_then_replay(
        tmp_path, route, calls, SSE_C_KEY, S3_SIGNATURE, SESSION_TOKEN
    )
    assert recorded == presigned
    assert "X-Amz-Signature=REDACTED" in replayed and "X-Amz-Credential=REDACTED" in replayed


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=url + "/v1", api_key="sk-test-credential-flows-0123456789", max_retries=0
    )


def test_realtime_client_secrets_in_both_shapes_stay_off_disk(tmp_path: Path) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        if path.endswith("/realtime/client_secrets"):
            answer: dict[str, Any] = {
                "value": EPHEMERAL,
                "expires_at": 1893456000,
                "session": {"type": "realtime", "model": "gpt-realtime"},
            }
        else:  # the sessions endpoint, before client secrets had one of their own
            answer = {
                "id": "sess_001",
                "object": "realtime.session",
                "model": "gpt-realtime",
                "client_secret": {"value": EPHEMERAL, "expires_at": 1893456000},
            }
        return Answer(json.dumps(answer).encode())

    def calls(url: str) -> tuple[str, str]:
        client = _openai(url)
        secret = client.realtime.client_secrets.create(
            session={"type": "realtime", "model": "gpt-realtime"}
        )
        session = client.post("/realtime/sessions", body={"model": "gpt-realtime"}, cast_to=dict)  # type: ignore[arg-type]
        return secret.value, session["client_secret"]["value"]

    recorded, replayed = record_then_replay(tmp_path, route, calls, EPHEMERAL)
    assert recorded == (EPHEMERAL, EPHEMERAL)
    assert replayed == ("ek_REDACTED", "ek_REDACTED")  # the prefix kept, for clients that check it


def test_mcp_tool_credentials_in_openai_and_anthropic_requests_stay_off_disk(
    tmp_path: Path,
) -> None:
    seen: list[bytes] = []

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        seen.append(body)
        if path.endswith("/responses"):
            answer: dict[str, Any] = {
                "id": "resp_1",
                "object": "response",
                "created_at": 1,
                "model": "gpt-4o",
                "output": [],
                "status": "completed",
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
            }
        else:
            answer = {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude",
                "content": [{"type": "text", "text": "done"}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        return Answer(json.dumps(answer).encode())

    def calls(url: str) -> str:
        _openai(url).responses.create(
            model="gpt-4o",
            input="use the tool",
            tools=[
                {
                    "type": "mcp",
                    "server_label": "crm",
                    "server_url": "https://mcp.example/sse",
                    "authorization": MCP_TOKEN,
                    "require_approval": "never",
                }
            ],
        )
        claude = anthropic.Anthropic(
            base_url=url, api_key="sk-ant-test-credential-flows-0123456789", max_retries=0
        )
        message = claude.beta.messages.create(
            model="claude-sonnet-4",
            max_tokens=16,
            messages=[{"role": "user", "content": "hi"}],
            mcp_servers=[
                {
                    "type": "url",
                    "url": "https://mcp.example/sse",
                    "name": "crm",
                    "authorization_token": MCP_TOKEN,
                }
            ],
            betas=["mcp-client-2025-04-04"],
        )
        return str(message.content[0].text)  # type: ignore[union-attr]

    record_then_replay(tmp_path, route, calls, MCP_TOKEN)
    assert len(seen) == 2 and all(MCP_TOKEN.encode() in body for body in seen)


def test_azure_on_your_data_key_stays_off_disk(tmp_path: Path) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        answer = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-4o",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "ok"},
                }
            ],
        }
        return Answer(json.dumps(answer).encode())

    def calls(url: str) -> str:
        client = openai.AzureOpenAI(
            azure_endpoint=url,
            api_key="azureApiK3yFake0123456789abcdef",
            api_version="2024-10-21",
            max_retries=0,
        )
        answer = client.chat.completions.create(
            model="gpt-4o",
            messages=[{"role": "user", "content": "what do the docs say?"}],
            extra_body={
                "data_sources": [
                    {
                        "type": "azure_search",
                        "parameters": {
                            "endpoint": "https://search.example",
                            "index_name": "docs",
                            "authentication": {"type": "api_key", "key": AZURE_DATA_KEY},
                        },
                    }
                ]
            },
        )
        return answer.choices[0].message.content or ""

    record_then_replay(tmp_path, route, calls, AZURE_DATA_KEY)


def test_account_ids_in_a_rate_limit_text_and_an_image_url_stay_off_disk(tmp_path: Path) -> None:
    image = (
        f"https://oaidalleapiprodscus.blob.core.windows.net/private/{ORGANIZATION}/{USER}/img-1.png"
        f"?st=2024-01-01T00%3A00%3A00Z&se=2024-01-01T02%3A00%3A00Z&sp=r&sv=2021-08-06&sr=b"
        f"&sig={quote(SAS_SIGNATURE, safe='')}"
    )

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        if path.endswith("/images/generations"):
            return Answer(json.dumps({"created": 1, "data": [{"url": image}]}).encode())
        message = (
            f"Rate limit reached for gpt-4o in organization {ORGANIZATION} on tokens per min"
            " (TPM): Limit 30000, Used 29000, Requested 2000."
        )
        error = {"error": {"message": message, "type": "tokens", "code": "rate_limit_exceeded"}}
        return Answer(json.dumps(error).encode(), status=429)

    def calls(url: str) -> tuple[str, str]:
        client = _openai(url)
        url_given = client.images.generate(model="dall-e-3", prompt="a cat").data[0].url or ""  # type: ignore[index]
        with pytest.raises(openai.RateLimitError) as limited:
            client.chat.completions.create(
                model="gpt-4o", messages=[{"role": "user", "content": "hi"}]
            )
        return url_given, str(limited.value)

    recorded, replayed = record_then_replay(
        tmp_path, route, calls, ORGANIZATION, USER, SAS_SIGNATURE
    )
    assert recorded[0] == image
    assert "org-REDACTED/user-REDACTED" in replayed[0] and "sig=REDACTED" in replayed[0]
    assert "organization org-REDACTED on tokens" in replayed[1]


def test_oauth_form_answers_redirect_fragments_and_fragment_urls_stay_off_disk(
    tmp_path: Path,
) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        if path.startswith("/token"):
            form = (
                f"access_token={ACCESS_TOKEN}&refresh_token={REFRESH_TOKEN}"
                "&token_type=bearer&expires_in=3600"
            )
            return Answer(form.encode(), "application/x-www-form-urlencoded")
        if path.startswith("/callback"):
            return Answer(b"signed in", "text/plain")
        location = (
            f"https://app.example/callback#access_token={FRAGMENT_TOKEN}&token_type=bearer&state=s1"
        )
        return Answer(b"", "text/html", 302, {"location": location})

    def calls(url: str) -> tuple[str, str]:
        token = requests.post(
            url + "/token", data={"grant_type": "authorization_code", "code": "c"}, timeout=10
        )
        redirect = requests.get(
            url + "/authorize?response_type=token", allow_redirects=False, timeout=10
        )
        requests.get(url + f"/callback#access_token={FRAGMENT_TOKEN}", timeout=10)
        return token.text, redirect.headers["location"]

    recorded, replayed = record_then_replay(
        tmp_path, route, calls, ACCESS_TOKEN, REFRESH_TOKEN, FRAGMENT_TOKEN
    )
    assert ACCESS_TOKEN in recorded[0]
    assert (
        replayed[0]
        == "access_token=REDACTED&refresh_token=REDACTED&token_type=bearer&expires_in=3600"
    )
    assert replayed[1].endswith("#access_token=REDACTED&token_type=bearer&state=s1")


def test_vendor_key_headers_stay_off_disk(tmp_path: Path) -> None:
    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        return Answer(
            json.dumps({"echo": {name: headers.get(name) for name in VENDOR_KEYS}}).encode()
        )

    def calls(url: str) -> dict[str, str]:
        answers = {}
        for name, key in VENDOR_KEYS.items():
            answer = httpx2.get(url + f"/v1/{name}", headers={name: key}, timeout=10)
            answers[name] = answer.json()["echo"][name]
        return answers

    recorded, replayed = record_then_replay(tmp_path, route, calls, *VENDOR_KEYS.values())
    assert recorded == VENDOR_KEYS and set(replayed.values()) == {"REDACTED"}


def test_a_password_from_the_environment_echoed_stays_off_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_PASSWORD", DATABASE_PASSWORD)

    def route(path: str, headers: dict[str, str], body: bytes) -> Answer:
        return Answer(
            f"could not connect as admin with password {DATABASE_PASSWORD}".encode(),
            "text/plain",
            500,
        )

    def calls(url: str) -> str:
        return requests.get(url + "/health", timeout=10).text

    recorded, replayed = record_then_replay(tmp_path, route, calls, DATABASE_PASSWORD)
    assert recorded.endswith(DATABASE_PASSWORD) and replayed.endswith("password REDACTED")


def test_a_websocket_key_sent_as_a_subprotocol_and_echoed_stays_off_disk(tmp_path: Path) -> None:
    def handler(connection: websockets.sync.server.ServerConnection) -> None:
        offered = (
            connection.request.headers.get("Sec-WebSocket-Protocol", "")
            if connection.request
            else ""
        )
        connection.send(json.dumps({"type": "session.created", "offered": offered}))
        connection.recv()

    cassette = tmp_path / "cassettes" / "flow.json"
    protocols = ["realtime", f"openai-insecure-api-key.{SUBPROTOCOL_KEY}"]

    def calls(url: str) -> str:
        with websockets.sync.client.connect(url, subprotocols=protocols) as connection:  # type: ignore[arg-type]
            said = str(connection.recv())
            connection.send("bye")
        return said

    with websockets.sync.server.serve(handler, "127.0.0.1", 0, subprotocols=["realtime"]) as server:  # type: ignore[list-item]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"ws://127.0.0.1:{server.socket.getsockname()[1]}/v1/realtime"
        with replay.use_cassette(cassette) as recording:
            recorded = calls(url)
        server.shutdown()
    assert SUBPROTOCOL_KEY in recorded and recording.recorded == 1
    assert_never_written(tmp_path, SUBPROTOCOL_KEY)
    assert port_refuses("http://" + urlsplit(url).netloc)
    with replay.use_cassette(cassette, "none") as replaying:
        replayed = calls(url)
    assert replaying.replayed == 1
    assert "openai-insecure-api-key.REDACTED" in replayed
    assert SUBPROTOCOL_KEY.encode() not in cassette_bytes(cassette)
