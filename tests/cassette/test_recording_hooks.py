"""A cassette's ``before_record_request`` and ``before_record_response``, through every HTTP
client replay routes, against a real server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import httpx
import pytest
import requests
from echo_server import echo_server

import replay
from replay._core.model import Request, Response


def _send_httpx(url: str) -> int:
    return httpx.post(url, json={"q": 1}).status_code


def _send_requests(url: str) -> int:
    return requests.post(url, json={"q": 1}, timeout=10).status_code


def _send_aiohttp(url: str) -> int:
    import asyncio

    async def send() -> int:
        async with aiohttp.ClientSession() as session, session.post(url, json={"q": 1}) as reply:
            await reply.read()
            return reply.status

    return asyncio.run(send())


SENDERS = {"httpx": _send_httpx, "requests": _send_requests, "aiohttp": _send_aiohttp}


def _dropping_telemetry(request: Request) -> Request | None:
    return None if urlsplit(request.url).path == "/telemetry" else request


@pytest.mark.parametrize("client", list(SENDERS))
def test_a_dropped_request_goes_out_unrecorded_and_is_blocked_in_mode_none(
    client: str, tmp_path: Path
) -> None:
    send: Callable[[str], int] = SENDERS[client]
    path = tmp_path / "hooks.json"
    with echo_server() as url:
        with replay.use_cassette(path, "new_episodes", before_record_request=_dropping_telemetry):
            assert send(url + "/telemetry") == 200
            assert send(url + "/chat") == 200
        with replay.use_cassette(path, "none", before_record_request=_dropping_telemetry):
            assert send(url + "/chat") == 200  # replayed
            with pytest.raises(replay.NetworkBlocked, match="dropped by before_record_request"):
                send(url + "/telemetry")
    stored = json.loads(path.read_text())["interactions"]
    assert [entry["request"]["url"] for entry in stored.values()] == [url + "/chat"]


def test_before_record_response_changes_what_is_stored_or_stores_nothing(tmp_path: Path) -> None:
    def stored_form(response: Response) -> Response | None:
        if b"/skip" in response.body:
            return None
        return Response(201, response.headers, response.chunks, response.recorded_at)

    path = tmp_path / "responses.json"
    with echo_server() as url:
        with replay.use_cassette(path, "new_episodes", before_record_response=stored_form):
            assert httpx.get(url + "/kept").status_code == 200  # the live answer
            assert httpx.get(url + "/skip").status_code == 200
    with replay.use_cassette(path, "none", before_record_response=stored_form) as cassette:
        assert httpx.get(url + "/kept").status_code == 201  # as the hook stored it
        with pytest.raises(replay.CassetteMiss):
            httpx.get(url + "/skip")
    assert cassette.replayed == 1
