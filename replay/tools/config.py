"""The options of a test's cassette, and where a test's cassette lives.

Options come from four places; the first that sets an option wins:

1. the keyword arguments of the ``replay`` markers, the one closest to the test first
   (function, then class, then module ``pytestmark``);
2. the ``replay_config`` fixture (override it in a ``conftest.py`` for a directory);
3. ``[tool.replay]`` in ``pyproject.toml``;
4. the defaults: mode ``once`` (``none`` when ``CI`` is set), nothing ignored.

``secrets``, ``secret_headers``, ``secret_params`` and ``secret_fields`` are the exception:
they add up over all sources, so that naming a secret in one place can never un-name one
from another.

The mode has two sources above all these, for a whole run: ``--replay-mode``,
then ``REPLAY_MODE``; ``unused`` has one, ``--replay-unused``.
"""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import click

from replay._core import expiry
from replay._core.errors import ConfigError
from replay._core.expiry import OnExpired
from replay._core.key import match_fields
from replay._core.location import Location, S3Location, location
from replay._core.model import Request, Response
from replay._core.modes import MODE_VARIABLE, Mode
from replay._core.providers import Provider
from replay._core.unused import Unused, unused_choice
from replay._store.cassette_file import MAX_NAME_BYTES
from replay.tools import extras, vcr

ACCUMULATED = ("secrets", "secret_headers", "secret_params", "secret_fields")
_STRING_LISTS = ("ignore", "match_headers", "ignore_hosts", "match_on", *ACCUMULATED)
_FLAGS = ("allow_playback_repeats", "ignore_localhost", "block_network")
HOOKS = ("before_record_request", "before_record_response")
"""vcrpy's recording hooks (see :class:`~replay._cassette.Cassette`): callables, so given in
the ``replay_config`` or ``vcr_config`` fixture or a marker, never in pyproject.toml."""
OPTIONS = (
    "mode",
    *_STRING_LISTS,
    "replay_speed",
    *_FLAGS,
    "providers",
    "max_age",
    "on_expired",
    "unused",
    *HOOKS,
)
_UNSAFE_IN_FILE_NAMES = re.compile(r"[^\w.\-\[\]]")


@dataclass(frozen=True)
class Settings:
    """Everything a test's cassette is opened with; ``mode`` is final (overrides applied)."""

    mode: Mode
    ignore: tuple[str, ...] = ()
    match_headers: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    secret_headers: tuple[str, ...] = ()
    secret_params: tuple[str, ...] = ()
    secret_fields: tuple[str, ...] = ()
    match_on: tuple[str, ...] | None = None
    replay_speed: float | None = None
    allow_playback_repeats: bool = False
    providers: tuple[Provider, ...] = ()
    ignore_hosts: tuple[str, ...] = ()
    ignore_localhost: bool = False
    block_network: bool = True
    max_age: timedelta | None = None
    on_expired: OnExpired = OnExpired.WARN
    unused: Unused = Unused.ALLOW
    before_record_request: Callable[[Request], Request | None] | None = None
    before_record_response: Callable[[Response], Response | None] | None = None

    def cassette_options(self) -> dict[str, Any]:
        """Keyword arguments for :class:`~replay._cassette.Cassette`, the mode left out."""
        return {name: getattr(self, name) for name in OPTIONS if name != "mode"}


def checked(source: str, options: Mapping[str, object]) -> dict[str, object]:
    """``options`` validated and in one shape; a bad one is a ConfigError naming ``source``."""
    if not isinstance(options, Mapping):
        raise ConfigError(source, options, "is not a mapping of option names to values")
    result: dict[str, object] = {}
    for name, value in options.items():
        where = f"{name} (in {source})"
        if name not in OPTIONS:
            raise ConfigError(where, value, f"unknown option (known: {', '.join(OPTIONS)})")
        result[name] = _checked_value(where, name, value)
    return result


def _checked_value(where: str, name: str, value: object) -> object:
    if name == "mode":
        try:
            return Mode(str(value))
        except ValueError:
            modes = ", ".join(mode.value for mode in Mode)
            raise ConfigError(where, value, f"not a record mode (one of {modes})") from None
    if name in _STRING_LISTS:
        if isinstance(value, str):
            return (value,)
        if isinstance(value, Sequence) and all(isinstance(item, str) for item in value):
            if name == "match_on":
                return match_fields(value)
            return tuple(value)
        raise ConfigError(where, value, "expected a list of strings")
    if name == "replay_speed":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ConfigError(where, value, "expected a positive number, or None for instant")
        return float(value)
    if name == "max_age":
        return expiry.max_age(where, value)
    if name == "on_expired":
        return expiry.on_expired(where, value)
    if name == "unused":
        return unused_choice(where, value)
    if name in HOOKS:
        if value is not None and not callable(value):
            raise ConfigError(where, value, "expected a function (or None)")
        return value
    if name in _FLAGS:
        if not isinstance(value, bool):
            raise ConfigError(where, value, "expected true or false")
        return value
    if not isinstance(value, Sequence) or not all(isinstance(p, Provider) for p in value):
        raise ConfigError(where, value, "expected a list of replay.Provider")
    return tuple(value)


VCR_MODES = {"once": "once", "new_episodes": "new_episodes", "none": "none", "all": "all"}
VCR_MODES |= {"rewrite": "all", "any": "new_episodes"}
"""vcrpy's and pytest-recording's record modes -> replay's."""
_VCR_RENAMED = {
    "record_mode": "mode",
    "filter_headers": "secret_headers",
    "filter_query_parameters": "secret_params",
    "filter_post_data_parameters": "secret_params",
}
_VCR_NEEDLESS = {
    "decode_compressed_response": "replay stores every body decoded",
    "serializer": "replay import-vcr converted the cassettes to replay's format",
    "record_on_exception": "replay records what was answered, exception or not",
    "allowed_hosts": "read by the network guard of --block-network, as pytest-recording does",
}
_VCR_HOOKS = {
    "before_record_request": ("before_record_request", vcr.request_hook),
    "before_record": ("before_record_request", vcr.request_hook),  # vcrpy's older name
    "before_record_response": ("before_record_response", vcr.response_hook),
}
"""vcrpy's hooks, over vcrpy's shapes: replay's option, and the wrapper taking and giving
replay's request or response."""
_VCR_REFUSED = {
    "cassette_library_dir": "override the vcr_cassette_dir fixture",
    "path_transformer": "cassettes are NAME.json in vcr_cassette_dir",
    "func_path_generator": "override the default_cassette_name fixture",
    "custom_patches": "replay routes httpx, httpx2 and aiohttp itself",
    "persister": "replay saves its cassettes itself (atomically, merged)",
    "drop_unused_requests": "replay prune removes what no test used",
}


def from_vcr_config(source: str, options: Mapping[str, object]) -> dict[str, object]:
    """pytest-recording's ``vcr_config`` or ``vcr`` marker options as replay's, checked; one
    with no equivalent is a ConfigError that says what replay does instead. Replay's own
    option names are taken too."""
    if not isinstance(options, Mapping):
        raise ConfigError(source, options, "is not a mapping of option names to values")
    translated: dict[str, object] = {}
    for name, value in options.items():
        where = f"{name} (in {source})"
        if name in _VCR_REFUSED:
            raise ConfigError(where, value, f"not supported by replay: {_VCR_REFUSED[name]}")
        if name in _VCR_NEEDLESS:
            if value is False and name == "record_on_exception":
                raise ConfigError(where, value, "not supported: replay records every answer")
            continue
        if name in _VCR_HOOKS:
            if value is None:
                continue
            if not callable(value):
                raise ConfigError(where, value, "expected a function (or None)")
            name, wrapper = _VCR_HOOKS[name]
            value = wrapper(value, where)
        if name == "record_mode":
            mode = str(getattr(value, "value", value))
            if mode not in VCR_MODES:
                raise ConfigError(
                    where, value, f"not a record mode (one of {', '.join(VCR_MODES)})"
                )
            value = VCR_MODES[mode]
        elif name.startswith("filter_"):  # names, or (name, replacement): replay redacts
            value = [item if isinstance(item, str) else item[0] for item in _listed(value)]
        renamed = _VCR_RENAMED.get(name, name)
        checked_value = checked(source, {renamed: value})[renamed]
        if renamed in ACCUMULATED and renamed in translated:
            earlier = translated[renamed]
            assert isinstance(earlier, tuple) and isinstance(checked_value, tuple)
            checked_value = earlier + checked_value
        translated[renamed] = checked_value
    return translated


def _listed(value: object) -> Sequence[Any]:
    return value if isinstance(value, Sequence) and not isinstance(value, str) else [value]


def merged(layers: Iterable[Mapping[str, object]]) -> dict[str, object]:
    """Checked option layers, most specific first, merged by the rules of the module docstring."""
    result: dict[str, object] = {}
    for layer in layers:
        for name, value in layer.items():
            if name in ACCUMULATED:
                earlier = result.get(name, ())
                assert isinstance(earlier, tuple) and isinstance(value, tuple)
                result[name] = earlier + tuple(v for v in value if v not in earlier)
            else:
                result.setdefault(name, value)
    return result


def settings(
    options: Mapping[str, object],
    command_line_mode: str | None,
    environ: Mapping[str, str] = os.environ,
    command_line_unused: str | None = None,
) -> Settings:
    """The settings of one cassette from merged ``options`` and the run-wide overrides: of
    the mode, and ``--replay-unused``."""
    values = dict(options)
    values["mode"] = (
        run_mode(command_line_mode, environ) or values.get("mode") or default_mode(environ)
    )
    if command_line_unused:
        values["unused"] = Unused(command_line_unused)  # pytest checked it against the choices
    return Settings(**values)  # type: ignore[arg-type]


def run_mode(command_line_mode: str | None, environ: Mapping[str, str]) -> Mode | None:
    """The mode set for the whole run, if any: ``--replay-mode``, else ``REPLAY_MODE``."""
    if command_line_mode:
        return Mode(command_line_mode)  # pytest checked it against the choices
    if environ.get(MODE_VARIABLE):
        mode = _checked_value(MODE_VARIABLE, "mode", environ[MODE_VARIABLE])
        assert isinstance(mode, Mode)
        return mode
    return None


def mode_forced_by_ci(
    options: Mapping[str, object], command_line_mode: str | None, environ: Mapping[str, str]
) -> bool:
    """Whether the mode is ``none`` only because ``CI`` is set: no source names a mode."""
    named = run_mode(command_line_mode, environ) is not None or "mode" in options
    return not named and default_mode(environ) is Mode.NONE


def default_mode(environ: Mapping[str, str]) -> Mode:
    """``none`` on CI, so that a forgotten recording fails there instead of calling out."""
    in_ci = environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    return Mode.NONE if in_ci else Mode.ONCE


SERVE_TABLE = "serve"
"""``[tool.replay.serve]``: what only ``replay serve`` reads (:mod:`replay.tools.serve`)."""
CASSETTE_DIR = "cassette_dir"
"""``[tool.replay] cassette_dir``: where the pytest plugin keeps every test's cassette (see
:func:`cassette_path`); not an option of one cassette."""


def nearest_pyproject(start: Path) -> Path:
    """The ``pyproject.toml`` the commands (``replay serve``, ``replay mcp``) read: in ``start``
    or the closest directory above that has one."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return start / "pyproject.toml"


def pyproject_options(path: Path) -> dict[str, object]:
    """The checked ``[tool.replay]`` table of ``path``; empty when the file or table is absent."""
    table = {k: v for k, v in pyproject_table(path).items() if k not in (SERVE_TABLE, CASSETTE_DIR)}
    return checked(f"[tool.replay] of {path}", table)


def pyproject_table(path: Path) -> dict[str, object]:
    """``[tool.replay]`` of ``path`` as written; empty when the file or the table is absent."""
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(str(path), "", f"cannot be read: {error}") from error
    table = document.get("tool", {}).get("replay", {})
    if not isinstance(table, dict):
        raise ConfigError(f"[tool.replay] of {path}", table, "is not a table")
    return table


def chosen_path(where: str, markers: Iterable[Any]) -> str | None:
    """The file named by the closest marker that names one (``@pytest.mark.replay("x.json")``)."""
    for marker in markers:
        if not marker.args:
            continue
        if len(marker.args) > 1 or not isinstance(marker.args[0], str | os.PathLike):
            raise ConfigError(where, marker.args, "takes one cassette path and keyword options")
        return os.fspath(marker.args[0])
    return None


def cassette_dir(command_line: str | None, pyproject: Path, root: Path) -> Location | None:
    """``--replay-cassette-dir``, else ``cassette_dir`` of ``[tool.replay]``: a local path
    (relative to ``root``) or ``s3://BUCKET/PREFIX``; None when neither sets one."""
    value: object = command_line or pyproject_table(pyproject).get(CASSETTE_DIR)
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        where = f"{CASSETTE_DIR} (in [tool.replay] of {pyproject})"
        raise ConfigError(where, value, "expected a directory, or s3://BUCKET/PREFIX")
    chosen = location(value)
    return root / chosen if isinstance(chosen, Path) else chosen


def cassette_path(
    test_file: Path,
    test_name: str,
    chosen: str | None = None,
    shared: tuple[Location, Path] | None = None,
) -> Location:
    """``cassettes/<test module>/<test name>.json`` beside the test file; with ``shared``, a
    cassette directory and the project's root, ``DIR/<test file below the root, without
    .py>/<test name>.json``.

    A chosen path replaces the file name; a relative one is taken in the same
    directory, so tests of one module share a cassette by naming it alike.
    """
    directory: Location = test_file.parent / "cassettes" / test_file.stem
    if shared is not None:
        top, root = shared
        below = test_file.with_suffix("")
        below = below.relative_to(root) if below.is_relative_to(root) else Path(below.name)
        directory = top / below.as_posix()
    if chosen is not None:
        return directory / chosen
    return directory / cassette_name(_UNSAFE_IN_FILE_NAMES.sub("_", test_name))


SHORTENED_HASH_DIGITS = 16


def cassette_name(stem: str) -> str:
    """``STEM.json``; a stem too long for a file name (a prompt as a parametrize id) keeps its
    start and ends in the first hex digits of the whole stem's SHA-256: the same name in every
    process and on every machine, and two long names with the same start stay two files."""
    name = f"{stem}.json"
    if len(name.encode("utf-8", "surrogateescape")) <= MAX_NAME_BYTES:
        return name
    digest = hashlib.sha256(stem.encode("utf-8", "surrogateescape")).hexdigest()
    tail = f"-{digest[:SHORTENED_HASH_DIGITS]}.json"
    room = MAX_NAME_BYTES - len(tail)
    start = stem.encode("utf-8", "surrogateescape")[:room].decode("utf-8", "ignore")
    return f"{start}{tail}"


class LocationType(click.ParamType):  # type: ignore[type-arg]
    """A local path, or ``s3://BUCKET/KEY`` (:func:`replay._core.location.location`)."""

    name = "path"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            chosen = location(value)
        except ConfigError as error:
            self.fail(str(error), param, ctx)
        if isinstance(chosen, S3Location):  # checked before the command reads or sends a thing
            extras.require("s3", f"{chosen}: an s3:// location")
        return chosen


LOCATION = LocationType()
"""The command line's type for cassettes and their directories, local or s3://."""
