"""The ``replay`` command: list, show, diff, prune, scan and verify cassettes; import-vcr.

``import-vcr`` converts vcrpy cassettes to this format (see :mod:`replay.tools.vcr`).

Exit codes, like diff(1): 0 when all is well, 1 when the answer is "there are
differences / problems", 2 for bad usage or a cassette that cannot be read
(with a message naming the file, never a traceback). Every command takes
``--json`` and then prints one JSON document on stdout; the field names are
documented in the README and kept stable.

Each command is a module of this package; they share :mod:`.output` (and diff, report and
rerun :mod:`.compare`) and never import one another (import-linter checks it).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from replay._core.errors import ReplayError
from replay.tools.cli import (
    diff,
    fake_server,
    import_vcr,
    listing,
    mcp,
    prune,
    report,
    rerun,
    scan,
    serve,
    show,
    sync,
    verify,
)
from replay.tools.cli.output import _COLOR_HELP, _JSON_HELP, Output, color_wanted, fail, reader_gone
from replay.tools.wording import counted


class _Group(click.Group):
    """Turns replay's own errors into one line on stderr and exit status 2.

    Inputs passed over (see :meth:`Output.passed_over`) make the status 2 too, once
    the command has done what it could with the rest.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = super().invoke(ctx)
        except ReplayError as error:
            fail(str(error))
        except BrokenPipeError:
            reader_gone()
        except OSError as error:  # a file that vanished or cannot be written mid-command
            fail(f"{error.filename or ''}: {error.strerror or error}")
        except click.exceptions.Exit as stopped:
            if stopped.exit_code == 1:  # "differences found": passing over input outranks it
                _exit_if_passed_over(ctx)
            raise
        _exit_if_passed_over(ctx)
        return result


def _exit_if_passed_over(ctx: click.Context) -> None:
    output = ctx.find_object(Output)
    if output is not None and len(output.unreadable) > 1:
        fail(f"{counted(len(output.unreadable), 'input')} passed over (named above)")
    if output is not None and output.unreadable:
        raise click.exceptions.Exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="replay-llm", prog_name="replay")
@click.option("--color/--no-color", default=None, help=_COLOR_HELP)
@click.option("--json", "as_json", is_flag=True, help=_JSON_HELP)
@click.pass_context
def main(ctx: click.Context, color: bool | None, as_json: bool) -> None:
    """Look after recorded LLM calls: list, show, diff, report, prune, scan, verify, rerun,
    sync and import cassettes; serve them to any client, stand in for an MCP server, or serve a
    fake LLM API to record from.

    --json and --color/--no-color are taken before the command or after it.

    \b
    Examples:
      replay list tests/cassettes
      replay show tests/cassettes/test_chat.json
      replay diff v1/ v2/ --ignore model
      replay report v1/ v2/ -o report.html
      replay rerun tests/cassettes --out v2/ --model gpt-4.1-mini
      replay serve --cassettes tests/cassettes --upstream https://api.openai.com
      replay fake-server --port 8000
      replay sync tests/cassettes s3://team-cassettes/suite
      replay mcp tests/cassettes/weather.json -- python weather_server.py
    """
    ctx.obj = Output(color_wanted(color, sys.stdout.isatty(), os.environ), as_json)


main.add_command(listing.list_command)
main.add_command(show.show_command)
main.add_command(diff.diff_command)
main.add_command(report.report_command)
main.add_command(rerun.rerun_command)
main.add_command(prune.prune_command)
main.add_command(sync.sync_command)
main.add_command(scan.scan_command)
main.add_command(verify.verify_command)
main.add_command(import_vcr.import_vcr_command)
main.add_command(serve.serve_command)
main.add_command(mcp.mcp_command)
main.add_command(fake_server.fake_server_command)
