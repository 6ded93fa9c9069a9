"""Re-recording an unchanged conversation leaves the file byte for byte identical, though the
server writes its times with as many decimals as the clock gave (Go's ``RFC3339Nano`` drops
trailing zeros, Python's ``isoformat()`` a zero microsecond) and reports durations no provider
rule knows; an answer that really changed is still written.

Recorded through a loopback server on 127.0.0.1 (each call answered anew), replayed with it
stopped.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import orjson
import pytest
from echo_server import echo_server

import replay

ASKED = {"model": "llama3", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPLAY_MODE", raising=False)


def answer(content: str, moment: str, finished: str, nanoseconds: int, seconds: float) -> bytes:
    """An Ollama-like answer from a local evaluator: its times and durations as it wrote them."""
    return orjson.dumps(
        {
            "model": "llama3",
            "created_at": moment,
            "finished_at": finished,
            "message": {"role": "assistant", "content": content},
            "total_duration": nanoseconds,
            "eval_count": 2,
            "duration_seconds": seconds,
            "usage": {"total_time": seconds / 7},
        }
    )


CALLS = [
    answer("hello", "2026-12-02T02:21:27.4991Z", "2026-12-02T02:21:27+00:00", 5191566416, 2.0),
    answer("hello", "2026-12-02T02:21:28.12345678Z", "2026-12-02T02:21:28.5+00:00", 51915, 2.5),
    answer("hello", "2026-12-02T02:21:29Z", "2026-12-02T02:21:29.123456+00:00", 7, 0.125),
]


def record(library: ModuleType, path: Path, mode: str, base: str) -> None:
    """One call to the server at ``base``, recorded in ``mode``; the server answers what the
    test scripted for it."""
    cassette = replay.Cassette(path, mode)
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        client.post(f"{base}/api/chat", json=ASKED).raise_for_status()


def replayed(library: ModuleType, path: Path, base: str) -> dict[str, object]:
    """The answer replayed, the server stopped."""
    cassette = replay.Cassette(path, "none")
    with library.Client(transport=replay.ReplayTransport(cassette)) as client:
        answered: dict[str, object] = client.post(f"{base}/api/chat", json=ASKED).json()
        return answered


@pytest.mark.parametrize("first_mode", ["all", "new_episodes"])
@pytest.mark.parametrize("again_mode", ["all", "new_episodes"])
def test_rerecording_times_of_other_widths_and_new_durations_leaves_the_file_identical(
    library: ModuleType, tmp_path: Path, first_mode: str, again_mode: str
) -> None:
    path = tmp_path / "c.json"
    scripted = list(CALLS)
    with echo_server(scripted) as base:
        record(library, path, first_mode, base)
        first = path.read_bytes()
        assert b"5191566416" in first  # a duration no provider lists is stored as sent
        for _ in CALLS[1:]:
            record(library, path, "all", base)
            assert path.read_bytes() == first
        scripted.append(CALLS[1])
        record(library, path, again_mode, base)
        assert path.read_bytes() == first
    assert replayed(library, path, base)["total_duration"] == 5191566416


def test_a_changed_answer_is_rewritten(library: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    changed = answer("goodbye", "2026-12-02T02:21:27.4991Z", "2026-12-02T02:21:27+00:00", 1, 2.0)
    with echo_server([CALLS[0], changed]) as base:
        record(library, path, "all", base)
        first = path.read_bytes()
        record(library, path, "all", base)
        assert path.read_bytes() != first
    assert replayed(library, path, base)["message"] == {"role": "assistant", "content": "goodbye"}


def test_a_changed_count_beside_the_durations_is_rewritten(
    library: ModuleType, tmp_path: Path
) -> None:
    recounted = CALLS[1].replace(b'"eval_count":2', b'"eval_count":3')
    path = tmp_path / "c.json"
    with echo_server([CALLS[0], recounted]) as base:
        record(library, path, "all", base)
        record(library, path, "all", base)
    assert replayed(library, path, base)["eval_count"] == 3
