"""Values from a file or a player, shown back safely: short, one line, no terminal escapes.

A message quotes what it refuses (``'purpel' is not a colour``); what it quotes comes from
whoever wrote the file. ``shown`` gives a bounded ``repr`` (a YAML alias bomb or a
4,000-digit number stays a few dozen characters, computed without building the whole
text); ``escaped`` turns control characters (ESC, CR, the C1 controls, bidirectional
overrides) into visible ``\\x1b``-style escapes, so a player's name can't move the
cursor, recolour or clear a terminal that prints a message or a plain table.
"""

from __future__ import annotations

import reprlib
import unicodedata

SHOWN_CHARS = 60  # a quoted value in a message
LINE_CHARS = 500  # a whole message line


class _ShortRepr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxlist = self.maxtuple = self.maxset = self.maxdict = 4
        self.maxstring = SHOWN_CHARS
        self.maxother = SHOWN_CHARS
        self.maxlong = 24

    def repr_int(self, x: int, level: int) -> str:
        # repr() itself refuses ints over sys.get_int_max_str_digits() digits.
        if x.bit_length() > 64:
            digits = int(x.bit_length() * 0.30103) + 1
            return f"{'-' if x < 0 else ''}<a number of about {digits} digits>"
        return repr(int(x))

    def repr_str(self, x: str, level: int) -> str:
        s = repr(x[: self.maxstring + 1])
        if len(x) > self.maxstring:
            s = s[: self.maxstring // 2] + "…" + s[-(self.maxstring // 2):]
        return escaped(s)


_SHORT = _ShortRepr()


def shown(value: object) -> str:
    """``repr(value)`` cut to a few dozen characters, control characters escaped."""
    text = escaped(_SHORT.repr(value))
    return text if len(text) <= 2 * SHOWN_CHARS else text[: 2 * SHOWN_CHARS - 1] + "…"


def _needs_escape(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") and ch not in "\u200d"


def escaped(text: str, keep: str = "") -> str:
    """``text`` with every control or format character (except those in ``keep``) written
    as ``\\xNN``/``\\uNNNN``: safe to print on a terminal."""
    if text.isprintable() and "\x7f" not in text:
        return text
    out = []
    for ch in text:
        if ch in keep or not _needs_escape(ch):
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)


def one_line(text: str, limit: int = LINE_CHARS) -> str:
    """A message for stderr or the log: escaped, on one line, at most ``limit`` characters."""
    text = escaped(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def terminal_safe(text: str) -> str:
    """Multi-line output (a plain table) with control characters escaped but its line
    breaks kept."""
    return escaped(text, keep="\n")
