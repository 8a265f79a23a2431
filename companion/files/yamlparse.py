"""The YAML parser behind ``yamlsrc``: PyYAML (libyaml's ``CSafeLoader`` when present),
the bounded event composer and the line index. A module of its own, imported on the
first parse, because importing PyYAML costs about 20 ms: the kiosk's start reads its
configuration and catalogs from their parsed copies and needs none of it (start-up)."""

from __future__ import annotations

from typing import Any

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

from companion.files.safetext import escaped, shown
from companion.files.yamldoc import (
    MAX_CHARS,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NODES,
    Document,
    OutOfRange,
    SourceError,
    digits,
)

_BaseLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LIBYAML = _BaseLoader is not yaml.SafeLoader


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



def load_data(raw: bytes) -> Any:
    """The data of a known-good document in one pass of the fastest loader, no line
    index; a YAML error is a ``ValueError``."""
    try:
        return yaml.load(raw, Loader=_BaseLoader)
    except yaml.YAMLError as exc:
        raise ValueError(str(exc)) from None
