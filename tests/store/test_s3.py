"""Cassettes on an object store, ``s3://BUCKET/KEY``, against a real S3 API on loopback (moto's
server, see tests/s3_server.py): recording through the openai SDK and replaying in a new process
with the API stopped, four processes recording into one cassette, conflicts, the read cache, the
command line, and a store that ignores conditional writes."""

from __future__ import annotations

import hashlib
import os
import select
import shutil
import signal
import subprocess
import sys
import uuid
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import httpx
import openai
import orjson
import pytest
from click.testing import CliRunner
from s3_server import S3Server
from serving import Running
from test_kill_while_recording import assert_replays, record_and_kill

import replay
from replay._adapters.proxy import Shelf
from replay._core.errors import CassetteError, ConfigError
from replay._core.location import S3Location, location
from replay._store import journal, s3
from replay._store.backend import LOCAL, Conflict
from replay.tools.cli import main
from replay.tools.fakellm import DEFAULT_API_KEY, FakeLLMServer


@pytest.fixture(scope="module")
def s3_server() -> Iterator[S3Server]:
    with S3Server() as server, pytest.MonkeyPatch.context() as patch:
        for name, value in server.env().items():
            patch.setenv(name, value)
        # Nothing from the machine's own AWS configuration.
        patch.setenv("AWS_CONFIG_FILE", os.devnull)
        patch.setenv("AWS_SHARED_CREDENTIALS_FILE", os.devnull)
        patch.delenv("AWS_PROFILE", raising=False)
        s3.STORE.forget_client()  # a client made for another module's server
        yield server
        s3.STORE.forget_client()


@pytest.fixture
def bucket(s3_server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new bucket, and a cache directory of this test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("REPLAY_MODE", raising=False)
    name = f"cassettes-{uuid.uuid4().hex[:12]}"
    boto3.client("s3").create_bucket(Bucket=name)
    return name


def keys(bucket: str) -> list[str]:
    listed = boto3.client("s3").list_objects_v2(Bucket=bucket)
    return sorted(item["Key"] for item in listed.get("Contents", ()))


def test_an_s3_location_is_not_collapsed_to_a_path() -> None:
    where = location("s3://team-bucket/suite/chat.json")
    assert where == S3Location("team-bucket", "suite/chat.json")
    assert str(where) == "s3://team-bucket/suite/chat.json"
    assert (where.name, where.stem, str(where.parent)) == (
        "chat.json",
        "chat",
        "s3://team-bucket/suite",
    )
    assert location("cassettes/chat.json") == Path("cassettes/chat.json")
    with pytest.raises(ConfigError, match="s3://BUCKET/KEY"):
        location("s3:///chat.json")
    error = CassetteError(where, "cannot read: AccessDenied")
    assert str(error) == "cassette s3://team-bucket/suite/chat.json: cannot read: AccessDenied"


def chat(client: openai.OpenAI) -> list[Any]:
    plain = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hello"}]
    )
    stream = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "stream me a reply"}], stream=True
    )
    text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    return [plain.choices[0].message.content, text]


REPLAY_IN_A_NEW_PROCESS = """
import sys, httpx2, openai, orjson, replay
cassette = replay.Cassette(sys.argv[1], "none")
http = httpx2.Client(transport=replay.ReplayTransport(cassette))
client = openai.OpenAI(http_client=http, base_url=sys.argv[2], api_key="sk-x", max_retries=0)
hello = [{"role": "user", "content": "hello"}]
plain = client.chat.completions.create(model="gpt-4o", messages=hello)
stream = client.chat.completions.create(
    model="gpt-4o", messages=[{"role": "user", "content": "stream me a reply"}], stream=True)
text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
print(orjson.dumps([[plain.choices[0].message.content, text], cassette.replayed]).decode())
"""


def test_openai_records_into_s3_and_a_new_process_replays_it_with_the_api_stopped(
    bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    where = f"s3://{bucket}/suite/chat.json"
    with FakeLLMServer() as server:
        base_url = server.url + "/v1"
        with replay.use_cassette(where) as cassette:
            client = openai.OpenAI(base_url=base_url, api_key=DEFAULT_API_KEY, max_retries=0)
            recorded = chat(client)
        assert cassette.recorded == 2 and len(server.requests) == 2
    # The journal was folded into the cassette; no local file besides the read cache.
    assert keys(bucket) == ["suite/chat.json"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]
    stored = boto3.client("s3").get_object(Bucket=bucket, Key="suite/chat.json")["Body"].read()
    assert DEFAULT_API_KEY.encode() not in stored

    replayed = subprocess.run(
        [sys.executable, "-c", REPLAY_IN_A_NEW_PROCESS, where, base_url],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert orjson.loads(replayed.stdout) == [recorded, 2]
    assert recorded[0] == "Answer to: hello"


def ask_fake(cassette: replay.Cassette, url: str) -> str:
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello"}]}
    with httpx.Client(transport=replay.ReplayTransport(cassette)) as client:
        answer = client.post(url, json=body, headers={"authorization": f"Bearer {DEFAULT_API_KEY}"})
    content: str = answer.json()["choices"][0]["message"]["content"]
    return content


def test_expiry_warns_fails_or_records_again_in_s3(bucket: str) -> None:
    where = f"s3://{bucket}/suite/old.json"
    s3_client = boto3.client("s3")

    def recorded_dates() -> list[str]:
        stored = s3_client.get_object(Bucket=bucket, Key="suite/old.json")["Body"].read()
        document = orjson.loads(stored)
        return [r["recorded_at"] for e in document["interactions"].values() for r in e["responses"]]

    with FakeLLMServer() as server:
        url = server.url + "/v1/chat/completions"
        with replay.Cassette(where) as cassette:
            ask_fake(cassette, url)
        # Dated years ago, as another machine's old recording would be.
        stored = s3_client.get_object(Bucket=bucket, Key="suite/old.json")["Body"].read()
        document = orjson.loads(stored)
        for recorded in document["interactions"].values():
            for response in recorded["responses"]:
                response["recorded_at"] = "2020-01-02T03:04:05Z"
        s3_client.put_object(Bucket=bucket, Key="suite/old.json", Body=orjson.dumps(document))
        s3.STORE.forget_listings()
        assert recorded_dates() == ["2020-01-02T03:04:05Z"]
        asked = len(server.requests)
        with pytest.warns(UserWarning, match=rf"{where}.*recorded \d+ days ago"):
            assert ask_fake(replay.Cassette(where, max_age="30d"), url) == "Answer to: hello"
        failing = replay.Cassette(where, max_age="30d", on_expired="fail")
        with pytest.raises(replay.CassetteMiss, match="its recording is expired") as raised:
            ask_fake(failing, url)
        assert where in str(raised.value)
        assert len(server.requests) == asked and recorded_dates() == ["2020-01-02T03:04:05Z"]
        with replay.Cassette(where, max_age="30d", on_expired="rerecord") as rerecording:
            assert ask_fake(rerecording, url) == "Answer to: hello"
        assert rerecording.recorded == 1 and len(server.requests) == asked + 1
    (date,) = recorded_dates()  # replaced, and dated now
    assert datetime.fromisoformat(date) > datetime.now(UTC) - timedelta(hours=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = replay.Cassette(where, "none", max_age="30d", on_expired="fail")
        assert ask_fake(again, url) == "Answer to: hello"


RECORDER = """
import sys, httpx, orjson
from replay import Cassette, ReplayTransport
where, url, writer, key = sys.argv[1:]
with httpx.Client(transport=ReplayTransport(Cassette(where, "new_episodes"))) as client:
    for index in range(6):
        content = orjson.dumps({"model": "gpt-4o-mini",
                                "messages": [{"role": "user", "content": f"{writer} #{index}"}]})
        client.post(url, content=content, headers={"authorization": f"Bearer {key}"})
"""


def test_four_processes_recording_into_one_s3_cassette_lose_and_double_nothing(
    bucket: str,
) -> None:
    where = f"s3://{bucket}/shared.json"
    with FakeLLMServer() as server:
        url = server.url + "/v1/chat/completions"
        children = [
            subprocess.Popen([sys.executable, "-c", RECORDER, where, url, f"p{n}", DEFAULT_API_KEY])
            for n in range(4)
        ]
        assert [child.wait(timeout=180) for child in children] == [0] * 4
        assert len(server.requests) == 24
    cassette = replay.Cassette(where, "none")
    asked = sorted(
        orjson.loads(i.request.body)["messages"][0]["content"] for i in cassette.interactions
    )
    assert asked == sorted(f"p{n} #{i}" for n in range(4) for i in range(6))
    assert all(len(i.outcomes) == 1 for i in cassette.interactions)
    assert keys(bucket) == ["shared.json"]  # every journal entry folded and removed


class Interleaved(s3.S3Store):
    """An S3 store whose first cassette write comes after another writer's fold."""

    def __init__(self, other_fold: Any) -> None:
        super().__init__()
        self.other_fold = other_fold
        self.conflicts = 0

    def write(self, path: Any, interactions: Any, folded: Any, expected: Any) -> Any:
        if self.other_fold is not None:
            other_fold, self.other_fold = self.other_fold, None
            other_fold()
        try:
            return super().write(path, interactions, folded, expected)
        except Conflict:
            self.conflicts += 1
            raise


def entry(text: str, recorded_at: str = "") -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A journal entry's key, request and response, for a request to /``text``."""
    request = {"method": "POST", "url": f"https://api.example/{text}", "headers": {}}
    response = {
        "status": 200,
        "headers": {},
        "body": {"text": text},
        "recorded_at": recorded_at or RECORDED_AT,
    }
    return hashlib.md5(text.encode()).hexdigest(), request, response


RECORDED_AT = "2026-01-02T03:04:05Z"


def texts(loaded: Any) -> list[str]:
    """What each stored request asked for (see :func:`entry`), sorted."""
    return sorted(e["request"]["url"].rpartition("/")[2] for e in loaded.interactions.values())


def test_a_fold_that_loses_the_race_gets_412_reads_again_and_keeps_both(bucket: str) -> None:
    where = S3Location(bucket, "raced.json")
    other = s3.S3Store()
    journal.add(other, where, *entry("first"), reset=False)
    journal.fold(other, where)

    def another_writer_folds() -> None:
        journal.add(other, where, *entry("theirs"), reset=False)
        journal.fold(other, where)

    mine = Interleaved(another_writer_folds)
    journal.add(mine, where, *entry("mine"), reset=False)
    written = journal.fold(mine, where)
    assert mine.conflicts == 1  # If-Match on the ETag it read: 412, raised as Conflict
    assert texts(written) == ["first", "mine", "theirs"]
    assert texts(journal.view(other, where)) == ["first", "mine", "theirs"]
    with pytest.raises(Conflict):  # creating what exists: If-None-Match: * gets 412 too
        other.write(where, {}, (), None)


def test_an_invalid_journal_entry_in_s3_is_named_by_its_object_and_never_folded(
    bucket: str,
) -> None:
    where = S3Location(bucket, "suite/bad.json")
    store = s3.S3Store()
    entry_id = "00000000000000000001-00000000-1-cafe"
    store.add_entry(where, entry_id, b'{"version": 1, "key": 7}')
    with pytest.raises(CassetteError, match=f"journal entry {entry_id} is not a rec") as raised:
        journal.fold(store, where)
    assert f"it stays in s3://{bucket}/suite/.bad.json.journal/{entry_id}.entry" in str(
        raised.value
    )
    assert store.entry_ids(where) == [entry_id] and not store.exists(where)


def test_a_replay_only_run_revalidates_its_cache_instead_of_downloading(bucket: str) -> None:
    where = S3Location(bucket, "cached.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)
    statuses: list[int] = []

    def note(http_response: Any, **_: Any) -> None:
        statuses.append(http_response.status_code)

    for _ in range(2):  # two fresh processes' stores, sharing the user's cache directory
        fresh = s3.S3Store()
        fresh.client(where).meta.events.register("after-call.s3.GetObject", note)
        assert texts(fresh.read(where)) == ["one"]
    assert statuses == [304, 304]  # the writer's cache already held this version
    cache = list(s3.cache_directory().iterdir())
    assert len(cache) == 1 and cache[0].read_bytes().endswith(b'"version": 1\n}\n')
    cache[0].unlink()
    fresh = s3.S3Store()
    fresh.client(where).meta.events.register("after-call.s3.GetObject", note)
    fresh.read(where)
    assert statuses == [304, 304, 200]


def replayed_texts(where: S3Location) -> list[str]:
    """What a new replay-only cassette at ``where`` holds (see :func:`entry`), sorted."""
    cassette = replay.Cassette(str(where), "none")
    return sorted(i.request.url.rpartition("/")[2] for i in cassette.interactions)


def test_a_warm_replay_only_run_lists_each_directory_once_and_gets_no_cassette(
    bucket: str, s3_server: S3Server
) -> None:
    suite = S3Location(bucket, "suite")
    for name in ("a", "b", "c"):
        journal.add(s3.STORE, suite / f"{name}.json", *entry(name), reset=False)
        journal.fold(s3.STORE, suite / f"{name}.json")  # the writer's cache holds each
    s3.STORE.forget_listings()  # a new run on this machine
    since = len(s3_server.received)
    assert [replayed_texts(suite / f"{name}.json") for name in "abc"] == [["a"], ["b"], ["c"]]
    # Before: a journal listing and a 304 GET per cassette.
    assert s3_server.operations(bucket, since) == ["ListObjectsV2"]


def test_the_next_replay_only_run_sees_what_another_machine_changed(
    bucket: str, s3_server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = S3Location(bucket, "suite/chat.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)
    s3.STORE.forget_listings()
    assert replayed_texts(where) == ["one"]
    other_machine = s3.S3Store()
    with monkeypatch.context() as there:
        there.setenv("XDG_CACHE_HOME", str(tmp_path / "other-machine-cache"))
        journal.add(other_machine, where, *entry("two"), reset=False)
        journal.fold(other_machine, where)  # a new version of the cassette
        journal.add(other_machine, where, *entry("three"), reset=False)  # and a killed recorder's
    assert replayed_texts(where) == ["one"]  # this run goes on with the bucket it first listed
    with monkeypatch.context() as later:
        later.setattr(s3, "LISTING_LIFETIME", 0.0)  # a long-lived process, its listing expired
        assert replayed_texts(where) == ["one", "three", "two"]
    s3.STORE.forget_listings()  # the next run
    assert replayed_texts(where) == ["one", "three", "two"]
    with monkeypatch.context() as there:
        there.setenv("XDG_CACHE_HOME", str(tmp_path / "other-machine-cache"))
        journal.fold(other_machine, where)
    s3.STORE.forget_listings()
    since = len(s3_server.received)
    assert replayed_texts(where) == ["one", "three", "two"]
    changed = ["ListObjectsV2", "ListObjectsV2", "GetObject"]  # directory, journal, cassette
    assert s3_server.operations(bucket, since) == changed
    assert s3.STORE.lister(where) is not s3.STORE.client(where)  # those listings were obstore's


def test_what_this_process_records_is_replayed_by_its_next_replay_only_cassette(
    bucket: str, s3_server: S3Server
) -> None:
    where = S3Location(bucket, "suite/chat.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)
    s3.STORE.forget_listings()
    assert replayed_texts(where) == ["one"]  # the directory listed
    journal.add(s3.STORE, where, *entry("two"), reset=False)
    assert replayed_texts(where) == ["one", "two"]  # its journal, though listed as having none
    journal.fold(s3.STORE, where)
    since = len(s3_server.received)
    assert replayed_texts(where) == ["one", "two"]
    assert s3_server.operations(bucket, since) == []  # the listing holds what this process wrote


WARM_REPLAY_ONLY_PROCESS = """
import sys, orjson, replay
cassette = replay.Cassette(sys.argv[1], "none")
texts = sorted(i.request.url.rpartition("/")[2] for i in cassette.interactions)
print(orjson.dumps([texts, sorted(m for m in ("boto3", "botocore") if m in sys.modules)]).decode())
"""


def test_a_warm_replay_only_process_imports_no_boto3_and_the_next_sees_a_change(
    bucket: str, s3_server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where = S3Location(bucket, "suite/chat.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)  # this machine's cache holds it

    def replay_only_process() -> tuple[list[Any], list[str]]:
        since = len(s3_server.received)
        command = [sys.executable, "-c", WARM_REPLAY_ONLY_PROCESS, str(where)]
        printed = subprocess.run(command, check=True, capture_output=True).stdout
        return orjson.loads(printed), s3_server.operations(bucket, since)

    # Listed through obstore: boto3's import and client would be most of this process.
    assert replay_only_process() == ([["one"], []], ["ListObjectsV2"])
    with monkeypatch.context() as other_machine:
        other_machine.setenv("XDG_CACHE_HOME", str(tmp_path / "other-machine-cache"))
        journal.add(s3.S3Store(), where, *entry("two"), reset=False)
        journal.fold(s3.S3Store(), where)
    # The next process sees the change by that same listing, and reads it through botocore.
    changed = ["ListObjectsV2", "ListObjectsV2", "GetObject"]  # directory, journal, cassette
    assert replay_only_process() == ([["one", "two"], ["botocore"]], changed)
    assert replay_only_process() == ([["one", "two"], []], ["ListObjectsV2"])


def test_a_listing_obstore_cannot_parse_is_listed_by_botocore_for_the_rest_of_the_process(
    bucket: str, s3_server: S3Server
) -> None:
    where = S3Location(bucket, "suite/chat.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)
    # A key S3 takes and obstore's paths refuse (a "." segment), beside the cassette.
    boto3.client("s3").put_object(Bucket=bucket, Key="suite/./key.json", Body=b"{}")
    s3.STORE.forget_listings()
    try:
        since = len(s3_server.received)
        assert replayed_texts(where) == ["one"]
        assert s3_server.operations(bucket, since) == ["ListObjectsV2", "ListObjectsV2"]
        s3.STORE.forget_listings()
        since = len(s3_server.received)
        assert replayed_texts(where) == ["one"]
        assert s3_server.operations(bucket, since) == ["ListObjectsV2"]
        assert s3.STORE.lister(where) is s3.STORE.client(where)
    finally:
        s3.STORE.forget_client()  # obstore again for the other tests


def test_a_child_forked_after_obstore_listed_lists_through_botocore_instead_of_hanging(
    bucket: str,
) -> None:
    where = S3Location(bucket, "suite/chat.json")
    journal.add(s3.STORE, where, *entry("one"), reset=False)
    journal.fold(s3.STORE, where)
    s3.STORE.forget_listings()
    assert replayed_texts(where) == ["one"]  # listed through obstore: its runtime runs here
    assert s3.STORE.lister(where) is not s3.STORE.client(where)
    readable, writable = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's outcome is read from the pipe)
        try:
            os.write(writable, orjson.dumps(replayed_texts(where)))
        finally:
            os._exit(0)
    os.close(writable)
    try:
        answered, _, _ = select.select([readable], [], [], 60)
        assert answered, "the forked child's replay-only read hung"
        assert orjson.loads(os.read(readable, 1000)) == ["one"]
    finally:
        if not answered:
            os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
        os.close(readable)


def test_obstore_lists_only_where_the_environment_alone_decides_what_botocore_would_use(
    tmp_path: Path,
) -> None:
    keys = {"AWS_ACCESS_KEY_ID": "id", "AWS_SECRET_ACCESS_KEY": "secret"}
    local = {"AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_DEFAULT_REGION": "eu-west-1"}
    assert s3.obstore_settings({**keys, **local, "AWS_SESSION_TOKEN": "token"}) == {
        "access_key_id": "id",
        "secret_access_key": "secret",
        "session_token": "token",
        "region": "eu-west-1",
        "endpoint": "http://127.0.0.1:9000",
        "client_options": {"allow_http": True},
    }
    assert s3.obstore_settings(local) is None  # credentials from a profile, SSO, a role...
    ignoring = {**keys, **local, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"}
    assert s3.obstore_settings(ignoring) is None
    # obstore reads AWS_ENDPOINT (botocore does not): it would list another server.
    assert s3.obstore_settings({**keys, **local, "AWS_ENDPOINT": "http://elsewhere"}) is None
    configuration = tmp_path / "config"
    configuration.write_text("[default]\nregion = eu-west-1\n")
    in_file = {**keys, "AWS_CONFIG_FILE": str(configuration)}
    assert s3.obstore_settings(in_file) is None  # the region (or endpoint) may be set there
    assert s3.obstore_settings({**in_file, **local}) is not None  # the environment's win
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(b"-----BEGIN CERTIFICATE-----")
    on_aws = {**keys, "AWS_CONFIG_FILE": str(tmp_path / "none"), "AWS_CA_BUNDLE": str(bundle)}
    assert s3.obstore_settings(on_aws) == {
        "access_key_id": "id",
        "secret_access_key": "secret",
        "region": "us-east-1",
        "client_options": {"root_certificate": b"-----BEGIN CERTIFICATE-----"},
    }
    assert s3.obstore_settings({**on_aws, "AWS_CA_BUNDLE": str(tmp_path / "none")}) is None


def test_a_store_obstore_refuses_to_make_is_listed_by_botocore(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = tmp_path / "ca.pem"
    bundle.write_bytes(b"not a certificate")  # obstore refuses it when making its store
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "id")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CA_BUNDLE", str(bundle))
    for name in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        monkeypatch.delenv(name, raising=False)
    store, where = s3.S3Store(), S3Location("bucket", "suite/chat.json")
    assert store.lister(where) is store.client(where)  # not its ValueError, out of a replay


def test_replay_list_show_verify_and_scan_read_an_s3_prefix(bucket: str) -> None:
    for name, text in (("suite/a.json", "alpha"), ("suite/deeper/b.json", "beta")):
        journal.add(s3.STORE, S3Location(bucket, name), *entry(text), reset=False)
        journal.fold(s3.STORE, S3Location(bucket, name))
    # A recorder killed before its save: only the journal is there.
    journal.add(s3.STORE, S3Location(bucket, "suite/killed.json"), *entry("gamma"), reset=False)
    runner = CliRunner()
    listed = runner.invoke(main, ["list", "--json", f"s3://{bucket}/suite"])
    assert listed.exit_code == 0, listed.output
    rows = orjson.loads(listed.output)["cassettes"]
    assert [row["path"] for row in rows] == [
        f"s3://{bucket}/suite/{n}" for n in ("a.json", "deeper/b.json", "killed.json")
    ]
    assert {row["recorded_first"] for row in rows} == {RECORDED_AT}  # how old each is
    shown = runner.invoke(main, ["show", "--json", f"s3://{bucket}/suite/killed.json"])
    assert shown.exit_code == 0, shown.output
    assert orjson.loads(shown.output)["interactions"][0]["url"] == "https://api.example/gamma"
    verified = runner.invoke(main, ["verify", f"s3://{bucket}/suite"])
    assert verified.exit_code == 0, verified.output
    scanned = runner.invoke(main, ["scan", "--json", f"s3://{bucket}/suite"])
    assert scanned.exit_code == 0, scanned.output
    report = orjson.loads(scanned.output)
    assert (report["files_scanned"], report["findings"], report["unreadable"]) == (3, [], [])
    missing = runner.invoke(main, ["show", f"s3://{bucket}/suite/none.json"])
    assert missing.exit_code != 0 and f"s3://{bucket}/suite/none.json" in missing.output


class IgnoresConditions(s3.S3Store):
    """A store that drops If-None-Match and If-Match, as some S3-compatible servers do."""

    def _call(self, location: S3Location, doing: str, operation: str, **arguments: Any) -> Any:
        arguments.pop("IfNoneMatch", None)
        arguments.pop("IfMatch", None)
        return super()._call(location, doing, operation, **arguments)


def test_a_store_that_ignores_conditional_writes_is_refused_before_anything_is_written(
    bucket: str,
) -> None:
    where = S3Location(bucket, "unsafe.json")
    with pytest.raises(CassetteError, match="ignores conditional writes") as raised:
        journal.add(IgnoresConditions(), where, *entry("one"), reset=False)
    assert raised.value.path == where
    assert keys(bucket) == []  # the probe removed, no entry written


def test_without_boto3_an_s3_cassette_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "boto3", None)  # and botocore, which comes with it
    monkeypatch.setitem(sys.modules, "botocore", None)
    with pytest.raises(ConfigError, match=r"replay-llm\[s3\]"):
        s3.S3Store().read(S3Location("any-bucket", "chat.json"))


SUITE = """
import os
import shutil

import openai
import pytest

pytestmark = pytest.mark.replay


def test_hello():
    client = openai.OpenAI(
        base_url=os.environ["FAKELLM_URL"] + "/v1", api_key=os.environ["FAKELLM_KEY"], max_retries=0
    )
    answer = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "hello"}]
    )
    assert answer.choices[0].message.content == "Answer to: hello"
"""


def test_the_pytest_plugin_keeps_a_suites_cassettes_in_s3(
    bucket: str, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recorded with ``cassette_dir`` in [tool.replay], replayed with the API stopped and the
    directory given as ``--replay-cassette-dir``."""
    monkeypatch.delenv("CI", raising=False)
    pytester.makefile(".toml", pyproject=f'[tool.replay]\ncassette_dir = "s3://{bucket}/ci"\n')
    pytester.mkpydir("tests")
    (pytester.path / "tests" / "test_chat.py").write_text(SUITE)
    with FakeLLMServer() as server:
        monkeypatch.setenv("FAKELLM_URL", server.url)
        monkeypatch.setenv("FAKELLM_KEY", DEFAULT_API_KEY)
        pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
        assert len(server.requests) == 1
    assert keys(bucket) == ["ci/tests/test_chat/test_hello.json"]
    assert not list(pytester.path.rglob("*.json"))  # nothing local: no cassette, no usage file
    (pytester.path / "pyproject.toml").unlink()
    replaying = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--replay-mode", "none", f"--replay-cassette-dir=s3://{bucket}/ci"
    )
    replaying.assert_outcomes(passed=1)
    replaying.stdout.fnmatch_lines(["replay: 1 cassette, 1 interaction replayed, 0 recorded*"])


def test_replay_diff_compares_cassettes_in_s3(bucket: str) -> None:
    for name, text in (("v1/chat.json", "alpha"), ("v2/chat.json", "alpha")):
        journal.add(s3.STORE, S3Location(bucket, name), *entry(text), reset=False)
        journal.fold(s3.STORE, S3Location(bucket, name))
    compared = CliRunner().invoke(
        main, ["diff", "--json", f"s3://{bucket}/v1", f"s3://{bucket}/v2"]
    )
    assert compared.exit_code == 0, compared.output
    assert orjson.loads(compared.output)["summary"]["pairs"] == 1


def test_replay_serve_names_cassettes_below_an_s3_prefix() -> None:
    shelf = Shelf(location("s3://team/served"), replay.Cassette)
    assert shelf.path_for("chat/first") == S3Location("team", "served/chat/first.json")
    assert shelf.path_for(None) == S3Location("team", "served/default.json")


def test_replay_sync_copies_a_local_directory_to_s3_and_back_merging(
    bucket: str, tmp_path: Path
) -> None:
    local = tmp_path / "cassettes"
    for name, text in (("a.json", "alpha"), ("deeper/b.json", "beta")):
        journal.add(LOCAL, local / name, *entry(text), reset=False)
        journal.fold(LOCAL, local / name)
    # In the bucket already: a recording only there, which a sync must keep.
    journal.add(s3.STORE, S3Location(bucket, "suite/a.json"), *entry("only-remote"), reset=False)
    runner = CliRunner()
    up = runner.invoke(main, ["sync", "--json", str(local), f"s3://{bucket}/suite"])
    assert up.exit_code == 0, up.output
    assert [s["changed"] for s in orjson.loads(up.output)["synced"]] == [True, True]
    assert texts(journal.view(s3.STORE, S3Location(bucket, "suite/a.json"))) == [
        "alpha",
        "only-remote",
    ]
    again = runner.invoke(main, ["sync", "--json", str(local), f"s3://{bucket}/suite"])
    assert [s["changed"] for s in orjson.loads(again.output)["synced"]] == [False, False]
    back = tmp_path / "back"
    down = runner.invoke(main, ["sync", f"s3://{bucket}/suite", str(back)])
    assert down.exit_code == 0, down.output
    assert "2 cassettes synced, 2 written" in down.output
    assert texts(journal.view(LOCAL, back / "deeper" / "b.json")) == ["beta"]
    assert texts(journal.view(LOCAL, back / "a.json")) == ["alpha", "only-remote"]


def ask_through(serving: Running, prompt: str) -> httpx.Response:
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": prompt}]}
    headers = {"authorization": f"Bearer {DEFAULT_API_KEY}", "x-replay-cassette": "shared"}
    return httpx.post(serving.url + "/v1/chat/completions", json=body, headers=headers, timeout=60)


def test_two_serve_processes_record_into_one_bucket_and_a_third_replays_it_all(
    bucket: str, tmp_path: Path
) -> None:
    """Each serve asks its own prompts and the shared ones, all at once, into one cassette."""
    where = f"s3://{bucket}/served"
    own = {name: [f"{name} #{i}" for i in range(5)] for name in ("a", "b")}
    shared = [f"both #{i}" for i in range(5)]
    with FakeLLMServer() as fake:
        recording = {
            name: Running(
                "--upstream", fake.url, "--mode", "new_episodes", "--cassettes", where, cwd=tmp_path
            )
            for name in own
        }
        asked = [(recording[name], p) for name in own for p in [*own[name], *shared]]
        with ThreadPoolExecutor(max_workers=len(asked)) as pool:
            answers = list(pool.map(lambda job: ask_through(*job), asked))
        assert [a.status_code for a in answers] == [200] * len(asked)
        for serving in recording.values():
            status, _, err = serving.stop()
            assert status == 0, err
        upstream_calls = len(fake.requests)
    assert keys(bucket) == ["served/shared.json"]  # every journal entry folded and removed
    stored = replay.Cassette(f"{where}/shared.json", "none").interactions
    prompts = sorted(orjson.loads(i.request.body)["messages"][0]["content"] for i in stored)
    assert prompts == sorted([*own["a"], *own["b"], *shared])
    # A shared prompt both recorded before either saw the other's keeps both answers, once each.
    assert sum(len(i.outcomes) for i in stored) == upstream_calls

    replaying = Running("--mode", "none", "--cassettes", where, cwd=tmp_path)
    replayed = [ask_through(replaying, prompt) for _, prompt in asked]
    status, _, err = replaying.stop()
    assert status == 0, err
    assert [r.status_code for r in replayed] == [200] * len(asked)
    assert [r.json()["choices"] for r in replayed] == [a.json()["choices"] for a in answers]


def test_a_recorder_killed_while_recording_into_s3_loses_nothing_and_the_next_folds_it(
    bucket: str,
) -> None:
    where = f"s3://{bucket}/killed.json"
    with FakeLLMServer(api_key=DEFAULT_API_KEY) as server:
        url = server.url + "/v1/chat/completions"
        record_and_kill(where, url, "sync", 4)
        journaled = keys(bucket)
        assert len(journaled) == 4 and "killed.json" not in journaled  # nothing saved, 4 entries
        assert_replays(where, url, "sync", 4)  # a reader sees the journal of the killed one
        next_writer = subprocess.run(
            [sys.executable, "-c", RECORDER, where, url, "next", DEFAULT_API_KEY], timeout=120
        )
        assert next_writer.returncode == 0
    assert keys(bucket) == ["killed.json"]  # the killed one's entries folded and removed
    stored = replay.Cassette(where, "none").interactions
    prompts = sorted(orjson.loads(i.request.body)["messages"][0]["content"] for i in stored)
    assert prompts == sorted([f"call {i}" for i in range(4)] + [f"next #{i}" for i in range(6)])
    assert all(len(i.outcomes) == 1 for i in stored)


def test_replay_prune_older_than_removes_old_interactions_and_cassettes_from_an_s3_prefix(
    bucket: str,
) -> None:
    old, fresh = "2020-01-02T03:04:05Z", datetime.now(UTC).isoformat()
    for name, text, recorded_at in (
        ("suite/a.json", "alpha", old),
        ("suite/a.json", "beta", fresh),
        ("suite/b.json", "gamma", old),
    ):
        journal.add(s3.STORE, S3Location(bucket, name), *entry(text, recorded_at), reset=False)
        journal.fold(s3.STORE, S3Location(bucket, name))
    # A recorder killed before its save: only its journal is there, and it is old.
    journal.add(s3.STORE, S3Location(bucket, "suite/c.json"), *entry("delta", old), reset=False)
    before = keys(bucket)
    runner = CliRunner()
    by_use = runner.invoke(main, ["prune", "--yes", f"s3://{bucket}/suite"])
    assert by_use.exit_code == 2 and "give --older-than DAYS" in by_use.output
    assert f"s3://{bucket}/suite" in by_use.output and "Traceback" not in by_use.output

    dry = runner.invoke(main, ["prune", "--json", "--older-than", "30", f"s3://{bucket}/suite"])
    assert dry.exit_code == 1, dry.output  # something is left to remove
    planned = orjson.loads(dry.output)
    assert planned["applied"] is False and keys(bucket) == before
    assert planned["directories"][0]["message"].startswith("no usage record in an object store")
    assert {Path(f["path"]).name: f["delete_file"] for f in planned["files"]} == {
        "a.json": False,
        "b.json": True,
        "c.json": True,
    }
    assert (
        runner.invoke(
            main, ["prune", "--dry-run", "--yes", "--older-than", "30", f"s3://{bucket}/suite"]
        ).exit_code
        == 1
    )
    assert keys(bucket) == before

    pruned = runner.invoke(main, ["prune", "--yes", "--older-than", "30", f"s3://{bucket}/suite"])
    assert pruned.exit_code == 0, pruned.output
    assert f"s3://{bucket}/suite/b.json: removed the file" in pruned.output
    assert keys(bucket) == ["suite/a.json"]  # no journal left behind either
    assert texts(journal.view(s3.STORE, S3Location(bucket, "suite/a.json"))) == ["beta"]
    again = runner.invoke(main, ["prune", "--yes", "--older-than", "30", f"s3://{bucket}/suite"])
    assert again.exit_code == 0 and again.output.strip().endswith("nothing to prune")


def test_replay_rerun_reads_cassettes_in_s3_and_records_the_answers_into_s3(
    bucket: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    suite, out = f"s3://{bucket}/suite", f"s3://{bucket}/rerun/model-2"
    with FakeLLMServer() as server:
        with replay.use_cassette(f"{suite}/chat.json"):
            chat(openai.OpenAI(base_url=server.url + "/v1", api_key=DEFAULT_API_KEY, max_retries=0))
    originals = {key: etag for key, etag in s3.STORE._keys(S3Location(bucket, ""), "suite/")}
    runner = CliRunner()
    inside = runner.invoke(main, ["rerun", suite, "--out", f"{suite}/new", "--yes"])
    assert inside.exit_code == 2 and "overlaps" in inside.stderr
    arguments = ["rerun", suite, "--out", out, "--model", "model-2", "--key-env", "FAKE_LLM_KEY"]
    env = {"FAKE_LLM_KEY": DEFAULT_API_KEY}
    with FakeLLMServer(model_versions={"model-2": "v2"}) as today:
        arguments += ["--upstream", today.url, "--yes", "--json"]
        first = runner.invoke(main, arguments, env=env)
        assert first.exit_code in (0, 1), first.output
        document = orjson.loads(first.stdout)
        assert (document["answered"], document["failures"], document["summary"]["pairs"]) == (
            2,
            [],
            2,
        )
        assert [orjson.loads(r.body)["model"] for r in today.requests] == ["model-2"] * 2
        again = runner.invoke(main, arguments, env=env)  # what --out holds is not sent again
        assert orjson.loads(again.stdout)["answered"] == 0 and len(today.requests) == 2
    assert keys(bucket) == ["rerun/model-2/chat.json", "suite/chat.json"]
    assert dict(s3.STORE._keys(S3Location(bucket, ""), "suite/")) == originals  # never written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]  # nothing local but the cache
    stored = boto3.client("s3").get_object(Bucket=bucket, Key="rerun/model-2/chat.json")
    assert DEFAULT_API_KEY.encode() not in stored["Body"].read()
    rerecorded = replay.Cassette(f"{out}/chat.json", "none").interactions
    assert {orjson.loads(i.request.body)["model"] for i in rerecorded} == {"model-2"}


def test_replay_import_vcr_refuses_an_s3_path_naming_replay_sync_which_does_the_rest(
    bucket: str, tmp_path: Path
) -> None:
    runner = CliRunner()
    refused = runner.invoke(main, ["import-vcr", f"s3://{bucket}/vcr"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert f"replay sync COPY s3://{bucket}/vcr" in " ".join(refused.stderr.split())
    assert keys(bucket) == []
    missing = runner.invoke(main, ["import-vcr", str(tmp_path / "missing")])
    assert missing.exit_code == 2 and "no such file or directory" in missing.stderr
    # The way the message names: convert a local copy, then sync it into the bucket.
    copy = tmp_path / "copy"
    copy.mkdir()
    shapes = Path(__file__).parent.parent / "tools" / "vcr_shapes"
    shutil.copy(shapes / "pydantic_ai_parsed_body.yaml", copy / "test_openai.yaml")
    converted = runner.invoke(main, ["import-vcr", str(copy), "--delete"])
    assert converted.exit_code == 0, converted.output
    synced = runner.invoke(main, ["sync", str(copy), f"s3://{bucket}/vcr"])
    assert synced.exit_code == 0, synced.output
    assert keys(bucket) == ["vcr/test_openai.json"]
    assert len(replay.Cassette(f"s3://{bucket}/vcr/test_openai.json", "none").interactions) == 3
