"""The catalogs' packaged parsed copies (``en.parsed.json`` beside ``en.yaml``): exactly
what the YAML parses to, read instead of it while made from its very bytes, never when
the YAML changed since or the copy is damaged, missing or not a regular file."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading

import pytest

from bench.attacks import special_file
from companion.files import packaged, yamlparse, yamlsrc


@pytest.mark.parametrize("source", packaged.packaged_sources(), ids=lambda p: p.name)
def test_each_packaged_copy_is_what_its_yaml_parses_to(source):
    """Fails after a catalog is edited until ``python -m companion.files.packaged`` is run."""
    copy = yamlsrc.packaged_copy_path(source)
    assert copy.is_file(), f"{copy.name} missing: run {packaged.MADE_BY}"
    assert copy.read_bytes() == packaged.made_copy(source), \
        f"{copy.name} is not what {source.name} parses to: run {packaged.MADE_BY}"
    data = json.loads(copy.read_bytes().split(b"\n", 1)[1])
    assert data == yamlsrc.load(source).data == yamlparse.load_data(source.read_bytes())


def _no_yaml(monkeypatch) -> None:
    def parsed(*args, **kwargs):
        raise AssertionError("a shipped YAML file was parsed")

    monkeypatch.setattr(yamlparse.yaml, "load", parsed)
    monkeypatch.setattr(yamlparse, "parse", parsed)


@pytest.mark.parametrize("source", packaged.packaged_sources(), ids=lambda p: p.name)
def test_a_shipped_catalog_is_read_from_its_packaged_copy_without_yaml(source, tmp_path,
                                                                       monkeypatch):
    expected = yamlsrc.load(source).data
    _no_yaml(monkeypatch)
    cache = tmp_path / "cache"
    assert yamlsrc.load_shipped(source, cache) == expected
    assert not cache.exists()  # nothing to keep: a first boot writes no copy either


@pytest.fixture
def catalog(tmp_path):
    """A copy of the English catalog and of its packaged copy, to spoil."""
    source = tmp_path / "en.yaml"
    shutil.copyfile(packaged.packaged_sources()[0], source)
    copy = yamlsrc.packaged_copy_path(source)
    copy.write_bytes(packaged.made_copy(source))
    return source, copy


def test_the_yaml_edited_since_its_copy_was_made_is_read_itself(catalog, tmp_path):
    source, _ = catalog
    name = yamlsrc.load(source).data["app"]["name"]
    source.write_text(source.read_text(encoding="utf-8").replace(name, "Renamed", 1),
                      encoding="utf-8")
    assert yamlsrc.load_shipped(source, tmp_path / "cache")["app"]["name"] == "Renamed"


@pytest.mark.parametrize("damage", ["edited", "cut short", "no header", "missing"])
def test_a_damaged_or_missing_copy_is_not_read(catalog, tmp_path, damage):
    source, copy = catalog
    expected = yamlsrc.load(source).data
    text = copy.read_bytes()
    if damage == "edited":
        copy.write_bytes(text.replace(b'"Table companion"', b'"HACKED"', 1))
    elif damage == "cut short":
        copy.write_bytes(text[:-40])
    elif damage == "no header":
        copy.write_bytes(text.split(b"\n", 1)[1])
    else:
        copy.unlink()
    assert yamlsrc.load_shipped(source, tmp_path / "cache") == expected


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_a_copy_that_is_a_fifo_dev_zero_or_huge_is_never_read(catalog, tmp_path, kind):
    """In a thread, so that a hang fails the test instead of hanging it."""
    source, copy = catalog
    expected = yamlsrc.load(source).data
    special_file(copy, kind)
    got: list = []
    reader = threading.Thread(
        target=lambda: got.append(yamlsrc.load_shipped(source, tmp_path / "cache")), daemon=True)
    reader.start()
    reader.join(30)
    assert got == [expected]


@pytest.mark.parametrize("data", [b"", b"abc", "Koryŏ".encode(), os.urandom(200_000)],
                         ids=["empty", "abc", "utf-8", "200k random"])
def test_the_copies_sha256_is_hashlibs(data):
    """The copies' digests are taken without hashlib (its OpenSSL costs start-up time)."""
    assert yamlsrc.sha256_hex(data) == hashlib.sha256(data).hexdigest()
