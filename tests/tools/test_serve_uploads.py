"""Large uploads through ``replay serve``: held once, not copied at each step of recording, and
stored in the cassette format as any body is. Quick by default (a 32 MiB binary upload
measured, a JSON one stored and replayed); ``REPLAY_STRESS=1`` (the nox ``stress`` session)
measures 256 MiB uploads of both kinds and stores and replays both. ``python
tests/upload_memory.py 256 500`` prints the figures."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import httpx
import pytest
from serving import Running
from upload_memory import MiB, counting_upstream, measure, pieces, post

from replay import Cassette
from replay._adapters.proxy import ReplayProxy, Shelf
from replay._core import key as key_module
from replay._core.key import LARGE_BODY
from replay._store import cassette_file
from replay.tools import serve

STRESS = os.environ.get("REPLAY_STRESS") == "1"
MEMORY_BOUND = 5.5
"""Bodies of memory a recorded upload may cost at its peak (before: 7.7 for a binary body,
12 for a JSON one; now 3.3 to 4.5, the most for a small binary one)."""


@pytest.mark.parametrize("kind", ["binary", "json"] if STRESS else ["binary"])
def test_a_large_upload_is_recorded_within_a_few_bodies_of_memory(
    kind: str, tmp_path: Path
) -> None:
    measured = measure((256 if STRESS else 32) * MiB, kind, tmp_path)
    assert measured.status == 200
    assert measured.ratio < MEMORY_BOUND, str(measured)


@pytest.mark.parametrize(
    ("kind", "form"), [("binary", "base64"), ("json", "text")] if STRESS else [("json", "text")]
)
def test_a_large_upload_is_stored_in_the_format_and_replays(
    kind: str, form: str, tmp_path: Path
) -> None:
    size = LARGE_BODY + MiB
    body = b"".join(pieces(size, kind))
    with counting_upstream() as upstream:
        recording = Running("--upstream", upstream, "--cassettes", str(tmp_path), cwd=tmp_path)
        assert post(recording.port, size, kind) == (200, {"received": size})
        code, _, err = recording.stop()
        assert code == 0, err
    (cassette,) = tmp_path.glob("*.json")
    (interaction,) = json.loads(cassette.read_bytes())["interactions"].values()
    stored = interaction["request"]["body"]
    assert list(stored) == [form]  # alone: a large JSON body is not stored parsed too
    assert (base64.b64decode(stored[form]) if form == "base64" else stored[form].encode()) == body

    # The upstream is gone: what answers is the cassette, for the same body only.
    replaying = Running("--upstream", upstream, "--cassettes", str(tmp_path), "--mode", "none",
                        cwd=tmp_path)  # fmt: skip
    try:
        assert post(replaying.port, size, kind) == (200, {"received": size})
        other = post(replaying.port, size, kind, last=b"!")
    finally:
        code, out, err = replaying.stop()
    assert code == 0, err
    assert other[0] == 404, other
    assert "1 replayed" in out + err and "1 missed" in out + err, out + err


def test_secrets_in_a_large_upload_never_reach_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the large bodies' path (its bounds lowered: redacting a large body with a
    secret in it takes seconds per MiB), in a proxy of this process."""
    monkeypatch.setattr(key_module, "LARGE_BODY", 2000)
    monkeypatch.setattr(cassette_file, "LARGE_BODY", 2000)
    monkeypatch.setattr(cassette_file, "LARGE_PART", 2000)
    secret = "sk-upload-4Qm9Zt7Lw2Vx8Rb3"
    token = "k" * 8 + "upload-authorization-9Yh2"
    body = json.dumps({"api_key": secret, "input": "x" * 5000, "echo": token}).encode()
    with counting_upstream() as upstream:
        shelf = Shelf(tmp_path, lambda path: Cassette(path, "once"))
        with serve.running(ReplayProxy(serve.routes_of({"/": upstream}), shelf)) as served:
            answer = httpx.post(
                f"{served.url}/v1/upload",
                content=body,
                headers={"content-type": "application/json", "authorization": f"Bearer {token}"},
            )
    assert answer.json() == {"received": len(body)}
    (cassette,) = tmp_path.glob("*.json")
    (interaction,) = json.loads(cassette.read_bytes())["interactions"].values()
    assert list(interaction["request"]["body"]) == ["text"]  # the large bodies' form
    written = b"".join(path.read_bytes() for path in tmp_path.rglob("*") if path.is_file())
    assert b"x" * 5000 in written  # the body is there, its secrets not
    assert secret.encode() not in written and token.encode() not in written
