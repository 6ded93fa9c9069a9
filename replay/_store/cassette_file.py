"""The cassette file: its format, and reading and writing it without ever losing one.

The format, version 1 (orjson, UTF-8, 2-space indent, sorted keys)::

    {
      "version": 1,
      "interactions": {
        "<request key>": {
          "request": {"method": "POST", "url": "...", "headers": {...}, "body": BODY,
                      "sent": "<exact digest>"},
          "responses": [
            {"status": 200, "headers": {...}, "body": BODY, "recorded_at": "..."},
            {"status": 200, "headers": {...}, "chunks": [{"at": 0.0123, "text": "data: ..."}],
             "complete": true, "recorded_at": "..."},
            {"error": {"type": "ConnectError", "message": "..."}, "recorded_at": "..."},
            {"websocket": [{"at": 0.01, "from": "client", "type": "text", "json": {...}},
                           {"at": 0.02, "from": "server", "type": "binary", "base64": "..."}],
             "complete": true, "recorded_at": "..."}
          ]
        }
      }
    }

``sent`` (optional) is the digest of the request's bytes as stored, by which replay
finds the recording without canonicalizing a request sent with exactly those
bytes (``replay.Cassette.key_for``). ``BODY`` is ``{"json": ...}`` for JSON,
``{"text": "..."}`` for other UTF-8 and ``{"base64": "..."}`` for binary; an empty
body is left out. A response is
stored as ``chunks`` when its boundaries matter (server-sent events,
line-delimited JSON) or when the caller stopped reading it early. A stream cut short by
a transport exception (a read timeout mid-stream) also keeps it as ``"stream_error":
{"type": ..., "message": ...}``, raised again on replay after the last chunk.

A WebSocket connection is an interaction too: its request is the handshake (``GET`` to a
``ws://`` or ``wss://`` URL), each of its responses a session, ``"websocket"``: every message
in both directions in order, with its side, its type and when it crossed (seconds after the
handshake); a text message as a ``BODY`` (JSON readable), a binary one as base64.

A gRPC call is one as well: its request is ``POST`` to a ``grpc://`` URL, the channel's
target then the method path, with the call's metadata as headers and
the request message as its body (the message's JSON view when its type is known, else its
bytes); each of its responses is a ``"grpc"`` answer::

    {"grpc": {"code": "OK", "details": "", "response_type": "pkg.Reply",
              "initial_metadata": [["name", "value"]], "trailing_metadata": [],
              "messages": [{"at": 0.01, "from": "server", "json": {...}},
                           {"at": 0.02, "from": "server", "base64": "..."}]},
     "complete": true, "recorded_at": "..."}

Metadata are ``[name, value]`` pairs in order, a binary (``-bin``) value in base64; a message
is its JSON view (``json``, encoded again as ``response_type`` on replay) or its bytes
(``base64``); a client-streaming call's messages include the client's (``"from": "client"``).

A top-level ``"folded_journal_entries": [...]`` is there only while a save is between its
steps (see :mod:`replay._store.journal`, which also holds what was recorded since the file
was last saved).

Reading is lazy: a file is parsed once per process while it is in use (cached by its stat) and
an interaction is decoded only when a request asks for it. Writing is atomic
(temporary file, fsync, rename): a crash leaves the previous file. This module
writes what it is given; merging what other processes recorded, under the lock
file (:func:`lock`), is :func:`replay._store.journal.fold`'s.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import re
import secrets
import stat
import threading
import time
import weakref
from collections import deque
from collections.abc import Container, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any, BinaryIO

import orjson
from filelock import FileLock, Timeout

from replay._core import eventstream
from replay._core.errors import CassetteError, CassetteVersionError
from replay._core.key import (
    LARGE_BODY,
    NOT_JSON,
    LargeString,
    is_json,
    is_utf8,
    parse_json,
    text_or_base64,
    url_problem,
)
from replay._core.location import Location
from replay._core.model import (
    Chunk,
    Frame,
    GrpcCall,
    Headers,
    Interaction,
    McpSession,
    Outcome,
    Request,
    Response,
    TransportFailure,
    WebSocketSession,
    header_value,
    is_grpc,
    is_mcp_stdio,
    is_websocket,
    merged_headers,
)
from replay._core.streams import BodyDecoder

FORMAT_VERSION = 1
FOLDED_FIELD = "folded_journal_entries"
"""Present only between the two writes of a fold (see :mod:`replay._store.journal`)."""
MAX_CASSETTE_BYTES = 1 << 30
LOCK_TIMEOUT_SECONDS = 60.0
ABANDONED_AFTER_SECONDS = 3600.0
"""A temporary file older than this was left by a writer killed mid-write: a live one writes a
cassette (at most ``MAX_CASSETTE_BYTES``) or a journal entry in far less, and renames it at once."""

Document = dict[str, Any]
"""The raw interactions of a cassette file: request key -> entry, as parsed."""


@dataclass(frozen=True)
class Loaded:
    entries: Document | Contents
    """The interactions as given: a fold's :class:`Contents` may hold parts it wrote as they
    were recorded (:class:`Spliced`), which :attr:`interactions` parses when first read."""
    signature: tuple[int, int, int] | tuple[str, int] | None
    """(inode, size, mtime) of the file read, (ETag, size) of an object; None when there was
    none."""
    folded: frozenset[str] = frozenset()
    """Journal entries already in ``interactions`` that may still be on disk: a fold stopped
    between writing the file and removing them (see :mod:`replay._store.journal`)."""
    journal: tuple[str, ...] = ()
    """The unfolded journal entries merged into ``interactions`` by :func:`journal.view`."""
    outcomes: dict[str, list[Outcome]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    """Key -> its responses decoded (:func:`decode_outcomes`), filled as replay asks for them and
    shared by every cassette reading this version of the file: the next test's cassette does
    not decode a recording again. Never mutated once in; not an ``__init__`` field, so a
    ``replace`` (other interactions) starts empty."""

    @cached_property
    def interactions(self) -> Document:
        """Request key -> entry, as parsed: a fold's parsed only if anyone reads them (a
        recording process that saves at its end never does)."""
        entries = self.entries
        return entries.readable() if isinstance(entries, Contents) else entries


_cache: weakref.WeakValueDictionary[Path, Loaded] = weakref.WeakValueDictionary()
"""Each file's parsed interactions, while a cassette holds them or they are among the
``_recent``: a long test suite's memory, and the garbage collector's work on every full
collection, do not grow with every cassette it ever read."""
_recent: deque[Loaded] = deque()
"""The last files read, up to ``RECENT_BYTES`` of them, stay parsed though no cassette holds
them: tests that open the same cassette one after another parse it once. (Parsed, a file
takes several times its size in memory.)"""
RECENT_BYTES = 16 << 20
_recent_bytes = 0
_cache_lock = threading.Lock()


def _keep(path: Path, loaded: Loaded) -> None:
    global _recent_bytes
    with _cache_lock:
        _cache[path] = loaded
        _recent.append(loaded)
        _recent_bytes += _size(loaded)
        while _recent_bytes > RECENT_BYTES:
            _recent_bytes -= _size(_recent.popleft())


def _size(loaded: Loaded) -> int:
    return 0 if loaded.signature is None else loaded.signature[1]


def _unlock_in_forked_child() -> None:
    """A thread of the parent may have held the lock at the fork: it would stay held here."""
    global _cache_lock
    _cache_lock = threading.Lock()


os.register_at_fork(after_in_child=_unlock_in_forked_child)


def load(path: Path) -> Loaded:
    """The file's interactions, parsed once per process and version of the file.

    The size and identity come from the opened file, not from a second look at the
    path: another process may rename a new version into place between the two.
    """
    file = open_regular(path)
    if file is None:
        return Loaded({}, None)
    with file:
        info = os.fstat(file.fileno())
        signature = (info.st_ino, info.st_size, info.st_mtime_ns)
        with _cache_lock:
            cached = _cache.get(path)
        if cached is not None and cached.signature == signature:
            _keep(path, cached)
            return cached
        document = _parse_file(path, file, info.st_size)
        loaded = Loaded(document["interactions"], signature, folded_entries(path, document))
    _keep(path, loaded)
    return loaded


def open_regular(path: Path) -> BinaryIO | None:
    """``path`` opened for reading, None if there is nothing there; anything but a regular file
    (after following symbolic links) is refused before a byte is read from it.

    Opened without blocking, so a FIFO is refused rather than waited on; a device (``/dev/zero``)
    would never end, and reports no size to check.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise CassetteError(path, f"cannot read: {error.strerror or error}") from error
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise CassetteError(path, f"is {_file_kind(mode)}, not a regular file")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb")


def _file_kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((kind for test, kind in kinds if test(mode)), "a special file")


def _read(path: Path, file: BinaryIO, size: int) -> bytes:
    if size > MAX_CASSETTE_BYTES:
        raise CassetteError(path, f"is {size} bytes, more than the {MAX_CASSETTE_BYTES} allowed")
    try:
        return file.read()
    except OSError as error:
        raise CassetteError(path, f"cannot read: {error.strerror or error}") from error


def _parse_file(path: Path, file: BinaryIO, size: int) -> dict[str, Any]:
    """The whole document of ``file``, checked as :func:`parse_document` checks it.

    A file laid out as replay writes it is read in blocks and parsed an interaction at
    a time: held in memory are the parsed interactions alone, not the file's bytes, nor the
    parser's image of all of them, beside them (a cassette of 140 MB took 3.5 times its size
    to load whole). Any other layout (a file edited by hand, written compact) is cut apart
    where an interaction may end and parsed a piece at a time (:func:`_parse_streamed`), as
    lean. A file neither reads is parsed whole, which names what is wrong in it and where."""
    if size > MAX_CASSETTE_BYTES:
        raise CassetteError(path, f"is {size} bytes, more than the {MAX_CASSETTE_BYTES} allowed")
    try:
        document = _parse_by_entry(file)
        if document is None:
            file.seek(0)
            document = _parse_streamed(file)
            if document is None:
                file.seek(0)
    except OSError as error:
        raise CassetteError(path, f"cannot read: {error.strerror or error}") from error
    if document is None:
        return parse_document(path, _read(path, file, size))
    return _checked(path, document)


_ENTRY_END = b"\n    }"
"""Where an interaction ends, as replay writes the file (two-space indent, an interaction at
depth two): a JSON string holds no line break, so nothing else opens a line with it."""
_INTERACTIONS_END = (b"  }\n", b"  },\n")
_BLOCK = 1 << 18
"""How much of the file is read at a time while its interactions are cut apart."""


def _parse_by_entry(file: BinaryIO) -> dict[str, Any] | None:
    """The document in ``file``, each interaction parsed alone; None unless the layout is
    replay's. Sound whatever the layout: the pieces cut where a line closes an interaction are
    parsed each as members of one object, so a cut that falls anywhere else leaves a piece
    that does not parse, and the file is then parsed whole."""
    if file.readline() != b"{\n":
        return None
    others = [b"{\n"]  # the document's other members, as text: a version, folded entries
    interactions: dict[str, Any] | None = None
    for line in iter(file.readline, b""):
        if line != b'  "interactions": {\n' or interactions is not None:
            others.append(line)
            continue
        interactions = {}
        rest = _parse_interactions(file, interactions)
        if rest is None:
            return None
        others.append(b'  "interactions": {}' + rest[3:])
    try:
        document = orjson.loads(b"".join(others))
    except orjson.JSONDecodeError:
        return None
    if not isinstance(document, dict):
        return None
    if interactions is not None:
        document["interactions"] = interactions
    return document


def _parse_interactions(file: BinaryIO, into: dict[str, Any]) -> bytes | None:
    """Parses the interactions ``file`` reads on with into ``into``, one at a time; returns
    what follows them (from the line that closes them to the end of the file), None when the
    layout is not replay's. Blocks are searched in C for the lines that close one."""
    buffer = file.read(_BLOCK)
    start = 0
    while True:
        if buffer.startswith(b"  }", start):  # no interaction opens here: their end
            rest = buffer[start:] + file.read()
            return rest if rest.startswith(_INTERACTIONS_END) else None
        end = buffer.find(_ENTRY_END, start)
        closed = end + len(_ENTRY_END)
        if end < 0 or len(buffer) < closed + 2:
            more = file.read(_BLOCK)
            if not more:
                return None
            buffer = buffer[start:] + more
            start = 0
            continue
        after = buffer[closed : closed + 2]
        if after[:1] == b"\n":
            following = closed + 1
        elif after == b",\n":
            following = closed + 2
        else:
            return None
        try:
            into.update(orjson.loads(b"".join((b"{", buffer[start:closed], b"}"))))
        except orjson.JSONDecodeError:
            return None
        start = following


_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"|([{\[])|([}\]])|"')
"""What a scan of the document's top level stops at: a whole string (passed over, whatever
brackets it holds), an opening bracket (group 1), a closing one (group 2), or a string that
runs past what was read (a lone quote)."""
_OPENS_INTERACTIONS = re.compile(rb"[ \t\r\n]*:[ \t\r\n]*\{")
_NEXT_ENTRY = re.compile(rb'\}[ \t\r\n]*,[ \t\r\n]*"[0-9a-f]{32}"[ \t\r\n]*:[ \t\r\n]*\{')
"""Where an interaction may end and the next begin: an object closed, and an object under a
key of the kind replay makes (a request key). Only a guess, which parsing the piece it closes
confirms: the same text deeper in an interaction leaves a piece that does not parse."""
_ENTRY_GUESS_BYTES = 64
"""More than a match of :data:`_NEXT_ENTRY` spans in any file but one spaced out by hand: a
match cut by the end of what was read is searched for again when more is."""
_WHITESPACE = b" \t\r\n"
_PIECE_BYTES = 1 << 16
"""How much of the interactions :func:`_parse_streamed` parses at a time, at least."""
_WRONG_GUESSES = 8
"""How many guesses in a row may prove wrong before the file is parsed whole instead."""
_READ_APART = b'"\\u0000interactions, read apart"'
"""What stands for the interactions in the rest of the document when it is parsed: a later
member of the same name (which a whole parse would take) replaces it, and is seen to."""
_READ_APART_VALUE = orjson.loads(_READ_APART)


def _parse_streamed(file: BinaryIO) -> dict[str, Any] | None:
    """The document in ``file``, in any layout, its interactions parsed a piece at a time; None
    when it cannot be so read (then it is parsed whole, to say what is wrong).

    The document's top level is scanned, string by string and bracket by bracket, to its first
    member ``"interactions"``; that object is cut where an interaction may end
    (:data:`_NEXT_ENTRY`), into pieces that are each parsed as the members of one object, the
    last with what follows it; the rest of the document is parsed apart. Every byte is parsed
    by orjson in one piece or another, and pieces join as JSON's grammar joins the members of
    an object (a comma between two, none before the first), so a cut that falls anywhere else
    leaves a piece that does not parse: what is read is what a whole parse gives, or nothing."""
    reader = _Reader(file)
    head = reader.head()
    if head is None:
        return None
    interactions: dict[str, Any] = {}
    first, wrong, search = True, 0, _PIECE_BYTES
    while True:
        guess = reader.find(_NEXT_ENTRY, search)
        if guess is None:
            break
        cut = guess.start() + 1
        members = _members(reader.buffer[reader.mark : cut], first)
        if members is None:
            wrong += 1
            if wrong > _WRONG_GUESSES:
                return None
            search = cut - reader.mark
            continue
        interactions.update(members)
        reader.mark, first, wrong, search = cut, False, 0, _PIECE_BYTES
    rest = reader.rest()
    if first and len(rest) > _PIECE_BYTES:
        return None  # no interaction ends as guessed: the file is parsed whole, as it was
    end = _object_end(rest, first)
    if end is None:
        return None
    last = rest[:end].rstrip(_WHITESPACE)
    members = _members(last[:-1], first) if last.endswith(b"}") else None
    if members is None:
        return None
    interactions.update(members)
    return _around(head, interactions, rest[end:])


def _object_end(rest: bytes, first: bool) -> int | None:
    """Where, in ``rest``, the object it is the rest of ends (``first``: it is all of it, but
    for the opening bracket): where a parse of it finds content after it. Only a guess, which
    parsing what is before it confirms."""
    probe = b"".join((b"{" if first else b'{"":0', rest))
    try:
        orjson.loads(probe)
    except orjson.JSONDecodeError as error:
        position: int = error.pos  # in characters, not bytes
    else:
        return None  # nothing after the object: the document around it is not closed
    if not probe.isascii():
        text = probe.decode("utf-8", "surrogateescape")
        position = len(text[:position].encode("utf-8", "surrogateescape"))
    return position - len(probe) + len(rest)


class _Reader:
    """A file read in blocks, from its first byte not yet taken (``mark``) on."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.buffer = b""
        self.mark = 0

    def more(self) -> bool:
        """Read on, dropping what was taken; False at the end of the file."""
        kept = self.buffer[self.mark :]
        data = self.file.read(max(_BLOCK, len(kept)))  # as much again: no copy per block
        self.buffer = kept + data
        self.mark = 0
        return bool(data)

    def head(self) -> bytes | None:
        """The document up to the opening bracket of its top-level member ``interactions``,
        taken, from a scan of its tokens; None if there is none so written."""
        scan = depth = 0
        while True:
            token = _TOKEN.search(buffer := self.buffer, scan)
            if token is None or (token.lastindex is None and len(token.group()) == 1):
                if not self.more():
                    return None
                continue
            scan = token.end()
            if token.lastindex == 1:
                depth += 1
            elif token.lastindex == 2:
                depth -= 1
            elif depth == 1 and token.group() == b'"interactions"':
                opening = _OPENS_INTERACTIONS.match(buffer, scan)
                if opening is None and len(buffer) - scan < _BLOCK and self.more():
                    opening = _OPENS_INTERACTIONS.match(self.buffer, scan)
                if opening is not None:
                    self.mark = opening.end()
                    return self.buffer[: opening.end() - 1]

    def find(self, pattern: re.Pattern[bytes], after: int) -> re.Match[bytes] | None:
        """The first match of ``pattern`` at least ``after`` bytes past ``mark``, reading on
        as far as it takes; None at the end of the file."""
        while True:
            found = pattern.search(self.buffer, self.mark + after)
            if found is not None:
                return found
            after = max(after, len(self.buffer) - self.mark - _ENTRY_GUESS_BYTES)
            if not self.more():
                return None

    def rest(self) -> bytes:
        """All that is not taken, to the end of the file."""
        return self.buffer[self.mark :] + self.file.read()


def _around(head: bytes, interactions: dict[str, Any], tail: bytes) -> dict[str, Any] | None:
    """The document whose text is ``head``, its interactions, then ``tail``; None unless the
    text around them parses, and gives them no other value."""
    try:
        document = orjson.loads(b"".join((head, _READ_APART, tail)))
    except orjson.JSONDecodeError:
        return None
    if not (isinstance(document, dict) and document.get("interactions") == _READ_APART_VALUE):
        return None
    document["interactions"] = interactions
    return document


def _members(piece: bytes, first: bool) -> dict[str, Any] | None:
    """The members of an object in ``piece``: the first piece of it, or one that starts at a
    cut, after the one comma the guess that made it saw (:data:`_NEXT_ENTRY`)."""
    if not first:
        piece = piece[piece.index(b",") + 1 :]
    try:
        members: dict[str, Any] = orjson.loads(b"".join((b"{", piece, b"}")))
    except orjson.JSONDecodeError:
        return None
    return members


def parse(path: Location, data: bytes) -> Document:
    """The interactions of a cassette file's bytes."""
    interactions: Document = parse_document(path, data)["interactions"]
    return interactions


def parse_document(path: Location, data: bytes) -> dict[str, Any]:
    """The whole document, checked; ``interactions`` is there (``{}`` when left out)."""
    if not data or data.isspace():  # isspace stops at the first other byte; strip copies
        raise CassetteError(path, "is empty (a cassette holds at least a version)")
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise CassetteError(path, f"is not valid JSON: {error}") from error
    return _checked(path, document)


def _checked(path: Location, document: Any) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise CassetteError(path, f"holds a JSON {type(document).__name__}, not a cassette object")
    if "version" not in document and "interactions" not in document:
        raise CassetteError(path, "is JSON but not a replay cassette (no version, no interactions)")
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise CassetteVersionError(path, version, FORMAT_VERSION)
    interactions = document.setdefault("interactions", {})
    if not isinstance(interactions, dict):
        raise CassetteError(path, '"interactions" is not an object')
    # Each interaction at its depth in the file, not the whole document dumped again at once:
    # a copy of the file's size beside the parsed interactions.
    for key, entry in interactions.items():
        check_storable(path, {"interactions": {key: entry}})
    check_storable(
        path, {name: value for name, value in document.items() if name != "interactions"}
    )
    return document


def check_storable(path: Location, document: Mapping[str, Any], what: str = "") -> None:
    """Fails unless orjson can write ``document`` back: it nests at most 254 levels. Every
    reader then walks it, and every command prints it, without reaching a limit."""
    try:
        orjson.dumps(document)
    except orjson.JSONEncodeError as error:
        raise CassetteError(
            path, f"{what or 'is JSON that'} nests too deep for a cassette ({error})"
        ) from None


def folded_entries(path: Location, document: dict[str, Any]) -> frozenset[str]:
    folded = document.get(FOLDED_FIELD, [])
    if not (isinstance(folded, list) and all(isinstance(name, str) for name in folded)):
        raise CassetteError(path, f'"{FOLDED_FIELD}" is not a list of journal entry names')
    return frozenset(folded)


def save(path: Path, interactions: Mapping[str, Any], folded: Iterable[str] = ()) -> Loaded:
    """Write the cassette atomically; the process's cache then holds what was written."""
    folded = frozenset(folded)
    info = write_atomically(path, dumped(interactions, folded))
    signature = (info.st_ino, info.st_size, info.st_mtime_ns)
    kept = interactions if isinstance(interactions, Contents) else dict(interactions)
    loaded = Loaded(kept, signature, folded)
    _keep(path, loaded)
    return loaded


Pieces = tuple[bytes | memoryview, ...]
"""Bytes written one after the other, never joined: a large body in them is not copied."""


def write_atomically(path: Path, data: bytes | Pieces) -> os.stat_result:
    """A temporary file beside ``path``, fsync, rename: a crash leaves the old file or the new.

    The new file keeps the old one's permissions; a first one gets what the umask allows.
    """
    temporary = path.parent / f".{path.name}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(descriptor, "wb") as file:
                with contextlib.suppress(FileNotFoundError):
                    os.chmod(temporary, stat.S_IMODE(path.stat().st_mode))
                for piece in (data,) if isinstance(data, bytes) else data:
                    file.write(piece)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        _fsync_directory(path.parent)
        return path.stat()
    except OSError as error:
        raise CassetteError(path, f"cannot write: {error.strerror or error}") from error


def dump(interactions: Mapping[str, Any], folded: Iterable[str] = ()) -> bytes:
    """Sorted keys everywhere but inside a JSON body, which keeps the order it came in."""
    pieces = dumped(interactions, folded)
    return pieces[0] if len(pieces) == 1 and isinstance(pieces[0], bytes) else b"".join(pieces)


def dumped(interactions: Mapping[str, Any], folded: Iterable[str] = ()) -> Pieces:
    """:func:`dump`'s bytes in pieces, to write one after the other: a large part a fold
    splices in (:data:`LARGE_PART`) is a piece of its own, not copied into the file's."""
    encoded = (
        interactions.encoded() if isinstance(interactions, Contents) else _encode(interactions)
    )
    names = sorted(folded)
    if not names:
        return encoded
    # The field sorts before "interactions", so the file is the one without it with it put
    # first: the same bytes as the whole document dumped, without sorting it all again.
    head = orjson.dumps({FOLDED_FIELD: names}, option=orjson.OPT_INDENT_2)
    first = memoryview(encoded[0])[len(b"{\n") :]
    return (head[: -len(b"\n}")], b",\n", first, *encoded[1:])


def _encode(interactions: Mapping[str, Any], ready: Container[str] = ()) -> Pieces:
    """The file of ``interactions``, without ``folded_journal_entries``; the entries of the
    keys in ``ready`` are in the file's order already (:func:`in_file_order`)."""
    document = {
        "interactions": {
            key: entry if key in ready else _sorted(entry)
            for key in sorted(interactions)
            for entry in (interactions[key],)
        },
        "version": FORMAT_VERSION,
    }
    large: list[bytes] = []
    encoded = orjson.dumps(document, default=partial(_spliced, large), option=orjson.OPT_INDENT_2)
    if not large:
        return (encoded + b"\n",)
    return (*_interleaved(encoded, large), b"\n")


def _interleaved(encoded: bytes, large: list[bytes]) -> list[bytes | memoryview]:
    """``encoded`` with ``large[i]`` in place of its i-th :data:`_MARK`."""
    view, start = memoryview(encoded), 0
    pieces: list[bytes | memoryview] = []
    for part in large:
        mark = encoded.index(_MARK, start)
        pieces += [view[start:mark], part]
        start = mark + len(_MARK)
    pieces.append(view[start:])
    return pieces


class Spliced:
    """A request or a response as the file's bytes at its place (:func:`file_form`): written
    into the file as they are (orjson's ``Fragment``), not dumped again."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


LARGE_PART = 1 << 20
"""A spliced part larger than this is written beside the file's other bytes, not into them."""
_MARK = b"\0"
"""Where a large part goes in a dump: orjson writes no NUL byte (one in a string is escaped)."""


def large_text(data: bytes) -> dict[str, LargeString]:
    """``data`` as :func:`text_or_base64` stores it, to be written in pieces."""
    binary = not is_utf8(data)
    return {"base64" if binary else "text": LargeString(data, binary)}


def _written_out(large: LargeString) -> bytes:
    out = io.BytesIO()  # grown in place: its pieces and their join would be two copies
    for piece in large.pieces():
        out.write(piece)
    return out.getvalue()


def _spliced(large: list[bytes], value: Any) -> orjson.Fragment:
    """A :class:`Spliced` part where it goes in the file, a large one as a mark to put it at
    (appended to ``large``); a :class:`LargeString` written out."""
    if type(value) is Spliced:
        if len(value.data) <= LARGE_PART:
            return orjson.Fragment(value.data)
        large.append(value.data)
        return orjson.Fragment(_MARK)
    if type(value) is LargeString:
        return orjson.Fragment(_written_out(value))
    raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")


def _large_mark(value: Any) -> orjson.Fragment:
    if type(value) is LargeString:
        return orjson.Fragment(_MARK)
    raise TypeError(f"Type is not JSON serializable: {type(value).__name__}")


def _parsed(value: Any) -> Any:
    return orjson.loads(value.data) if type(value) is Spliced else value


def _slice_within(nesting: list[Any]) -> slice:
    """Where the value nested in ``nesting`` (a 0 here) is in its indented dump."""
    head, _, tail = orjson.dumps(nesting, option=orjson.OPT_INDENT_2).partition(b"0")
    return slice(len(head), -len(tail))


_REQUEST_WITHIN = _slice_within([[[0]]])
"""A request is three levels deep in the file (``interactions``, its key, ``request``)..."""
_RESPONSE_WITHIN = _slice_within([[[[0]]]])
"""...a response four (``responses``, a list)."""


def file_form(request: dict[str, Any], response: dict[str, Any]) -> tuple[bytes, bytes]:
    """A request and one of its responses as :func:`dump` writes them in the file (sorted as
    :func:`in_file_order` sorts them), each valid JSON.

    orjson indents by the depth alone, whatever holds a value: dumped in as many lists as the
    file has levels above it, a value is the very bytes the whole file has for it (one slice
    of the dump, rather than a pass that indents each of its lines).
    """
    body = request.get("body")
    if isinstance(body, dict) and any(type(value) is LargeString for value in body.values()):
        request_part = _with_large_body(in_file_order(request), body)
    else:
        request_part = orjson.dumps([[[in_file_order(request)]]], option=orjson.OPT_INDENT_2)
        request_part = request_part[_REQUEST_WITHIN]
    response_part = orjson.dumps([[[[in_file_order(response)]]]], option=orjson.OPT_INDENT_2)
    return request_part, response_part[_RESPONSE_WITHIN]


def _with_large_body(request: dict[str, Any], body: dict[str, LargeString]) -> bytes:
    """:func:`file_form`'s request whose body is a :class:`LargeString`: the rest dumped, the
    body written in at its mark, into one buffer grown in place (a slice of a dump holding the
    body, and a string of it, would each be another copy)."""
    (large,) = body.values()
    head, _, tail = orjson.dumps([[[request]]], default=_large_mark, option=orjson.OPT_INDENT_2)[
        _REQUEST_WITHIN
    ].partition(_MARK)
    out = io.BytesIO()
    out.write(head)
    for piece in large.pieces():
        out.write(piece)
    out.write(tail)
    return out.getvalue()


_CONTAINERS = (dict, list)


def _sorted(value: Any) -> Any:
    """Leaves are taken as they are rather than passed to a call of their own, and keys are
    sorted alone (most of what a cassette holds is leaves: most of the time this took)."""
    if isinstance(value, dict):
        ordered = {}
        for key in sorted(value):
            item = value[key]
            if isinstance(item, _CONTAINERS) and key != "json":
                item = _sorted(item)
            ordered[key] = item
        return ordered
    if isinstance(value, list):
        return [_sorted(item) if isinstance(item, _CONTAINERS) else item for item in value]
    return value


class Encoded(dict[str, Any]):
    """A request or a response as :func:`encode` and :func:`encode_outcome` make it: every
    object below this one has its keys in the file's order already, so this one's keys, to
    which a caller may have added fields since, are all that :func:`in_file_order` sorts."""


def in_file_order(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` with its keys in the file's order all the way down (but inside a JSON body),
    as :func:`dump` writes it: a fold writes an entry made so without sorting it again."""
    if type(value) is Encoded:
        return dict(sorted(value.items()))  # no two keys alike: the values are never compared
    ordered: dict[str, Any] = _sorted(value)
    return ordered


def _ordered(flat: dict[str, Any]) -> dict[str, Any]:
    """A dict of the rarer shapes (a frame, a message) in key order, its values in order."""
    return dict(sorted(flat.items()))


class Contents(Mapping[str, Any]):
    """Interactions a fold writes twice, with the names of the entries it folded and then
    without (see :mod:`replay._store.journal`): sorted and encoded once, for both.

    Nothing changes them meanwhile: this has no way to, and what they hold, a cassette's
    parsed interactions and the entries this process recorded, is only ever read.
    """

    def __init__(
        self,
        interactions: Mapping[str, Any],
        ready: Container[str] = (),
        spliced: Iterable[str] = (),
    ) -> None:
        """``ready``: the keys whose entries are in the file's order already; ``spliced``: the
        keys whose entries hold :class:`Spliced` parts."""
        self._interactions = dict(interactions)
        self._ready = ready
        self._spliced = frozenset(spliced)
        self._encoded: Pieces | None = None

    def __getitem__(self, key: str) -> Any:
        return self.readable()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._interactions)

    def __len__(self) -> int:
        return len(self._interactions)

    def readable(self) -> Document:
        """Them as a dict, their :class:`Spliced` parts parsed; read, never changed, so not
        copied (one copy per write was a Python call per key). Two threads at once would each
        make the same, and encode the same file of either, so there is nothing to lock."""
        if self._spliced:
            interactions = dict(self._interactions)
            for key in self._spliced:
                entry = interactions[key]
                interactions[key] = {
                    "request": _parsed(entry["request"]),
                    "responses": [_parsed(response) for response in entry["responses"]],
                }
            self._interactions = interactions  # parsed in the file's order, as they are
            self._spliced = frozenset()
        return self._interactions

    def encoded(self) -> Pieces:
        """The file without ``folded_journal_entries``. Two threads at once would each make
        the same bytes, so there is nothing to lock."""
        if self._encoded is None:
            self._encoded = _encode(self._interactions, self._ready)
        return self._encoded


TEMPORARY_SUFFIX = ".tmp"


def remove_abandoned(directory: Path, prefix: str) -> None:
    """Remove the temporary files named ``PREFIX*.tmp`` in ``directory`` that are older than
    :data:`ABANDONED_AFTER_SECONDS`: a killed writer's, which nothing else would remove."""
    try:
        names = os.listdir(directory)
    except OSError:  # no directory yet, or unreadable: the write itself will say so
        return
    oldest_live = time.time() - ABANDONED_AFTER_SECONDS
    for name in names:
        if name.startswith(prefix) and name.endswith(TEMPORARY_SUFFIX):
            temporary = directory / name
            with contextlib.suppress(OSError):  # gone already, or not ours to remove
                if temporary.lstat().st_mtime < oldest_live:
                    temporary.unlink()


def _fsync_directory(directory: Path) -> None:
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:  # not possible on every platform; the rename is still atomic
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


NAME_MAX_BYTES = 255
"""The longest file name most file systems take (ext4, XFS, APFS, NTFS in UTF-16 units)."""
BESIDE_NAME_BYTES = len(".") + len(".") + 12 + len(TEMPORARY_SUFFIX)
"""What the longest file made beside a cassette adds to its name: a save's temporary copy,
``.NAME.0123456789ab.tmp`` (the lock, ``.NAME.lock``, and journal, ``.NAME.journal``, less)."""
MAX_NAME_BYTES = NAME_MAX_BYTES - BESIDE_NAME_BYTES
"""The longest cassette file name that can be recorded into, in UTF-8 bytes."""


def name_problem(path: Path) -> str | None:
    """Why a cassette at ``path`` could not be written, found by its name alone; else None.

    Asked before the first call is recorded: a name the file system refuses would be found
    only when the call, already paid for, is written to the journal.
    """
    size = len(path.name.encode("utf-8", "surrogateescape"))
    if size <= MAX_NAME_BYTES:
        return None
    return (
        f"its name is {size} bytes, and a cassette's files (its journal, lock and a save's "
        f"temporary copy, named after it) need it to be at most {MAX_NAME_BYTES} "
        f"(file systems take {NAME_MAX_BYTES}): nothing is recorded; name it shorter"
    )


def lock_path(path: Path) -> Path:
    return path.parent / f".{path.name}.lock"


@contextmanager
def lock(path: Path) -> Iterator[None]:
    """Serialises read-merge-write of ``path`` across processes (``.NAME.lock`` beside it).

    A lock file that cannot be opened (a directory in its place, a folder not writable) is
    an error naming it; only taking the lock is watched for that, not what runs under it.
    """
    held = FileLock(lock_path(path), timeout=LOCK_TIMEOUT_SECONDS)
    try:
        held.acquire()
    except Timeout:  # a TimeoutError, so an OSError: first
        raise CassetteError(
            path, f"locked by another process for more than {LOCK_TIMEOUT_SECONDS:.0f} s"
        ) from None
    except OSError as error:
        raise CassetteError(
            path,
            f"cannot take its lock file {lock_path(path)}: {error.strerror or error} (it must"
            " be a file replay can create and write; remove what is there)",
        ) from error
    try:
        yield
    finally:
        held.release()


# Entries <-> plain data.


def encode(interaction: Interaction, parsed: Any = NOT_JSON) -> dict[str, Any]:
    """``parsed``, if given, is the JSON value of the request's body (its key parsed it)."""
    return {
        "request": encode_request(interaction.request, parsed),
        "responses": [encode_outcome(outcome) for outcome in interaction.outcomes],
    }


def encode_request(request: Request, parsed: Any = NOT_JSON) -> dict[str, Any]:
    """A request as :func:`encode` makes it, alone: a recorded call's, journaled with one
    response, needs no interaction made around it."""
    entry_request = Encoded()  # in the file's order: body, headers, method, url
    if len(request.body) > LARGE_BODY:
        entry_request["body"] = large_text(request.body)
    elif request.body:
        entry_request["body"] = encode_body(request.body, parsed)
    entry_request["headers"] = _encode_headers(request.headers)
    entry_request["method"] = request.method
    entry_request["url"] = request.url
    return entry_request


def encode_outcome(outcome: Outcome) -> dict[str, Any]:
    """Made in the file's order (an :class:`Encoded`), as is everything in it."""
    if isinstance(outcome, TransportFailure):
        return Encoded(error=_encode_failure(outcome), recorded_at=outcome.recorded_at)
    if isinstance(outcome, McpSession):
        return Encoded(
            complete=outcome.complete,
            mcp=[_encode_mcp_message(frame) for frame in outcome.frames],
            recorded_at=outcome.recorded_at,
        )
    if isinstance(outcome, WebSocketSession):
        return Encoded(
            complete=outcome.complete,
            recorded_at=outcome.recorded_at,
            websocket=[_encode_message(frame) for frame in outcome.frames],
        )
    if isinstance(outcome, GrpcCall):
        return Encoded(
            complete=outcome.complete, grpc=_encode_grpc(outcome), recorded_at=outcome.recorded_at
        )
    entry = Encoded()  # body or chunks and complete, headers, recorded_at, status, stream_error
    streamed = outcome.streamed or not outcome.complete
    if streamed:
        framed = eventstream.is_eventstream(outcome)
        entry["chunks"] = [
            _ordered({"at": chunk.at, **_encode_frame(chunk.data)})
            if framed
            else {"at": chunk.at, **text_or_base64(chunk.data)}  # at, then base64 or text
            for chunk in outcome.chunks
        ]
        entry["complete"] = outcome.complete
    elif outcome.chunks:
        entry["body"] = encode_body(outcome.body)
    entry["headers"] = _encode_headers(outcome.headers)
    entry["recorded_at"] = outcome.recorded_at
    entry["status"] = outcome.status
    if streamed and outcome.failure is not None:
        entry["stream_error"] = _encode_failure(outcome.failure)
    return entry


def _encode_frame(data: bytes) -> dict[str, Any]:
    """An event stream frame readable: ``headers`` as ``[name, value]`` pairs in their order
    (a string value as it is, another type as ``{kind: value}``), the payload as a body, with
    ``"decoded": "bytes"`` when its base64 ``bytes`` field is shown decoded. Bytes that are
    no whole frame (a stream cut mid-frame) are kept as they are."""
    try:
        frame = eventstream.decode_frame(data)
    except eventstream.FrameError:
        return text_or_base64(data)
    headers = [[name, _encode_frame_header(value)] for name, value in frame.headers]
    view = eventstream.payload_view(frame.payload)
    if view is None:
        return {"headers": headers, **encode_body(frame.payload)}
    return {"headers": headers, **encode_body(view), "decoded": "bytes"}


def _encode_frame_header(header: eventstream.HeaderValue) -> Any:
    if header.kind == "string":
        return header.value
    if isinstance(header.value, bytes):
        return {header.kind: base64.b64encode(header.value).decode()}
    return {header.kind: header.value}


def _decode_frame(chunk: Any) -> bytes:
    headers = tuple(
        (_text(name), _decode_frame_header(value)) for name, value in _pairs(chunk["headers"])
    )
    payload = decode_body(chunk) if _has_body(chunk) else b""
    decoded = chunk.get("decoded")
    if decoded is not None:
        if decoded != "bytes":
            raise ValueError(f"unknown decoded field {decoded!r:.40}")
        payload = eventstream.payload_of_view(payload)
    return eventstream.encode_frame(eventstream.Frame(headers, payload))


def _has_body(chunk: dict[str, Any]) -> bool:
    return any(form in chunk for form in ("json", "text", "base64"))


def _pairs(value: Any) -> list[tuple[Any, Any]]:
    pairs = _list(value)
    if not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
        raise TypeError(f"frame headers are [name, value] pairs, not {value!r:.40}")
    return [(name, item) for name, item in pairs]


def _decode_frame_header(value: Any) -> eventstream.HeaderValue:
    if isinstance(value, str):
        return eventstream.HeaderValue("string", value)
    if not (isinstance(value, dict) and len(value) == 1):
        raise TypeError(f"a frame header value is a string or {{kind: value}}, not {value!r:.40}")
    ((kind, item),) = value.items()
    if kind == "bytes":
        return eventstream.HeaderValue(kind, base64.b64decode(_text(item), validate=True))
    if kind == "uuid":
        return eventstream.HeaderValue(kind, _text(item))
    if kind == "bool" and isinstance(item, bool):
        return eventstream.HeaderValue(kind, item)
    if kind in eventstream.HEADER_KINDS and isinstance(item, int) and not isinstance(item, bool):
        return eventstream.HeaderValue(kind, item)
    raise ValueError(f"a frame header of kind {kind!r:.40} with the value {item!r:.40}")


def _encode_message(frame: Frame) -> dict[str, Any]:
    """A text message that is JSON stays readable JSON, binary ones are base64. A server's
    message replays byte for byte (as a body does); a client's JSON is kept as JSON alone,
    since replay only compares it, as JSON."""
    if not frame.text:
        data: dict[str, Any] = {"base64": base64.b64encode(frame.data).decode("ascii")}
    elif frame.from_client and is_json(value := parse_json(frame.data)):
        data = {"json": value}
    else:
        data = encode_body(frame.data)
    return _ordered(
        {
            "at": frame.at,
            "from": "client" if frame.from_client else "server",
            "type": "text" if frame.text else "binary",
            **data,
        }
    )


def _encode_mcp_message(frame: Frame) -> dict[str, Any]:
    """A JSON-RPC message: always text, so no type; JSON kept readable, as a WebSocket one."""
    encoded = _encode_message(frame)
    del encoded["type"]
    return encoded


def _encode_grpc(call: GrpcCall) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "code": call.code,
        "details": call.details,
        "initial_metadata": _encode_metadata(call.initial_metadata),
        "messages": [_encode_grpc_message(frame) for frame in call.messages],
    }
    if call.response_type is not None:
        entry["response_type"] = call.response_type
    entry["trailing_metadata"] = _encode_metadata(call.trailing_metadata)
    return entry


def _encode_grpc_message(frame: Frame) -> dict[str, Any]:
    """A message's JSON view as JSON, its bytes as base64."""
    value = parse_json(frame.data) if frame.text else NOT_JSON
    data = {"json": value} if is_json(value) else _base64(frame.data)
    return _ordered({"at": frame.at, "from": "client" if frame.from_client else "server", **data})


def _encode_metadata(metadata: Headers) -> list[list[str]]:
    """gRPC metadata in order; a binary value (a ``-bin`` name), kept one byte a character,
    in base64 as gRPC itself carries it in text."""
    return [
        [name, base64.b64encode(value.encode("latin-1")).decode() if _binary(name) else value]
        for name, value in metadata
    ]


def _binary(name: str) -> bool:
    return name.endswith("-bin")


def _base64(data: bytes) -> dict[str, str]:
    return {"base64": base64.b64encode(data).decode("ascii")}


def _encode_failure(failure: TransportFailure) -> dict[str, str]:
    return {"message": failure.message, "type": failure.kind}


_LAYOUTS: dict[str, tuple[int, bytes]] = {
    "compact\n": (0, b"\n"),
    "indented": (orjson.OPT_INDENT_2, b""),
    "indented\n": (orjson.OPT_INDENT_2, b"\n"),
}
"""How a JSON body was laid out, when orjson can lay it out again byte for byte; compact with
no newline, the most common, is the default and is not written."""


def encode_body(body: bytes, parsed: Any = NOT_JSON) -> dict[str, Any]:
    """JSON stays readable JSON, in the order the server sent it; replay gives back its bytes.

    ``{"json": value}`` alone when orjson writes ``value`` back as these very bytes, with
    ``"layout"`` when it does indented or with a final newline; otherwise (other spacing,
    ``\\u`` escapes, number forms such as ``1e-05`` or ``1.50``) also ``"text"``, the bytes
    as they came, which replay sends. ``parsed``, if given, is ``body``'s JSON value.
    """
    if len(body) > LARGE_BODY:
        return text_or_base64(body)
    value = parse_json(body) if parsed is NOT_JSON else parsed
    if not is_json(value):
        return text_or_base64(body)
    if orjson.dumps(value) == body:
        return {"json": value}
    for layout, (option, end) in _LAYOUTS.items():
        if body.endswith(end) and orjson.dumps(value, option=option) + end == body:
            return {"json": value, "layout": layout}
    return _ordered({"json": value, **text_or_base64(body)})  # base64 before json, text after


def _encode_headers(headers: Headers) -> dict[str, str]:
    """In the file's order: the headers sorted by name (:func:`merged_headers`)."""
    return merged_headers(headers)


_MALFORMED = (KeyError, TypeError, ValueError, AttributeError)
"""What decoding a malformed entry raises; turned into a CassetteError naming the key."""


def decode(path: Location, key: str, entry: Any) -> Interaction:
    """An interaction from its entry; a malformed one is a CassetteError naming the key."""
    return Interaction(key, decode_request(path, key, entry), decode_outcomes(path, key, entry))


def decode_request(
    path: Location, key: str, entry: Any, headers: bool = True, body: bool = True
) -> Request:
    """The request of an entry alone, its responses left as they are (re-keying reads no more);
    without its headers unless ``headers``, nor its body unless ``body`` (a miss ranks every
    recording by its URL and by its body, made one at a time: :func:`request_body`)."""
    try:
        request = entry["request"]
        return Request(
            method=_text(request["method"]),
            url=_url(request["url"]),
            headers=_decode_headers(request.get("headers", {})) if headers else (),
            body=decode_body(request.get("body")) if body else b"",
        )
    except _MALFORMED as error:
        raise _malformed(path, key, error) from error


def request_body(path: Location, key: str, entry: Any) -> bytes:
    """The body of an entry's request, nothing else of it decoded."""
    try:
        return decode_body(entry["request"].get("body"))
    except _MALFORMED as error:
        raise _malformed(path, key, error) from error


def first_recorded_at(path: Location, key: str, entry: Any) -> str | None:
    """When the first response of an entry was recorded, None if it has none: read where it is
    in the entry, nothing decoded (re-keying ranks every entry a rule change gathers by it),
    but for an entry not so shaped, decoded, to fail as a replay of it would."""
    responses = entry.get("responses") if type(entry) is dict else None
    if type(responses) is list:
        if not responses:
            return None
        first = responses[0]
        recorded_at = first.get("recorded_at") if type(first) is dict else None
        if type(recorded_at) is str:
            return recorded_at
    outcomes = decode_outcomes(path, key, entry)
    return outcomes[0].recorded_at if outcomes else None


def decode_outcomes(path: Location, key: str, entry: Any) -> list[Outcome]:
    """The responses of an entry, all that replaying it needs; its request is only checked.

    This is on replay's hot path, once per request: hence try/except rather than a
    context manager, and checks that build nothing.
    """
    try:
        request = entry["request"]
        _check_request(request)
        outcomes = [decode_outcome(outcome) for outcome in _list(entry["responses"])]
        _check_kinds(request["url"], outcomes)
        return outcomes
    except _MALFORMED as error:
        raise _malformed(path, key, error) from error


def _check_request(request: Any) -> None:
    """Fails as decoding the request would, without building it (nor re-serializing a JSON
    body): replay reads only the responses."""
    _text(request["method"])
    _url(request["url"])
    headers = request.get("headers", {})
    if not (type(headers) is dict and _all_text(headers)):
        _decode_headers(headers)  # raises, naming what is wrong
    body = request.get("body")
    if not (type(body) is dict and "json" in body and "text" not in body):
        decode_body(body)


def _check_kinds(url: str, outcomes: list[Outcome]) -> None:
    """A WebSocket handshake is answered by sessions, an MCP stdio session's request by MCP
    sessions, a gRPC call by gRPC answers, an HTTP request never by any of them."""
    if is_grpc(url):
        for outcome in outcomes:
            if not isinstance(outcome, GrpcCall):
                raise ValueError(f"a gRPC call ({url:.80}) has an answer that is not a gRPC one")
        return
    mcp = is_mcp_stdio(url)
    websocket = is_websocket(url)
    for outcome in outcomes:
        if isinstance(outcome, GrpcCall):
            raise ValueError(f"a request that is no gRPC call ({url:.80}) has a gRPC answer")
        if isinstance(outcome, McpSession) != mcp:
            raise ValueError(
                f"an MCP stdio session ({url:.80}) has an outcome that is not an MCP session"
                if mcp
                else f"a request to {url:.80} has an MCP session"
            )
        if not mcp and isinstance(outcome, WebSocketSession) != websocket:
            raise ValueError(
                f"a {'WebSocket handshake' if websocket else 'HTTP request'} ({url:.80}) has "
                f"{'a response that is not a session' if websocket else 'a WebSocket session'}"
            )


def _malformed(path: Location, key: str, error: Exception) -> CassetteError:
    return CassetteError(path, f"interaction {key} is malformed: {_describe(error)}")


def decode_outcome(entry: Any) -> Outcome:
    recorded_at = _text(entry.get("recorded_at", ""))
    if "error" in entry:
        return _decode_failure(entry["error"], recorded_at)
    if "websocket" in entry:
        return _decode_session(entry, recorded_at)
    if "mcp" in entry:
        return _decode_mcp_session(entry, recorded_at)
    if "grpc" in entry:
        return _decode_grpc(entry, recorded_at)
    status = entry["status"]
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 999:
        raise ValueError(f"status {status!r} is not an HTTP status code")
    if "chunks" in entry:
        chunks = tuple(
            Chunk(
                _decode_frame(chunk) if "headers" in chunk else decode_body(chunk),
                _seconds(chunk.get("at", 0.0)),
            )
            for chunk in _list(entry["chunks"])
        )
    else:
        body = decode_body(entry.get("body"))
        chunks = (Chunk(body, 0.0),) if body else ()
    complete = entry.get("complete", True)
    if not isinstance(complete, bool):
        raise ValueError("complete is not true or false")
    failure = entry.get("stream_error")
    headers = _decode_headers(entry.get("headers", {}))
    encoding = header_value(headers, "content-encoding")
    if encoding is not None:
        _check_encoded(encoding, chunks)
    return Response(
        status,
        headers,
        chunks,
        recorded_at,
        complete,
        None if failure is None else _decode_failure(failure, recorded_at),
    )


def _check_encoded(encoding: str, chunks: tuple[Chunk, ...]) -> None:
    """A body stored in a ``content-encoding`` (one replay could not undo when it recorded,
    or one written by hand) must be in it: the client decodes it, and would fail with its own
    error, far from the cassette. One no module here decodes is handed over as it is."""
    decoder = BodyDecoder(encoding)
    if not decoder.active:
        return
    try:
        decoder.decode(b"".join(chunk.data for chunk in chunks))
    except Exception as error:  # each decoder has its own error (zlib.error, brotli.error...)
        raise ValueError(
            f"the response's body is not in content-encoding {encoding!r:.40}, as its headers "
            f"say ({error}): remove the header, or store the body encoded"
        ) from error


def _decode_session(entry: Any, recorded_at: str) -> WebSocketSession:
    complete = entry.get("complete", True)
    if not isinstance(complete, bool):
        raise ValueError("complete is not true or false")
    return WebSocketSession(
        tuple(_decode_message(frame) for frame in _list(entry["websocket"])),
        recorded_at,
        complete,
    )


def _decode_mcp_session(entry: Any, recorded_at: str) -> McpSession:
    complete = entry.get("complete", True)
    if not isinstance(complete, bool):
        raise ValueError("complete is not true or false")
    return McpSession(
        tuple(_decode_mcp_message(frame) for frame in _list(entry["mcp"])),
        recorded_at,
        complete,
    )


def _decode_mcp_message(frame: Any) -> Frame:
    if not isinstance(frame, dict):
        raise TypeError(f"an MCP message is an object, not {frame!r:.40}")
    return _decode_message({**frame, "type": "text"})


def _decode_grpc(entry: Any, recorded_at: str) -> GrpcCall:
    call = entry["grpc"]
    complete = entry.get("complete", True)
    if not isinstance(complete, bool):
        raise ValueError("complete is not true or false")
    response_type = call.get("response_type")
    return GrpcCall(
        messages=tuple(_decode_grpc_message(message) for message in _list(call["messages"])),
        initial_metadata=_decode_metadata(call.get("initial_metadata", [])),
        trailing_metadata=_decode_metadata(call.get("trailing_metadata", [])),
        code=_text(call["code"]),
        details=_text(call.get("details", "")),
        recorded_at=recorded_at,
        response_type=None if response_type is None else _text(response_type),
        complete=complete,
    )


def _decode_grpc_message(message: Any) -> Frame:
    side = message["from"]
    if side not in _FRAME_SIDES:
        raise ValueError(f"a gRPC message is from client or server, not {side!r:.40}")
    text = "json" in message
    if not text and "base64" not in message:
        raise ValueError("a gRPC message has neither json nor base64")
    data = orjson.dumps(message["json"]) if text else decode_body(message)
    return Frame(data, _seconds(message.get("at", 0.0)), _FRAME_SIDES[side], text)


def _decode_metadata(metadata: Any) -> Headers:
    decoded = []
    for name, value in _pairs(metadata):
        name, value = _text(name).lower(), _text(value)
        if _binary(name):
            value = base64.b64decode(value, validate=True).decode("latin-1")
        decoded.append((name, value))
    return tuple(decoded)


_FRAME_SIDES = {"client": True, "server": False}
_FRAME_TYPES = {"text": True, "binary": False}


def _decode_message(frame: Any) -> Frame:
    side, kind = frame["from"], frame["type"]
    if side not in _FRAME_SIDES:
        raise ValueError(f"a WebSocket message is from client or server, not {side!r:.40}")
    if kind not in _FRAME_TYPES:
        raise ValueError(f"a WebSocket message is text or binary, not {kind!r:.40}")
    data = decode_body(frame)
    if _FRAME_TYPES[kind]:
        data.decode("utf-8")  # a text message that is not UTF-8 raises, naming the entry
    return Frame(data, _seconds(frame.get("at", 0.0)), _FRAME_SIDES[side], _FRAME_TYPES[kind])


def _decode_failure(error: Any, recorded_at: str) -> TransportFailure:
    return TransportFailure(_text(error["type"]), _text(error["message"]), recorded_at)


DISAGREEING_BODY = (
    'a body\'s "json" and "text" disagree: "text" holds the exact bytes replay sends, and '
    '"json" their readable copy; edit both alike, or delete "text" to send "json" as compact '
    "JSON"
)
"""A body kept in both forms (JSON the server spaced its own way) edited in one of them only:
replaying one of the two would be trusting an edit the other denies."""


def decode_body(body: Any) -> bytes:
    if body is None:
        return b""
    if not isinstance(body, dict):
        raise TypeError(f"a body is an object with json, text or base64, not {body!r:.40}")
    if "text" in body:
        data = _text(body["text"]).encode("utf-8")
        if "json" in body and parse_json(data) != body["json"]:
            raise ValueError(DISAGREEING_BODY)
        return data
    if "json" in body:
        layout = body.get("layout")
        if layout is None:
            return orjson.dumps(body["json"])
        if layout not in _LAYOUTS:
            raise ValueError(f"unknown body layout {layout!r:.40}")
        option, end = _LAYOUTS[layout]
        return orjson.dumps(body["json"], option=option) + end
    if "base64" in body:
        return base64.b64decode(_text(body["base64"]), validate=True)
    raise ValueError("a body has none of json, text or base64")


def _decode_headers(headers: Any) -> Headers:
    if not isinstance(headers, dict):
        raise TypeError("headers are not an object")
    if _all_text(headers):
        return tuple([(name.lower(), value) for name, value in headers.items()])
    return tuple((_text(name).lower(), _text(value)) for name, value in headers.items())


def _all_text(headers: dict[Any, Any]) -> bool:
    """Whether every name and value is a string: a plain loop, the cheapest check per header."""
    for name, value in headers.items():
        if type(name) is not str or type(value) is not str:
            return False
    return True


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, found {value!r:.40}")
    return value


def _url(value: Any) -> str:
    url = _text(value)
    problem = url_problem(url)
    if problem is not None:
        raise ValueError(f"url {url!r:.60}: {problem}")
    return url


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, found {value!r:.40}")
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e7:
        raise ValueError(f"chunk time {value!r:.40} is not a number of seconds")
    return float(value)


def _describe(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing field {error.args[0]!r}"
    return str(error)
