"""Seat pads on USB serial: one RP2040 serves every seat (firmware/, firmware/PROTOCOL.md).

A reader thread owns the port. It opens it with ``serial.serial_for_url`` (so a device
path, a ``/dev/serial/by-id/…`` link or a pyserial URL all work), says ``HOST``, and waits
for the pad's ``HELLO``; the pad then counts as connected: the host sends the timing and
every seat's current light, and forwards the pad's SHORT/LONG frames as button events.

The thread never dies of what arrives. Garbage bytes, partial lines, bad checksums,
frames that make no sense (seat ``00``, a press without a sequence number, a repeat of
one of the last ``RECENT_FRAMES`` presses) are counted in ``stats`` and refused; any exception while handling a
frame is caught and logged with that frame, and reading goes on. Complaints come as one
log line when a burst starts and one saying how many followed when it ends, so a flood
costs two log lines, not a full disk. The thread sleeps in ``select`` until bytes arrive or the next
deadline (heartbeat, a burst's end) is due; ``close`` wakes it through a pipe.

Plug and play: with ``port="auto"`` the thread looks for the pad on USB (``pad_ports``:
by USB vendor and product id, MicroPython first, never a Debug Probe) each time it has no
pad, so a pad plugged in after start or moved to another USB port is found; a given path
is reopened likewise. With several candidates (a second RP2040 board, a probe on a lower
``ttyACM``) each is asked in turn, and one that doesn't answer the handshake within
``handshake_timeout_ms`` is left for the next, so a board that isn't the pad can't hold
the pads up. Retries start at 0.1 s and double up to
``RETRY_S[1]`` (0.5 s), so a pad is back, lights restored, well within 2 s. A pad that
restarts without a USB reset (the firmware's guard, a reboot on a plain UART) is noticed
by its unasked ``HELLO`` or its uptime going back: the host says so (log, and a
``PadEvent`` RESET for the screen: no crash report, no light), sends the timing and the
lights again. A connected pad that goes silent or away is a LOST event, its return BACK.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable

import serial

from companion.hardware import padproto
from companion.hardware.base import (
    ButtonHandler,
    PadEvent,
    PadHandler,
    SeatBackend,
    StatusHandler,
)
from companion.play.seat import ButtonEvent, Light, Press
from companion.system.burstlog import BurstLog

log = logging.getLogger(__name__)

# USB ids, from MicroPython's sources (ports/rp2/mpconfigport.h; mp_usbd.h of its TinyUSB glue)
RPI_USB_VID = 0x2E8A  # Raspberry Pi: the Pico, the Pico 2 and many RP2040/RP2350 boards
MICROPYTHON_RP2_PID = 0x0005  # MicroPython's rp2 port, the pad's firmware runs on it
MICROPYTHON = "MicroPython"  # its USB manufacturer string (product: "Board in FS mode")
# Raspberry Pi devices with a serial port that are never a seat pad: the Debug Probe and a
# Pico running the older picoprobe firmware (CMSIS-DAP probes; their UART is a bridge to
# another board's console).
NOT_PADS = {0x000C: "Debug Probe", 0x0004: "picoprobe"}
BAUD = 115200  # ignored by USB CDC, used on a real UART
RETRY_S = (0.1, 0.5)  # pause between attempts to find/open the pad: first, longest
AUTO = "auto"
# Presses remembered to tell a replay: a repeat of one of these (same seat, kind, button and
# sequence number) is dropped. Nothing else is: a press numbered behind the last one but
# never seen is delivered and the count resyncs to it, so a single frame numbered far
# ahead (a glitch, a forgery) can't make the genuine presses after it look replayed.
RECENT_FRAMES = 256
WAITING_FOR_PAD = "No seat pad on USB yet: the seats show missing until one is plugged in."


def pad_ports() -> list[str]:
    """USB serial devices that may be the seat pad, likeliest first: MicroPython on a
    Raspberry Pi board (2E8A:0005, or any board whose USB manufacturer is MicroPython),
    then the other boards with Raspberry Pi's vendor id (a board maker's own product id);
    never a Debug Probe. The backend tries each in turn: the pad is the one that answers
    the handshake (HOST, HELLO; firmware/PROTOCOL.md)."""
    from serial.tools import list_ports

    ranked = []
    for info in list_ports.comports():
        if info.vid == RPI_USB_VID and info.pid in NOT_PADS:
            continue
        if (info.vid, info.pid) == (RPI_USB_VID, MICROPYTHON_RP2_PID) or (
            info.manufacturer or ""
        ).startswith(MICROPYTHON):
            rank = 0
        elif info.vid == RPI_USB_VID:
            rank = 1
        else:
            continue
        ranked.append((rank, len(info.device), info.device))  # ttyACM2 before ttyACM10
    return [device for *_, device in sorted(ranked)]


class SerialBackend(SeatBackend):
    name = "serial"

    def __init__(
        self,
        port: str | None,
        seats: int,
        *,
        debounce_ms: int = 20,
        long_press_ms: int = 700,
        heartbeat_timeout_ms: int = 4 * padproto.BEAT_MS,
        handshake_timeout_ms: int = 4 * padproto.BEAT_MS,
        find_ports: Callable[[], list[str]] = pad_ports,
    ) -> None:
        """``port``: a path or pyserial URL, or ``"auto"``/None to look for the pad on USB
        with ``find_ports`` whenever there is none (tests give their own); of several, one
        silent for ``handshake_timeout_ms`` after the host's HOST is left for the next."""
        self.port = AUTO if port in (None, AUTO) else port
        self.seats = seats
        self.debounce_ms = debounce_ms
        self.long_press_ms = long_press_ms
        self.heartbeat_timeout_ms = heartbeat_timeout_ms
        self.handshake_timeout_ms = handshake_timeout_ms
        self.find_ports = find_ports
        self._silent: set[str] = set()  # candidates that didn't answer, this round
        self.device: str | None = None  # the path in use now (the one found, with auto)
        self.pad_event: PadEvent | None = None  # the latest: restarted, lost, back
        self.stats = {
            "frames": 0,  # valid frames received
            "bad_frames": 0,  # lines that failed the shape or checksum check
            "dropped_bytes": 0,  # garbage outside any frame
            "refused": 0,  # valid frames that made no sense (seat, button, type, no seq)
            "replayed": 0,  # repeats of a recent press (same seat, kind, button, number)
            "lost_events": 0,  # gaps in the pad's event sequence numbers
            "resyncs": 0,  # presses numbered behind the last one, never seen: delivered
            "connects": 0,  # successful handshakes
            "pad_errors": 0,  # ERR frames from the pad
            "pad_resets": 0,  # the pad restarted while connected (guard, watchdog, reboot)
            "errors": 0,  # exceptions caught in the reader (a bug, logged with the frame)
        }
        self._lights = [Light.OFF] * seats
        self._lock = threading.Lock()  # lights, writes, connection state
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()  # close() writes here to end a select
        self._ser: serial.SerialBase | None = None
        self._pad_seats = 0  # seats of the connected pad; 0 while missing
        self._next_seq: int | None = None
        self._recent: deque[tuple[int, str, str, int]] = deque()  # oldest first
        self._recent_set: set[tuple[int, str, str, int]] = set()
        self._uptime = -1  # the pad's last BEAT (ms); going back means it restarted
        self._crash = ""  # the pad's last crash report, for the notice of its restart
        self._asked = False  # a HOST is out: the HELLO answering it is no restart
        self._restarted = False  # the pad's uptime went back: its next HELLO is a restart
        self._bad = BurstLog("bad frames", log, "seat pads")
        self._refusals = BurstLog("refused frames", log, "seat pads")
        self._failures = BurstLog("errors handling frames", log, "seat pads")
        self._losses = BurstLog("gaps in the event numbers", log, "seat pads")
        self._on_button: ButtonHandler | None = None
        self._on_status: StatusHandler | None = None
        self._on_pad: PadHandler | None = None
        self._thread: threading.Thread | None = None

    # -- SeatBackend ---------------------------------------------------------------

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None,
              on_pad: PadHandler | None = None) -> None:
        self._on_button = on_button
        self._on_status = on_status
        self._on_pad = on_pad
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
        if self._stop.is_set():
            return
        self._stop.set()
        os.write(self._wake_w, b"x")
        reader = self._thread
        if reader is not None and reader is not threading.current_thread():
            reader.join()
        if reader is None or reader is not threading.current_thread():
            os.close(self._wake_r)  # the reader is gone (or never ran): nobody selects on it
            os.close(self._wake_w)
        self._on_button = None
        self._on_status = None
        self._on_pad = None

    # -- the reader thread -------------------------------------------------------------

    def _run(self) -> None:
        retry = RETRY_S[0]
        while not self._stop.is_set():
            try:
                if self._attempt():
                    retry = RETRY_S[0]
            except Exception:  # a bug must not end the thread: the pads would be gone
                self.stats["errors"] += 1
                log.exception("seat pads: error in the reader, starting over")
            if self._stop.wait(retry):
                break
            retry = min(retry * 2, RETRY_S[1])

    def _attempt(self) -> bool:
        """Find and open the port, talk to the pad until it goes; True if it answered."""
        path = self.port
        choosing = False  # other candidates wait: a silent port is left for them
        if path == AUTO:
            candidates = self.find_ports()
            if not candidates:
                return False
            untried = [p for p in candidates if p not in self._silent]
            if not untried:  # every one asked: a new round
                self._silent.clear()
                untried = candidates
            path = untried[0]
            choosing = len(candidates) > 1
        try:
            ser = serial.serial_for_url(path, baudrate=BAUD, timeout=0)
        except (serial.SerialException, OSError, ValueError) as exc:
            log.debug("seat pads: cannot open %s: %s", path, exc)
            self._silent.add(path)
            return False
        self.device = path
        answered = self._session(ser, choosing)
        if answered:
            self._silent.clear()
        else:
            self._silent.add(path)
        return answered

    def _session(self, ser: serial.SerialBase, choosing: bool = False) -> bool:
        """Talk to the pad on an open port until it fails or we close; True if the pad
        answered at least once. ``choosing``: other ports may be the pad, so give this one
        up if it never answers within ``handshake_timeout_ms``."""
        splitter = padproto.LineSplitter()
        answered = False
        with self._lock:
            self._ser = ser
            self._uptime = -1
        try:
            self._say_host()
            opened = asked = last_rx = time.monotonic()
            while not self._stop.is_set():
                timeout_s = self.heartbeat_timeout_ms / 1000
                now = time.monotonic()
                deadlines = [(last_rx if self._pad_seats else asked) + timeout_s]
                if choosing and not answered:
                    deadlines.append(opened + self.handshake_timeout_ms / 1000)
                deadlines += [d for b in self._bursts() if (d := b.deadline()) is not None]
                if self._readable(ser, max(0.0, min(deadlines) - now)):
                    data = ser.read(max(1, ser.in_waiting))
                else:
                    data = b""
                now = time.monotonic()
                if data:
                    for line in splitter.feed(data):
                        if self._line(line, now):
                            last_rx = now
                            answered = answered or self._pad_seats > 0
                    self.stats["dropped_bytes"] = splitter.dropped
                for burst in self._bursts():
                    burst.flush(now)
                if self._pad_seats and now - last_rx > timeout_s:
                    log.warning("seat pads: silent for %d ms, marked missing",
                                self.heartbeat_timeout_ms)
                    self._set_missing()
                if choosing and not answered and (
                    now - opened > self.handshake_timeout_ms / 1000
                ):
                    log.info("seat pads: %s did not answer the handshake: not the pad? "
                             "trying the next port", self.device)
                    break
                if not self._pad_seats and now - asked > timeout_s:
                    self._say_host()  # ask again, e.g. after a pad reset
                    asked = now
        except (serial.SerialException, OSError) as exc:
            log.warning("seat pads: %s lost (%s)", self.device, exc)
        finally:
            with self._lock:
                self._ser = None
            for burst in self._bursts():
                burst.flush(0, force=True)
            if self._stop.is_set():
                self._pad_seats = 0  # closing: nobody to tell
            else:
                self._set_missing()
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
        return answered

    def _bursts(self) -> tuple[BurstLog, ...]:
        return self._bad, self._refusals, self._failures, self._losses

    def _readable(self, ser: serial.SerialBase, timeout: float) -> bool:
        """Sleep until the port has bytes, ``close`` is called, or ``timeout`` (s)."""
        try:
            fd = ser.fileno()
        except (AttributeError, NotImplementedError, OSError, ValueError):
            # a pyserial URL without a file descriptor (loop://, …): poll it
            self._stop.wait(min(timeout, 0.01))
            return True
        ready, _, _ = select.select([fd, self._wake_r], [], [], timeout)
        return fd in ready

    def _say_host(self) -> None:
        with self._lock:
            self._asked = True
            self._send(None, padproto.HOST, str(padproto.PROTOCOL_VERSION))

    def _send(self, seat: int | None, kind: str, payload: str) -> None:
        """Write one frame; lock held. A failing write is left to the reader to notice."""
        if self._ser is None:
            return
        try:
            self._ser.write(padproto.encode(seat, kind, payload))
        except (serial.SerialException, OSError) as exc:
            log.debug("seat pads: write failed: %s", exc)

    def _line(self, line: bytes, now: float) -> bool:
        """Handle one candidate line; True if it was a valid frame. Never raises."""
        try:
            seat, kind, payload = padproto.decode(line)
        except padproto.FrameError as exc:
            self.stats["bad_frames"] += 1
            self._bad.note(now, "seat pads: bad frame %r (%s)", line[:40], exc)
            return False
        except Exception:  # noqa: BLE001 - logged with its traceback (exc_info)
            self.stats["errors"] += 1
            self._failures.note(now, "seat pads: error decoding %r", line[:40], exc_info=True)
            return False
        self.stats["frames"] += 1
        try:
            if kind == padproto.HELLO:
                self._hello(payload, now)
            elif kind in (padproto.SHORT, padproto.LONG):
                self._press(seat, kind, payload, now)
            elif kind == padproto.BEAT:
                self._beat(payload, now)
            elif kind == padproto.ERR:
                self._pad_error(payload)
            else:
                self._refuse(now, f"unexpected {kind} frame", line)
        except Exception:  # noqa: BLE001 - logged with its traceback (exc_info)
            self.stats["errors"] += 1
            self._failures.note(now, "seat pads: error handling %r", line[:40], exc_info=True)
        return True

    def _refuse(self, now: float, why: str, frame: object) -> None:
        self.stats["refused"] += 1
        self._refusals.note(now, "seat pads: %s: %r", why, frame)

    def _hello(self, payload: str, now: float) -> None:
        parts = payload.split(",")
        version = padproto.number(parts[0], 3) if len(parts) >= 2 else None
        pad_seats = padproto.number(parts[1], 2) if len(parts) >= 2 else None
        if version is None or pad_seats is None:
            self._refuse(now, "bad HELLO", payload)
            return
        if version != padproto.PROTOCOL_VERSION:
            self._set_missing()
            log.error("seat pads: firmware speaks protocol %d, this program %d: reflash the "
                      "pad (firmware/README.md)", version, padproto.PROTOCOL_VERSION)
            return
        if pad_seats < self.seats:
            log.warning("seat pads: the pad has %d seats, the table %d", pad_seats, self.seats)
        was = self._pad_seats
        event = None
        if was and (self._restarted or not self._asked):  # the pad restarted under our feet
            self.stats["pad_resets"] += 1
            why = f" after: {self._crash}" if self._crash else ""
            self._crash = ""
            log.warning("seat pads: the pad restarted (%s)%s; lights restored", payload, why)
            event = PadEvent.RESET
        elif not was and self.pad_event is not None and self.pad_event.kind == PadEvent.LOST:
            event = PadEvent.BACK
        with self._lock:
            self._asked = self._restarted = False
            self._uptime = -1
            self._pad_seats = min(pad_seats, self.seats)
            self._forget_presses()
            self._send(None, padproto.TIMING, f"{self.debounce_ms},{self.long_press_ms}")
            for seat in range(self._pad_seats):
                self._send(seat, padproto.LIGHT, self._lights[seat].value)
        self.stats["connects"] += 1
        log.info("seat pads: %s connected (%s)", self.device, payload)
        if was > self._pad_seats:
            self._status(range(self._pad_seats, was), False)
        self._status(range(was, self._pad_seats), True)
        if event is not None:
            self._pad(event)

    def _beat(self, payload: str, now: float) -> None:
        uptime = padproto.number(payload, 12)
        if uptime is None:
            self._refuse(now, "bad BEAT", payload)
            return
        if uptime < self._uptime and self._pad_seats:
            log.warning("seat pads: the pad's uptime went back (%d -> %d ms): it restarted; "
                        "asking it again", self._uptime, uptime)
            self._restarted = True
            self._say_host()  # its HELLO brings the timing and the lights back
        self._uptime = uptime

    def _pad_error(self, payload: str) -> None:
        self.stats["pad_errors"] += 1
        if payload.startswith(padproto.CRASH):
            self._crash = payload[len(padproto.CRASH):]
            log.error("seat pads: the pad's firmware failed and restarted its loop: %s",
                      payload[len(padproto.CRASH):])
        else:
            self._refusals.note(time.monotonic(), "seat pads: the pad refused a frame: %s",
                                payload)

    def _press(self, seat: int | None, kind: str, payload: str, now: float) -> None:
        if seat is None or seat >= self._pad_seats:
            self._refuse(now, f"press of seat {seat} ignored", payload)
            return
        try:
            button, seq = padproto.parse_press(payload)
        except padproto.FrameError as exc:
            self._refuse(now, f"press refused ({exc})", payload)
            return
        key = (seat, kind, button, seq)
        if key in self._recent_set:  # this very press came already
            self.stats["replayed"] += 1
            self._refuse(now, f"replayed event {seq} of seat {seat}", payload)
            return
        if self._next_seq is not None:
            gap = (seq - self._next_seq) % padproto.SEQ_MOD
            if gap >= padproto.SEQ_MOD // 2:  # behind, never seen: the count jumped before
                self.stats["resyncs"] += 1
                self._losses.note(now, "seat pads: event %d of seat %d is behind %d: the "
                                  "count resyncs to it", seq, seat, self._next_seq)
            elif gap:
                self.stats["lost_events"] += gap
                self._losses.note(now, "seat pads: %d button event(s) lost before %r", gap,
                                  payload)
        self._next_seq = (seq + 1) % padproto.SEQ_MOD
        self._recent.append(key)
        self._recent_set.add(key)
        if len(self._recent) > RECENT_FRAMES:
            self._recent_set.discard(self._recent.popleft())
        handler = self._on_button
        if handler is not None:
            press = Press.LONG if kind == padproto.LONG else Press.SHORT
            handler(ButtonEvent(seat, button, press))

    def _forget_presses(self) -> None:
        """A new pad (or the same one restarted) numbers its presses afresh."""
        self._next_seq = None
        self._recent.clear()
        self._recent_set.clear()

    def _set_missing(self) -> None:
        with self._lock:
            was = self._pad_seats
            self._pad_seats = 0
        self._status(range(was), False)
        if was:
            self._pad(PadEvent.LOST)

    def _pad(self, kind: str) -> None:
        """What the pad did, for the screen (``pad_event``, ``on_pad``)."""
        self.pad_event = event = PadEvent(kind, time.time())
        handler = self._on_pad
        if handler is not None:
            try:
                handler(event)
            except Exception:
                self.stats["errors"] += 1
                log.exception("seat pads: the pad event handler failed (%s)", kind)

    def _status(self, seats: range, connected: bool) -> None:
        handler = self._on_status
        if handler is not None:
            for seat in seats:
                try:
                    handler(seat, connected)
                except Exception:
                    self.stats["errors"] += 1
                    log.exception("seat pads: the status handler failed for seat %d", seat)
