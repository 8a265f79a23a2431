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

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from companion.safetext import escaped, shown

MAX_BYTES = 1_000_000  # table, configuration and data files are a few kB
MAX_DEPTH = 64  # lists and mappings inside each other
MAX_NODES = 20_000  # values, aliases expanded
MAX_CHARS = 4_000_000  # characters of all scalars, aliases expanded
MAX_INT_DIGITS = 30  # longer integers are not parsed: out of any range a file allows

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LIBYAML = _BaseLoader is not yaml.SafeLoader


class SourceError(Exception):
    """A file that can't be used: carries a message ready to print (file, line, field)."""

    @property
    def messages(self) -> list[str]:
        """The mistakes, one line each."""
        return [str(self)]


class SourceErrors(SourceError):
    """Every mistake found in one file, each a message ready to print on a line of its own;
    ``refusals`` the same mistakes as (``FILE:LINE``, the ``RuleError``) when they came
    from one, for a screen to say in its language."""

    def __init__(self, messages: list[str], refusals: list[tuple[str, Any]] = ()) -> None:
        super().__init__("\n".join(messages))
        self._messages = list(messages)
        self.refusals = list(refusals)

    @property
    def messages(self) -> list[str]:
        return list(self._messages)


class OutOfRange(int):
    """An integer written with more than ``MAX_INT_DIGITS`` digits: its value is a number
    larger than any range allows (with the sign written), its text a short form of what was
    written, so a range check refuses it with a readable message."""

    written: str

    def __new__(cls, written: str) -> Self:
        sign = -1 if written.lstrip().startswith("-") else 1
        self = super().__new__(cls, sign * 10**MAX_INT_DIGITS)
        self.written = written
        return self

    def __repr__(self) -> str:
        return f"{escaped(self.written[:12])}…({digits(self.written)} digits)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)


def digits(written: str) -> int:
    """How many digits an integer as YAML writes it has (sign, base prefix and _ apart)."""
    text = written.strip().lstrip("+-").lower()
    if text[:2] in ("0x", "0o", "0b"):
        text = text[2:]
    return sum(c.isalnum() for c in text)


@dataclass
class Document:
    """Plain data from one YAML file plus the line of every node, keyed by dotted path."""

    path: str
    data: Any
    lines: dict[str, int] = field(default_factory=dict)

    def line_of(self, dotted: str) -> int | None:
        """The line of ``dotted`` or of its nearest ancestor that has one (1-based)."""
        key = dotted
        while True:
            if key in self.lines:
                return self.lines[key]
            if "." not in key:
                return self.lines.get("")
            key = key.rsplit(".", 1)[0]

    def where(self, dotted: str) -> str:
        line = self.line_of(dotted)
        return f"{self.path}:{line}" if line else self.path

    def error(self, dotted: str, message: str) -> SourceError:
        prefix = f"{escaped(dotted)}: " if dotted else ""
        return SourceError(f"{self.where(dotted)}: {prefix}{message}")


def _key(node: Node) -> str:
    return str(node.value) if isinstance(node, ScalarNode) else "?"


def _index(node: Node, path: str, lines: dict[str, int], seen: set[int]) -> None:
    lines[path] = node.start_mark.line + 1
    if id(node) in seen:  # an alias: its anchor's lines are indexed already
        return
    seen.add(id(node))
    if isinstance(node, MappingNode):
        for k, v in node.value:
            child = f"{path}.{_key(k)}" if path else _key(k)
            lines[child] = k.start_mark.line + 1
            _index(v, child, lines, seen)
            lines[child] = k.start_mark.line + 1
    elif isinstance(node, SequenceNode):
        for i, v in enumerate(node.value):
            child = f"{path}.{i}" if path else str(i)
            _index(v, child, lines, seen)


class _Loader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader (libyaml's when present) with two changes: a key given twice in one
    mapping is an error, and an integer too long to be in range is ``OutOfRange``."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.constructor.ConstructorError(
                    None, None, "a list or a mapping can't be a key", key_node.start_mark
                ) from None
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {shown(key)} is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: ScalarNode) -> int:
        if digits(str(node.value)) > MAX_INT_DIGITS:
            return OutOfRange(str(node.value))
        return super().construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)


class _Limit(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def _compose(loader: Any) -> Node | None:
    """The document's node graph, built from the parser's events without recursion and
    within the limits (raises ``_Limit``)."""
    loader.get_event()  # stream start
    if loader.check_event(StreamEndEvent):
        return None
    loader.get_event()  # document start
    anchors: dict[str, tuple[Node, int, int] | None] = {}  # None: still open
    # Open collections: (node, anchor, nodes and chars counted when it opened, pending key)
    stack: list[list[Any]] = []
    root: Node | None = None
    nodes = chars = 0

    def attach(node: Node) -> None:
        nonlocal root
        if not stack:
            root = node
            return
        parent = stack[-1]
        if isinstance(parent[0], SequenceNode):
            parent[0].value.append(node)
        elif parent[4] is None:
            parent[4] = node
        else:
            parent[0].value.append((parent[4], node))
            parent[4] = None

    while not loader.check_event(DocumentEndEvent):
        event = loader.get_event()
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent):
            found = anchors.get(event.anchor, ())
            if not found:
                what = "inside its own anchor" if found is None else "with no anchor"
                raise _Limit(line, f"alias *{escaped(str(event.anchor))[:40]} {what}")
            node, weight, size = found
            nodes += weight
            chars += size
        elif isinstance(event, ScalarEvent):
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(ScalarNode, event.value, event.implicit)
            node = ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                              style=event.style)
            nodes += 1
            chars += len(event.value)
            if event.anchor is not None:
                anchors[event.anchor] = (node, 1, len(event.value))
        elif isinstance(event, CollectionEndEvent):
            node, anchor, n0, c0, _ = stack.pop()
            if anchor is not None:
                anchors[anchor] = (node, nodes - n0, chars - c0)
            continue
        else:
            kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
            assert isinstance(event, SequenceStartEvent | MappingStartEvent)
            tag = event.tag
            if tag is None or tag == "!":
                tag = loader.resolve(kind, None, event.implicit)
            node = kind(tag, [], event.start_mark, event.end_mark, flow_style=event.flow_style)
            if len(stack) >= MAX_DEPTH:
                raise _Limit(line, f"lists or mappings nested more than {MAX_DEPTH} deep")
            nodes += 1
            attach(node)
            if event.anchor is not None:
                anchors[event.anchor] = None
            stack.append([node, event.anchor, nodes, chars, None])
            continue
        if nodes > MAX_NODES:
            raise _Limit(line, f"more than {MAX_NODES:,} values (aliases counted as often "
                               "as they are used)")
        if chars > MAX_CHARS:
            raise _Limit(line, f"more than {MAX_CHARS:,} characters of text (aliases "
                               "counted as often as they are used)")
        attach(node)
    loader.get_event()  # document end
    if not loader.check_event(StreamEndEvent):
        event = loader.get_event()
        raise _Limit(event.start_mark.line + 1, "more than one document (a second ---)")
    return root


def parse(text: str, path: str = "<string>") -> Document:
    """Parse YAML text; a syntax error or a limit becomes a ``SourceError`` naming the
    line."""
    lines: dict[str, int] = {}
    loader = _Loader(text)
    try:
        node = _compose(loader)
        data = None if node is None else loader.construct_document(node)
        if node is not None:
            _index(node, "", lines, set())
    except _Limit as exc:
        raise SourceError(f"{path}:{exc.line}: {exc.message}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        problem = exc.problem or str(exc)
        raise SourceError(f"{path}{line}: not valid YAML: {escaped(problem)}") from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise SourceError(
            f"{path}:{line}: not valid YAML: character {exc.character:#x} is not allowed"
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(f"{path}: not valid YAML: {escaped(' '.join(str(exc).split()))}") \
            from None
    except (ValueError, OverflowError) as exc:  # a scalar YAML can't convert: 2020-13-45
        raise SourceError(f"{path}: not valid YAML: {escaped(' '.join(str(exc).split()))}") \
            from None
    except RecursionError:  # not expected within MAX_DEPTH; kept as a last guard
        raise SourceError(f"{path}: lists or mappings nested too deeply") from None
    finally:
        loader.dispose()
    return Document(path=path, data=data, lines=lines)


def _size(limit: int) -> str:
    return f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1000} kB"


def read_bounded(path: str | Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, read once. A FIFO, a device,
    a directory (opened without blocking, then refused), a file over the limit or one that
    can't be read is a ``SourceError`` saying which; ``what`` names the kind of file."""
    p = Path(path)
    name = escaped(str(p))
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise SourceError(f"{name}: no such file") from None
    except ValueError:  # a NUL byte in the name
        raise SourceError(f"{shown(str(p))}: not a usable file name") from None
    except OSError as exc:
        raise SourceError(f"{name}: cannot read: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise SourceError(f"{name}: cannot read: {kind}, expected {what}")
        if info.st_size > limit:
            raise SourceError(f"{name}: {info.st_size:,} bytes, more than the {_size(limit)} "
                              f"{what} may have")
        chunks, total = [], 0
        while total <= limit:  # a file growing while read is cut off too
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise SourceError(f"{name}: more than the {_size(limit)} {what} may have")
        return b"".join(chunks)
    except OSError as exc:
        raise SourceError(f"{name}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)


def load(path: str | Path, what: str = "a YAML file") -> Document:
    """Read and parse a YAML file within the limits; any problem is a ``SourceError``."""
    raw = read_bounded(path, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SourceError(f"{escaped(str(path))}: not a text file (expected UTF-8 YAML)") \
            from None
    return parse(text, escaped(str(path)))


def load_shipped(path: str | Path, cache_dir: Path | None = None) -> Any:
    """The data of a file shipped with the package (catalogs): one pass of the fastest
    loader present (libyaml's ``CSafeLoader``, else the pure-Python ``SafeLoader``), no
    line index, since a shipped file is known good. Should it not be (edited by hand), it
    is read again through ``load`` for a message naming its file and line.

    The data is also kept as JSON in ``cache_dir`` (default: ``shipped_cache_dir()``) as
    ``parsed-NAME-SIZE-CRC32.json`` (an older version's file removed), and read from
    there at the next start: libyaml parses fast, but PyYAML then builds every value in
    Python (about 4 ms for a catalog, before the kiosk's first frame); ``json`` builds
    them in C (0.1 ms). Data JSON can't
    hold as it is (dates, keys that are not text) is not kept; a cache that can't be
    written or read is only a slower start."""
    import json
    import zlib

    try:
        raw = Path(path).read_bytes()
    except OSError:
        return load(path).data
    try:
        where = cache_dir or shipped_cache_dir()
    except RuntimeError:  # no home directory: nowhere to keep it
        return yaml.load(raw, Loader=_BaseLoader)
    stem = Path(path).stem
    kept = where / f"parsed-{stem}-{len(raw)}-{zlib.crc32(raw):08x}.json"
    try:
        return json.loads(kept.read_bytes())
    except (OSError, ValueError):
        pass
    try:
        data = yaml.load(raw, Loader=_BaseLoader)
    except (yaml.YAMLError, ValueError):
        return load(path).data
    try:
        text = json.dumps(data, ensure_ascii=False)
        if json.loads(text) == data:
            where.mkdir(mode=0o700, parents=True, exist_ok=True)
            part = kept.with_name(f"{kept.name}.{os.getpid()}.part")
            try:
                fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(text)
                os.replace(part, kept)  # whole or not at all, whoever else writes it
            finally:
                part.unlink(missing_ok=True)
            for older in where.glob(f"parsed-{stem}-*.json"):  # another version's
                if older != kept:
                    older.unlink(missing_ok=True)
    except (OSError, TypeError, ValueError):
        pass
    return data


_kept_in: Path | None = None  # set by keep_shipped_in


def keep_shipped_in(directory: Path | None) -> None:
    """Keep parsed shipped files in ``directory`` from now on (None: the default). The
    kiosk keeps them in its data directory, the one place its service may write (files
    readable by its account only, like the rest of it)."""
    global _kept_in
    _kept_in = directory


def shipped_cache_dir() -> Path:
    """Where parsed shipped files are kept: the directory given to ``keep_shipped_in``,
    else ``$XDG_CACHE_HOME/companion``, else ``~/.cache/companion``."""
    if _kept_in is not None:
        return _kept_in
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "companion"
