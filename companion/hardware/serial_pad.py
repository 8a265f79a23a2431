"""Seat pads on USB serial: one RP2040 serves every seat (firmware/, firmware/PROTOCOL.md).

A reader thread owns the port. It opens it with ``serial.serial_for_url`` (so a device
path, a ``/dev/serial/by-id/…`` link or a pyserial URL all work), says ``HOST``, and waits
for the pad's ``HELLO``; the pad then counts as connected: the host sends the timing and
every seat's current light, and forwards the pad's SHORT/LONG frames as button events.
Garbage bytes, partial lines and bad checksums are counted and logged, never raised. If
the port fails (unplugged) or the pad stays silent longer than the heartbeat timeout,
every seat is reported missing (``on_status(seat, False)``) and the thread reopens the
port with a growing pause (0.1 s doubling to 2 s) until the pad answers again.
"""

from __future__ import annotations

import logging
import threading
import time

import serial

from companion.hardware import padproto
from companion.hardware.base import ButtonHandler, SeatBackend, StatusHandler
from companion.seat import ButtonEvent, Light, Press

log = logging.getLogger(__name__)

RP2040_USB_VID = 0x2E8A  # Raspberry Pi (Pico, RP2040 boards running MicroPython)
BAUD = 115200  # ignored by USB CDC, used on a real UART
BACKOFF_S = (0.1, 2.0)


def find_pad_port() -> str | None:
    """The first USB serial device of an RP2040 board, or None."""
    from serial.tools import list_ports

    for info in sorted(list_ports.comports(), key=lambda i: i.device):
        if info.vid == RP2040_USB_VID:
            return info.device
    return None


class SerialBackend(SeatBackend):
    name = "serial"

    def __init__(
        self,
        port: str,
        seats: int,
        *,
        debounce_ms: int = 20,
        long_press_ms: int = 700,
        heartbeat_timeout_ms: int = 4 * padproto.BEAT_MS,
    ) -> None:
        self.port = port
        self.seats = seats
        self.debounce_ms = debounce_ms
        self.long_press_ms = long_press_ms
        self.heartbeat_timeout_ms = heartbeat_timeout_ms
        self.stats = {
            "frames": 0,  # valid frames received
            "bad_frames": 0,  # lines that failed the shape or checksum check
            "dropped_bytes": 0,  # garbage outside any frame
            "refused": 0,  # valid frames that made no sense (seat, button, type)
            "lost_events": 0,  # gaps in the pad's event sequence numbers
            "connects": 0,  # successful handshakes
            "pad_errors": 0,  # ERR frames from the pad
        }
        self._lights = [Light.OFF] * seats
        self._lock = threading.Lock()  # lights, writes, connection state
        self._stop = threading.Event()
        self._ser: serial.SerialBase | None = None
        self._pad_seats = 0  # seats of the connected pad; 0 while missing
        self._next_seq: int | None = None
        self._on_button: ButtonHandler | None = None
        self._on_status: StatusHandler | None = None
        self._thread: threading.Thread | None = None

    # -- SeatBackend ---------------------------------------------------------------

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None) -> None:
        self._on_button = on_button
        self._on_status = on_status
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="seat-pads", daemon=True)
            self._thread.start()

    def set_light(self, seat: int, light: Light) -> None:
        light = Light(light)
        with self._lock:
            self._lights[seat] = light
            if seat < self._pad_seats:
                self._send(seat, padproto.LIGHT, light.value)

    def light(self, seat: int) -> Light:
        return self._lights[seat]

    def connected(self, seat: int) -> bool:
        return seat < self._pad_seats

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self._on_button = None
        self._on_status = None

    # -- the reader thread -------------------------------------------------------------

    def _run(self) -> None:
        backoff = BACKOFF_S[0]
        while not self._stop.is_set():
            try:
                ser = serial.serial_for_url(self.port, baudrate=BAUD, timeout=0.05)
            except (serial.SerialException, OSError, ValueError) as exc:
                log.debug("seat pads: cannot open %s: %s", self.port, exc)
            else:
                if self._session(ser):
                    backoff = BACKOFF_S[0]
            if self._stop.wait(backoff):
                break
            backoff = min(backoff * 2, BACKOFF_S[1])

    def _session(self, ser: serial.SerialBase) -> bool:
        """Talk to the pad on an open port until it fails or we close; True if the pad
        answered at least once."""
        splitter = padproto.LineSplitter()
        answered = False
        with self._lock:
            self._ser = ser
        try:
            self._say_host()
            asked = last_rx = time.monotonic()
            while not self._stop.is_set():
                data = ser.read(ser.in_waiting or 1)
                now = time.monotonic()
                if data:
                    lines = splitter.feed(data)
                    self.stats["dropped_bytes"] = splitter.dropped
                    for line in lines:
                        if self._line(line):
                            last_rx = now
                            answered = answered or self._pad_seats > 0
                silent = now - last_rx > self.heartbeat_timeout_ms / 1000
                if silent and self._pad_seats:
                    log.warning("seat pads: silent for %d ms, marked missing",
                                self.heartbeat_timeout_ms)
                    self._set_missing()
                if not self._pad_seats and now - asked > self.heartbeat_timeout_ms / 1000:
                    self._say_host()  # ask again, e.g. after a pad reset
                    asked = now
        except (serial.SerialException, OSError) as exc:
            log.warning("seat pads: %s lost (%s)", self.port, exc)
        finally:
            with self._lock:
                self._ser = None
            if self._stop.is_set():
                self._pad_seats = 0  # closing: nobody to tell
            else:
                self._set_missing()
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
        return answered

    def _say_host(self) -> None:
        with self._lock:
            self._send(None, padproto.HOST, str(padproto.PROTOCOL_VERSION))

    def _send(self, seat: int | None, kind: str, payload: str) -> None:
        """Write one frame; lock held. A failing write is left to the reader to notice."""
        if self._ser is None:
            return
        try:
            self._ser.write(padproto.encode(seat, kind, payload))
        except (serial.SerialException, OSError) as exc:
            log.debug("seat pads: write failed: %s", exc)

    def _line(self, line: bytes) -> bool:
        """Handle one candidate line; True if it was a valid frame."""
        try:
            seat, kind, payload = padproto.decode(line)
        except padproto.FrameError as exc:
            self.stats["bad_frames"] += 1
            log.log(logging.WARNING if self.stats["bad_frames"] == 1 else logging.DEBUG,
                    "seat pads: bad frame %r (%s)", line[:40], exc)
            return False
        self.stats["frames"] += 1
        if kind == padproto.HELLO:
            self._hello(payload)
        elif kind in (padproto.SHORT, padproto.LONG):
            self._press(seat, kind, payload)
        elif kind == padproto.ERR:
            self.stats["pad_errors"] += 1
            log.warning("seat pads: pad refused a frame: %s", payload)
        elif kind != padproto.BEAT:
            self._refuse(f"unexpected {kind} frame")
        return True

    def _refuse(self, why: str) -> None:
        self.stats["refused"] += 1
        log.warning("seat pads: %s", why)

    def _hello(self, payload: str) -> None:
        parts = payload.split(",")
        if len(parts) < 2 or not parts[0].isdigit() or not parts[1].isdigit():
            self._refuse(f"bad HELLO {payload!r}")
            return
        version, pad_seats = int(parts[0]), int(parts[1])
        if version != padproto.PROTOCOL_VERSION:
            self._set_missing()
            log.error("seat pads: firmware speaks protocol %d, this program %d: reflash the "
                      "pad (firmware/README.md)", version, padproto.PROTOCOL_VERSION)
            return
        if pad_seats < self.seats:
            log.warning("seat pads: the pad has %d seats, the table %d", pad_seats, self.seats)
        was = self._pad_seats
        with self._lock:
            self._pad_seats = min(pad_seats, self.seats)
            self._next_seq = None
            self._send(None, padproto.TIMING, f"{self.debounce_ms},{self.long_press_ms}")
            for seat in range(self._pad_seats):
                self._send(seat, padproto.LIGHT, self._lights[seat].value)
        self.stats["connects"] += 1
        log.info("seat pads: %s connected (%s)", self.port, payload)
        self._status(range(was, self._pad_seats), True)

    def _press(self, seat: int | None, kind: str, payload: str) -> None:
        button, _, seq_text = payload.partition(",")
        if seat is None or seat >= self._pad_seats or button not in padproto.BUTTONS:
            self._refuse(f"press of seat {seat} button {button!r} ignored")
            return
        if seq_text.isdigit():
            seq = int(seq_text)
            gap = 0 if self._next_seq is None else (seq - self._next_seq) % padproto.SEQ_MOD
            if gap >= padproto.SEQ_MOD // 2:
                log.warning("seat pads: event numbers went back (pad restarted?)")
            elif gap:
                self.stats["lost_events"] += gap
                log.warning("seat pads: %d button event(s) lost", gap)
            self._next_seq = (seq + 1) % padproto.SEQ_MOD
        handler = self._on_button
        if handler is not None:
            press = Press.LONG if kind == padproto.LONG else Press.SHORT
            handler(ButtonEvent(seat, button, press))

    def _set_missing(self) -> None:
        with self._lock:
            was = self._pad_seats
            self._pad_seats = 0
        self._status(range(was), False)

    def _status(self, seats: range, connected: bool) -> None:
        handler = self._on_status
        if handler is not None:
            for seat in seats:
                handler(seat, connected)
