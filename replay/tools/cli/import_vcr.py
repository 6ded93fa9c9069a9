"""``replay import-vcr``: vcrpy cassettes converted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from replay._core.errors import CassetteError
from replay._core.location import Location, S3Location
from replay.tools import extras
from replay.tools.cli.output import _JSON, _output
from replay.tools.config import LOCATION
from replay.tools.wording import counted

# replay import-vcr (the conversion is in replay.tools.vcr)


def _local(ctx: click.Context, param: click.Parameter, values: tuple[Location, ...]) -> Any:
    """Local paths that exist: each conversion is written beside its source, on this machine,
    so an s3:// one is bad usage that names the way to a bucket."""
    for path in values:
        if isinstance(path, S3Location):
            raise click.BadParameter(
                f"{path}: import-vcr converts each vcrpy cassette beside it, on this machine; "
                f"convert a local copy (replay import-vcr COPY --delete), then put the replay "
                f"cassettes in the bucket with replay sync COPY {path}",
                ctx,
                param,
            )
        if not path.exists():
            raise click.BadParameter(f"{path}: no such file or directory", ctx, param)
    return values


@click.command("import-vcr")
@click.argument("paths", nargs=-1, required=True, type=LOCATION, callback=_local)
@click.option("--delete", is_flag=True, help="Remove each vcrpy cassette once converted.")
@click.option("--force", is_flag=True, help="Overwrite a converted file that differs.")
@click.option(
    "--normalize",
    is_flag=True,
    help="Give ids and times placeholders, as recording does (default: kept as recorded).",
)
@_JSON
def import_vcr_command(
    paths: tuple[Path, ...], delete: bool, force: bool, normalize: bool, as_json: bool
) -> None:
    """Convert vcrpy / pytest-recording cassettes (YAML, vcrpy's JSON, pydantic-ai's and
    langchain's serializers) to replay cassettes; exit status 1 if some could not be."""
    from replay.tools import vcr

    extras.require("vcr", "import-vcr")
    output = _output(as_json)
    results = vcr.import_paths(paths, delete=delete, force=force, normalize=normalize)
    failed = [(source, error) for source, error in results if isinstance(error, CassetteError)]
    converted = [done for _, done in results if isinstance(done, vcr.Imported)]
    skipped = [skip for _, skip in results if isinstance(skip, vcr.Skipped)]
    if as_json:
        output.document(
            {
                "converted": [
                    {
                        "source": str(done.source),
                        "target": str(done.target),
                        "interactions": done.interactions,
                        "unchanged": done.unchanged,
                    }
                    for done in converted
                ],
                "skipped": [
                    {"source": str(skip.source), "reason": skip.reason} for skip in skipped
                ],
                "failed": [{"source": str(source), "reason": e.reason} for source, e in failed],
            }
        )
    else:
        for done in converted:
            verb = "already converted" if done.unchanged else "converted"
            output.line(
                f"{verb} {done.source} -> {done.target} "
                f"({counted(done.interactions, 'interaction')})"
            )
        for skip in skipped:
            output.line(output.style(f"{skip.source}: {skip.reason}, skipped", fg="yellow"))
        for source, error in failed:
            output.line(output.style(f"{source}: {error.reason}", fg="red"))
        fresh = sum(not done.unchanged for done in converted)
        output.line(
            f"{fresh} converted, {len(converted) - fresh} already converted, "
            f"{len(skipped)} skipped, {len(failed)} not converted"
        )
    if failed:
        raise click.exceptions.Exit(1)
