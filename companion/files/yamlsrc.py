"""YAML documents that remember where each value came from, read within bounds.

Configuration, wiring-profile, table and data files are read through here so that every
error can name the file, the line and the field (``seats.2.colour``) instead of raising a
traceback, and so that no file can exhaust the machine:

- only a regular file is read (a FIFO, a device or a directory is refused without
  blocking), once, and no more than ``MAX_BYTES``;
- it is parsed once, with libyaml (``CSafeLoader``) when PyYAML has it, else the
  pure-Python parser: the events are composed here, without recursion, so nesting deeper
  than ``MAX_DEPTH`` is refused before libyaml's recursive composer could overflow the C
  stack, and aliases may not expand the document past ``MAX_NODES`` values or
  ``MAX_CHARS`` characters (an alias bomb is refused, not walked);
- an integer longer than ``MAX_INT_DIGITS`` is not parsed: it becomes ``OutOfRange``,
  bigger than any range a file allows, so the field's range check refuses it by range;
- a key given twice in one mapping is an error (a silent overwrite otherwise).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from companion.files import regularfile, yamldoc
from companion.files.safetext import escaped, shown

T = TypeVar("T")

# The document model and the bounds live in yamldoc (shared with the parser, which must not
# import this module: it imports the parser). Readers keep naming them from here.
MAX_BYTES = yamldoc.MAX_BYTES
MAX_CHARS = yamldoc.MAX_CHARS
MAX_DEPTH = yamldoc.MAX_DEPTH
MAX_INT_DIGITS = yamldoc.MAX_INT_DIGITS
MAX_NODES = yamldoc.MAX_NODES
Document = yamldoc.Document
Mistake = yamldoc.Mistake
OutOfRange = yamldoc.OutOfRange
SourceError = yamldoc.SourceError
SourceErrors = yamldoc.SourceErrors
digits = yamldoc.digits


def _parser() -> Any:
    """The YAML parser module, imported on first use (start-up: PyYAML costs ~20 ms)."""
    from companion.files import yamlparse

    return yamlparse


def parse(text: str, path: str = "<string>") -> Document:
    """Parse YAML text; a syntax error or a limit becomes a ``SourceError`` naming the
    line. The configuration's narrow YAML is read without PyYAML (``yamlsubset``: exactly
    PyYAML's result, or None and PyYAML reads it)."""
    from companion.files import yamlsubset

    document = yamlsubset.read(text, path)
    return _parser().parse(text, path) if document is None else document


def _size(limit: int) -> str:
    return f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1000} kB"


def read_bounded(path: str | Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, read once. A FIFO, a device,
    a directory (opened without blocking, then refused), a file over the limit or one that
    can't be read is a ``SourceError`` saying which; ``what`` names the kind of file."""
    p = Path(path)
    name = escaped(str(p))
    try:
        return regularfile.read_regular(p, limit)
    except FileNotFoundError:
        raise SourceError(f"{name}: no such file") from None
    except ValueError:  # a NUL byte in the name
        raise SourceError(f"{shown(str(p))}: not a usable file name") from None
    except regularfile.NotRegular as exc:
        raise SourceError(f"{name}: cannot read: {exc.strerror}, expected {what}") from None
    except regularfile.TooBig as exc:
        if exc.size is None:  # grew while read
            raise SourceError(f"{name}: more than the {_size(limit)} {what} may have") from None
        raise SourceError(f"{name}: {exc.size:,} bytes, more than the {_size(limit)} "
                          f"{what} may have") from None
    except OSError as exc:
        raise SourceError(f"{name}: cannot read: {exc.strerror}") from None


def load(path: str | Path, what: str = "a YAML file") -> Document:
    """Read and parse a YAML file within the limits; any problem is a ``SourceError``."""
    return _decoded(read_bounded(path, what), path)


def _decoded(raw: bytes, path: str | Path) -> Document:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SourceError(f"{escaped(str(path))}: not a text file (expected UTF-8 YAML)") \
            from None
    return parse(text, escaped(str(path)))


def load_shipped(path: str | Path, cache_dir: Path | None = None) -> Any:
    """The data of a file shipped with the package (catalogs), read as ``read_bounded``
    reads: from the copy the package ships parsed beside it when it was made from these
    very bytes (``_packaged_copy``: a first boot parses no shipped YAML), else from its
    parsed copy in ``cache_dir`` when there is a valid one (``_through_copy``), else one
    pass of the fastest YAML loader present (``yamlparse``), no line index, since a
    shipped file is known good. Should it not be (edited by hand), it is read again
    through ``load`` for a message naming its file and line.

    The data is kept as JSON in ``cache_dir`` (default: ``shipped_cache_dir()``) and read
    from there at the next start: libyaml parses fast, but PyYAML then builds every value
    in Python (about 4 ms for a catalog, before the kiosk's first frame); ``json`` builds
    them in C (0.1 ms). Data JSON can't hold as it is (dates, keys that are not text) is
    not kept; a cache that can't be written or read is only a slower start."""
    try:
        raw = read_bounded(path, "a shipped file")
    except SourceError:
        return load(path).data  # says the same, naming the file
    with contextlib.suppress(SourceError, ValueError, RecursionError):
        return _packaged_copy(Path(path), raw)  # none, or made from other bytes: below
    try:
        where = cache_dir or shipped_cache_dir()
    except RuntimeError:  # no home directory: nowhere to keep it
        return _parser().load_data(raw)
    try:
        return _through_copy(raw, where, f"parsed-{Path(path).stem}",
                             lambda: _parser().load_data(raw))
    except ValueError:
        return load(path).data


def packaged_copy_path(source: Path) -> Path:
    """Where the package ships the parsed copy of its file ``source`` (``en.yaml`` →
    ``en.parsed.json``, beside it): made from the YAML by ``python -m
    companion.files.packaged``, so that even a first boot parses no shipped YAML."""
    return source.with_name(f"{source.stem}.parsed.json")


def _packaged_copy(source: Path, raw: bytes) -> Any:
    """The data of the packaged copy of ``source``, whose bytes are ``raw``: a header line
    naming the SHA-256 of the YAML it was made from and that of the data after it, then
    the data as JSON (a copy damaged on the card is not read either). The YAML stays
    the one source of truth: a copy made from other bytes (the YAML edited since, by hand
    or by an upgrade that missed the copy) is a ``ValueError`` and the YAML is read
    instead; a missing or unreadable one a ``SourceError``.
    ``tests/files/test_packaged_copies.py`` fails while a copy is not exactly what its
    YAML parses to."""
    import json

    text = read_bounded(packaged_copy_path(source), "a packaged copy", copy_bound(raw))
    head, newline, payload = text.partition(b"\n")
    header = json.loads(head)
    if (not newline or not isinstance(header, dict)
            or header.get("source_sha256") != sha256_hex(raw)
            or header.get("data_sha256") != sha256_hex(payload)):
        raise ValueError("made from other bytes, or damaged")
    return json.loads(payload)


def _sha256(data: bytes) -> Any:
    """A SHA-256 hash object over ``data`` (``_sha256_maker``)."""
    return _sha256_maker()(data)


@functools.cache
def _sha256_maker() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (``_sha2``, ``_sha256`` before 3.12), the one hashlib falls
    back on, where there is one: importing hashlib loads OpenSSL first, about 2 ms of
    every start before the first frame, for the same digest
    (``tests/files/test_packaged_copies.py`` compares them). The digests compared here
    are no secret (made from the files themselves): no constant-time comparison (hmac
    would load OpenSSL too)."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found, no-redef]
        except ImportError:
            from hashlib import sha256  # type: ignore[assignment]
    return sha256


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data``, in hex (``_sha256``)."""
    return _sha256(data).hexdigest()


_MISSING = object()
COPY_FORMAT = 2  # the layout of a kept copy (header line, then the data): a new one re-parses
_SEAL_TAG = b"companion parsed copy\0"


def copy_bound(raw: bytes) -> int:
    """The most bytes a kept copy of the file ``raw`` may have: a copy is written only
    within it and read only within it, so a copy grown (or replaced by ``/dev/zero``) is
    refused by its size, not read."""
    return 64_000 + 12 * len(raw)


def _seal(source_sha256: str, stamp: str, payload: bytes) -> str:
    """The copy's seal: SHA-256 over its source's SHA-256, the parser's stamp and the
    exact bytes of its data. A copy whose data was edited, cut short, or made for other
    bytes or by other code fails it."""
    h = _sha256(_SEAL_TAG)
    h.update(f"{COPY_FORMAT}\0{source_sha256}\0{stamp}\0".encode("ascii"))
    h.update(payload)
    return h.hexdigest()


def _kept_copy(kept: Path, raw: bytes, source_sha256: str) -> Any:
    """The data of the copy ``kept`` if it is a valid copy of the file whose bytes are
    ``raw``; any check that fails is a ``ValueError`` (the caller discards the copy). A copy is read like any file here: a regular file only, within ``copy_bound``."""
    import json

    try:
        text = read_bounded(kept, "a parsed copy", copy_bound(raw))
    except SourceError as exc:
        raise ValueError(str(exc)) from None
    head, newline, payload = text.partition(b"\n")
    header = json.loads(head)
    if not newline or not isinstance(header, dict):
        raise ValueError("no header")
    if (header.get("format") != COPY_FORMAT or header.get("parser") != parser_stamp()
            or header.get("source_sha256") != source_sha256
            or header.get("seal") != _seal(source_sha256, parser_stamp(), payload)):
        raise ValueError("made for other bytes, by other code, or edited")
    return json.loads(payload)


def _through_copy(raw: bytes, where: Path, prefix: str, parse: Callable[[], Any],
                  pack: Callable[[Any], Any] = lambda data: data,
                  unpack: Callable[[Any], Any] = lambda copy: copy,
                  check: Callable[[Any], Any] = lambda result: result) -> Any:
    """``check(parse())`` for the file whose bytes are ``raw``, read from its kept copy
    ``where/PREFIX-SIZE-SHA256-PARSER.json`` when there is a valid one; otherwise parsed,
    checked, and kept there (``pack`` gives what is kept, ``unpack`` turns it back) if
    JSON gives it back exactly.

    A copy is an optimisation only, never an authority: it is used only when it was made
    from these very bytes (the source's SHA-256 is inside it and compared) by this
    parsing code, its seal matches its data (so no edit, truncation or stale copy is
    used), and its result passes ``check`` as the source's must. A copy that fails any of
    these is removed and the file parsed afresh: it can neither refuse a valid file, nor
    crash the caller, nor have its values blamed on the file. A copy that can't be
    written or read is only a slower start."""
    import json

    source_sha256 = sha256_hex(raw)
    kept = where / f"{prefix}-{len(raw)}-{source_sha256[:16]}-{parser_stamp()}.json"
    try:
        copy = _kept_copy(kept, raw, source_sha256)
    except (OSError, ValueError, RecursionError):
        copy = _MISSING
    if copy is not _MISSING:
        with contextlib.suppress(Exception):  # a copy that fails its check is not used
            return check(unpack(copy))
    with contextlib.suppress(OSError):  # whatever it is (a FIFO, a link, a forged copy)
        if kept.is_dir() and not kept.is_symlink():
            kept.rmdir()  # an empty directory in the way; anything more is left alone
        else:
            kept.unlink(missing_ok=True)
    parsed = parse()
    result = check(parsed)  # a file that fails its check is not kept
    copy = pack(parsed)
    if _plain(copy):
        try:
            payload = json.dumps(copy, ensure_ascii=False).encode("utf-8")  # "\ud800": no
            header = json.dumps({"format": COPY_FORMAT, "source_sha256": source_sha256,
                                 "parser": parser_stamp(),
                                 "seal": _seal(source_sha256, parser_stamp(), payload)})
            text = header.encode("ascii") + b"\n" + payload
            if len(text) <= copy_bound(raw):
                where.mkdir(mode=0o700, parents=True, exist_ok=True)
                _keep(kept, text, f"{prefix}-*.json")
        except (OSError, ValueError, RecursionError):
            pass
    return result


@functools.cache
def parser_stamp() -> str:
    """The parsing code's own version, in a kept copy's name: an upgrade that parses a
    file differently (a new bound, a refusal) parses it afresh instead of trusting a copy
    made by the old code. Size and modification time of this module, ``yamlparse``,
    ``yamldoc`` and ``yamlsubset``: four ``stat`` calls, no import, once a process (the
    code doesn't change under it)."""
    import zlib

    here = Path(__file__)
    seen = []
    for name in ("yamlsrc", "yamlparse", "yamldoc", "yamlsubset"):
        module = here.with_name(f"{name}.py")
        try:
            st = module.stat()
        except OSError:
            continue
        seen.append(f"{st.st_size}:{st.st_mtime_ns}")
    return f"{zlib.crc32(' '.join(seen).encode('ascii')):08x}"


def _keep(kept: Path, data: bytes, versions: str) -> None:
    """Write ``data`` to ``kept`` whole or not at all (0600), and remove the other files
    of its directory matching ``versions`` (older versions' copies). Raises ``OSError``."""
    part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
    part.unlink(missing_ok=True)  # whatever a crash (or anyone) left there
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(part, kept)  # whole or not at all, whoever else writes it
    finally:
        part.unlink(missing_ok=True)
    for older in kept.parent.glob(versions):
        # the same file's only: PREFIX-SIZE-SHA-PARSER.json, not a longer name's
        # (document-gpio-* would also match the profile gpio-5-seats' copy)
        if older != kept and older.name.rsplit("-", 3)[0] == kept.name.rsplit("-", 3)[0]:
            older.unlink(missing_ok=True)


def _plain(data: Any) -> bool:
    """Whether JSON gives ``data`` back exactly: text keys, no ``OutOfRange``, no dates."""
    if isinstance(data, dict):
        return all(type(k) is str and _plain(v) for k, v in data.items())
    if isinstance(data, list):
        return all(_plain(v) for v in data)
    return data is None or type(data) in (str, int, float, bool)


def load_kept(path: str | Path, what: str, kept_in: Path | None) -> Document:
    """``load``, its result also kept as JSON in the existing directory ``kept_in``
    (``load_checked`` without a check)."""
    return load_checked(path, what, kept_in, lambda doc: doc)


def load_checked(path: str | Path, what: str, kept_in: Path | None,
                 check: Callable[[Document], T]) -> T:
    """``check(load(path, what))``, the document also kept as JSON in the existing
    directory ``kept_in`` (``document-NAME-….json``, one file per name: its last version)
    and read from there when the file's bytes are the same: the kiosk's configuration,
    read at every start, without importing PyYAML (about 20 ms of start-up). The bounds,
    the decoding and the line index are those of ``load``; a kept copy is used only as
    ``_through_copy`` says, its document passing ``check`` as the file's must (else the
    file is parsed and checked afresh, so a mistake is always the file's own)."""
    if kept_in is None or not kept_in.is_dir():
        return check(load(path, what))
    raw = read_bounded(path, what)
    name = escaped(str(path))
    return _through_copy(
        raw, kept_in, f"document-{Path(path).stem}", lambda: _decoded(raw, path),
        pack=lambda doc: {"data": doc.data, "lines": doc.lines},
        unpack=lambda copy: Document(path=name, data=copy["data"],
                                     lines={str(k): int(v) for k, v in copy["lines"].items()}),
        check=check)


_kept_in: Path | None = None  # set by keep_shipped_in


def keep_shipped_in(directory: Path | None) -> None:
    """Keep parsed shipped files in ``directory`` from now on (None: the default). The
    kiosk keeps them in its data directory, the one place its service may write (files
    readable by its account only, like the rest of it)."""
    global _kept_in
    _kept_in = directory


def kept_dir() -> Path | None:
    """The directory given to ``keep_shipped_in`` (the kiosk's data directory), where the
    files it reads at every start keep their parsed copies too; None outside the kiosk."""
    return _kept_in


def shipped_cache_dir() -> Path:
    """Where parsed shipped files are kept: the directory given to ``keep_shipped_in``,
    else ``$XDG_CACHE_HOME/companion``, else ``~/.cache/companion``."""
    if _kept_in is not None:
        return _kept_in
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "companion"
