"""The main job in one run: record LLM calls from a local server, replay them with it gone.

    python -m replay.tools.demo [CASSETTE_DIR]

It starts :class:`replay.tools.fakellm.FakeLLMServer` on 127.0.0.1, records a chat
completion and a streamed one with the openai SDK (httpx2) and a chat with
raw httpx into one cassette, stops the server, replays the same calls
offline, checks that they answer the same (but for normalized ids) and that
the API key is nowhere in the file, and prints what was recorded.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import httpx2
import openai
import orjson

import replay
from replay.tools.fakellm import FakeLLMServer

API_KEY = "sk-demo-0123456789abcdefghijklmnop"
PROMPTS = ("Say hello in French", "Write a poem about the sea")


def calls(base_url: str, cassette: replay.Cassette) -> dict[str, Any]:
    """The calls an application would make, sync, streamed and async."""
    http_client = httpx2.Client(transport=replay.ReplayTransport(cassette))
    client = openai.OpenAI(base_url=base_url + "/v1", api_key=API_KEY, http_client=http_client)
    answers: dict[str, Any] = {}
    chat = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPTS[0]}]
    )
    answers["chat"] = chat.choices[0].message.content
    stream = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": PROMPTS[1]}], stream=True
    )
    # The pieces as they arrived: replay must give back the same pieces, not just the text.
    answers["stream"] = [chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices]
    client.close()
    answers["async httpx"] = asyncio.run(raw_httpx(base_url, cassette))
    return answers


async def raw_httpx(base_url: str, cassette: replay.Cassette) -> Any:
    transport = replay.AsyncReplayTransport(cassette)
    async with httpx.AsyncClient(transport=transport, base_url=base_url) as client:
        response = await client.post(
            "/v1/chat/completions",
            headers={"Authorization": f"Bearer {API_KEY}"},
            json={"model": "llama-3.1-8b", "messages": [{"role": "user", "content": "Hi"}]},
        )
        return response.json()["choices"][0]["message"]["content"]


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="replay-demo-"))
    path = directory / "demo.json"
    path.unlink(missing_ok=True)

    print(f"1. Recording from a local fake LLM API into {path}")
    with FakeLLMServer(api_key=API_KEY) as server:
        started = time.perf_counter()
        recorded = calls(server.url, replay.Cassette(path, mode="once"))
        record_seconds = time.perf_counter() - started
        base_url = server.url
        seen = len(server.requests)
    elapsed = f"{record_seconds * 1000:.0f} ms"
    print(f"   {seen} requests reached the server in {elapsed}; server stopped.")

    print("2. Replaying the same calls offline (mode 'none': a miss would raise, never call out)")
    started = time.perf_counter()
    replayed = calls(base_url, replay.Cassette(path, mode="none"))
    replay_seconds = time.perf_counter() - started
    print(f"   replayed in {replay_seconds * 1000:.0f} ms")

    print(f"3. What was recorded (by key) from {base_url}")
    document = orjson.loads(path.read_bytes())
    for key, entry in sorted(document["interactions"].items()):
        request, response = entry["request"], entry["responses"][0]
        kind = f"a stream of {len(response['chunks'])} chunks" if "chunks" in response else "a body"
        asked = f"{request['method']} {urlsplit(request['url']).path}"
        print(f"   {key[:12]}  {asked} -> {response['status']}, {kind}")
    print("4. The answers, recorded and then replayed")
    for name, answer in recorded.items():
        same = "the same" if answer == replayed[name] else "DIFFERENT"
        if isinstance(answer, list):  # a stream: its text, as a person would see it
            print(f"   {name:12} {''.join(answer)!r}")
            pieces = f"{len(answer)} pieces of text (the chunks that carry text)"
            print(f"   {'':12} replayed: {same}, in the same {pieces}")
        else:
            print(f"   {name:12} {answer!r}")
            print(f"   {'':12} replayed: {same}")

    secret_on_disk = API_KEY.encode() in path.read_bytes()
    print(f"5. API key in the cassette file: {'YES - this is a bug' if secret_on_disk else 'no'}")
    print(f"   Look at it: {path}\n   Or: replay show {path}")
    return 0 if recorded == replayed and not secret_on_disk else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
