"""Where a cassette is: a local path, or an object in an S3 bucket (``s3://BUCKET/KEY``).

``Path("s3://b/k")`` collapses to ``s3:/b/k``, so an S3 location is a type of its own with
the few path operations cassettes and directories of cassettes need (``name``, ``parent``,
``/``). :func:`location` is where text becomes one or the other; the store that holds it is
picked from its type in one place (:func:`replay._store.backend.store_for`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from replay._core import errors

S3_SCHEME = "s3://"


@dataclass(frozen=True, slots=True)
class S3Location:
    """An object (a cassette) or a prefix (a directory of cassettes) in an S3 bucket."""

    bucket: str
    key: str
    """Without a leading or trailing slash; empty for the whole bucket."""

    def __str__(self) -> str:
        return f"{S3_SCHEME}{self.bucket}/{self.key}"

    @property
    def name(self) -> str:
        return self.key.rpartition("/")[2]

    @property
    def parent(self) -> S3Location:
        return S3Location(self.bucket, self.key.rpartition("/")[0])

    def __truediv__(self, name: str) -> S3Location:
        return S3Location(self.bucket, f"{self.key}/{name}".strip("/"))

    @property
    def stem(self) -> str:
        return self.name.rpartition(".")[0] or self.name

    def resolve(self) -> S3Location:
        """Already absolute, as :meth:`pathlib.Path.resolve` makes a local path."""
        return self

    @property
    def prefix(self) -> str:
        """The key as a prefix of the keys below it: ``a/b/`` (nothing for the bucket)."""
        return f"{self.key}/" if self.key else ""


Location = Path | S3Location


def location(value: str | os.PathLike[str] | S3Location) -> Location:
    """``s3://BUCKET/KEY`` as an :class:`S3Location`, anything else as a local path."""
    if isinstance(value, S3Location | Path):
        return value
    text = os.fspath(value)
    if not text.startswith(S3_SCHEME):
        return Path(text)
    bucket, _, key = text[len(S3_SCHEME) :].partition("/")
    if not bucket or "//" in key:
        raise errors.ConfigError(
            "cassette location", text, "expected s3://BUCKET/KEY (a bucket, then a key)"
        )
    return S3Location(bucket, key.strip("/"))
