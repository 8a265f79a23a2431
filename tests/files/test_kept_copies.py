"""Kept parsed copies (the configuration's ``document-*.json``, the catalogs'
``parsed-*.json``) are an optimisation only: each holds the SHA-256 of its source's bytes
and a seal over its own data, and a copy that fails any check — edited, cut, forged with a
good seal but a value the file doesn't have, a FIFO, ``/dev/zero``, huge — is discarded and
the YAML parsed again. The reproductions of the attack run, one test each."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from bench.attacks import special_file
from companion.config import load_config
from companion.files import yamlsrc
from companion.i18n import catalog_path

CONFIG = """\
seats:
  - {name: Ana, colour: red, position: bottom}
  - {name: Ben, colour: blue, position: top}
hardware: {backend: sim, debounce_ms: 30}
data_dir: data
"""


def _config(tmp_path: Path) -> tuple[Path, Path]:
    source = tmp_path / "c.yaml"
    source.write_text(CONFIG, encoding="utf-8")
    kept = tmp_path / "kept"
    kept.mkdir()
    load_config(source, kept)  # parsed, checked, kept
    return source, kept


def _copy(kept: Path, prefix: str) -> Path:
    [copy] = kept.glob(f"{prefix}-*.json")
    return copy


def _edit(copy: Path, change, *, reseal: bool) -> None:
    """Change the data of a kept copy; ``reseal``: as a forger who knows the format would,
    with the seal recomputed over the new data."""
    head, payload = copy.read_bytes().split(b"\n", 1)
    data = json.loads(payload)
    change(data)
    payload = json.dumps(data, ensure_ascii=False).encode("utf-8")
    header = json.loads(head)
    if reseal:
        header["seal"] = yamlsrc._seal(header["source_sha256"], header["parser"], payload)
    copy.write_bytes(json.dumps(header).encode("ascii") + b"\n" + payload)


def test_an_edited_data_dir_in_the_kept_configuration_is_not_used(tmp_path):
    source, kept = _config(tmp_path)

    def elsewhere(doc):
        doc["data"]["data_dir"] = str(tmp_path / "elsewhere")

    _edit(_copy(kept, "document-c"), elsewhere, reseal=False)
    assert load_config(source, kept).data_dir == tmp_path / "data"
    assert not (tmp_path / "elsewhere").exists()


def test_a_seat_added_to_the_kept_configuration_is_not_used(tmp_path):
    source, kept = _config(tmp_path)
    _edit(_copy(kept, "document-c"), lambda doc: doc["data"]["seats"].append(
        {"name": "Eve", "colour": "green", "position": "left"}), reseal=False)
    assert [s.name for s in load_config(source, kept).seats] == ["Ana", "Ben"]


def test_a_value_only_the_copy_has_is_never_blamed_on_the_yaml(tmp_path):
    """A copy holding ``debounce_ms: 900`` (above the maximum), sealed or not: the file is
    parsed again and its own valid value used; no "c.yaml:1: … 900" message."""
    source, kept = _config(tmp_path)
    for reseal in (False, True):
        _edit(_copy(kept, "document-c"),
              lambda doc: doc["data"]["hardware"].__setitem__("debounce_ms", 900), reseal=reseal)
        assert load_config(source, kept).hardware.debounce_ms == 30
        # and the copy kept now is the file's own again
        _head, payload = _copy(kept, "document-c").read_bytes().split(b"\n", 1)
        assert json.loads(payload)["data"]["hardware"]["debounce_ms"] == 30


def test_a_copy_made_for_other_bytes_is_not_used(tmp_path):
    """The copy's name matches (same size, same prefix) but its source hash is another
    file's: not used."""
    source, kept = _config(tmp_path)
    copy = _copy(kept, "document-c")
    head, payload = copy.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    header["source_sha256"] = "0" * 64
    header["seal"] = yamlsrc._seal(header["source_sha256"], header["parser"], payload)
    copy.write_bytes(json.dumps(header).encode() + b"\n" + payload.replace(b"Ana", b"Zed"))
    assert load_config(source, kept).seats[0].name == "Ana"


def test_a_catalog_copy_missing_a_key_or_edited_is_parsed_again(tmp_path):
    source = tmp_path / "en.yaml"
    source.write_bytes(catalog_path("en").read_bytes())
    kept = tmp_path / "cache"
    first = yamlsrc.load_shipped(source, kept)
    copy = _copy(kept, "parsed-en")
    _edit(copy, lambda data: data["home"].pop("choose"), reseal=False)
    assert yamlsrc.load_shipped(source, kept)["home"]["choose"] == first["home"]["choose"]
    _edit(_copy(kept, "parsed-en"), lambda data: data["home"].__setitem__("choose", "HACKED"),
          reseal=False)
    assert yamlsrc.load_shipped(source, kept)["home"]["choose"] == first["home"]["choose"]
    # cut short
    copy = _copy(kept, "parsed-en")
    copy.write_bytes(copy.read_bytes()[:-40])
    assert yamlsrc.load_shipped(source, kept) == first


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "huge"])
def test_a_copy_that_is_a_fifo_dev_zero_or_huge_is_never_read(tmp_path, kind):
    """In a thread, so that a hang fails the test instead of hanging it."""
    source, kept = _config(tmp_path)
    copy = _copy(kept, "document-c")
    special_file(copy, kind)
    got: list = []
    reader = threading.Thread(target=lambda: got.append(load_config(source, kept)),
                              daemon=True)
    reader.start()
    reader.join(30)
    assert got and got[0].hardware.debounce_ms == 30
    again = _copy(kept, "document-c")
    assert again.is_file() and not again.is_symlink() and again.stat().st_size < 10_000


def test_a_kept_copy_is_used_while_valid(tmp_path, monkeypatch):
    """The optimisation still works: a valid copy is read without parsing the YAML."""
    from companion.files import yamlparse

    source, kept = _config(tmp_path)

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlparse, "parse", no_parse)
    assert load_config(source, kept).seats[1].name == "Ben"


def test_a_wiring_profile_is_kept_in_the_kiosks_directory_and_follows_its_file(
        tmp_path, monkeypatch):
    """In the kiosk (``keep_shipped_in``), a wired configuration's profile is read back
    from its checked copy at the next start, without YAML; a profile edited since is read
    again, its mistake named with its line; outside the kiosk nothing is kept."""
    from companion.files import yamlparse
    from companion.hardware.profile import load_profile, profile_path

    profile = tmp_path / "pads.yaml"
    profile.write_bytes(profile_path("gpio-5-seats").read_bytes())
    load_profile(profile)
    kept = tmp_path / "kept"
    kept.mkdir()
    assert not list(kept.iterdir())
    monkeypatch.setattr(yamlsrc, "_kept_in", kept)
    first = load_profile(profile)  # parsed, checked, kept
    assert _copy(kept, "document-pads").is_file()

    def no_yaml(*args, **kwargs):
        raise AssertionError("parsed again")

    with monkeypatch.context() as m:
        m.setattr(yamlparse, "parse", no_yaml)
        assert load_profile(profile) == first
    text = profile.read_text(encoding="utf-8")
    assert text.count("{led: 22}") == 1
    line = text[:text.index("{led: 22}")].count("\n") + 1
    profile.write_text(text.replace("{led: 22}", "{led: 99}"), encoding="utf-8")
    with pytest.raises(yamlsrc.SourceError) as refused:
        load_profile(profile)
    assert f"pads.yaml:{line}:" in str(refused.value) and "99" in str(refused.value)


def test_a_new_copy_removes_its_own_older_versions_only(tmp_path):
    """``gpio.yaml``'s copy is ``document-gpio-…``, its profile ``gpio-5-seats``' is
    ``document-gpio-5-seats-…``: a new version of the one leaves the other's copy alone."""
    from companion.hardware.profile import profile_path

    kept = tmp_path / "kept"
    kept.mkdir()
    config = tmp_path / "gpio.yaml"
    config.write_text("a: 1\n", encoding="utf-8")
    profile = tmp_path / "gpio-5-seats.yaml"
    profile.write_bytes(profile_path("gpio-5-seats").read_bytes())
    yamlsrc.load_kept(config, "a file", kept)
    yamlsrc.load_kept(profile, "a file", kept)
    config.write_text("a: 2\n", encoding="utf-8")
    assert yamlsrc.load_kept(config, "a file", kept).data == {"a": 2}
    assert len(list(kept.glob("document-gpio-5-seats-*.json"))) == 1
    assert len(list(kept.glob("document-*.json"))) == 2  # the config's old version is gone
