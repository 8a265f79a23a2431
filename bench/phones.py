"""Benchmark 10: phones as seat pads, over loopback, with five phones connected.

The phones are WebSocket clients (aiohttp) in this process, on an asyncio loop in a
thread of their own, each paired with its seat (hello with the seat's secret); they stand
in for the page's socket, so a browser's own delay on a real phone is not in the figure.

- **press → acknowledgement on the phone**: the pressing phone sends its press; timed to
  the kiosk's ``ack`` arriving back (``perf_counter_ns``, one clock: the phones share this
  process).
- **press → result light**: the same press to the result light reaching the phone of the
  seat it lights (the next seat's light turning on), through the kiosk's own path: the
  server's loop → ``PhoneSeats`` → the App loop in the main thread → a Koryŏ
  ``Session.dispatch`` with its durable commit → the lights → ``set_light`` → the
  server's loop → that phone. ``bench/pads.py``'s rig, its ``PressScreen`` and its undo
  between presses (not timed).
- Baseline: benchmark 1's wired pad (``gpio`` on mock pins, our debouncer), release →
  light, in blocks alternating with the phones'; the goal: the phone's p99 within 10 ms
  of the wired pad's. Each press's durable commit (an fsync on this machine's shared disk)
  is also taken out of both (``Rig.commit_ms``): the phone's own path beside the pad's.
- **Idle CPU with five phones connected**: a kiosk process (``bench/phone_kiosk.py``: the
  shipped configuration with a fifth seat and phones on, Home, the real loop) with five
  phones paired and connected (the server pings each every 5 s), its CPU time over 8 s
  (``process.cpu_seconds``), beside the 60 FPS loop (``bench/naive_loop.py``), both at
  once, 3 rounds.

A p99 stands on 100 presses at least (``bench.common.fewest_for``): with fewer a round
(40), it is taken once over every round's presses pooled (3×40: the p99 of 120);
``--quick`` makes one round of 100 (``QUICK``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import aiohttp
import pygame

from bench import pads, process
from bench.common import ROOT, Row, env_child, percentiles, spread, times, verdict
from companion.config import SeatConfig
from companion.hardware.sim import SimBackend
from companion.i18n import load_catalog
from companion.phones.seats import PhoneSeats
from companion.ui.app import open_window

SEATS = (
    SeatConfig("Ana", (220, 40, 40), "bottom"),
    SeatConfig("Ben", (40, 90, 220), "left"),
    SeatConfig("Cleo", (40, 170, 70), "top"),
    SeatConfig("Dan", (240, 200, 30), "right"),
    SeatConfig("Eve", (160, 60, 200), "top-left"),
)
WAIT_S = 5.0
QUICK = {"rounds": 1, "count": 100, "idle_rounds": 1}  # --quick: a p99 of 100 presses


class Phone:
    """One phone's socket: every message it got, with when (``perf_counter_ns``)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.got: list[tuple[int, dict]] = []
        self.news = asyncio.Event()
        self.seq = 0

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.got.append((time.perf_counter_ns(), json.loads(msg.data)))
                self.news.set()

    async def first(self, since: int, match) -> int:
        """When the first message after ``since`` that ``match``es came."""
        end = time.monotonic() + WAIT_S
        while True:
            for t, m in self.got:
                if t >= since and match(m):
                    return t
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), max(0.001, end - time.monotonic()))

    def light(self) -> str | None:
        lights = [m["light"] for _, m in self.got if m["t"] in ("light", "welcome")]
        return lights[-1] if lights else None


@contextlib.asynccontextmanager
async def phone_sessions(count: int):
    """One client session per phone, each from a loopback address of its own (127.0.0.10
    on), as phones on a Wi-Fi each have theirs: the kiosk takes only
    ``protocol.MAX_PER_PEER`` connections at once from one address."""
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
        local_addr=(f"127.0.0.{10 + i}", 0))) for i in range(count)]
    try:
        yield sessions
    finally:
        for session in sessions:
            await session.close()


async def pair(url: str, origin: str, secrets: list[str], sessions) -> list[Phone]:
    phones = []
    for seat, secret in enumerate(secrets):
        ws = await sessions[seat].ws_connect(url, headers={"Origin": origin})
        await ws.send_str(json.dumps({"t": "hello", "seat": seat, "secret": secret,
                                      "device": f"bench-phone-{seat}"}))
        phone = Phone(ws)
        phones.append(phone)
        asyncio.ensure_future(phone.read())
    for phone in phones:
        await phone.first(0, lambda m: m["t"] == "welcome")
    return phones


def phone_block(directory: Path, window, count: int, rng: random.Random) -> dict:
    # phones.json as the kiosk keeps it: each press's sequence number written before its ack
    backend = PhoneSeats(SimBackend(len(SEATS)), SEATS, load_catalog("en"),
                         host="127.0.0.1", port=0, address="127.0.0.1",
                         secrets_file=directory / "phones.json")
    rig = pads.Rig(backend, directory, window)
    rig.app.start_backend()
    out: dict = {"ack": [], "light": [], "rest": []}
    secrets = [backend._seats[s].secret for s in range(len(SEATS))]
    url = f"http://127.0.0.1:{backend.server.port}/ws"
    origin = f"http://127.0.0.1:{backend.server.port}"

    async def drive() -> None:
        async with phone_sessions(len(secrets)) as sessions:
            phones = await pair(url, origin, secrets, sessions)
            while len(out["ack"]) < count:
                await asyncio.sleep(rng.uniform(0.030, 0.080))  # a quick player's pace
                seat = rig.first_player()
                nxt = (seat + 1) % len(pads.PLAYERS)
                before = rig.actions()
                phone = phones[seat]
                sent = time.perf_counter_ns()
                await phone.ws.send_str(json.dumps({"t": "press", "seq": phone.seq,
                                                    "button": "a", "kind": "short"}))
                seq, phone.seq = phone.seq, phone.seq + 1
                acked = await phone.first(sent, lambda m, s=seq: m == {"t": "ack", "seq": s})
                lit = await phones[nxt].first(
                    sent, lambda m: m["t"] == "light" and m["light"] != "off")
                out["ack"].append((acked - sent) / 1e6)
                out["light"].append((lit - sent) / 1e6)
                await asyncio.sleep(0.005)  # the dispatch returns, its commit timed
                out["rest"].append(out["light"][-1] - rig.commit_ms)
                rig.undo_to(before)
                end = time.monotonic() + WAIT_S
                while any(p.light() != backend.light(s) .value
                          for s, p in enumerate(phones[:len(pads.PLAYERS)])):
                    assert time.monotonic() < end, "the undone press's lights never came"
                    await asyncio.sleep(0.001)
            for phone in phones:
                await phone.ws.close()

    def driver() -> None:
        try:
            asyncio.run(drive())
        except Exception as exc:  # noqa: BLE001 - raised again in the main thread
            out["error"] = exc
        finally:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            rig.app.wake()

    thread = threading.Thread(target=driver)
    thread.start()
    rig.app.running = True
    try:
        rig.app.run()  # the kiosk's loop in the main thread, until the driver is done
    finally:
        thread.join()
        rig.close()
    if "error" in out:
        raise out["error"]
    return out


def latency_rows(rounds: int, count: int, seed: int) -> list[Row]:
    rng = random.Random(seed)
    pygame.display.init()
    window = open_window(800, 480, False, "bench")
    phone: list[dict] = []
    wired: list[dict] = []
    with tempfile.TemporaryDirectory(dir=Path.cwd(), prefix=".bench-") as tmp:
        for n in range(rounds):
            d = Path(tmp) / f"{n}"
            (d / "phone").mkdir(parents=True)
            (d / "wired").mkdir()
            phone.append(phone_block(d / "phone", window, count, rng))
            wired.append(pads.gpio_block("ours", d / "wired", window, count, rng))
    pygame.display.quit()
    # a p99 stands on 100 presses: with fewer a round, over every round's pooled
    ack, how, ack_ok = percentiles([r["ack"] for r in phone], 99)
    light, _, light_ok = percentiles([r["light"] for r in phone], 99)
    pad, _, pad_ok = percentiles([r["release"] for r in wired], 99)
    rest, _, rest_ok = percentiles([r["rest"] for r in phone], 99)
    pad_rest, _, pad_rest_ok = percentiles([r["rest"] for r in wired], 99)
    med = statistics.median
    label = (f"({rounds}×{count} presses{f', {how}' if how else ''}, 5 phones connected,"
             " loopback)")
    return [
        Row("10 phone pad", f"press → acknowledgement on the phone p99 {label}",
            spread(ack, "ms"), "", "", "≤ 50 ms", verdict(med(ack) <= 50 and ack_ok)),
        Row("10 phone pad", f"press → result light on the phone p99 {label}",
            spread(light, "ms"), spread(pad, "ms (wired gpio pad, release → light)"),
            times(med(pad), med(light), "faster", "slower"), "≤ the wired pad's + 10 ms",
            verdict(med(light) <= med(pad) + 10 and light_ok and pad_ok)),
        Row("10 phone pad", f"press → result light but the commit p99 {label}",
            spread(rest, "ms"), spread(pad_rest, "ms (wired gpio pad, the same)"),
            times(med(pad_rest), med(rest), "faster", "slower"), "≤ the wired pad's + 10 ms",
            verdict(med(rest) <= med(pad_rest) + 10 and rest_ok and pad_rest_ok)),
    ]


def idle_round(tmp: Path) -> dict[str, float]:
    """Percent of a core, all three at once: the kiosk with five phones connected, the same
    kiosk without phones, and the 60 FPS loop."""
    script = str(ROOT / "bench" / "phone_kiosk.py")
    kiosk = subprocess.Popen([sys.executable, script], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env_child(), cwd=tmp)
    procs = {"phones": kiosk,
             "no phones": process.spawn([sys.executable, script, "--no-phones"], tmp / "np"),
             "60fps": process.spawn([sys.executable, str(ROOT / "bench" / "naive_loop.py")],
                                    tmp / "60")}
    done = threading.Event()
    thread = None
    try:
        urls = []
        while (line := kiosk.stdout.readline().strip()) != "ready":
            if not line:
                raise RuntimeError("the phones' kiosk ended before it was ready")
            urls.append(line)
        process.ready(procs["no phones"])
        process.ready(procs["60fps"])
        port = int(urls[0].split(":")[2].split("/")[0])
        secrets = [u.split("&k=", 1)[1] for u in urls]
        connected = threading.Event()

        async def phones() -> None:
            async with phone_sessions(len(secrets)) as sessions:
                await pair(f"http://127.0.0.1:{port}/ws", f"http://127.0.0.1:{port}",
                           secrets, sessions)
                connected.set()
                while not done.is_set():
                    await asyncio.sleep(0.05)

        thread = threading.Thread(target=lambda: asyncio.run(phones()))
        thread.start()
        if not connected.wait(WAIT_S * 4):
            raise RuntimeError("the phones never paired")
        time.sleep(0.5)  # the kiosk's answer to the five pairings is over
        start = {name: process.cpu_seconds(p.pid) for name, p in procs.items()}
        t0 = time.monotonic()
        time.sleep(process.IDLE_S)
        used = {name: process.cpu_seconds(p.pid) - start[name] for name, p in procs.items()}
        elapsed = time.monotonic() - t0
        return {name: 100 * s / elapsed for name, s in used.items()}
    finally:
        done.set()
        if thread is not None:
            thread.join()
        for proc in procs.values():
            proc.kill()
            proc.wait()


def idle_rows(rounds: int) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        got = []
        for n in range(rounds):
            d = Path(tmp) / f"{n}"
            d.mkdir()
            got.append(idle_round(d))
    per = {name: [r[name] for r in got] for name in got[0]}
    med = {name: statistics.median(v) for name, v in per.items()}
    what = f"{process.IDLE_S:.0f} s on Home ({rounds} rounds)"
    return [
        Row("10 idle CPU", f"five phones connected, {what}", spread(per["phones"], "%", 2),
            spread(per["60fps"], "% (60 FPS)", 1),
            times(med["60fps"], med["phones"], "less", "more"), "≥ 20x less",
            verdict(med["60fps"] >= 20 * med["phones"])),
        Row("10 idle CPU", f"five phones connected against the same kiosk without phones, "
                           f"{what}", spread(per["phones"], "%", 2),
            spread(per["no phones"], "% (no phones)", 2),
            times(med["no phones"], med["phones"], "less", "more")),
    ]


def run(rounds: int = 3, count: int = 40, seed: int = 25, idle_rounds: int = 3) -> list[Row]:
    return latency_rows(rounds, count, seed) + idle_rows(idle_rounds)


if __name__ == "__main__":  # python -m bench.phones [--quick]: this benchmark alone
    from bench.__main__ import markdown, table
    from bench.common import load, machine

    quick = "--quick" in sys.argv
    print(f"machine: {machine()}\nload average before: {load()}", flush=True)
    found = run(**QUICK) if quick else run()
    print(table(found))
    print(f"load average after: {load()}")
    print()
    print(markdown(found))
