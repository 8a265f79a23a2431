"""The shared frame codec (companion/hardware/padproto.py, flashed as padproto.py): CRC-8,
round trips, every single-bit corruption detected, and line splitting that survives any
chunking, garbage and overlong runs with bounded memory."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware import padproto
from companion.hardware.padproto import FrameError, LineSplitter, crc8, decode, encode

payloads = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="$*"),
    max_size=40,
)
seats = st.one_of(st.none(), st.integers(0, 99))
kinds = st.sampled_from(padproto._TYPES)


def test_crc8_is_crc8_smbus():
    assert crc8(b"123456789") == 0xF4  # the standard check value of CRC-8/SMBUS
    assert crc8(b"") == 0


def test_frame_layout_is_the_documented_one():
    assert encode(3, padproto.SHORT, "b,12") == b"$3,SHORT,b,12*" + b"%02X" % crc8(
        b"3,SHORT,b,12") + b"\n"
    assert encode(None, padproto.BEAT, "500").startswith(b"$-,BEAT,500*")


@given(seats, kinds, payloads)
def test_encode_then_decode_gives_back_the_frame(seat, kind, payload):
    assert decode(encode(seat, kind, payload)) == (seat, kind, payload)


@settings(max_examples=200)
@given(seats, kinds, payloads, st.data())
def test_any_single_bit_flip_is_refused(seat, kind, payload, data):
    frame = bytearray(encode(seat, kind, payload)[:-1])
    bit = data.draw(st.integers(0, len(frame) * 8 - 1))
    frame[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(FrameError):
        decode(bytes(frame))


@pytest.mark.parametrize(
    "line, why",
    [(b"", "not a frame"), (b"3,SHORT,a*00", "not a frame"), (b"$3,SHORT,a*ZZ", "bad checksum digits"),
     (b"$3,SHORT,a*" + b"%02x" % 0xAB, "bad checksum digits"),
     (b"$\xff,SHORT,a*00", "not ASCII"), (b"$3SHORTa*" + b"%02X" % crc8(b"3SHORTa"), "missing"),
     (b"$3,NOPE,a*" + b"%02X" % crc8(b"3,NOPE,a"), "unknown frame type"),
     (b"$x,SHORT,a*" + b"%02X" % crc8(b"x,SHORT,a"), "bad seat"),
     (b"$1,SHORT,\x01*" + b"%02X" % crc8(b"1,SHORT,\x01"), "not ASCII"),
     (b"$1,SHORT,a*b*" + b"%02X" % crc8(b"1,SHORT,a*b"), "not printable"),
     # digits that str.isdigit() takes but int() refuses or reads: superscript two, Arabic-Indic three
     ("$\u00b2,SHORT,a,950*".encode() + b"%02X" % crc8("\u00b2,SHORT,a,950".encode()), "not ASCII"),
     ("$\u0663,SHORT,a,1*".encode() + b"%02X" % crc8("\u0663,SHORT,a,1".encode()), "not ASCII"),
     (b"$00,SHORT,a,1*" + b"%02X" % crc8(b"00,SHORT,a,1"), "bad seat"),
     (b"$01,SHORT,a,1*" + b"%02X" % crc8(b"01,SHORT,a,1"), "bad seat"),
     (b"$100,SHORT,a,1*" + b"%02X" % crc8(b"100,SHORT,a,1"), "bad seat"),
     (b"$+1,SHORT,a,1*" + b"%02X" % crc8(b"+1,SHORT,a,1"), "bad seat")],
)
def test_malformed_lines_are_refused_with_a_reason(line, why):
    with pytest.raises(FrameError, match=why):
        decode(line)


def test_the_issue_frame_with_a_superscript_seat_is_refused_not_raised_elsewhere():
    """The frame that once killed the host's reader: a valid checksum over seat "²"."""
    with pytest.raises(FrameError, match="not ASCII"):
        decode(b"$\xc2\xb2,SHORT,a,950*FA\n")


@pytest.mark.parametrize(
    "text, digits, value",
    [("0", 2, 0), ("7", 2, 7), ("42", 2, 42), ("9999", 4, 9999), ("00", 2, None),
     ("07", 2, None), ("123", 2, None), ("", 2, None), ("-1", 2, None), (" 1", 2, None),
     ("\u00b2", 2, None), ("\u0663", 2, None), ("1.0", 4, None)],
)
def test_number_takes_ascii_digits_without_leading_zero_only(text, digits, value):
    assert padproto.number(text, digits) == value


@pytest.mark.parametrize("payload", ["a", "a,", "a,x", "a,10000", "a,007", "d,1", ",1", "a,1,2"])
def test_press_payload_needs_a_button_and_a_sequence_number(payload):
    with pytest.raises(FrameError):
        padproto.parse_press(payload)


def test_press_payload_gives_button_and_sequence_number():
    assert padproto.parse_press("c,9999") == ("c", 9999)
    assert padproto.parse_press("a,0") == ("a", 0)


def test_encode_refuses_what_it_cannot_frame():
    with pytest.raises(FrameError, match="unknown frame type"):
        encode(0, "SHOUT", "")
    with pytest.raises(FrameError, match="not printable"):
        encode(0, padproto.LIGHT, "a*b")
    with pytest.raises(FrameError, match="too long"):
        encode(0, padproto.ERR, "x" * 80)


@given(st.lists(st.tuples(seats, kinds, payloads), max_size=10), st.data())
def test_splitter_finds_every_frame_whatever_the_chunks_and_garbage(frames, data):
    garbage = st.binary(max_size=120).map(lambda b: b.replace(b"$", b"").replace(b"\n", b""))
    stream = b""
    for f in frames:
        stream += data.draw(garbage) + b"\n" + encode(*f)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=20)))
    splitter = LineSplitter()
    got = []
    for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += [decode(line) for line in splitter.feed(stream[a:b])]
        assert len(splitter._buf) <= padproto.MAX_FRAME
    assert got == frames


def test_splitter_drops_overlong_runs_and_resynchronises_on_dollar():
    splitter = LineSplitter()
    assert splitter.feed(b"x" * 500) == []
    assert splitter.dropped == 500
    good = encode(1, padproto.LONG, "a,3")
    assert splitter.feed(b"$2,SHO" + good) == [good[:-1]]  # a cut frame, then a whole one
    assert splitter.feed(b"$" + b"y" * 200 + b"\n") == []


def test_colour_table_covers_exactly_the_light_states():
    from companion.play.seat import Light

    assert set(padproto.COLOURS) == {light.value for light in Light}
    assert set(padproto.BLINKING) <= set(padproto.COLOURS)
