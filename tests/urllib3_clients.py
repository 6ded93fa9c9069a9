"""The calls the urllib3 adapter's tests make, the same when recording and replaying.

Each takes the server's URL and the credentials to send, and returns what its client gave
back, in plain data: boto3's Converse answer and the events of its two Bedrock streams
(ConverseStream, InvokeModelWithResponseStream), a chat completion through requests and
through urllib3, and a chat stream read with ``preload_content=False``, chunk by chunk.
"""

from __future__ import annotations

import json
from typing import Any

import boto3
import botocore.config
import requests
import urllib3

MODEL_ID = "anthropic.claude-3-haiku-20240307-v1:0"
CHAT = {"model": "model-1", "messages": [{"role": "user", "content": "hello there"}]}
STREAM = {"model": "model-1", "stream": True, "messages": [{"role": "user", "content": "count"}]}


def bedrock(url: str, access_key: str, secret_key: str, token: str | None = None) -> Any:
    """A ``bedrock-runtime`` client for ``url``, without retries: a miss is seen at once."""
    return boto3.client(
        "bedrock-runtime",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        aws_session_token=token,
        config=botocore.config.Config(retries={"total_max_attempts": 1}),
    )


def converse_messages(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"text": text}]}]


def bedrock_converse(url: str, access_key: str, secret_key: str, token: str) -> Any:
    client = bedrock(url, access_key, secret_key, token)
    answer = client.converse(modelId=MODEL_ID, messages=converse_messages("hello bedrock"))
    return {key: answer[key] for key in ("output", "stopReason", "usage")}


def bedrock_converse_stream(url: str, access_key: str, secret_key: str, token: str) -> Any:
    """Every event botocore parsed, by kind: the text deltas, the stop reason, the usage."""
    client = bedrock(url, access_key, secret_key, token)
    answer = client.converse_stream(modelId=MODEL_ID, messages=converse_messages("stream it"))
    events = list(answer["stream"])
    return {
        "kinds": [next(iter(event)) for event in events],
        "text": [
            e["contentBlockDelta"]["delta"]["text"] for e in events if "contentBlockDelta" in e
        ],
        "stop": [e["messageStop"]["stopReason"] for e in events if "messageStop" in e],
        "usage": [e["metadata"]["usage"] for e in events if "metadata" in e],
    }


def bedrock_invoke_stream(url: str, access_key: str, secret_key: str, token: str) -> Any:
    """The model's own events, out of each ``chunk``'s bytes, without their volatile ids."""
    client = bedrock(url, access_key, secret_key, token)
    body = {
        "anthropic_version": "bedrock-2023-05-31",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": "invoke it"}],
    }
    answer = client.invoke_model_with_response_stream(modelId=MODEL_ID, body=json.dumps(body))
    events = [json.loads(event["chunk"]["bytes"]) for event in answer["body"]]
    for event in events:
        event.get("message", {}).pop("id", None)
    return events


def requests_chat(url: str, api_key: str) -> Any:
    answer = requests.post(
        f"{url}/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {api_key}"}
    )
    return [answer.status_code, answer.json()]


def urllib3_chat(url: str, api_key: str) -> Any:
    answer = urllib3.PoolManager().request(
        "POST",
        f"{url}/v1/chat/completions",
        json=CHAT,
        headers={"authorization": f"Bearer {api_key}"},
    )
    return [answer.status, answer.json()]


def urllib3_stream(url: str, api_key: str) -> list[str]:
    """Each piece ``stream()`` gave, as the server sent it (one server-sent event each)."""
    answer = urllib3.PoolManager().request(
        "POST",
        f"{url}/v1/chat/completions",
        body=json.dumps(STREAM),
        headers={"authorization": f"Bearer {api_key}", "content-type": "application/json"},
        preload_content=False,
    )
    pieces = [piece.decode() for piece in answer.stream(1024)]
    answer.release_conn()
    return pieces
