"""`companion demo --out DIR`: plays the scripted session headless
through the real app loop and writes at least one screenshot per screen it passes through
plus a transcript; a bad --size exits 2 naming the option; --lang fr speaks French; the
demo's journal and history live in a temporary directory beside DIR, not in DIR."""

from __future__ import annotations

import re

import pygame
import pytest

from companion import cli
from companion.i18n import load_catalog
from companion.ui import demo as demo_mod
from companion.ui.demo import run_demo

QUICK = {"home": "companion.ui.demo.home", "table-check": "companion.ui.demo.table_check"}


@pytest.fixture(scope="module")
def full_demo(tmp_path_factory):
    """Every script of DEMOS once, at the 7" panel's size, in English."""
    out = tmp_path_factory.mktemp("demo") / "out"
    return out, run_demo(out, (800, 480), "en")


def test_a_screenshot_of_every_screen_passed_through(full_demo):
    out, ctx = full_demo
    names = [p.name for p in out.glob("*.png")]
    assert len(names) == len(ctx.shots) and names
    assert {"home", "table-check"} <= set(ctx.seen)
    unshot = [
        screen
        for screen in ctx.seen
        if not any(re.fullmatch(rf"\d+-{re.escape(screen)}(-.+)?\.png", n) for n in names)
    ]
    assert unshot == []


def test_screenshots_are_real_frames_of_the_size(full_demo):
    _, ctx = full_demo
    for path in ctx.shots[:3]:
        image = pygame.image.load(str(path))
        assert image.get_size() == (800, 480)
        assert len({image.get_at((x, 240))[:3] for x in range(0, 800, 10)}) > 3  # not blank


def test_transcript_says_what_happened(full_demo):
    out, ctx = full_demo
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    assert text.startswith("== home (800x480, en)")
    for name in demo_mod.DEMOS:
        assert f"== {name} (800x480, en)" in text
    assert "seat 1 (Ben) button A short" in text
    assert "lights: Ana=" in text
    for path in ctx.shots:
        assert f"screenshot {path.name}" in text


def test_demo_keeps_its_data_out_of_dir_and_removes_it(full_demo):
    """Only screenshots and the transcript in DIR; the temporary journal/history beside it
    are gone afterwards."""
    out, _ = full_demo
    assert {p.suffix for p in out.iterdir()} == {".png", ".txt"}
    assert [p.name for p in out.parent.iterdir()] == ["out"]


@pytest.mark.parametrize("size", ["abc", "800x", "10x10", "800x480x2", "5000x480"])
def test_bad_size_exits_2_naming_the_option(tmp_path, capsys, size):
    code = cli.main(["demo", "--out", str(tmp_path / "out"), "--size", size])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("companion demo: --size: ") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_lang_fr_uses_french_texts(tmp_path, monkeypatch, capsys):
    """In French, the transcript shows the French catalog's texts (and not the English)."""
    monkeypatch.setattr(demo_mod, "DEMOS", QUICK)
    out = tmp_path / "out"
    assert cli.main(["demo", "--out", str(out), "--lang", "fr", "--size", "1280x720"]) == 0
    assert (
        capsys.readouterr().out
        == f"{out}: {len(list(out.glob('*.png')))} screenshots and transcript.txt\n"
    )
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    fr, en = load_catalog("fr"), load_catalog("en")
    for key in ("home.choose", "table_check.title", "table_check.prompt"):
        assert fr.text(key) in text
        assert en.text(key) not in text
    assert fr.text("home.seat_here", name="Ben") in text
    assert pygame.image.load(str(next(out.glob("01-home*.png")))).get_size() == (1280, 720)


def test_screenshots_catch_the_blinking_lights_lit(tmp_path, monkeypatch):
    """A picture shows a light that is on as lit (a blink's lit phase, the one a player
    sees glancing at the pad), except the one shot made to show the dark phase."""
    from companion.hardware.base import BLINKING

    monkeypatch.setattr(demo_mod, "DEMOS", {k: v for k, v in demo_mod.DEMOS.items()
                                            if k in ("home", "table-check", "koryo")})
    shot = demo_mod.DemoContext.shot
    dark, blinking = [], []

    def checked(self, name: str = "", lit: bool = True):
        path = shot(self, name) if lit else shot(self, name, lit)
        now = self.clock.now_ms()
        on = [i for i in range(len(self.app.seats)) if self.backend.light(i) in BLINKING]
        if on:
            blinking.append(path.name)
            if not any(any(self.backend.shown(i, now)) for i in on):
                dark.append(path.name)
        return path

    monkeypatch.setattr(demo_mod.DemoContext, "shot", checked)
    run_demo(tmp_path / "out", (800, 480), "en")
    assert len(blinking) > 10
    assert [n for n in dark if "blink-dark" not in n] == []


def test_seats_and_only_play_one_script_with_five_seats(tmp_path, capsys):
    """``--seats 5 --only home``: Home alone, with the shipped four seats and Eve."""
    out = tmp_path / "out"
    assert cli.main(["demo", "--out", str(out), "--seats", "5", "--only", "home"]) == 0
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    assert text.startswith("== home (800x480, en)") and "== table-check" not in text
    assert "Eve=" in text and "Ana=" in text


def test_names_rename_the_seats_in_order_and_a_bad_one_is_said(tmp_path, capsys):
    """``--names Zoé,Ünal``: the first two seats renamed, the others kept; ``--names long``
    the demo's long names; a name the configuration would refuse: exit 2, said, nothing
    written."""
    out = tmp_path / "out"
    assert cli.main(["demo", "--out", str(out), "--names", "Zoé,Ünal", "--only", "home"]) == 0
    text = (out / "transcript.txt").read_text(encoding="utf-8")
    assert "Zoé=" in text and "Ünal=" in text and "Cleo=" in text and "Ana=" not in text
    long_out = tmp_path / "long"
    assert cli.main(["demo", "--out", str(long_out), "--seats", "5", "--names", "long",
                     "--only", "home"]) == 0
    text = (long_out / "transcript.txt").read_text(encoding="utf-8")
    assert all(f"{name}=" in text for name in demo_mod.LONG_NAMES)
    bad = tmp_path / "bad"
    assert cli.main(["demo", "--out", str(bad), "--names", "Ana," + "x" * 30]) == 2
    assert "--names" in capsys.readouterr().err and not bad.exists()


def test_only_names_a_script_of_the_demo(tmp_path, capsys):
    """``--only`` takes the names DEMOS plays, no other: a wrong one exits 2."""
    from companion.commands.demo import SCRIPTS

    assert SCRIPTS == tuple(demo_mod.DEMOS)
    with pytest.raises(SystemExit) as exit_:
        cli.main(["demo", "--out", str(tmp_path / "out"), "--only", "kings"])
    assert exit_.value.code == 2 and "--only" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
