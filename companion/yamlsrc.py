"""YAML documents that remember where each value came from.

Configuration files and table files are read through here so that every error can name
the file, the line and the field (``seats.2.colour``) instead of raising a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

MAX_BYTES = 10_000_000  # table, configuration and data files are a few kB


class SourceError(Exception):
    """A file that can't be used: carries a message ready to print (file, line, field)."""

    @property
    def messages(self) -> list[str]:
        """The mistakes, one line each."""
        return [str(self)]


class SourceErrors(SourceError):
    """Every mistake found in one file, each a message ready to print on a line of its own."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self._messages = list(messages)

    @property
    def messages(self) -> list[str]:
        return list(self._messages)


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
        prefix = f"{dotted}: " if dotted else ""
        return SourceError(f"{self.where(dotted)}: {prefix}{message}")


def _key(node: yaml.Node) -> str:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else "?"


def _index(node: yaml.Node, path: str, lines: dict[str, int], seen: set[int]) -> None:
    lines[path] = node.start_mark.line + 1
    if id(node) in seen:  # an alias: its anchor's lines are indexed already (an alias bomb
        return  # would otherwise take exponential time)
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            child = f"{path}.{_key(k)}" if path else _key(k)
            lines[child] = k.start_mark.line + 1
            _index(v, child, lines, seen)
            lines[child] = k.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            child = f"{path}.{i}" if path else str(i)
            _index(v, child, lines, seen)


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key given twice in one mapping (a silent overwrite otherwise)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
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
                    None, None, f"key {key!r} is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def parse(text: str, path: str = "<string>") -> Document:
    """Parse YAML text; a syntax error becomes a ``SourceError`` naming the line."""
    lines: dict[str, int] = {}
    try:
        node = yaml.compose(text, Loader=_UniqueKeyLoader)
        data = yaml.load(text, Loader=_UniqueKeyLoader)
        if node is not None:
            _index(node, "", lines, set())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark else ""
        raise SourceError(f"{path}{line}: not valid YAML: {exc.problem or exc}") from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise SourceError(
            f"{path}:{line}: not valid YAML: character {exc.character:#x} is not allowed"
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
    except (ValueError, OverflowError) as exc:  # a scalar YAML can't convert: 2020-13-45,
        # an integer of more than sys.get_int_max_str_digits() digits
        raise SourceError(f"{path}: not valid YAML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise SourceError(f"{path}: lists or mappings nested too deeply") from None
    return Document(path=path, data=data, lines=lines)


def load(path: str | Path) -> Document:
    """Read and parse a YAML file; an unreadable file becomes a ``SourceError``."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)  # bounded: /dev/zero or a huge file can't hang us
        if len(raw) > MAX_BYTES:
            raise SourceError(f"{p}: larger than {MAX_BYTES // 1_000_000} MB, not a YAML file "
                              "of ours")
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise SourceError(f"{p}: no such file") from None
    except UnicodeDecodeError:
        raise SourceError(f"{p}: not a text file (expected UTF-8 YAML)") from None
    except ValueError:  # a NUL byte in the name
        raise SourceError(f"{str(p)!r}: not a usable file name") from None
    except OSError as exc:
        raise SourceError(f"{p}: cannot read: {exc.strerror}") from None
    return parse(text, str(p))


def load_shipped(path: str | Path) -> Any:
    """The data of a file shipped with the package (catalogs): one pass of the fastest
    loader present (libyaml's ``CSafeLoader``, else the pure-Python ``SafeLoader``), no
    line index, since a shipped file is known good. Should it not be (edited by hand), it
    is read again through ``load`` for a message naming its file and line."""
    fast = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        with Path(path).open("rb") as f:
            return yaml.load(f, Loader=fast)
    except (OSError, yaml.YAMLError, ValueError):
        return load(path).data
