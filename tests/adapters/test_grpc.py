"""gRPC calls recorded from real servers on 127.0.0.1 and replayed with them stopped.

``tests/grpc_echo.py`` is a small service compiled at test time, with each of gRPC's four
call patterns; ``tests/xai_fake.py`` a fake xAI chat server built from the xai-sdk's own
servicer, which the real SDK talks to. Each records through ``use_cassette`` and replays in
this process and in a new one, the server stopped and its port refusing connections.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import orjson
import pytest
from blockbuster import blockbuster_ctx
from click.testing import CliRunner
from conftest import cassette_bytes, port_refuses
from grpc_echo import Ask, EchoServer, echo_pb2_grpc
from xai_fake import FakeXai

import replay
from replay._adapters.patch import intercept
from replay.tools.cli import main

TESTS = Path(__file__).parent.parent
FLAVOURS = ["sync", "aio"]
KEY = "sk-grpc-test-0123456789abcdef"


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch) -> Iterator[EchoServer]:
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    with EchoServer(KEY) as server:
        yield server


def stopped(server: EchoServer | FakeXai) -> int:
    """Stop the server, check its port refuses, and return how many calls it saw."""
    server.stop()
    assert port_refuses(f"grpc://{server.target}")
    return len(server.seen)


def in_a_new_process(script: str, cassette: Path, target: str, flavour: str) -> Any:
    run = subprocess.run(
        [sys.executable, str(TESTS / script), str(cassette), target, flavour],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def auth(key: str = KEY) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {key}"),)


def entry_for(path: Path, method: str, asked: Any) -> Any:
    """The stored interaction of a call to ``method`` with ``asked`` as its request's body."""
    (found,) = [
        entry
        for entry in orjson.loads(path.read_bytes())["interactions"].values()
        if entry["request"]["url"].endswith(method) and entry["request"].get("body") == asked
    ]
    return found


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_each_call_pattern_replays_offline_in_this_process_and_a_new_one(
    echo: EchoServer, cassette_path: Path, flavour: str
) -> None:
    from grpc_echo import conversation

    with replay.use_cassette(cassette_path) as cassette:
        recorded = conversation(flavour, echo.target, KEY)
    assert cassette.recorded == len(echo.seen) == (8 if flavour == "sync" else 6)
    assert recorded["error"] == {
        "code": "NOT_FOUND",
        "details": "no such thing: missing",
        "trailing": [["x-reason", "gone"], ["x-trace-bin", "00ff"]],
    }
    assert recorded.get("future_error", recorded["error"]) == recorded["error"]
    assert [r["text"] for r in recorded["count"]] == ["n 0", "n 1", "n 2"]
    assert recorded["gather"]["text"] == "a + b + c"
    assert [r["text"] for r in recorded["chat"]] == ["Re: x", "Re: y"]
    seen = stopped(echo)

    with replay.use_cassette(cassette_path, mode="none") as replaying:
        replayed = conversation(flavour, echo.target, "dummy-key")
    assert replaying.replayed == cassette.recorded and replayed == recorded
    assert in_a_new_process("grpc_echo.py", cassette_path, echo.target, flavour) == recorded
    assert len(echo.seen) == seen and port_refuses(f"grpc://{echo.target}")

    stored = cassette_bytes(cassette_path)
    assert KEY.encode() not in stored and b"Bearer" not in stored
    say = entry_for(cassette_path, "/replaytest.Echo/Say", {"json": {"text": "hello"}})
    assert say["request"]["headers"] == {"authorization": "REDACTED"}
    (answer,) = say["responses"]
    assert answer["grpc"]["response_type"] == "replaytest.Reply"
    assert answer["grpc"]["messages"][0]["json"]["payload"] == "AAH+/w=="  # bytes in JSON


def test_a_stub_made_before_the_block_over_an_intercepted_channel_is_routed(
    echo: EchoServer, cassette_path: Path
) -> None:
    """The interceptor adds the key as xAI's SDK does: the cassette sees it, and redacts it."""

    class Authorizing(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
        def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
            metadata = (*(details.metadata or ()), *auth())
            return continuation(details._replace(metadata=metadata), request)

    channel = grpc.intercept_channel(grpc.insecure_channel(echo.target), Authorizing())
    stub = echo_pb2_grpc.EchoStub(channel)
    with replay.use_cassette(cassette_path) as cassette:
        recorded = stub.Say(Ask(text="hello")).text
    assert (recorded, cassette.recorded) == ("Echo: hello", 1)
    assert stub.Say(Ask(text="hello")).text == "Echo: hello"  # after the block: not routed
    assert len(echo.seen) == 2
    stopped(echo)
    with replay.use_cassette(cassette_path, mode="none"):
        assert stub.Say(Ask(text="hello")).text == recorded
    channel.close()
    assert KEY.encode() not in cassette_bytes(cassette_path)


def test_a_call_with_no_recording_is_a_miss_naming_the_closest_and_the_field(
    echo: EchoServer, cassette_path: Path
) -> None:
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path):
            stub.Say(Ask(text="hello"), metadata=auth())
        seen = stopped(echo)
        with replay.use_cassette(cassette_path, mode="none") as cassette:
            with pytest.raises(replay.CassetteMiss) as raised:
                stub.Say(Ask(text="goodbye"), metadata=auth())
    miss = raised.value
    assert miss.method == "POST" and miss.url == f"grpc://{echo.target}/replaytest.Echo/Say"
    assert miss.closest_url == f"POST {miss.url}"
    assert [(d.field, d.recorded, d.requested) for d in miss.differences] == [
        ("body.text", "hello", "goodbye")
    ]
    assert cassette.misses == [miss] and len(echo.seen) == seen


def test_a_changed_client_stream_message_is_a_miss_naming_its_place(
    echo: EchoServer, cassette_path: Path
) -> None:
    """A conversation: the client's second message waits for the answer to its first, so
    the recording (and the replay, gated on it) has them in that order."""
    answered = threading.Event()

    def asks(second: str) -> Iterator[Any]:
        answered.clear()
        yield Ask(text="x")
        assert answered.wait(10)
        yield Ask(text=second)

    def talk(stub: Any, second: str) -> list[str]:
        replies = stub.Chat(asks(second), metadata=auth())
        said = [next(replies).text]
        answered.set()
        return said + [reply.text for reply in replies]

    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path):
            assert talk(stub, "y") == ["Re: x", "Re: y"]
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none"):
            assert talk(stub, "y") == ["Re: x", "Re: y"]
        with replay.use_cassette(cassette_path, mode="none"):
            with pytest.raises(replay.FrameMiss) as raised:
                talk(stub, "z")
    sides = [
        m["from"]
        for m in entry_for(cassette_path, "/Chat", None)["responses"][0]["grpc"]["messages"]
    ]
    assert sides == ["client", "server", "client", "server"]
    assert raised.value.position == 2
    assert [(d.field, d.recorded, d.requested) for d in raised.value.differences] == [
        ("frame.text", "y", "z")
    ]


def test_secret_metadata_and_a_secret_echoed_in_a_message_never_reach_disk(
    echo: EchoServer, cassette_path: Path
) -> None:
    metadata = (*auth(), ("x-api-key", KEY), ("x-team", "blue"))
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path):
            recorded = stub.Say(Ask(text=f"my key is {KEY}"), metadata=metadata).text
        assert recorded == f"Echo: my key is {KEY}"  # scrubbed on its way to disk only
        stored = cassette_bytes(cassette_path)
        assert KEY.encode() not in stored
        (entry,) = orjson.loads(cassette_path.read_bytes())["interactions"].values()
        assert entry["request"]["headers"] == {
            "authorization": "REDACTED",
            "x-api-key": "REDACTED",
            "x-team": "blue",
        }
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none"):
            replayed = stub.Say(Ask(text=f"my key is {KEY}"), metadata=metadata).text
    assert replayed.startswith("Echo: my key is ") and KEY not in replayed


def test_a_stream_the_caller_cancels_is_kept_as_far_as_it_was_read(
    echo: EchoServer, cassette_path: Path
) -> None:
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path):
            replies = stub.Count(Ask(text="n", count=3), metadata=auth())
            assert next(replies).text == "n 0"
            replies.cancel()
        (entry,) = orjson.loads(cassette_path.read_bytes())["interactions"].values()
        (answer,) = entry["responses"]
        assert answer["complete"] is False and len(answer["grpc"]["messages"]) == 1
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none"):
            assert [r.text for r in stub.Count(Ask(text="n", count=3), metadata=auth())] == ["n 0"]


def test_a_client_stream_shorter_than_the_recorded_one_is_a_miss(
    echo: EchoServer, cassette_path: Path
) -> None:
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path):
            stub.Gather(iter([Ask(text="a"), Ask(text="b")]), metadata=auth())
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none") as cassette:
            with pytest.raises(replay.FrameMiss) as raised:
                stub.Gather(iter([Ask(text="a")]), metadata=auth())
    assert raised.value.position == 2 and "was not sent" in str(raised.value)
    assert cassette.misses == [raised.value]


def test_ignore_paths_apply_to_the_json_view_of_the_request(
    echo: EchoServer, cassette_path: Path
) -> None:
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)
        with replay.use_cassette(cassette_path, ignore=["count"]):
            stub.Say(Ask(text="hello", count=1), metadata=auth())
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none", ignore=["count"]) as cassette:
            reply = stub.Say(Ask(count=2, text="hello"), metadata=auth())
    assert reply.text == "Echo: hello" and cassette.replayed == 1


def test_ids_in_answers_are_placeholders_and_go_back_upstream_real(
    echo: EchoServer, cassette_path: Path
) -> None:
    """The id a reply hands out reaches the caller as its placeholder (re-encoded from the
    normalized JSON view) while recording too; sent back in a request message, the server gets
    the real one, which it knows."""
    with grpc.insecure_channel(echo.target) as channel:
        stub = echo_pb2_grpc.EchoStub(channel)

        def chain() -> list[str]:
            first = stub.Say(Ask(text="hello"), metadata=auth())
            second = stub.Say(Ask(text="on", previous_id=first.id), metadata=auth())
            return [first.id, second.id, second.text]

        with replay.use_cassette(cassette_path):
            recorded = chain()
        assert recorded[2] == "Echo: on"  # the server knew the id sent back
        assert not set(recorded[:2]) & set(echo.issued)
        assert all(
            len(shown) == len(real) for shown, real in zip(recorded[:2], echo.issued, strict=True)
        )
        stored = cassette_bytes(cassette_path)
        assert not [real for real in echo.issued if real.encode() in stored]
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none"):
            assert chain() == recorded


def test_a_stream_replays_at_the_recorded_pace_with_replay_speed(
    echo: EchoServer, cassette_path: Path
) -> None:
    """The server sends one message each 50 ms: at speed 1 the three take at least 100 ms."""

    def count(**options: Any) -> tuple[list[str], float]:
        with grpc.insecure_channel(echo.target) as channel:
            stub = echo_pb2_grpc.EchoStub(channel)
            with replay.use_cassette(cassette_path, **options):
                started = time.monotonic()
                texts = [r.text for r in stub.Count(Ask(text="n", count=3), metadata=auth())]
                return texts, time.monotonic() - started

    recorded, _ = count()
    stopped(echo)
    instantly, fast = count(mode="none")
    paced, slow = count(mode="none", replay_speed=1.0)
    assert instantly == paced == recorded
    assert fast < 0.05 <= 0.1 <= slow


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_the_xai_sdk_samples_and_streams_offline_in_a_new_process(
    cassette_path: Path, monkeypatch: pytest.MonkeyPatch, flavour: str
) -> None:
    """The real xai-sdk, pointed at the fake with ``api_host`` and ``use_insecure_channel``."""
    from xai_fake import chat

    monkeypatch.delenv("REPLAY_MODE", raising=False)
    key = "xai-0123456789abcdefghijklmnopqrstuvwxyz"
    with FakeXai(key) as server:
        with replay.use_cassette(cassette_path) as cassette:
            recorded = chat(flavour, server.target, key)
        assert cassette.recorded == len(server.seen) == 2
        seen = stopped(server)
    assert recorded["sample"] == ["Answer to: Say hello", "REASON_STOP", 4]
    assert recorded["chunks"] == ["Answer ", "to: ", "Count"]
    assert recorded["stream"] == ["Answer to: Count", 3]
    (issued,) = server.issued  # shown as its placeholder, and never stored
    assert recorded["sample_id"] != issued and issued.encode() not in cassette_bytes(cassette_path)
    assert in_a_new_process("xai_fake.py", cassette_path, server.target, flavour) == recorded
    assert len(server.seen) == seen
    assert key.encode() not in cassette_bytes(cassette_path)

    shown = CliRunner().invoke(main, ["show", str(cassette_path)])
    assert shown.exit_code == 0, shown.output
    assert "xai_api.Chat/GetCompletion" in shown.output
    assert "| Answer to: Say hello" in shown.output and "| Answer to: Count" in shown.output
    out = cassette_path.parent / "rerun"
    rerun = CliRunner().invoke(main, ["rerun", str(cassette_path), "--out", str(out), "--yes"])
    assert rerun.exit_code == 2 and "cannot send it again; nothing was sent" in rerun.output
    assert not out.exists()


def test_the_xai_sdk_over_its_default_secure_channel_keeps_no_key(
    cassette_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As against the real API: ``secure_channel``, the key added by call credentials in
    grpcio's core, below the routed seam, so it never reaches the cassette."""
    from xai_fake import sync_chat

    monkeypatch.delenv("REPLAY_MODE", raising=False)
    key = "xai-0123456789abcdefghijklmnopqrstuvwxyz"
    with FakeXai(key, secure=True) as server:
        with replay.use_cassette(cassette_path) as cassette:
            recorded = sync_chat(server.target, key, insecure=False)
        assert cassette.recorded == 2 and server.seen[0]["authorization"] == f"Bearer {key}"
        stopped(server)
    with replay.use_cassette(cassette_path, mode="none"):
        assert sync_chat(server.target, "xai-dummy", insecure=False) == recorded
    assert key.encode() not in cassette_bytes(cassette_path)


def test_messages_with_no_protobuf_type_are_kept_as_their_bytes(
    echo: EchoServer, cassette_path: Path
) -> None:
    """A multicallable made with no serializers sends and gets bytes: a request's stored as a
    body is (text when it is UTF-8), an answer's in base64."""
    asked = Ask(text="hello").SerializeToString()
    with grpc.insecure_channel(echo.target) as channel:
        say = channel.unary_unary("/replaytest.Echo/Say")
        with replay.use_cassette(cassette_path):
            recorded = say(asked, metadata=auth())
        stopped(echo)
        with replay.use_cassette(cassette_path, mode="none"):
            assert say(asked, metadata=auth()) == recorded
    assert isinstance(recorded, bytes) and b"Echo: hello" in recorded
    stored = entry_for(cassette_path, "/Say", {"text": asked.decode()})
    (message,) = stored["responses"][0]["grpc"]["messages"]
    assert set(message) == {"at", "from", "base64"} and "response_type" not in stored


def test_the_pytest_marker_routes_grpc(pytester: pytest.Pytester, echo: EchoServer) -> None:
    pytester.makeconftest(f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n")
    pytester.makepyfile(
        test_echo=textwrap.dedent(
            f"""
            import grpc
            import pytest
            from grpc_echo import Ask, echo_pb2_grpc

            @pytest.mark.replay
            def test_say():
                with grpc.insecure_channel({echo.target!r}) as channel:
                    stub = echo_pb2_grpc.EchoStub(channel)
                    auth = (("authorization", "Bearer " + {KEY!r}),)
                    assert stub.Say(Ask(text="hello"), metadata=auth).text == "Echo: hello"
            """
        )
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    stopped(echo)
    replaying = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--replay-mode", "none")
    replaying.assert_outcomes(passed=1)
    replaying.stdout.fnmatch_lines(
        ["replay: 1 cassette, 1 interaction replayed, 0 recorded, 0 unused"]
    )


async def test_asyncio_calls_record_and_replay_without_blocking_the_loop(
    echo: EchoServer, cassette_path: Path
) -> None:
    """The cassette is read, each call journaled and the file saved off the event loop, also
    when the block is a plain ``intercept``: a call is decided when first awaited."""
    from grpc_echo import aio_conversation

    async with replay.Cassette(cassette_path) as recording:
        with intercept(recording), blockbuster_ctx():
            recorded = await aio_conversation(echo.target, KEY)
    assert recording.recorded == 6
    stopped(echo)
    async with replay.Cassette(cassette_path, mode="none") as replaying:
        with intercept(replaying), blockbuster_ctx():
            assert await aio_conversation(echo.target, "dummy-key") == recorded
    assert replaying.replayed == 6


async def test_an_asyncio_client_stream_may_be_written_rather_than_iterated(
    echo: EchoServer, cassette_path: Path
) -> None:
    async def gather() -> str:
        async with grpc.aio.insecure_channel(echo.target) as channel:
            call = echo_pb2_grpc.EchoStub(channel).Gather(metadata=auth())
            for text in ("a", "b"):
                await call.write(Ask(text=text))
            await call.done_writing()
            reply = await call
            return f"{reply.text} {(await call.code()).name}"

    async with replay.use_cassette(cassette_path):
        assert await gather() == "a + b OK"
    stopped(echo)
    async with replay.use_cassette(cassette_path, mode="none") as replaying:
        assert await gather() == "a + b OK"
    assert replaying.replayed == 1


def test_an_asyncio_error_status_is_an_aio_rpc_error_with_its_metadata(
    echo: EchoServer, cassette_path: Path
) -> None:
    async def missing() -> grpc.aio.AioRpcError:
        async with grpc.aio.insecure_channel(echo.target) as channel:
            stub = echo_pb2_grpc.EchoStub(channel)
            with pytest.raises(grpc.aio.AioRpcError) as raised:
                await stub.Say(Ask(text="missing"), metadata=auth())
            return raised.value

    with replay.use_cassette(cassette_path):
        recorded = asyncio.run(missing())
    stopped(echo)
    with replay.use_cassette(cassette_path, mode="none"):
        replayed = asyncio.run(missing())
    assert replayed.code() == recorded.code() == grpc.StatusCode.NOT_FOUND
    assert replayed.details() == recorded.details()
    assert tuple(replayed.trailing_metadata()) == tuple(recorded.trailing_metadata())
