"""Configuration: every mistake is one message naming file, line and field, exit 2 from
`companion check-config`, never a traceback; the shipped default runs on the simulator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import config as cfg
from companion.cli import main
from companion.config import Config, default_config_path, load_config
from companion.files import yamlsrc
from companion.files.yamlsrc import SourceError
from companion.hardware.profile import profile_path

GOOD = """\
language: fr
seats:
  - {name: Ana, colour: red, position: bottom}
  - {name: Ben, colour: "#0a0B0c", position: top}
  - name: Cleo
    colour: Purple
    position: left
hardware:
  backend: sim
  debounce_ms: 15
  long_press_ms: 600
display:
  width: 1024
  height: 600
  rotation: 180
  fullscreen: no
data_dir: state
"""


def write(tmp_path: Path, text: str, name: str = "config.yaml") -> Path:
    f = tmp_path / name
    f.write_text(text)
    return f


def error_of(tmp_path: Path, text: str) -> str:
    f = write(tmp_path, text)
    with pytest.raises(SourceError) as info:
        load_config(f)
    return str(info.value)


def replace(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


def test_shipped_default_is_valid_and_uses_the_simulator():
    config = load_config(cfg.SHIPPED_CONFIG)
    assert isinstance(config, Config)
    assert config.hardware.backend == "sim"
    assert 2 <= len(config.seats) <= 5
    assert config.display.fullscreen == "auto"


def test_good_file_becomes_frozen_objects(tmp_path):
    f = write(tmp_path, GOOD)
    config = load_config(f)
    assert config.language == "fr"
    assert [s.name for s in config.seats] == ["Ana", "Ben", "Cleo"]
    assert config.seats[0].colour == cfg.COLOURS["red"]
    assert config.seats[1].colour == (10, 11, 12)  # "#rrggbb", case-insensitive
    assert config.seats[2].colour == cfg.COLOURS["purple"]
    assert [s.position for s in config.seats] == ["bottom", "top", "left"]
    assert config.hardware == cfg.HardwareConfig("sim", None, None, None, 15, 600)
    # YAML reads a bare `no` as false: it still means fullscreen "no".
    assert config.display == cfg.DisplayConfig(1024, 600, 180, "no")
    assert config.data_dir == tmp_path.resolve() / "state"  # relative to the config file
    with pytest.raises(AttributeError):
        config.language = "en"  # type: ignore[misc]


def test_defaults_for_optional_blocks(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    f = write(
        tmp_path,
        "seats:\n  - {name: A, colour: red, position: bottom}\n"
        "  - {name: B, colour: blue, position: top}\n",
    )
    config = load_config(f)
    assert config.language == "en"
    assert config.hardware == cfg.HardwareConfig("sim")
    assert config.display == cfg.DisplayConfig(None, None, 0, "auto")
    assert config.data_dir == tmp_path / "data"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a typo in a key: the closest known key is suggested
        (
            "    colour: Purple",
            "    color: Purple",
            ":6: seats.2.color: unknown key (did you mean 'colour'?)",
        ),
        (
            "  debounce_ms: 15",
            "  debounse_ms: 15",
            ":10: hardware.debounse_ms: unknown key (did you mean 'debounce_ms'?)",
        ),
        ("language: fr", "langage: fr", ":1: langage: unknown key (did you mean 'language'?)"),
        # an unknown key with nothing close
        ("  rotation: 180", "  brightness: 3", ":15: display.brightness: unknown key;"),
        # wrong types
        (
            "  width: 1024",
            "  width: wide",
            ":13: display.width: expected a whole number, got 'wide'",
        ),
        (
            "  long_press_ms: 600",
            "  long_press_ms: [600]",
            ":11: hardware.long_press_ms: expected a whole number",
        ),
        ("  - {name: Ana,", "  - {name: 12,", ":3: seats.0.name: expected a player name, got 12"),
        ("data_dir: state", "data_dir: [state]", ":17: data_dir: expected text, got a list"),
        # unknown colour / position / backend / language / rotation / fullscreen
        (
            "colour: Purple",
            "colour: purpel",
            ":6: seats.2.colour: unknown colour 'purpel' (did you mean 'purple'?)",
        ),
        ("colour: red,", "colour: '#12345',", ":3: seats.0.colour: unknown colour '#12345'"),
        ("position: top}", "position: up}", ":4: seats.1.position: unknown position 'up'"),
        (
            "position: bottom}",
            "position: botom}",
            ":3: seats.0.position: unknown position 'botom' (did you mean 'bottom'?)",
        ),
        (
            "backend: sim",
            "backend: gpoi",
            ":9: hardware.backend: unknown backend 'gpoi' (did you mean 'gpio'?)",
        ),
        ("language: fr", "language: de", ":1: language: unknown language 'de'"),
        ("rotation: 180", "rotation: 45", ":15: display.rotation: unknown rotation 45"),
        (
            "fullscreen: no",
            "fullscreen: maybe",
            ":16: display.fullscreen: unknown fullscreen mode 'maybe'",
        ),
        # duplicate names (case-insensitive) and positions
        ("name: Ben", "name: ana", ":4: seats.1.name: ana is already seat 0"),
        ("position: left", "position: bottom", ":7: seats.2.position: seat 0 already sits at bottom"),
        # missing field, out-of-range values
        (", position: top}", "}", ":4: seats.1.position: missing"),
        (
            "long_press_ms: 600",
            "long_press_ms: 10",
            ":11: hardware.long_press_ms: 10 is below the minimum 100",
        ),
    ],
)
def test_each_error_names_file_line_and_field(tmp_path, old, new, expected):
    message = error_of(tmp_path, replace(old, new))
    assert message.startswith(str(tmp_path / "config.yaml") + ":")
    assert expected in message


@pytest.mark.parametrize("n", [0, 1, 6])
def test_seats_outside_2_to_5_refused(tmp_path, n):
    positions = cfg.POSITIONS
    seats = "".join(
        f"  - {{name: P{i}, colour: red, position: {positions[i]}}}\n" for i in range(n)
    )
    text = "language: en\nseats:\n" + seats if n else "language: en\nseats: []\n"
    message = error_of(tmp_path, text)
    assert f":2: seats: {n} {'seat' if n == 1 else 'seats'}, the table takes 2–5" in message


def test_long_press_must_outlast_debounce(tmp_path):
    text = replace("debounce_ms: 15", "debounce_ms: 450").replace("press_ms: 600", "press_ms: 400")
    message = error_of(tmp_path, text)
    assert ":11: hardware.long_press_ms: 400 ms must be longer than debounce_ms (450 ms)" in message


def test_blocks_must_be_mappings(tmp_path):
    text = replace(
        "hardware:\n  backend: sim\n  debounce_ms: 15\n  long_press_ms: 600\n", "hardware: sim\n"
    )
    assert ":8: hardware: expected a mapping, got 'sim'" in error_of(tmp_path, text)


def test_seats_must_be_a_list(tmp_path):
    assert ":1: seats: expected a list of seats" in error_of(tmp_path, "seats: {a: 1}\n")


def test_empty_file_and_missing_seats(tmp_path):
    assert "the file is empty" in error_of(tmp_path, "")
    assert "seats: missing" in error_of(tmp_path, "language: en\n")


def test_yaml_syntax_error_and_duplicate_key_name_the_line(tmp_path):
    assert ":4: not valid YAML" in error_of(tmp_path, "language: en\nseats:\n  - [a\n")
    assert "given twice" in error_of(tmp_path, "language: en\nlanguage: fr\n")


# --- wiring profiles (through companion.hardware.profile.load_profile) -----------------

PROFILE_GOOD = """\
kind: gpio
seats:
  - buttons: {a: 4, b: 17, c: 27}
    light: {led: 22}
  - buttons: {a: 5, b: 6, c: 13}
    light: {led: 19}
  - buttons: {a: 26, b: 16, c: 20}
    light: {led: 21}
"""


def gpio_config(profile: str) -> str:
    return replace("  backend: sim\n", f"  backend: gpio\n  profile: {profile}\n")


def test_profile_path_resolved_relative_to_config_file(tmp_path):
    (tmp_path / "wiring").mkdir()
    write(tmp_path, PROFILE_GOOD, "wiring/mine.yaml")
    config = load_config(write(tmp_path, gpio_config("wiring/mine.yaml")))
    assert config.hardware.profile == tmp_path.resolve() / "wiring" / "mine.yaml"


def test_profile_bare_name_is_a_shipped_profile(tmp_path):
    config = load_config(write(tmp_path, gpio_config("gpio-5-seats")))
    assert config.hardware.profile == profile_path("gpio-5-seats")


def test_unknown_shipped_profile_suggests_closest(tmp_path):
    message = error_of(tmp_path, gpio_config("gpio-5-seat"))
    assert ":10: hardware.profile: no shipped wiring profile 'gpio-5-seat'" in message
    assert "did you mean 'gpio-5-seats'?" in message


def test_pin_used_twice_in_profile_reported_through_check_config(tmp_path):
    """A pin wired twice is reported with both the config line and the profile line."""
    write(tmp_path, PROFILE_GOOD.replace("b: 6", "b: 17"), "twice.yaml")
    message = error_of(tmp_path, gpio_config("twice.yaml"))
    assert ":10: hardware.profile: wiring profile: " in message
    where = f"{tmp_path.resolve() / 'twice.yaml'}:5"
    assert f"{where}: seats.1.buttons.b: GPIO17 is already used" in message


def test_profile_with_fewer_seats_than_config_refused(tmp_path):
    short = "\n".join(PROFILE_GOOD.splitlines()[:6]) + "\n"  # two seats wired, three in config
    write(tmp_path, short, "two.yaml")
    assert "wires 2 seats, the configuration has 3" in error_of(tmp_path, gpio_config("two.yaml"))


def test_profile_kind_must_match_backend(tmp_path):
    message = error_of(tmp_path, gpio_config("serial-pads"))
    assert "hardware.profile:" in message and "is a serial profile, the backend is gpio" in message


def test_missing_profile_file(tmp_path):
    assert "nope.yaml: no such file" in error_of(tmp_path, gpio_config("nope.yaml"))


# --- default path -----------------------------------------------------------------------


def test_default_config_path_order(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert default_config_path() == cfg.SHIPPED_CONFIG  # no user file yet
    user = tmp_path / "xdg" / "companion" / "config.yaml"
    user.parent.mkdir(parents=True)
    user.write_text(GOOD)
    assert default_config_path() == user
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "explicit.yaml"))
    assert default_config_path() == tmp_path / "explicit.yaml"


# --- the command ------------------------------------------------------------------------


def test_check_config_ok_line(tmp_path, capsys):
    f = write(tmp_path, GOOD)
    assert main(["check-config", str(f)]) == 0
    assert capsys.readouterr().out.strip() == f"{f}: OK — 3 seats, backend sim"


def test_check_config_without_file_checks_the_default(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_CONFIG", str(write(tmp_path, GOOD)))
    assert main(["check-config"]) == 0
    assert "OK — 3 seats" in capsys.readouterr().out


@pytest.mark.parametrize(
    "text",
    [
        replace("    colour: Purple", "    color: Purple"),
        replace("backend: sim", "backend: 3"),
        "seats: [[1, 2]]\n",
        "- just\n- a list\n",
        "\x00\x01 binary\n",
    ],
)
def test_check_config_errors_exit_2_without_traceback(tmp_path, capsys, text):
    f = write(tmp_path, text)
    assert main(["check-config", str(f)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "Traceback" not in err
    assert err.startswith(f"companion check-config: {f}")


def test_check_config_on_a_directory_or_missing_file_exits_2(tmp_path, capsys):
    assert main(["check-config", str(tmp_path)]) == 2
    assert main(["check-config", str(tmp_path / "none.yaml")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "no such file" in err


def test_check_config_reports_every_mistake_of_a_file_in_one_run(tmp_path, capsys):
    """A file with many mistakes needs one run: one line each, in the order of the file,
    exit 2; one bad value does not hide the next one of the same seat or block."""
    f = write(tmp_path, """\
language: de
seats:
  - {name: Ana, colour: purpel, position: bottom}
  - {name: ana, colour: blue, position: bottom}
  - {name: Cleo, colour: green, position: topp, extra: 1}
hardware:
  backend: serail
  debounce_ms: 900
display: {width: 10, rotation: 45, fullscreen: maybe}
""")
    assert main(["check-config", str(f)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert [line.split(": ")[1:3] for line in lines] == [
        [f"{f}:1", "language"],
        [f"{f}:3", "seats.0.colour"],
        [f"{f}:4", "seats.1.name"],
        [f"{f}:4", "seats.1.position"],
        [f"{f}:5", "seats.2.extra"],
        [f"{f}:5", "seats.2.position"],
        [f"{f}:7", "hardware.backend"],
        [f"{f}:8", "hardware.debounce_ms"],
        [f"{f}:9", "display.width"],
        [f"{f}:9", "display.rotation"],
        [f"{f}:9", "display.fullscreen"],
    ]
    assert all(line.startswith(f"companion check-config: {f}:") for line in lines)
    assert "did you mean 'purple'" in lines[1] and "ana is already seat 0" in lines[2]


def test_a_mistake_that_stops_the_check_is_still_reported_with_the_others(tmp_path):
    """Seats that are not a list can't be checked further; the other blocks still are."""
    f = write(tmp_path, "seats: 4\ndisplay: {rotation: 45}\nlanguage: xx\n")
    with pytest.raises(SourceError) as caught:
        load_config(f)
    assert [m.split(": ")[1] for m in caught.value.messages] == ["seats", "display.rotation",
                                                                 "language"]


def test_check_config_reports_every_mistake_of_its_wiring_profile_too(tmp_path, capsys):
    """The profile the file names is checked whole in the same run: each of its mistakes
    one line, after the configuration's own line and field."""
    profile = write(tmp_path, """\
kind: gpio
seats:
  - buttons: {a: 5, b: 5, c: 6}
    light: {led: 7}
  - buttons: {a: 8, b: 9, c: 10}
    light: {led: 99}
""", name="pads.yaml")
    f = write(tmp_path, """\
seats:
  - {name: Ana, colour: red, position: bottom}
  - {name: Ben, colour: blue, position: top}
hardware:
  backend: gpio
  profile: pads.yaml
  debounce_ms: 900
""")
    assert main(["check-config", str(f)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[1:3] for line in lines] == [
        [f"{f}:6", "hardware.profile"], [f"{f}:6", "hardware.profile"],
        [f"{f}:7", "hardware.debounce_ms"]]
    assert f"{profile}:3: seats.0.buttons.b: GPIO5 is already used" in lines[0]
    assert f"{profile}:6: seats.1.light.led: GPIO99 is not a usable pin" in lines[1]


ENGLISH = re.compile(r"\b(a|an|the|of|is|are|not|did|you|mean|one|nothing|mapping|list|"
                     r"expected|got|missing|wiring|profile|unknown|already|used)\b")


# What a refusal quotes from the file or the system rather than says: quoted values, paths,
# dotted fields, a key before its colon, YAML's true/false.
QUOTED = re.compile(r"'[^']*'|\S*/\S*|\b[\w-]+(\.[\w-]+)+|\b[\w-]+(?=:)|\b(true|false)\b")


def ours(refusal: str) -> str:
    """The words of a refusal that are ours to translate."""
    return QUOTED.sub("", refusal)


def french_refusals(path: Path) -> list[str]:
    """Every mistake of the configuration ``path`` as the French screens say it."""
    from companion.files.validate import Mistakes
    from companion.files.yamlsrc import load
    from companion.i18n import load_catalog
    from companion.play.errors import RuleError

    mistakes = Mistakes()
    try:
        cfg._config(load(path), mistakes)
    except RuleError as exc:
        mistakes.errors.append(exc)
    return [load_catalog("fr").refusal(e) for e in mistakes.errors]


def test_french_refusals_of_a_configuration_and_its_profile_hold_no_english(tmp_path):
    """Suggestions, kinds of values and a profile's own mistakes are said in French; only
    what the file wrote (keys, values, names of colours) stays as written."""
    write(tmp_path, "kind: gpio\npull_up: maybe\nseats:\n  - buttons: {a: 5, b: 5}\n"
                    "    light: {led: [1]}\n", name="pads.yaml")
    f = write(tmp_path, """\
seats:
  - {name: Ana, colour: purpel, position: bottm}
  - {name: [Ben], colour: blue, position: top}
hardware: {backend: gpio, profile: pads.yaml, debounce_ms: ~}
display: {rotation: 45, fullscreen: {}}
langage: fr
""")
    said = french_refusals(f)
    assert len(said) >= 8
    assert "couleur inconnue 'purpel' (vouliez-vous dire 'purple' ?) ; au choix : red, blue, " \
           "green, yellow, purple, orange, white, cyan, pink ou #rrggbb" in said
    assert any("une liste" in s for s in said) and any("(vouliez-vous dire 'language' ?)" in s
                                                       for s in said)
    assert any(s.startswith("profil de câblage : ") and "déjà utilisée" in s for s in said)
    assert [s for s in said if ENGLISH.search(ours(s))] == []


def test_the_english_check_sees_english():
    from companion.i18n import load_catalog
    from companion.play.errors import RuleError

    fr = load_catalog("fr")
    said = fr.refusal(RuleError("x", "m", code="expected_list", params={"got": "a mapping"}))
    assert ENGLISH.search(ours(said))  # a plain English param would show through


def test_check_config_names_every_seat_name_the_font_cant_draw_with_the_other_mistakes(
        tmp_path, capsys):
    """An emoji in a name would be empty boxes at the table: said for each seat, in the
    same run and in the order of the file as the file's other mistakes."""
    f = write(tmp_path, """\
seats:
  - {name: "Ana \U0001F3B2", colour: red, position: bottom}
  - {name: Ben, colour: blu, position: top}
  - {name: "\U0001F409", colour: green, position: left}
""")
    assert main(["check-config", str(f)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(": ")[1:3] for line in lines] == [
        [f"{f}:2", "seats.0.name"], [f"{f}:3", "seats.1.colour"], [f"{f}:4", "seats.2.name"]]
    assert "the screen's font can't draw \U0001F3B2 (U+1F3B2)" in lines[0]
    assert "\U0001F409 (U+1F409)" in lines[2]


@pytest.mark.parametrize("text", [GOOD, "seats:\n  - {name: Ana, colour: blu, position: bottom}\n"])
def test_check_config_reads_the_file_once(tmp_path, monkeypatch, text):
    """Its mistakes and its seat names are checked on one reading of the file: a file
    changed between two readings could not give a report mixing both versions."""
    f = write(tmp_path, text)
    read = []
    real = yamlsrc.read_bounded
    monkeypatch.setattr(yamlsrc, "read_bounded", lambda *a, **kw: read.append(a[0]) or real(*a, **kw))
    main(["check-config", str(f)])
    assert read.count(f) + read.count(str(f)) == 1
