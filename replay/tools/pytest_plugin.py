"""The pytest plugin: only hooks and fixtures (registered through the ``pytest11`` entry point).

``@pytest.mark.replay`` (on a test, or on a class or module through
``pytestmark``) records and replays every httpx and httpx2 call of the test
through ``cassettes/<test module>/<test name>.json`` beside the test file;
``@pytest.mark.replay("shared.json")`` names another file in that directory.
Options and their precedence: :mod:`replay.tools.config`. What spans the whole run
(xdist workers included): :mod:`replay.tools.testsession`. ``--block-network``:
:mod:`replay._adapters.network`.

Without pytest-recording, this plugin also stands in for it: ``@pytest.mark.vcr``, the
``vcr_config``, ``vcr_cassette_dir``, ``default_cassette_name`` and ``vcr`` fixtures,
``--record-mode``, ``--disable-recording`` and ``--allowed-hosts``
(:class:`_RecordingStandIn`). With pytest-recording active beside it, those are
pytest-recording's, and so is ``--block-network``: each marker goes to its own tool.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import traceback
from collections.abc import Generator, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from replay._adapters.network import AllowedHosts, NetworkGuard
from replay._adapters.patch import intercept
from replay._cassette import Cassette
from replay._core.errors import CassetteMiss, ConfigError, NetworkBlocked, ReplayError
from replay._core.location import Location
from replay._core.modes import Mode
from replay._core.unused import Unused
from replay._store import usage
from replay.tools.config import (
    VCR_MODES,
    Settings,
    cassette_dir,
    cassette_name,
    cassette_path,
    checked,
    chosen_path,
    from_vcr_config,
    merged,
    mode_forced_by_ci,
    pyproject_options,
    run_mode,
    settings,
)
from replay.tools.testsession import (
    Located,
    LocatedMisses,
    TestRun,
    call_site,
    chained,
    ci_note,
    explain_failure,
)
from replay.tools.vcr import RecordedCassette, target_of

if TYPE_CHECKING:
    from replay.tools.serve import Served

_RUN = pytest.StashKey[TestRun]()
_OWNS_RUN_DIRECTORY = pytest.StashKey[bool]()
_PROJECT_OPTIONS = pytest.StashKey[Mapping[str, object]]()
_GUARD = pytest.StashKey[NetworkGuard | None]()
"""The test's network guard, when its connections are blocked."""
_ALLOWED = pytest.StashKey[dict[tuple[str, ...], AllowedHosts]]()
"""The allowed hosts of each list given, resolved once a run."""
_CASSETTE = pytest.StashKey[Cassette]()
_SETTINGS = pytest.StashKey[Settings]()
_MISSES = pytest.StashKey[LocatedMisses]()
_FORCED_BY_CI = pytest.StashKey[bool]()
_STANDS_IN = pytest.StashKey[bool]()
_CASSETTE_DIR = pytest.StashKey[tuple[Location, Path] | None]()
_WORKER_KEY = "replay_run_directory"
_RECORDING_PLUGIN = "recording"
"""pytest-recording's plugin name (its ``pytest11`` entry point), which ``-p no:`` blocks."""


def _recording_active(pluginmanager: pytest.PytestPluginManager) -> bool:
    """Whether pytest-recording will load in this run: installed, and not ``-p no:recording``."""
    if pluginmanager.is_blocked(_RECORDING_PLUGIN):
        return False
    return importlib.util.find_spec("pytest_recording") is not None


class _RecordingHookspecs:
    @pytest.hookspec(historic=True)
    def pytest_recording_configure(self, config: pytest.Config, vcr: Any) -> None:
        """pytest-recording's hook, accepted so that a conftest defining it loads; replay has
        no vcrpy ``VCR`` to pass, so it is not called (see README, Moving from vcrpy)."""


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    if not _recording_active(pluginmanager):
        pluginmanager.add_hookspecs(_RecordingHookspecs)


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    group = parser.getgroup("replay", "record and replay LLM API calls")
    if not _recording_active(pluginmanager):
        group.addoption(
            "--record-mode",
            choices=list(VCR_MODES),
            default=None,
            help="pytest-recording's name for --replay-mode (rewrite: all, any: new_episodes)",
        )
        group.addoption(
            "--disable-recording",
            action="store_true",
            help="pytest-recording's: vcr-marked tests run with no cassette (replay markers "
            "still have theirs)",
        )
    group.addoption(
        "--replay-mode",
        choices=[mode.value for mode in Mode],
        default=None,
        help="record mode of every cassette in this run (beats REPLAY_MODE and all config); "
        "default: once, or none when CI is set",
    )
    group.addoption(
        "--replay-unused",
        choices=[choice.value for choice in Unused],
        default=None,
        help="what a test's cassette with recorded responses the test did not use does, in "
        "every test of this run (beats all config): allow, warn, or fail the test",
    )
    group.addoption(
        "--replay-cassette-dir",
        default=None,
        metavar="DIR",
        help="keep every test's cassette under DIR (a directory, or s3://BUCKET/PREFIX), as "
        "DIR/<test file>/<test name>.json; default: cassettes/ beside each test file",
    )
    if _recording_active(pluginmanager):
        return  # --block-network and --allowed-hosts are pytest-recording's
    group.addoption(
        "--block-network",
        action="store_true",
        help="fail any real connection a test makes other than through its cassette",
    )
    group.addoption(
        "--allow-hosts",
        "--allowed-hosts",
        default="",
        metavar="HOSTS",
        help="comma-separated hosts --block-network lets through: names (localhost) or, as "
        "pytest-recording has them, regular expressions matched at the start of the address",
    )


class _XdistHooks:
    """Controller side of pytest-xdist: one run directory for all workers, their tallies back."""

    def __init__(self, run: TestRun) -> None:
        self.run = run

    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[_WORKER_KEY] = str(self.run.directory)

    def pytest_testnodedown(self, node: Any, error: object) -> None:
        self.run.absorb(getattr(node, "workeroutput", {}).get("replay_tallies", {}))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "replay(path=None, **options): record and replay this test's HTTP calls"
    )
    config.stash[_STANDS_IN] = stands_in = not _recording_active(config.pluginmanager)
    if stands_in:
        for line in _RECORDING_MARKERS:
            config.addinivalue_line("markers", line)
        config.pluginmanager.register(_RecordingStandIn(), "replay-recording-stand-in")
    try:
        run_mode(_command_line_mode(config), os.environ)
        config.stash[_PROJECT_OPTIONS] = pyproject_options(_pyproject(config))
        shared = cassette_dir(
            config.getoption("replay_cassette_dir"), _pyproject(config), config.rootpath
        )
    except ReplayError as error:
        raise pytest.UsageError(f"replay: {error}") from error
    config.stash[_CASSETTE_DIR] = None if shared is None else (shared, config.rootpath)
    run_directory = getattr(config, "workerinput", {}).get(_WORKER_KEY)
    config.stash[_OWNS_RUN_DIRECTORY] = run_directory is None
    directory = Path(run_directory or tempfile.mkdtemp(prefix="replay-run-"))
    config.stash[_RUN] = TestRun(directory)
    config.stash[_ALLOWED] = {}
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_XdistHooks(config.stash[_RUN]), "replay-xdist")


_RECORDING_MARKERS = (
    "vcr(*cassettes, **vcr_config): pytest-recording's marker, served by replay",
    "default_cassette(name): the cassette name of a vcr-marked test",
    "block_network(allowed_hosts=None): block this test's connections (--block-network)",
    "allowed_hosts(hosts): accepted for pytest-recording suites (replay: --allowed-hosts)",
)


def _command_line_mode(config: pytest.Config) -> str | None:
    """``--replay-mode``, else pytest-recording's ``--record-mode`` in replay's words."""
    mode: str | None = config.getoption("replay_mode")
    record_mode = config.getoption("record_mode", None) if config.stash[_STANDS_IN] else None
    return mode or (VCR_MODES[record_mode] if record_mode else None)


class _RecordingStandIn:
    """pytest-recording's fixtures, registered when pytest-recording is not there."""

    @pytest.fixture
    def vcr_config(self) -> dict[str, object]:
        """pytest-recording's options (see README, Moving from vcrpy); override it in a conftest."""
        return {}

    @pytest.fixture  # pytest-recording's is module-scoped; a method fixture cannot be
    def vcr_cassette_dir(self, request: pytest.FixtureRequest) -> str:
        """``cassettes/<test module>`` beside the test file, as pytest-recording has it."""
        return str(request.path.parent / "cassettes" / request.path.stem)

    @pytest.fixture
    def default_cassette_name(self, request: pytest.FixtureRequest) -> str:
        """pytest-recording's name: ``Class.test`` or ``test``, file name characters replaced."""
        marker = request.node.get_closest_marker("default_cassette")
        if marker is not None and marker.args:
            return str(marker.args[0])
        test_class = getattr(request.node, "cls", None)
        name = f"{test_class.__name__}.{request.node.name}" if test_class else request.node.name
        return name.translate({ord(c): "-" for c in "<>?%*:|\"'/\\"})

    @pytest.fixture
    def vcr(self, _replay_cassette_of_test: Cassette | None) -> RecordedCassette | None:
        """What tests read of pytest-recording's cassette: ``requests``, ``responses``,
        ``play_count``, ``all_played``; None in a test without a cassette."""
        if _replay_cassette_of_test is None:
            return None
        return RecordedCassette(_replay_cassette_of_test)


def _pyproject(config: pytest.Config) -> Path:
    pyproject = config.inipath
    if pyproject is None or pyproject.name != "pyproject.toml":
        pyproject = config.rootpath / "pyproject.toml"
    return pyproject


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(_OWNS_RUN_DIRECTORY, False):
        shutil.rmtree(config.stash[_RUN].directory, ignore_errors=True)


@pytest.fixture
def replay_config() -> dict[str, object]:
    """Options for the cassettes of the tests it applies to; override it in a conftest.py."""
    return {}


def _guard_of_test(request: pytest.FixtureRequest) -> NetworkGuard | None:
    """pytest-recording's rule: connections are blocked under ``--block-network`` or the
    ``block_network`` marker, except to the allowed hosts that the marker's
    ``allowed_hosts``, else ``--allowed-hosts``, else ``vcr_config``'s name."""
    config = request.config
    if not config.stash[_STANDS_IN]:
        return None  # pytest-recording's options and markers are its own
    marker = request.node.get_closest_marker("block_network")
    if marker is None and not config.getoption("block_network"):
        return None
    where = f"the block_network marker of {request.node.nodeid}"
    if marker is not None and (marker.args or set(marker.kwargs) - {"allowed_hosts"}):
        raise ConfigError(where, marker.args or marker.kwargs, "takes only allowed_hosts=[...]")
    source, allowed = where, marker.kwargs.get("allowed_hosts") if marker else None
    if not allowed:
        source, allowed = "--allowed-hosts", config.getoption("allow_hosts")
    if not allowed:
        source = "allowed_hosts (in the vcr_config fixture)"
        allowed = request.getfixturevalue("vcr_config").get("allowed_hosts")
    hosts = tuple(allowed.split(",") if isinstance(allowed, str) else allowed or ())
    known = config.stash[_ALLOWED]
    if hosts not in known:
        known[hosts] = AllowedHosts(hosts, source)
    return NetworkGuard(known[hosts])


@pytest.fixture(autouse=True)
def _replay_cassette_of_test(request: pytest.FixtureRequest) -> Iterator[Cassette | None]:
    config = request.config
    request.node.stash[_GUARD] = _guard_of_test(request)
    markers = list(request.node.iter_markers("replay"))
    vcr_markers = []
    if config.stash[_STANDS_IN] and not config.getoption("disable_recording"):
        vcr_markers = list(request.node.iter_markers("vcr"))
    if not markers and not vcr_markers and "replay_cassette" not in request.fixturenames:
        yield None
        return
    extras: tuple[Location, ...] = ()
    if markers or not vcr_markers:
        path, options = _replay_marked(request, markers)
    else:
        path, extras, options = _vcr_marked(request, vcr_markers)
    run = config.stash[_RUN]
    command_line_mode = _command_line_mode(config)
    request.node.stash[_SETTINGS] = chosen = settings(
        options, command_line_mode, command_line_unused=config.getoption("replay_unused")
    )
    cassette = run.open(path, chosen, extras)
    cassette.misses = request.node.stash[_MISSES] = LocatedMisses(request.path)
    request.node.stash[_CASSETTE] = cassette
    forced = mode_forced_by_ci(options, command_line_mode, os.environ)
    request.node.stash[_FORCED_BY_CI] = forced
    try:
        with intercept(cassette):
            yield cassette
    finally:
        run.close(cassette)


def _replay_marked(
    request: pytest.FixtureRequest, markers: list[pytest.Mark]
) -> tuple[Location, dict[str, object]]:
    where = f"the replay marker of {request.node.nodeid}"
    options = merged(
        [
            *(checked(where, marker.kwargs) for marker in markers),
            checked("the replay_config fixture", request.getfixturevalue("replay_config")),
            request.config.stash[_PROJECT_OPTIONS],
        ]
    )
    test_class = getattr(request.node, "cls", None)
    name = f"{test_class.__name__}.{request.node.name}" if test_class else request.node.name
    shared = request.config.stash[_CASSETTE_DIR]
    return cassette_path(request.path, name, chosen_path(where, markers), shared), options


def _vcr_marked(
    request: pytest.FixtureRequest, markers: list[pytest.Mark]
) -> tuple[Location, tuple[Location, ...], dict[str, object]]:
    """A test marked as pytest-recording marks it: its cassette, the one a marker names
    (converted: ``x.yaml`` -> ``x.json``) or ``default_cassette_name``; the cassettes read
    beside it; its options. Several named, as pytest-recording combines them: all are read,
    in the order named, after the test's ``default_cassette_name``, which alone records."""
    where = f"the vcr marker of {request.node.nodeid}"
    options = merged(
        [
            *(from_vcr_config(where, marker.kwargs) for marker in markers),
            from_vcr_config("the vcr_config fixture", request.getfixturevalue("vcr_config")),
            request.config.stash[_PROJECT_OPTIONS],
            {"mode": Mode.NONE},  # pytest-recording's default: replay only
        ]
    )
    directory = Path(request.getfixturevalue("vcr_cassette_dir"))
    named = list(dict.fromkeys(os.fspath(name) for marker in markers for name in marker.args))
    if len(named) == 1:
        return target_of(directory / named[0]), (), options
    default = directory / cassette_name(request.getfixturevalue("default_cassette_name"))
    return default, tuple(target_of(directory / name) for name in named), options


@pytest.fixture
def replay_cassette(_replay_cassette_of_test: Cassette | None) -> Cassette:
    """The test's cassette (asking for it turns replay on, as the marker does)."""
    assert _replay_cassette_of_test is not None, "asking for replay_cassette turns replay on"
    return _replay_cassette_of_test


@pytest.fixture
def replay_upstreams(request: pytest.FixtureRequest) -> Mapping[str, str]:
    """Where ``replay_server`` forwards, by path prefix: ``upstreams`` of [tool.replay.serve],
    else the known providers; override it to forward elsewhere (``{"/": "http://..."}``)."""
    from replay.tools import serve  # the proxy's imports: paid only by tests that serve

    return serve.project_upstreams(_pyproject(request.config))


@pytest.fixture
def replay_server(
    request: pytest.FixtureRequest, replay_cassette: Cassette, replay_upstreams: Mapping[str, str]
) -> Iterator[Served]:
    """``replay serve`` for this test, on a free loopback port, for clients in subprocesses
    (``env={**os.environ, **replay_server.env()}``): its default cassette is the test's,
    ``X-Replay-Cassette: NAME`` names NAME.json beside it."""
    from replay.tools import serve

    run, chosen, named = request.config.stash[_RUN], request.node.stash[_SETTINGS], []

    def open_named(path: Location) -> Cassette:
        named.append(run.open(path, chosen))
        return named[-1]

    try:
        with serve.for_test(replay_cassette, open_named, replay_upstreams) as served:
            yield served
    finally:
        for cassette in named:
            run.close(cassette)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    guard = item.stash.get(_GUARD, None)
    if guard is None:
        result = yield
    else:
        with guard:
            result = yield
    # The test passed (a failure raised at the yield, and stays the test's own): now its
    # cassette's unused recordings fail it, or warn, as its ``unused`` option says.
    cassette = item.stash.get(_CASSETTE, None)
    if cassette is not None:
        cassette.check_unused()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if call.when == "setup" and report.failed and call.excinfo is not None:
        # An option the marker or replay_config gives that replay cannot use: said in one
        # paragraph, as a miss is, not through the plugin's traceback.
        failure = call.excinfo.value
        located = [Located(e, None) for e in chained(failure) if isinstance(e, ReplayError)]
        setup_explained = explain_failure(located, failure)
        if setup_explained is not None:
            report.longrepr = setup_explained
    if call.when == "call" and report.failed:
        raised = call.excinfo.value if call.excinfo is not None else None
        # Where the test failed: for what replay raised that the client passed on (a
        # cassette that cannot be read, a blocked connection), the call that failed.
        failed_at = None
        if call.excinfo is not None:
            failed_at = call_site(traceback.extract_tb(call.excinfo.tb), item.path)
        misses = item.stash.get(_MISSES, LocatedMisses(item.path))
        guard = item.stash.get(_GUARD, None)
        problems = [
            *misses.located,
            *(Located(blocked, failed_at) for blocked in (guard.blocked if guard else ())),
            *(
                Located(error, failed_at)
                for error in chained(raised)
                if isinstance(error, ReplayError)
                and not isinstance(error, CassetteMiss | NetworkBlocked)
            ),
        ]
        notes = []
        cassette = item.stash.get(_CASSETTE, None)
        if misses and cassette is not None and item.stash.get(_FORCED_BY_CI, False):
            notes.append(ci_note(cassette.path, os.environ.get("CI", "")))
        explanation = explain_failure(problems, raised, notes)
        if explanation is not None:
            report.longrepr = explanation
    return report


def pytest_deselected(items: list[pytest.Item]) -> None:
    usage.mark_incomplete(f"tests deselected ({len(items)})")  # prune must not go by a part


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if exitstatus == pytest.ExitCode.INTERRUPTED or session.shouldstop or session.shouldfail:
        usage.mark_incomplete("the test run was interrupted or stopped early")
    if any("::" in argument for argument in session.config.args):
        usage.mark_incomplete("tests selected by node id")
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["replay_tallies"] = session.config.stash[_RUN].export()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    line = config.stash[_RUN].summary()
    if line is not None:
        terminalreporter.write_line(line)
