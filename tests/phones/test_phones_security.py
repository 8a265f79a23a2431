"""Attacks on the phones' server, over loopback: each closes the attacker's connection and
nothing else (a paired phone beside it keeps pressing), and no secret reaches the log."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest

from companion.phones import protocol


def hello(rig, seat: int, secret: str | None = None, device: str = "phone-one-1") -> str:
    secret = rig.backend._seats[seat].secret if secret is None else secret
    return json.dumps({"t": "hello", "seat": seat, "secret": secret, "device": device})


class Table:
    """A paired phone on seat 1 (the witness) and a way to attack beside it."""

    def __init__(self, rig, session: aiohttp.ClientSession) -> None:
        self.rig = rig
        self.session = session
        self.url = f"http://127.0.0.1:{rig.port}/ws"
        self.seq = 0
        self.witness: aiohttp.ClientWebSocketResponse | None = None

    async def connect(self, origin: str | None = "default", **kw):
        headers = {}
        if origin is not None:
            headers["Origin"] = self.rig.origin if origin == "default" else origin
        return await self.session.ws_connect(self.url, headers=headers, autoping=True, **kw)

    async def pair_witness(self) -> None:
        self.witness = await self.connect()
        await self.witness.send_str(hello(self.rig, 1, device="witness-phone"))
        assert json.loads((await self.witness.receive(timeout=10)).data)["t"] == "welcome"

    async def witness_presses(self) -> None:
        """The witness's press is still taken and acknowledged."""
        await self.witness.send_str(json.dumps({"t": "press", "seq": self.seq, "button": "a",
                                                "kind": "short"}))
        while True:
            message = json.loads((await self.witness.receive(timeout=10)).data)
            if message["t"] == "ack":
                assert message["seq"] == self.seq
                break
        self.seq += 1

    async def closed_with(self, ws) -> int:
        """The close code the kiosk ended ``ws`` with."""
        while True:
            msg = await ws.receive(timeout=10)
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                            aiohttp.WSMsgType.CLOSING):
                return ws.close_code


def attack(rig, scenario) -> None:
    async def main() -> None:
        async with aiohttp.ClientSession() as session:
            table = Table(rig, session)
            await table.pair_witness()
            await scenario(table)
            await table.witness_presses()
            assert rig.backend.connected(1)
            await table.witness.close()
    # A thread of its own: Playwright's sync API may hold this thread's event loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, main()).result()


@pytest.fixture
def rig(open_phones, caplog):
    caplog.set_level(logging.DEBUG)
    r = open_phones(per_peer=protocol.MAX_PER_PEER)
    yield r
    secrets = [s.secret for s in r.backend._seats]
    assert not any(secret in caplog.text for secret in secrets)  # no secret in the log


def test_the_witness_presses_through(rig):
    async def nothing(table: Table) -> None:
        await table.witness_presses()
    attack(rig, nothing)
    assert rig.backend.stats["presses"] == 2


@pytest.mark.parametrize("wrong", ["wrong secret", "wrong seat", "no such seat"])
def test_a_wrong_secret_or_seat_is_refused(rig, wrong):
    async def scenario(table: Table) -> None:
        ws = await table.connect()
        if wrong == "wrong secret":
            await ws.send_str(hello(rig, 0, secret="x" * 22))
        elif wrong == "wrong seat":  # seat 1's secret for seat 0
            await ws.send_str(hello(rig, 0, secret=rig.backend._seats[1].secret))
        else:
            await ws.send_str(hello(rig, 9, secret=rig.backend._seats[0].secret))
        assert await table.closed_with(ws) == protocol.CLOSE_REFUSED
    attack(rig, scenario)
    assert not rig.backend.paired(0)


@pytest.mark.parametrize("origin", [None, "http://evil.example", "http://127.0.0.1:1"])
def test_a_page_of_another_origin_cannot_open_the_socket(rig, origin):
    async def scenario(table: Table) -> None:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await table.connect(origin=origin)
        assert refused.value.status == 403
    attack(rig, scenario)


def test_a_host_name_is_refused_as_dns_rebinding_would_use_one(rig):
    async def scenario(table: Table) -> None:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await table.session.ws_connect(
                table.url, headers={"Host": f"kiosk.example:{rig.port}",
                                    "Origin": f"http://kiosk.example:{rig.port}"})
        assert refused.value.status == 403
    attack(rig, scenario)


@pytest.mark.parametrize("before_hello", [True, False])
def test_an_oversized_frame_closes_that_connection(rig, before_hello):
    async def scenario(table: Table) -> None:
        ws = await table.connect()
        if not before_hello:
            await ws.send_str(hello(rig, 0, device="attacker-01"))
        await ws.send_str(json.dumps({"t": "press", "pad": "x" * 4 * protocol.MAX_MESSAGE}))
        assert await table.closed_with(ws) == protocol.CLOSE_TOO_BIG
    attack(rig, scenario)


@pytest.mark.parametrize("frame", [
    "not json", "[1, 2]", '{"t": "press"}', '{"t": "shout", "seq": 1}',
    '{"t": "press", "seq": 1, "button": "d", "kind": "short"}',
    '{"t": "press", "seq": -1, "button": "a", "kind": "short"}',
    '{"t": "press", "seq": 1, "button": "a", "kind": "short", "seat": 1}',
    b"\x00\x01binary",
])
def test_a_malformed_frame_closes_that_connection(rig, frame):
    async def scenario(table: Table) -> None:
        ws = await table.connect()
        await ws.send_str(hello(rig, 0, device="attacker-01"))
        if isinstance(frame, bytes):
            await ws.send_bytes(frame)
        else:
            await ws.send_str(frame)
        assert await table.closed_with(ws) == protocol.CLOSE_POLICY
    attack(rig, scenario)
    assert rig.backend.stats["presses"] == 1  # the witness's alone


def test_a_flood_closes_that_connection(rig):
    async def scenario(table: Table) -> None:
        ws = await table.connect()
        await ws.send_str(hello(rig, 0, device="attacker-01"))
        for seq in range(4 * protocol.BURST):
            if ws.closed:
                break
            await ws.send_str(json.dumps({"t": "press", "seq": seq, "button": "c",
                                          "kind": "short"}))
        assert await table.closed_with(ws) == protocol.CLOSE_FLOOD
    attack(rig, scenario)
    assert rig.backend.stats["presses"] < 2 * protocol.BURST


def test_a_connection_that_says_nothing_is_closed(rig, monkeypatch):
    monkeypatch.setattr(protocol, "HELLO_TIMEOUT_S", 0.2)

    async def scenario(table: Table) -> None:
        ws = await table.connect()
        assert await table.closed_with(ws) == protocol.CLOSE_POLICY
    attack(rig, scenario)


def test_a_second_phone_waits_and_cannot_press(rig):
    async def scenario(table: Table) -> None:
        ws = await table.connect()
        await ws.send_str(hello(rig, 1, device="second-phone"))
        assert json.loads((await ws.receive(timeout=10)).data)["t"] == "waiting"
        handover = json.loads((await table.witness.receive(timeout=10)).data)
        assert handover["t"] == "handover"
        await ws.send_str(json.dumps({"t": "press", "seq": 0, "button": "a", "kind": "long"}))
        assert await table.closed_with(ws) == protocol.CLOSE_POLICY
    attack(rig, scenario)
    assert rig.backend.stats["presses"] == 1


FORGED_UPGRADE = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                  "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name.startswith("companion.phones") and r.levelno >= logging.WARNING]


def test_a_flood_of_refused_connections_is_two_log_lines(rig, caplog):
    knocks = 300

    async def scenario(table: Table) -> None:
        for _ in range(knocks):
            async with table.session.get(table.url, headers={
                    **FORGED_UPGRADE, "Origin": "http://evil.example"}) as answer:
                assert answer.status == 403
        for _ in range(knocks // 10):  # and wrong secrets, past the origin check
            ws = await table.connect()
            await ws.send_str(hello(rig, 0, secret="x" * 22))
            assert await table.closed_with(ws) == protocol.CLOSE_REFUSED
    attack(rig, scenario)
    assert len(refusals(caplog)) == 1  # the burst's first, while it lasts
    rig.close()  # the burst ends with the server: its count
    assert refusals(caplog)[1:] == [
        f"phones: {knocks + knocks // 10 - 1} more refused connections in that burst"]


def test_one_address_cannot_hold_every_connection(rig):
    async def scenario(table: Table) -> None:
        mine = []
        for seat in (0, 2, 3):  # the witness's and three more: as many as one address may
            ws = await table.connect()
            await ws.send_str(hello(rig, seat, device=f"greedy-{seat}-phone"))
            assert json.loads((await ws.receive(timeout=10)).data)["t"] == "welcome"
            mine.append(ws)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await table.connect()
        assert refused.value.status == 503
        # Another host on the Wi-Fi (another loopback address) still gets in.
        other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with aiohttp.ClientSession(connector=other) as elsewhere:
            ws = await elsewhere.ws_connect(table.url, headers={"Origin": rig.origin})
            await ws.send_str(hello(rig, 0, device="other-host-1"))
            assert json.loads((await ws.receive(timeout=10)).data)["t"] == "waiting"
            await ws.close()
        for ws in mine:
            await ws.close()
        ws = await table.connect()  # their slots are free again
        await ws.close()
    attack(rig, scenario)
