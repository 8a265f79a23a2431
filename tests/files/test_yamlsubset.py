"""The configuration's YAML read without PyYAML (``companion.files.yamlsubset``): whatever
it accepts is exactly PyYAML's document (data and line of every path), anything else is
left to PyYAML, so its errors keep their messages and line numbers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config import SHIPPED_CONFIG, load_config
from companion.files import yamlparse, yamlsubset
from companion.files.yamldoc import SourceError
from companion.files.yamlsrc import parse

# Words and near-words: YAML 1.1's booleans and nulls in their spellings, numbers in the
# forms YAML 1.1 reads otherwise (octal, sexagesimal, floats), quotes, comments, paths.
SCALARS = st.sampled_from([
    "red", "Ana", "bottom-left", "gpio-5-seats", "sim", "en", "auto", "a_b", "x1", "e",
    "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "OFF", "true", "False",
    "y", "n", "Y", "N", "null", "Null", "NULL", "~", "nULL", "tRUE", "oN",
    "0", "7", "20", "700", "8470", "007", "0x1F", "0o7", "1_000", "1:20", "1.5", "1e3",
    ".inf", ".nan", "-1", "+1", "2026-11-26", "#rrggbb", "'a'", '"b"', "a b", "a#b", "a #b",
    "/dev/ttyACM0", "~/.local", "0.0.0.0", "&x", "*x", "!!str", "|", ">", "@", "`",
    "{a: b}", "[a]", "a: b", "-", "- a", "", "12345678901234567890123456789012345",
])
KEYS = st.sampled_from(["name", "colour", "port", "backend", "yes", "on", "null", "a-b",
                        "Off", "1", "x", "x y", "'q'", "?", "a:b"])
# Mostly what the subset reads, so that the comparison runs on many accepted documents.
WORDS = st.sampled_from(["red", "Ana", "bottom-left", "yes", "No", "OFF", "true", "0", "20",
                         "8470", "x1", "Null", "y"])
SCALARS = st.one_of(WORDS, WORDS, SCALARS)
GOOD_KEYS = st.sampled_from(["name", "colour", "port", "seats", "a-b", "x"])
KEYS = st.one_of(GOOD_KEYS, KEYS)
INDENTS = st.sampled_from([0, 0, 2, 2, 4, 1, 3])
COMMENTS = st.sampled_from(["", "", " # note", "  # a: b", "# tight", " #"])


@st.composite
def flow(draw, keys=None, scalars=None) -> str:
    keys = KEYS if keys is None else keys
    scalars = SCALARS if scalars is None else scalars
    entries = draw(st.lists(st.tuples(keys, scalars), min_size=0, max_size=4,
                            unique_by=lambda entry: entry[0]))
    sep = draw(st.sampled_from([", ", ",", " , "]))
    colon = draw(st.sampled_from([": ", ":", ":  "]))
    return "{" + sep.join(f"{k}{colon}{v}" for k, v in entries) + "}"


@st.composite
def line(draw) -> str:
    indent = " " * draw(INDENTS)
    kind = draw(st.sampled_from(["pair", "pair", "open", "item", "flow", "comment", "blank",
                                 "raw"]))
    if kind == "pair":
        text = f"{draw(KEYS)}: {draw(SCALARS)}{draw(COMMENTS)}"
    elif kind == "open":
        text = f"{draw(KEYS)}:{draw(COMMENTS)}"
    elif kind == "item":
        text = f"- {draw(SCALARS)}{draw(COMMENTS)}"
    elif kind == "flow":
        text = f"- {draw(flow())}{draw(COMMENTS)}"
    elif kind == "comment":
        text = "# " + draw(SCALARS)
    elif kind == "raw":
        text = draw(st.sampled_from(["---", "...", "\t- a", "a:\tb", "é: 1", "key:value"]))
    else:
        text = ""
    return indent + text + draw(st.sampled_from(["", "", "  "]))


loose = st.lists(line(), min_size=0, max_size=14).map("\n".join)


@st.composite
def block(draw, indent: int, depth: int, clean: bool) -> list[str]:
    """A block mapping as the configuration writes it: pairs, comments, and keys opening a
    more indented mapping or a list of words or of flow mappings."""
    keys, scalars = (GOOD_KEYS, WORDS) if clean else (KEYS, SCALARS)
    comments = st.sampled_from(["", " # note"]) if clean else COMMENTS
    rows = []
    step = draw(st.sampled_from([2, 2, 4, 1]))
    for key in draw(st.lists(keys, min_size=1, max_size=4, unique=clean)):
        pad = " " * indent
        kind = draw(st.sampled_from(["pair", "pair", "map", "list", "comment"]))
        if kind == "map" and depth < 3:
            rows.append(f"{pad}{key}:{draw(comments)}")
            rows += draw(block(indent + step, depth + 1, clean))
        elif kind == "list":
            rows.append(f"{pad}{key}:")
            items = draw(st.lists(st.one_of(scalars, flow(keys, scalars)), min_size=1,
                                  max_size=3))
            rows += [f"{pad}{' ' * step}- {item}{draw(comments)}" for item in items]
        elif kind == "comment":
            rows.append(f"{pad}# {draw(scalars)}")
        else:
            rows.append(f"{pad}{key}: {draw(scalars)}{draw(comments)}")
    return rows


structured = st.tuples(st.integers(0, 2), st.booleans()).flatmap(
    lambda start: block(start[0], 1, start[1])).map("\n".join)
documents = st.one_of(loose, structured)


def pyyaml(text: str):
    try:
        return yamlparse.parse(text, "f.yaml")
    except SourceError as exc:
        return exc


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_what_the_subset_reads_is_exactly_what_pyyaml_reads(text):
    ours = yamlsubset.read(text, "f.yaml")
    if ours is not None:
        theirs = pyyaml(text)
        assert not isinstance(theirs, SourceError), (text, theirs)
        assert ours.data == theirs.data and ours.lines == theirs.lines, text
        assert repr(ours.data) == repr(theirs.data), text  # True is not 1, 7 is not "7"


def test_the_shipped_configuration_is_read_by_the_subset():
    """The subset covers what a user starts from: the shipped file, and its usual edits."""
    text = SHIPPED_CONFIG.read_text(encoding="utf-8")
    edited = text.replace("  backend: sim", "  backend: gpio\n  pin_factory: mock") \
                 .replace("  # width: 800 ", "  width: 800   ").replace("enabled: no", "enabled: yes")
    for source in (text, edited):
        ours = yamlsubset.read(source, "config.yaml")
        assert ours is not None
        assert ours == yamlparse.parse(source, "config.yaml")


@pytest.mark.parametrize("text", [
    "seats:\n  - {name: Ana, colour: red}\n  - {name: Ana, colour: red, colour: blue}\n",
    "language: en\nlanguage: fr\n",  # a key given twice: PyYAML's message
    "hardware:\n  backend: 'sim\n",  # an unclosed quote
    "a:\n  b: 1\n c: 2\n",  # a dedent to nowhere
])
def test_what_the_subset_leaves_keeps_pyyaml_s_message_and_line(text):
    assert yamlsubset.read(text, "f.yaml") is None
    with pytest.raises(SourceError) as ours:
        parse(text, "f.yaml")
    assert str(ours.value) == str(pyyaml(text))
    assert str(ours.value).startswith("f.yaml:")


def test_a_config_typo_read_by_the_subset_still_names_its_line(tmp_path):
    text = SHIPPED_CONFIG.read_text(encoding="utf-8").replace("  backend: sim", "  backend: gpoi")
    assert yamlsubset.read(text, "config.yaml") is not None  # the subset read it
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  backend: gpoi") + 1
    with pytest.raises(Exception, match=rf"config.yaml:{line}: hardware.backend"):
        load_config(path)
