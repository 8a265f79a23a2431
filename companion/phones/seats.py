"""``PhoneSeats``: the seat backend of a table where phones are pads, composed with the
configured one (GPIO, serial pads or the simulator): a seat with a phone takes presses
from both, its light shows on both, and it counts as connected while its phone is (a
phone that sleeps or reloads shows as an unplugged pad and comes back by itself).

It is also the server's hub: each WebSocket is handled here, on the server's loop. The
pygame loop tells it what each seat shows (``seat_pages``, through the Table's
``show_seats`` from ``App.invalidate`` and after each press; sent by ``send_pages`` once
the journal holds on disk what they show, as the lights) and it sends each phone its
seat's part only: its light, its
``SeatView`` in words, and what only that seat may see (``private_view``), computed for a
seat whose phone is connected and sent on that connection alone, never logged.

Presses: the page times each press itself (short, or long once held ``long_press_ms``,
sent at the threshold), as a serial pad's firmware does, so the network's delay never
counts into a hold; each carries the phone's sequence number. The kiosk answers ``ack``
once it has the press; the page keeps every press not yet acknowledged and sends it again
after a reconnect, and the kiosk takes a number it already took as acknowledged and
nothing more: no press is lost or doubled. The last number taken from each phone is kept
in ``phones.json`` before the press is handed on, so a kiosk restarted with a press in
flight knows it when it comes again.

One phone per seat, decided by the page's own id (``device``): a phone with the right
secret whose seat has another phone, there or away, waits until the seat confirms it on
that phone ("Give this seat") or on the kiosk's Phones screen. A wired pad never confirms:
each of its presses may mean something in the game (in The King's Dilemma a held C claims
the moderator), so every one goes to the game.

A secret moment (a controller with something private for a seat: the King's Dilemma's
secret vote) is closed to newcomers: a phone new to a seat waits, told why, until the
reveal (a free seat is then its own), and no hand-over is made. What a phone is shown of
the ballot on its buttons is what that phone entered itself: a choice pressed on the
seat's wired pad stays off the phone, and a locked ballot is only "locked".
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from companion.hardware import padproto
from companion.hardware.base import (
    ButtonHandler,
    PadHandler,
    SeatBackend,
    StatusHandler,
)
from companion.phones import protocol
from companion.phones.pairing import Evening, lan_address, same_secret, seat_url
from companion.phones.protocol import Handover, Hello, PhonePress, ProtocolError
from companion.phones.server import PhoneServer
from companion.play.seat import ButtonEvent, Light, Press

log = logging.getLogger(__name__)

PAGE_WORDS = ("title", "connecting", "your_turn", "waiting", "handover", "give", "gone",
              "refused", "confirm", "lock", "locked", "bgstats", "figures", "replaced",
              "paired", "vote", "elsewhere", "superseded")


@dataclass
class _Seat:
    """One seat's phone, on the server's loop (``PhoneSeats._lock`` for what the pygame
    thread reads)."""

    secret: str
    device: str | None = None  # the phone that holds the seat
    last_seq: int | None = None  # the last of its presses taken
    ws: web.WebSocketResponse | None = None  # its connection, while it has one
    waiting: tuple[str, web.WebSocketResponse] | None = None  # a phone asking for the seat
    entered: str | None = None  # the phone whose press reached the game last (None: wired)
    sent: dict[str, Any] = field(default_factory=dict)  # the last of each kind sent


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _controller(screen: Any) -> Any:
    """The game controller of a screen (its ``game`` or the King's Dilemma's ``night``)."""
    for name in ("night", "game"):
        found = getattr(screen, name, None)
        if found is not None and not isinstance(found, str):
            return found
    return None


class PhoneSeats(SeatBackend):
    name = "phones"

    def __init__(self, inner: SeatBackend, seats: Sequence[Any], catalog: Any, *,
                 host: str = "0.0.0.0", port: int = 8470, address: str | None = None,
                 long_press_ms: int = 700, secrets_file: Path | None = None,
                 per_peer: int = protocol.MAX_PER_PEER) -> None:
        """``inner``: the wired backend; ``seats``: the configuration's seats (name,
        colour); ``address``: what the QR codes name (default: the LAN address);
        ``secrets_file``: where the evening's secrets are kept (None: new at each start);
        ``per_peer``: connections at once from one address."""
        self.inner = inner
        self.seats = len(seats)
        self.seat_config = tuple(seats)
        self.catalog = catalog
        self.long_press_ms = long_press_ms
        self._address = address
        self.server = PhoneServer(self, host, port, per_peer)
        self.evening = Evening(secrets_file, self.seats)
        self._seats = [_Seat(secret, device, seq) for secret, device, seq
                       in zip(self.evening.secrets, self.evening.devices, self.evening.seqs,
                              strict=True)]
        self._lock = threading.Lock()
        self._tasks: set[asyncio.Future] = set()  # writes and hand-overs under way
        self._on_button: ButtonHandler | None = None
        self._on_status: StatusHandler | None = None
        self._secret = False  # a secret moment is open: no new phone, no hand-over
        self.failure: str | None = None  # why the server could not start
        self.stats = {"presses": 0, "repeated": 0, "refused": 0, "closed": 0}

    # --- what the table shows -------------------------------------------------------

    @property
    def notice(self) -> str | None:  # type: ignore[override]
        return self.failure or self.inner.notice

    @property
    def pad_event(self):  # type: ignore[override]
        return self.inner.pad_event

    @property
    def address(self) -> str:
        if self._address is None:
            self._address = lan_address()
        return self._address

    def url(self, seat: int) -> str:
        """The URL of ``seat``'s QR code (it holds the seat's secret: never logged)."""
        return seat_url(self.address, self.server.port, seat, self._seats[seat].secret)

    def paired(self, seat: int) -> bool:
        return self._seats[seat].device is not None

    def waiting(self, seat: int) -> bool:
        """Another phone asks for ``seat`` and waits for its confirmation (none can be
        given while a secret moment is open)."""
        return self._seats[seat].waiting is not None and not self._secret

    def __getattr__(self, name: str) -> Any:
        """The wired backend's own (the simulator's keys and ``KEYMAP``)."""
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    # --- SeatBackend ------------------------------------------------------------------

    def start(self, on_button: ButtonHandler, on_status: StatusHandler | None = None,
              on_pad: PadHandler | None = None) -> None:
        self._on_button = on_button
        self._on_status = on_status
        self.inner.start(self._wired_press, on_status, on_pad)
        try:
            self.server.start()
            log.info("phones: the seats' codes open http://%s:%d/ (Home or Table check > Phones)",
                     self.address, self.server.port)
        except OSError as exc:
            self.failure = self.catalog.text("phones.no_server", number=self.server.port,
                                             error=exc.strerror or str(exc))
            log.error("phones: cannot listen on port %d: %s", self.server.port, exc)

    def set_light(self, seat: int, light: Light) -> None:
        self.inner.set_light(seat, light)
        self._send(seat, {"t": "light", "light": Light(light).value})

    def light(self, seat: int) -> Light:
        return self.inner.light(seat)

    def shown(self, seat: int, now_ms: int) -> tuple[int, int, int]:
        return self.inner.shown(seat, now_ms)

    def next_shown_change(self, seat: int, now_ms: int) -> int | None:
        return self.inner.next_shown_change(seat, now_ms)

    def connected(self, seat: int) -> bool:
        line = self._seats[seat]
        if line.device is not None:
            return line.ws is not None
        return self.inner.connected(seat)

    def close(self) -> None:
        self.server.close()
        self.inner.close()
        self._on_button = None
        self._on_status = None

    # --- the pygame loop's side -----------------------------------------------------

    def send_pages(self, pages: list[tuple[int, dict]]) -> None:
        """Send what ``seat_pages`` made (any thread: the Table sends them once the
        journal holds on disk what they show, as it writes the lights). Sent only where it
        changed."""
        for seat, message in pages:
            self._send(seat, message)

    def seat_pages(self, screen: Any) -> list[tuple[int, dict]]:
        """What each seat's phone shows, from the screen on top (pygame thread; sent by
        ``send_pages``): its ``SeatView`` in words (the screen's ``seat_views()`` where it
        has them, else the seat's light alone), what only it may see (its controller's
        ``private_view``) and the BG Stats link of a finished play."""
        views_of = getattr(screen, "seat_views", None)
        try:
            views = dict(views_of()) if callable(views_of) else {}
        except Exception:  # a screen's view must never stop the table
            log.exception("phones: the screen's seat views failed")
            views = {}
        controller = _controller(screen)
        privates = self._privates(controller)
        # A screen opened over a vote (the Phones screen) does not end its secret moment.
        under = [self._privates(_controller(s)) for s in getattr(screen.app, "screens", ())
                 if s is not screen] if hasattr(screen, "app") else []
        self._secret_moment(any(p is not None for found in [privates, *under] for p in found))
        link = self._bgstats_link(screen, controller)
        pages: list[tuple[int, dict]] = []
        for seat in range(self.seats):
            with self._lock:
                line = self._seats[seat]
                if line.ws is None:
                    continue
                private = privates[seat]
                if (private is not None and private.get("choice")
                        and line.entered != line.device):  # entered elsewhere: not its own
                    private = {**private, "choice": None, "power": 0, "button": None,
                               "elsewhere": True}
            pages += [(seat, {"t": "view", **self._view(screen, seat, views.get(seat))}),
                      (seat, {"t": "private", "private": self._private_words(private)}),
                      (seat, {"t": "bgstats", "url": link})]
        return pages

    def _privates(self, controller: Any) -> list[dict | None]:
        """Each seat's private view (its controller's ``private_view``), or None."""
        private_of = getattr(controller, "private_view", None)
        found: list[dict | None] = [None] * self.seats
        if callable(private_of):
            for seat in range(self.seats):
                try:
                    found[seat] = private_of(seat)
                except Exception:  # noqa: BLE001 - said without its content
                    log.error("phones: the private view of a seat failed")
        return found

    def _secret_moment(self, open_now: bool) -> None:
        """A secret moment opened or ended (pygame thread): the phones waiting are told,
        and at its end a free seat's waiting phone takes it."""
        with self._lock:
            if open_now == self._secret:
                return
            self._secret = open_now
        log.info("phones: a secret moment %s", "opened: no new phone until it ends"
                 if open_now else "ended")
        loop = self.server.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._secret_changed)
    def _view(self, screen: Any, seat: int, view: Any) -> dict:
        light = self.inner.light(seat)
        if view is None:
            return {"your_turn": light is Light.YOUR_TURN, "todo": None, "help": None,
                    "reply": None, "figures": []}
        return {
            "your_turn": bool(view.your_turn),
            "todo": self._say(screen, view.todo),
            "help": self._say(screen, view.help),
            "reply": self._say(screen, view.reply),
            "figures": [[self._say(screen, f.label), f.value] for f in view.figures],
        }

    def _say(self, screen: Any, words: Any) -> str | None:
        """A sentence of the controller's in the table's language, as the screen says it
        on the seat's plate (``seat_text``)."""
        if words is None:
            return None
        try:
            return str(screen.seat_text(words))
        except Exception:  # noqa: BLE001 - a sentence the screen can't say: not shown
            log.debug("phones: the screen can't say %s", words.key)
            return None

    def _private_words(self, private: dict | None) -> dict | None:
        """A seat's private view with its lines in the table's language; a locked ballot
        is only that (its choice and power are nobody's business any more)."""
        if not private:
            return None
        if private.get("locked"):
            return {"locked": True}
        t = self.catalog.text
        said = dict(private)
        choice, power = private.get("choice"), private.get("power", 0)
        # the ballot as the vote screen names it at the reveal (kd.vote.aye: "Aye 3")
        said["ballot"] = t(f"kd.vote.{choice.replace('-', '_')}", power=power) if choice else None
        said["behind"] = t("phones.behind", power=private.get("behind", 0))
        return said

    def _bgstats_link(self, screen: Any, controller: Any) -> str | None:
        code = getattr(screen, "code", None)
        url = getattr(code, "url", None)
        if isinstance(url, str):
            return url
        played = getattr(controller, "played", None)
        if played is None:
            return None
        from companion.records import bgstats

        return bgstats.link(played)

    def hand_over(self, seat: int) -> None:
        """The seat confirmed the phone waiting for it (the kiosk, any thread)."""
        loop = self.server.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._hand_over, seat)

    # --- presses ----------------------------------------------------------------------

    def _wired_press(self, event: ButtonEvent) -> None:
        """A press of the wired pad (its thread), every one to the table: the seat's
        pending ballot is now the wired pad's, not its phone's."""
        if 0 <= event.seat < self.seats:
            with self._lock:
                self._seats[event.seat].entered = None
        handler = self._on_button
        if handler is not None:
            handler(event)

    # --- the server's loop ------------------------------------------------------------

    def _send(self, seat: int, message: dict) -> None:
        """Send ``message`` to the seat's phone unless it is what it last got (any thread)."""
        loop = self.server.loop
        if loop is None:
            return
        with self._lock:
            line = self._seats[seat]
            if line.ws is None or line.sent.get(message["t"]) == message:
                return
            line.sent[message["t"]] = message
            ws = line.ws
        text = protocol.dumps(message)
        loop.call_soon_threadsafe(self._write, ws, text)

    def _write(self, ws: web.WebSocketResponse, text: str) -> None:
        if not ws.closed:
            self._task(self._write_now(ws, text))

    def _task(self, coroutine) -> None:
        """Run ``coroutine`` on the server's loop, kept until done (the loop itself keeps
        only a weak reference to a task)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _write_now(ws: web.WebSocketResponse, text: str) -> None:
        try:
            await ws.send_str(text)
        except (ConnectionError, RuntimeError):  # it went meanwhile: its close is handled
            pass

    async def serve(self, ws: web.WebSocketResponse) -> None:
        """One phone's connection, from its hello to its end."""
        seat: int | None = None
        try:
            first = await asyncio.wait_for(ws.receive(), protocol.HELLO_TIMEOUT_S)
            hello = self._hello(first)
            seat = hello.seat
            await self._join(ws, hello)
            limit = protocol.RateLimit()
            async for msg in ws:
                if not limit.take(time.monotonic()):
                    raise ProtocolError("too many messages", protocol.CLOSE_FLOOD)
                if msg.type != WSMsgType.TEXT:
                    raise ProtocolError("not a text frame")
                message = protocol.parse(msg.data)
                if isinstance(message, PhonePress):
                    await self._press(ws, seat, message)
                elif isinstance(message, Handover):
                    if self._seats[seat].ws is ws:
                        self._hand_over(seat)
                else:
                    raise ProtocolError("hello again")
            if ws.close_code == protocol.CLOSE_TOO_BIG:
                self.stats["refused"] += 1
                self.server.refused("phones: a connection closed: message too big")
        except ProtocolError as exc:
            self.stats["refused"] += 1
            self.server.refused("phones: a connection closed: %s", exc)  # never its content
            await ws.close(code=exc.code, message=str(exc).encode())
        except TimeoutError:
            self.stats["refused"] += 1
            self.server.refused("phones: a connection closed: no hello")
            await ws.close(code=protocol.CLOSE_POLICY, message=b"no hello")
        except ConnectionError:  # the phone went mid-write: its seat shows it away
            log.info("phones: a connection ended mid-write")
        finally:
            if seat is not None:
                self._left(ws, seat)

    def _hello(self, msg: Any) -> Hello:
        if msg.type != WSMsgType.TEXT:
            if msg.type == WSMsgType.ERROR:
                raise ProtocolError("message too big", protocol.CLOSE_TOO_BIG)
            raise ProtocolError("no hello")
        hello = protocol.parse(msg.data)
        if not isinstance(hello, Hello):
            raise ProtocolError("no hello")
        if not 0 <= hello.seat < self.seats or not same_secret(hello.secret,
                                                                self._seats[hello.seat].secret):
            raise ProtocolError("wrong seat or secret", protocol.CLOSE_REFUSED)
        return hello

    async def _join(self, ws: web.WebSocketResponse, hello: Hello) -> None:
        """The seat's own phone (by its page's id) takes its seat back; a free seat is
        the first phone's, except in a secret moment; any other phone waits."""
        seat = hello.seat
        line = self._seats[seat]
        with self._lock:
            own = line.device == hello.device
            pairs = line.device is None and not self._secret
            if own or pairs:
                old, line.ws, line.device = line.ws, ws, hello.device
                line.sent = {}
                why = "replaced"
                offer = line.waiting is not None and not self._secret
            else:
                old = line.waiting[1] if line.waiting else None
                why = ("replaced" if line.waiting and line.waiting[0] == hello.device
                       else "superseded")
                line.waiting = (hello.device, ws)
                owner = line.ws
        if old is not None:
            await self._bye(old, why)
        if own or pairs:
            if pairs:
                log.info("phones: seat %d paired with a phone", seat)
                self._keep_pairing()
            await ws.send_str(protocol.dumps(self._welcome(seat)))
            if offer:  # a phone asked while this one was away
                await ws.send_str(protocol.dumps({"t": "handover"}))
            self._refresh(seat)
            return
        log.info("phones: another phone asks for seat %d", seat)
        await self._tell_waiting(seat, ws)
        if owner is not None and not owner.closed and not self._secret:
            await owner.send_str(protocol.dumps({"t": "handover"}))
        self._refresh(seat)  # the kiosk shows that a phone waits

    async def _tell_waiting(self, seat: int, ws: web.WebSocketResponse) -> None:
        """Tell a phone waiting for ``seat`` what it waits for: the seat's confirmation,
        or the end of a secret moment."""
        why = "vote" if self._secret else "seat"
        await self._write_now(ws, protocol.dumps({**self._welcome(seat), "t": "waiting",
                                                  "last_seq": None, "why": why}))

    def _secret_changed(self) -> None:
        """On the server's loop: each waiting phone learns what it waits for now; once the
        secret moment is over, a free seat goes to the phone that waited for it."""
        for seat, line in enumerate(self._seats):
            if line.waiting is None:
                continue
            if not self._secret and line.device is None:
                self._hand_over(seat)
                continue
            self._task(self._tell_waiting(seat, line.waiting[1]))
            owner = line.ws
            if not self._secret and owner is not None and not owner.closed:
                self._task(self._write_now(owner, protocol.dumps({"t": "handover"})))
            self._refresh(seat)

    def _keep_pairing(self) -> None:
        """The phones holding the seats and the last press taken from each, kept for a
        restart the same evening."""
        with self._lock:
            self.evening.devices = [line.device for line in self._seats]
            self.evening.seqs = [line.last_seq for line in self._seats]
        self.evening.save()

    def _welcome(self, seat: int) -> dict:
        config = self.seat_config[seat]
        return {
            "t": "welcome",
            "seat": seat,
            "name": config.name,
            "colour": _hex(config.colour),
            "long_press_ms": self.long_press_ms,
            "last_seq": self._seats[seat].last_seq,
            "lights": {name: [_hex(rgb), pattern]
                       for name, (rgb, pattern) in padproto.LIGHTS.items()},
            "tick_ms": padproto.TICK_MS,
            "ack_ms": padproto.ACK_MS,
            "light": self.inner.light(seat).value,
            "light_names": {light.value: self.catalog.text(f"light.{light.value}")
                            for light in Light},
            "lang": self.catalog.language,
            "words": {key: self.catalog.text(f"phones.page.{key}") for key in PAGE_WORDS},
        }

    def _refresh(self, seat: int) -> None:
        """Ask the pygame loop for the seat's view (it is computed there)."""
        self._status(seat, self.connected(seat))

    async def _press(self, ws: web.WebSocketResponse, seat: int, press: PhonePress) -> None:
        line = self._seats[seat]
        if line.ws is not ws:
            raise ProtocolError("not this seat's phone yet")
        if line.last_seq is not None and press.seq <= line.last_seq:
            self.stats["repeated"] += 1  # sent again after a reconnect: taken already
        else:
            with self._lock:
                line.last_seq = press.seq
                line.entered = line.device
            # Kept before it is handed on: after a restart, the page sends it again and it
            # is known (a crash right here loses it rather than doubling it).
            self._keep_pairing()
            handler = self._on_button
            if handler is not None:
                kind = Press.LONG if press.kind == "long" else Press.SHORT
                handler(ButtonEvent(seat, press.button, kind))
            self.stats["presses"] += 1  # counted once handed on (the tests await it)
        await ws.send_str(protocol.dumps({"t": "ack", "seq": press.seq}))

    def _hand_over(self, seat: int) -> None:
        """The seat goes to the phone waiting for it; none while a secret moment is open."""
        line = self._seats[seat]
        with self._lock:
            if line.waiting is None:
                return
            if self._secret:
                log.info("phones: seat %d not handed over: a secret moment is open", seat)
                return
            device, ws = line.waiting
            old = line.ws
            line.waiting = None
            if ws.closed:
                return
            free = line.device is None
            line.device, line.ws, line.last_seq, line.sent = device, ws, None, {}
            line.entered = None
        log.info("phones: seat %d %s", seat,
                 "paired with a phone" if free else "handed over to another phone")
        self._keep_pairing()
        self._task(self._took_over(seat, ws, old))

    async def _took_over(self, seat: int, ws: web.WebSocketResponse,
                         old: web.WebSocketResponse | None) -> None:
        if old is not None:
            await self._bye(old, "gone")
        await ws.send_str(protocol.dumps(self._welcome(seat)))
        self._refresh(seat)

    async def _bye(self, ws: web.WebSocketResponse, why: str) -> None:
        if ws.closed:
            return
        try:
            await ws.send_str(protocol.dumps({"t": "bye", "why": why}))
            await ws.close(code=protocol.CLOSE_REPLACED, message=why.encode())
        except (ConnectionError, RuntimeError):
            pass

    def _left(self, ws: web.WebSocketResponse, seat: int) -> None:
        line = self._seats[seat]
        with self._lock:
            if line.waiting is not None and line.waiting[1] is ws:
                line.waiting = None
                gone = False
            elif line.ws is ws:
                line.ws = None
                line.sent = {}
                gone = True
            else:
                return
        self.stats["closed"] += 1
        self._status(seat, not gone and self.connected(seat))

    def _status(self, seat: int, connected: bool) -> None:
        handler = self._on_status
        if handler is not None:
            try:
                handler(seat, connected)
            except Exception:
                log.exception("phones: the status handler failed for seat %d", seat)

