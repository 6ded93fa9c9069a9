"""Shared fixtures: a real fake-LLM server on 127.0.0.1, cassette paths, and SDK environment.

End-to-end tests record through ``llm_server`` and then replay with it stopped:
``server_gone()`` stops it, checks that its port now refuses connections, and
returns a guard whose ``assert_untouched()`` proves no request reached it since.
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import httpx
import httpx2
import pytest
from hypothesis import settings

from replay._store import usage
from replay.tools.fakellm import FakeLLMServer

TEST_API_KEY = "sk-fakellm-e2e-7Qm2Xc9Lp4Vt8Rb1"
"""The key the test server accepts; no cassette byte may contain it."""

SDK_KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY", "AI21_API_KEY")

settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
"""``HYPOTHESIS_PROFILE=ci`` (the default ``nox`` session, hence CI) draws the same examples
every run, so CI passes or fails on the code alone; run by hand and in ``nox -s stress``, the
property tests draw new examples each time and keep looking for what no one has found yet."""


LEAN_PYTEST = "-p no:hypothesispytest -p no:inline_snapshot"
"""The plugins of our own test tools, left out of the pytest processes the tests start."""


@pytest.fixture(autouse=True, scope="session")
def _lean_pytest_subprocesses() -> Iterator[None]:
    """pytest processes the tests start (sample suites, the README's examples) load none of the
    plugins of our own test tools: importing hypothesis and inline-snapshot is more than half of
    a small pytest run's start-up (0.9 of 1.7 s here), paid by each of some forty such runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTEST_ADDOPTS", LEAN_PYTEST)
        yield


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """pytest's own, whose runs are lean too: it clears ``PYTEST_ADDOPTS``, set again here.

    Its runs start from the mode their test asks for, not the one of the CI running us: ``CI``
    set there would put every inner run in mode ``none`` and make a recording run record
    nothing. A test about ``CI`` sets it again itself."""
    monkeypatch.setenv("PYTEST_ADDOPTS", LEAN_PYTEST)
    for variable in ("CI", "REPLAY_MODE"):
        monkeypatch.delenv(variable, raising=False)
    return pytester


@pytest.fixture(autouse=True, scope="session")
def _usage_records_in_a_temporary_state_directory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """The usage records of the tests' cassettes go to a directory of this run, not the user's
    state directory; set in the environment, so processes the tests start use it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(usage.STATE_DIRECTORY_VARIABLE, str(tmp_path_factory.mktemp("state")))
        yield


@pytest.fixture(params=[httpx, httpx2], ids=["httpx", "httpx2"])
def library(request: pytest.FixtureRequest) -> ModuleType:
    """Each of the two HTTP libraries the SDKs are split between, for raw-client tests."""
    module: ModuleType = request.param
    return module


@pytest.fixture
def api_key() -> str:
    return TEST_API_KEY


@pytest.fixture
def llm_server() -> Iterator[FakeLLMServer]:
    """A fake LLM API on a free loopback port, streaming with small real delays."""
    with FakeLLMServer(api_key=TEST_API_KEY, chunk_delay=0.002, slow_delay=2.0) as server:
        yield server


@pytest.fixture
def cassette_path(tmp_path: Path) -> Path:
    """Where a test's cassette goes; the directory does not exist yet, as for a first run."""
    return tmp_path / "cassettes" / "e2e.json"


@pytest.fixture
def llm_env(monkeypatch: pytest.MonkeyPatch, llm_server: FakeLLMServer) -> FakeLLMServer:
    """The SDKs' key variables set to the server's key, and no REPLAY_MODE from the outer run.

    Setting the keys in the environment also makes replay scrub them as environment secrets.
    """
    for name in SDK_KEY_VARIABLES:
        monkeypatch.setenv(name, TEST_API_KEY)
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    return llm_server


def port_refuses(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=1.0):
            return False
    except ConnectionRefusedError:
        return True


@dataclass
class StoppedServer:
    server: FakeLLMServer
    requests_seen: int

    def assert_untouched(self) -> None:
        """No request reached the server since it stopped, and nothing listens on its port."""
        assert len(self.server.requests) == self.requests_seen
        assert port_refuses(self.server.url)


@pytest.fixture
def server_gone(llm_server: FakeLLMServer) -> Callable[[], StoppedServer]:
    def stop() -> StoppedServer:
        llm_server.stop()
        assert port_refuses(llm_server.url)
        return StoppedServer(llm_server, len(llm_server.requests))

    return stop


_VOLATILE_FIELDS = (
    "id",
    "created",
    "created_at",
    "completed_at",
    "system_fingerprint",
    "previous_response_id",
    "request_id",
    "feedback_token",
    "duration_seconds",
    "call_id",
    "item_id",
)
_VOLATILE_IN_TEXT = re.compile(
    r'("(?:' + "|".join(_VOLATILE_FIELDS) + r')"\s*:\s*)("[^"]*"|-?[0-9.]+)'
)


def masked(value: Any) -> Any:
    """``value`` with the fields normalization replaces blanked out, in SDK objects or raw text.

    Recording hands the caller real ids and times, replay their placeholders (issue 2, "Ids
    chain"), so the two are compared with those fields masked.
    """
    if isinstance(value, dict):
        return {k: "*" if k in _VOLATILE_FIELDS else masked(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [masked(item) for item in value]
    if isinstance(value, bytes):
        return masked(value.decode())
    if isinstance(value, str):
        return _VOLATILE_IN_TEXT.sub(r'\1"*"', value)
    return value


def cassette_bytes(path: Path) -> bytes:
    """The cassette and every file left beside it (lock files, temporary files)."""
    return b"".join(p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file())
