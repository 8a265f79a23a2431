"""What start-up loads: a sub-command imports only its own module, and `companion run`
has imported only what Home needs when its first frame is drawn (no game screens, no
King's Dilemma tables, no install-service). Counted in a fresh interpreter, not timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from companion.config import SHIPPED_CONFIG

# Runs `companion run` until its first frame is drawn (what follows it, the history
# opened, the loop, is not counted), then prints the companion modules loaded by then.
FIRST_FRAME = """
import json, sys
import companion.ui.app as app
class FirstFrame(Exception):
    pass
draw = app.App.render_if_dirty
def stop(self, *args, **kwargs):
    draw(self, *args, **kwargs)
    raise FirstFrame
app.App.render_if_dirty = stop
from companion import cli
try:
    cli.main(["run", "--config", sys.argv[1]])
except FirstFrame:
    pass
print(json.dumps(sorted(m for m in sys.modules
                        if m.startswith("companion") or m in ("pickle", "_hashlib", "yaml"))))
"""

PARSER = """
import json, sys
from companion import cli
cli.build_parser(cli.command_of(sys.argv[1:]))
print(json.dumps(sorted(m for m in sys.modules if m.startswith("companion.commands."))))
"""


def modules(code: str, *args: str, tmp_path) -> list[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1", COMPANION_DATA_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    return json.loads(out.splitlines()[-1])


def test_a_sub_command_imports_its_own_module_only(tmp_path):
    assert modules(PARSER, "score", "x.yaml", tmp_path=tmp_path) == ["companion.commands.score"]
    assert modules(PARSER, "run", tmp_path=tmp_path) == ["companion.commands.run"]
    assert modules(PARSER, "--help", tmp_path=tmp_path) == []


def test_run_draws_home_before_importing_any_game(tmp_path):
    loaded = modules(FIRST_FRAME, str(SHIPPED_CONFIG), tmp_path=tmp_path)
    assert "companion.ui.home" in loaded and "companion.ui.app" in loaded  # it did start
    for absent in ("companion.ui.screens.kings_dilemma.start", "companion.ui.screens.majority.koryo",
                   "companion.games.kings_dilemma.adapter", "companion.games.kings_dilemma.vote_file",
                   "companion.games.kings_dilemma.vote", "companion.commands.install_service",
                   "companion.commands.score",
                   "companion.storage.history",  # opened after the first frame
                   "pickle", "_hashlib"):  # the snapshots' and hashlib's (OpenSSL) imports
        assert absent not in loaded, absent
    # The catalog came from its packaged copy (tests/files/test_packaged_copies.py): not
    # parsed, so nothing kept in the data directory for the next start.
    assert not list(tmp_path.glob("parsed-*.json"))


def test_a_first_boot_draws_home_without_importing_yaml(tmp_path):
    """The shipped configuration is within the YAML ``yamlsubset`` reads: even a first
    start (nothing kept in the data directory) imports no PyYAML before Home."""
    first = modules(FIRST_FRAME, str(SHIPPED_CONFIG), tmp_path=tmp_path)
    assert "companion.files.yamlsubset" in first
    assert "companion.files.yamlparse" not in first and "yaml" not in first
    assert list(tmp_path.glob("document-*.json"))  # kept for the next start all the same


def test_a_second_start_draws_home_without_importing_yaml(tmp_path):
    """A configuration beyond the subset (a quoted value) parsed by PyYAML at one start is
    read back from its JSON copy in the data directory at the next: no PyYAML before Home."""
    config = tmp_path / "config.yaml"
    config.write_text(SHIPPED_CONFIG.read_text(encoding="utf-8")
                      .replace("\nlanguage: en", '\nlanguage: "en"'), encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    first = modules(FIRST_FRAME, str(config), tmp_path=data)
    assert "companion.files.yamlparse" in first  # nothing kept yet: parsed
    assert list(data.glob("document-*.json"))
    second = modules(FIRST_FRAME, str(config), tmp_path=data)
    assert "companion.ui.home" in second
    assert "companion.files.yamlparse" not in second


def test_a_kept_document_is_the_parsed_one_and_follows_its_file(tmp_path, monkeypatch):
    """``load_kept`` gives what ``load`` gives (data, lines, the path it was asked for),
    read back without parsing while the bytes are the same; a changed file is parsed
    afresh, its old copy removed; what JSON can't hold exactly is not kept; a bad file is
    the same ``SourceError`` as ``load``'s."""
    import pytest

    from companion.files import yamlparse, yamlsrc

    source = tmp_path / "config.yaml"
    source.write_text("language: en\nseats:\n  - name: Ann\n  - name: Ben\n", encoding="utf-8")
    kept = tmp_path / "kept"
    kept.mkdir()
    first = yamlsrc.load_kept(source, "a configuration file", kept)
    assert first == yamlsrc.load(source, "a configuration file")
    [copy] = kept.iterdir()
    real = yamlparse.parse

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlparse, "parse", no_parse)
    again = yamlsrc.load_kept(source, "a configuration file", kept)
    assert again == first and again.line_of("seats.1.name") == 4
    monkeypatch.undo()
    # an upgraded parser (its modules changed) parses the same bytes afresh
    parsed = []
    monkeypatch.setattr(yamlsrc, "parser_stamp", lambda: "upgraded")
    monkeypatch.setattr(yamlparse, "parse", lambda *a, **k: parsed.append(1) or real(*a, **k))
    assert yamlsrc.load_kept(source, "a configuration file", kept) == first and parsed == [1]
    assert [p.name.rsplit("-", 1)[1] for p in kept.iterdir()] == ["upgraded.json"]
    monkeypatch.undo()
    source.write_text("language: fr\nseats: []\n", encoding="utf-8")
    assert yamlsrc.load_kept(source, "a configuration file", kept).data["language"] == "fr"
    assert [p.name for p in kept.iterdir()] != [copy.name] and len(list(kept.iterdir())) == 1
    for unkept in ("when: 2026-11-23\n", "1: one\n", f"n: {'9' * 40}\n"):
        source.write_text(unkept, encoding="utf-8")
        assert yamlsrc.load_kept(source, "a configuration file", kept) == \
            yamlsrc.load(source, "a configuration file")
        assert not any(p.name.startswith(f"document-{source.stem}-{len(unkept)}-")
                       for p in kept.iterdir())
    source.write_text("seats: [\n", encoding="utf-8")
    with pytest.raises(yamlsrc.SourceError) as kept_error:
        yamlsrc.load_kept(source, "a configuration file", kept)
    with pytest.raises(yamlsrc.SourceError) as plain_error:
        yamlsrc.load(source, "a configuration file")
    assert str(kept_error.value) == str(plain_error.value)


def test_a_shipped_catalog_is_kept_parsed_and_read_back_whole(tmp_path, monkeypatch):
    """The first read of a shipped file keeps its data as JSON (named by size and CRC);
    the next read returns the same data from there without YAML; a changed file is read
    afresh (never its old data); a cache that can't be written only costs the parse."""
    from companion.files import yamlparse, yamlsrc
    from companion.i18n import catalog_path

    source = tmp_path / "en.yaml"
    source.write_bytes(catalog_path("en").read_bytes())
    kept = tmp_path / "cache"
    first = yamlsrc.load_shipped(source, kept)
    [cached] = kept.iterdir()
    assert json.loads(cached.read_bytes().split(b"\n", 1)[1]) == first  # after its header
    assert not list(kept.glob("*.part"))

    def no_yaml(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(yamlparse.yaml, "load", no_yaml)
    assert yamlsrc.load_shipped(source, kept) == first
    monkeypatch.undo()
    source.write_text(source.read_text(encoding="utf-8").replace(
        first["app"]["name"], "Renamed", 1), encoding="utf-8")
    assert yamlsrc.load_shipped(source, kept)["app"]["name"] == "Renamed"
    assert [p.name for p in kept.iterdir()] != [cached.name]  # the old version's is gone
    assert len(list(kept.iterdir())) == 1
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("", encoding="utf-8")
    assert yamlsrc.load_shipped(source, blocked)["app"]["name"] == "Renamed"
    dated = tmp_path / "dated.yaml"
    dated.write_text("when: 2026-11-23\n", encoding="utf-8")
    assert str(yamlsrc.load_shipped(dated, kept)["when"]) == "2026-11-23"
    assert not list(kept.glob("parsed-dated-*"))  # a date is not JSON: not kept


def test_theme_fonts_opened_by_path_are_pygames_default_font_at_every_size():
    """Theme.font opens pygame's default font from its path (no resource lookup per size):
    the same metrics and the same pixels as ``pygame.font.Font(None, px)``."""
    import pygame

    from companion.ui.theme import Theme

    pygame.font.init()
    theme = Theme((800, 480))
    text = "Koryŏ · Chosŏn — Hériter 123"
    for px in range(8, 161):
        ours, pygames = theme.font(px), pygame.font.Font(None, px)
        assert (ours.get_height(), ours.get_ascent(), ours.size(text)) == \
            (pygames.get_height(), pygames.get_ascent(), pygames.size(text)), px
        if px % 25 == 0:
            assert pygame.image.tobytes(ours.render(text, True, (255, 255, 255)), "RGBA") == \
                pygame.image.tobytes(pygames.render(text, True, (255, 255, 255)), "RGBA")
