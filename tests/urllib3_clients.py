"""The calls the urllib3 adapter's tests make, the same when recording and replaying.

Each takes the server's URL and the credentials to send, and returns what its client gave
back, in plain data: boto3's Converse answer, a chat completion through requests and through
urllib3, and a chat stream read with ``preload_content=False``, chunk by chunk.
"""

from __future__ import annotations

import json
from typing import Any

import boto3
import requests
import urllib3

MODEL_ID = "anthropic.claude-3-haiku-20240307-v1:0"
CHAT = {"model": "model-1", "messages": [{"role": "user", "content": "hello there"}]}
STREAM = {"model": "model-1", "stream": True, "messages": [{"role": "user", "content": "count"}]}


def bedrock_converse(url: str, access_key: str, secret_key: str, token: str) -> Any:
    client = boto3.client(
        "bedrock-runtime",
        endpoint_url=url,
        region_name="us-east-1",
        aws_access_key_id=access_key,
        aws_secret_access_key=secret_key,
        aws_session_token=token,
    )
    answer = client.converse(
        modelId=MODEL_ID, messages=[{"role": "user", "content": [{"text": "hello bedrock"}]}]
    )
    return {key: answer[key] for key in ("output", "stopReason", "usage")}


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
