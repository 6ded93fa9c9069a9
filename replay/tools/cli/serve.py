"""``replay serve``: the command; the proxy it serves is :mod:`replay.tools.serve`."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import signal
import sys
from pathlib import Path

import click

from replay._adapters.proxy import (
    CASSETTE_HEADER,
    DEFAULT_CASSETTE,
    DEFAULT_MAX_BODY,
    REPLAY_ONLY_UPSTREAM,
    ReplayProxy,
    Shelf,
)
from replay._core.errors import UnusedRecordings
from replay._core.location import Location
from replay._core.modes import Mode
from replay._core.redact import hidden_credentials
from replay._core.unused import Unused
from replay._store import usage
from replay.tools import extras
from replay.tools.cli.output import _COLOR
from replay.tools.config import LOCATION, nearest_pyproject
from replay.tools.serve import (
    DEFAULT_CASSETTES,
    DEFAULT_HOST,
    DEFAULT_PORT,
    HEADER_TIMEOUT,
    MAX_HALF_OPEN,
    FaultLog,
    Plan,
    Served,
    _provider_of,
    _serve,
    _server,
    held_routes,
    listen,
    plan,
    url_of,
)


def _banner(served: Served, plan: Plan) -> list[str]:
    lines = [
        f"replay serve: listening on {served.url} (mode {plan.mode.value}, "
        f"cassettes in {plan.cassettes}/)",
        "routes:",
    ]
    width = max(len(route.prefix) for route in plan.routes.routes)
    for route in sorted(plan.routes.routes, key=lambda route: route.prefix):
        if route.upstream == REPLAY_ONLY_UPSTREAM:
            lines.append(f"  {route.prefix.ljust(width)}  -> (any other path: replay only)")
            continue
        provider = _provider_of(route.upstream)
        name = f" ({provider.name})" if provider else ""
        lines.append(f"  {route.prefix.ljust(width)}  -> {route.shown_upstream}{name}")
    held = held_routes(plan.cassettes)
    if held:
        lines.append("recorded in the cassettes, by route (ask for the same paths to replay):")
        for value, count in sorted(held.items()):
            prefix, _, upstream = value.partition("=")
            through = hidden_credentials(upstream) if upstream else "(replay only)"
            requests = "request" if count == 1 else "requests"
            lines.append(f"  {prefix.ljust(width)}  -> {through}: {count} {requests}")
            served_prefixes = {route.prefix for route in plan.routes.routes}
            if plan.mode is not Mode.NONE and prefix not in served_prefixes:
                lines.append(f"    (no such route here: --upstream {prefix}=URL replays them)")
    variables = served.env(held if plan.mode is Mode.NONE else ())
    if variables:
        lines.append("set in the clients' environment:")
        lines.extend(f"  export {name}={value}" for name, value in variables.items())
    lines.append(
        f'a cassette per test: send the header "{CASSETTE_HEADER.title()}: NAME" for '
        f"{plan.cassettes}/NAME.json (default: {DEFAULT_CASSETTE}.json)"
    )
    lines.append("Ctrl-C (or SIGTERM) saves every cassette and stops.")
    return lines


def _log_to_stderr(quiet: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    for name in ("replay.proxy", "uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.propagate = False
    logging.getLogger("replay.proxy").setLevel(logging.WARNING if quiet else logging.INFO)
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)


@click.command("serve")
@_COLOR
@click.option(
    "--upstream",
    "upstreams",
    multiple=True,
    metavar="[PREFIX=]URL",
    help="Forward requests under PREFIX (default /) to URL; repeatable. Default: the known "
    "providers, each under its name (/openai, /anthropic, ...).",
)
@click.option(
    "--cassettes",
    type=LOCATION,
    help=f"The cassettes' directory, or s3://BUCKET/PREFIX (default: {DEFAULT_CASSETTES}).",
)
@click.option(
    "--mode",
    type=click.Choice([mode.value for mode in Mode]),
    help="Record mode (default: once, none when CI is set; REPLAY_MODE overrides it).",
)
@click.option("--host", help=f"Address to listen on (default: {DEFAULT_HOST}, loopback only).")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    help=f"Port to listen on (default: {DEFAULT_PORT}; 0 picks a free one).",
)
@click.option(
    "--replay-speed",
    type=click.FloatRange(min=0, min_open=True),
    help="Replay streams at the recorded pace times this factor (default: instantly).",
)
@click.option(
    "--allow-playback-repeats/--no-playback-repeats",
    default=None,
    help="Once a request's recorded responses are used up, replay its last one again "
    "(default: on, so a client run twice gets the same answers; off replays each once).",
)
@click.option(
    "--unused",
    type=click.Choice([choice.value for choice in Unused]),
    help="At the stop, what a cassette served with recorded responses no client asked for "
    "does: allow (default), warn (each listed on stderr), or fail (listed, and exit 1).",
)
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Accept requests whose Host header names NAME (any port), besides this server's own "
    "address (127.0.0.1, localhost, [::1]); repeatable. Others get 403.",
)
@click.option(
    "--max-body",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_BODY,
    show_default=True,
    metavar="BYTES",
    help="The largest request body taken; a larger one gets 413 (default: 512 MiB).",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=HEADER_TIMEOUT,
    show_default=True,
    metavar="SECONDS",
    help="Close (408) a connection that has not sent a whole request head by then.",
)
@click.option(
    "--max-half-open",
    type=click.IntRange(min=1),
    default=MAX_HALF_OPEN,
    show_default=True,
    metavar="N",
    help="Connections at most waiting for a request head; beyond, the oldest is closed.",
)
@click.option("-q", "--quiet", is_flag=True, help="Log only misses and failures.")
def serve_command(
    upstreams: tuple[str, ...],
    cassettes: Location | None,
    mode: str | None,
    host: str | None,
    port: int | None,
    replay_speed: float | None,
    allow_playback_repeats: bool | None,
    unused: str | None,
    allowed_hosts: tuple[str, ...],
    max_body: int,
    header_timeout: float,
    max_half_open: int,
    quiet: bool,
) -> None:
    """Serve cassettes to any client, in any language, as a local recording proxy.

    Clients use it as their API base URL; each request is recorded from its upstream or
    replayed from cassettes/NAME.json, NAME given by the header X-Replay-Cassette
    (default: default).
    """
    extras.require("serve", "serve")
    command_line: dict[str, object] = {
        "mode": mode,
        "replay_speed": replay_speed,
        "allow_playback_repeats": allow_playback_repeats,
        "unused": unused,
    }
    plan_ = plan(
        nearest_pyproject(Path.cwd()),
        upstreams,
        cassettes,
        host,
        port,
        {name: value for name, value in command_line.items() if value is not None},
        allowed_hosts=allowed_hosts,
    )
    # A serving session answers whatever clients ask: prune must not take it for a test run.
    usage.mark_incomplete("replay serve answered requests, not a whole test run")
    sock = listen(plan_.host, plan_.port)
    proxy = ReplayProxy(
        plan_.routes,
        Shelf(plan_.cassettes, plan_.open),
        allowed_hosts=plan_.allowed_hosts,
        max_body=max_body,
    )
    _more_file_descriptors()
    faults = FaultLog()
    server = _server(proxy, header_timeout, max_half_open, faults)
    for stop in (signal.SIGINT, signal.SIGTERM):  # from the first line printed on, not later
        signal.signal(stop, server.handle_exit)
    served = Served(url_of(sock), plan_.routes)
    for line in _banner(served, plan_):
        click.echo(line)
    sys.stdout.flush()  # a process reading the URL from a pipe gets it now
    if not _is_loopback(plan_.host):
        click.echo(
            f"replay serve: warning: {plan_.host} is reachable from other machines; anyone who "
            "reaches it can replay the cassettes and record through it",
            err=True,
        )
    _log_to_stderr(quiet)
    errors = asyncio.run(_serve(server, sock, proxy))
    tally = proxy.tally
    click.echo(
        f"replay serve: stopped after {tally['replayed']} replayed, {tally['recorded']} "
        f"recorded, {tally['missed']} missed, {tally['failed']} failed "
        f"({len(proxy.shelf.cassettes)} cassettes used)"
    )
    for fault in faults.summary():
        click.echo(f"replay serve: fault: {fault}", err=True)
    for error in errors:
        click.echo(f"replay: {error}", err=True)
    failing = _report_unused(proxy.shelf)
    if errors:
        raise click.exceptions.Exit(2)
    if failing:
        raise click.exceptions.Exit(1)


def _report_unused(shelf: Shelf) -> bool:
    """Each served cassette's recorded responses no client asked for, on stderr, as its
    ``unused`` option says; whether one with ``fail`` had any. Only the cassettes a client
    named are checked: the others in the directory were not served."""
    failing = False
    for cassette in shelf.cassettes:
        if cassette.unused is Unused.ALLOW:
            continue
        found = cassette.unused_responses()
        if found:
            click.echo(f"replay serve: {UnusedRecordings(cassette.path, found)}", err=True)
            failing = failing or cassette.unused is Unused.FAIL
    return failing


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _more_file_descriptors() -> None:
    """The soft limit on open files raised to the hard one (often 1,024 of 500,000): each
    client holds one, and so does each connection upstream."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
