"""``replay fake-server``: the fake LLM API of :mod:`replay.tools.fakellm`, until Ctrl-C."""

from __future__ import annotations

import signal

import click

from replay.tools import fakellm
from replay.tools.cli.output import _COLOR, fail

# replay fake-server (the server is replay.tools.fakellm)


@click.command("fake-server")
@_COLOR
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=fakellm.DEFAULT_PORT,
    show_default=True,
    help="The port to listen on (0: any free one). Keep it fixed: the port is part of the "
    "requests recorded against the server.",
)
@click.option("--api-key", default=fakellm.DEFAULT_API_KEY, show_default=True,
              help="The key the server accepts.")  # fmt: skip
@click.option("--model-version", type=click.Choice(fakellm.MODEL_VERSIONS), default="v1",
              show_default=True,
              help="v2 answers some prompts differently, for trying replay diff.")  # fmt: skip
@click.option("--chunk-delay", type=click.FloatRange(min=0), default=0.02, show_default=True,
              help="Seconds between the chunks of a stream.")  # fmt: skip
def fake_server_command(
    host: str, port: int, api_key: str, model_version: str, chunk_delay: float
) -> None:
    """Serve a fake LLM API (OpenAI, Anthropic, Groq, AI21, Cohere, Ollama...) until Ctrl-C
    or SIGTERM.

    For offline development and trying replay without a key: it prints its URL and
    the environment variables that point the SDKs at it. Also `python -m
    replay.tools.fakellm`.
    """
    server = fakellm.FakeLLMServer(
        api_key, model_version, host=host, port=port, chunk_delay=chunk_delay
    )
    try:
        server.start()
    except OSError as error:
        fail(f"fake-server cannot listen on {host}:{port}: {error.strerror or error}")
    # Ctrl-C stops it also when started by a script in the background, which ignores SIGINT,
    # and so does SIGTERM (a service manager, `kill`): as replay serve, with "stopped", exit 0;
    # from the first line printed on, which is when a caller may take it for ready.
    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.default_int_handler)
    try:
        click.echo(f"fake LLM API on {server.url} (model version {model_version}); Ctrl-C stops it")
        click.echo("Point the SDKs at it, in the shell that runs them:")
        for name, value in fakellm.environment(server).items():
            click.echo(f"  export {name}={value}")
        server.stopping.wait()
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        server.stop()
