"""The evening's pairing secrets: kept across a restart of the kiosk the same evening, new
the next evening, never readable by another account."""

from __future__ import annotations

import ipaddress
import json
import os
import stat
import threading
from datetime import datetime

import pytest
from phone_rig import LIMIT_S, free_port

from companion.phones.pairing import (
    Evening,
    choose_address,
    evening,
    interface_addresses,
    lan_address,
    seat_url,
)
from companion.ui.table_check import TableCheckScreen


def codes(path, seats: int, now: datetime | None = None) -> tuple[str, ...]:
    """The seats' secrets a kiosk started at ``now`` has."""
    return Evening(path, seats, now).secrets


def test_a_night_past_midnight_is_the_same_evening():
    assert evening(datetime(2026, 11, 26, 20, 0)) == "2026-11-26"
    assert evening(datetime(2026, 11, 27, 1, 30)) == "2026-11-26"
    assert evening(datetime(2026, 11, 27, 6, 0)) == "2026-11-27"


def test_a_restart_the_same_evening_keeps_the_codes_the_next_evening_changes_them(tmp_path):
    path = tmp_path / "phones.json"
    first = codes(path, 5, datetime(2026, 11, 26, 20, 0))
    assert len(set(first)) == 5 and all(len(s) >= 16 for s in first)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert codes(path, 5, datetime(2026, 11, 27, 1, 0)) == first
    assert codes(path, 4, datetime(2026, 11, 27, 1, 0)) != first[:4]  # seats changed
    later = codes(path, 4, datetime(2026, 11, 27, 19, 0))
    assert not set(later) & set(first)
    assert json.loads(path.read_text())["evening"] == "2026-11-27"


def test_a_damaged_file_or_none_makes_new_codes(tmp_path, caplog):
    path = tmp_path / "phones.json"
    path.write_text("{not json")
    made = codes(path, 3, datetime(2026, 11, 26, 20, 0))
    assert "phones.json not read" in caplog.text
    assert codes(path, 3, datetime(2026, 11, 26, 21, 0)) == made
    assert codes(None, 3) != codes(None, 3)


def test_the_secret_is_in_the_fragment_only():
    url = seat_url("192.168.1.20", 8470, 2, "s3cret-s3cret-s3cret")
    assert url == "http://192.168.1.20:8470/#s=2&k=s3cret-s3cret-s3cret"
    assert seat_url("fe80::1", 8470, 0, "k").startswith("http://[fe80::1]:8470/#")


def test_the_phones_holding_the_seats_are_kept_with_the_evening(tmp_path):
    path = tmp_path / "phones.json"
    night = Evening(path, 3, datetime(2026, 11, 26, 20, 0))
    assert night.devices == [None, None, None]
    night.devices[1] = "ben-phone-1"
    night.save()
    again = Evening(path, 3, datetime(2026, 11, 26, 23, 0))
    assert (again.secrets, again.devices) == (night.secrets, [None, "ben-phone-1", None])
    assert Evening(path, 3, datetime(2026, 11, 27, 20, 0)).devices == [None, None, None]


def test_the_codes_name_the_kiosks_local_address_with_or_without_a_default_route():
    assert choose_address("192.168.1.20", ["127.0.0.1", "192.168.1.20"]) == "192.168.1.20"
    # a Pi that is itself the hotspot: no default route, its own interface's address
    assert choose_address(None, ["127.0.0.1", "10.42.0.1"]) == "10.42.0.1"
    assert choose_address("8.8.8.8", ["127.0.0.1", "172.16.5.4"]) == "172.16.5.4"
    assert choose_address(None, ["127.0.0.1", "169.254.3.4"]) == "127.0.0.1"
    assert choose_address(None, []) == "127.0.0.1"


def test_this_machines_interfaces_are_read():
    assert "127.0.0.1" in interface_addresses()  # the loopback interface, at least
    assert ipaddress.ip_address(lan_address())  # an address, whatever this machine has


@pytest.mark.parametrize("trap", ["a FIFO", "a link to /dev/zero", "a directory"])
def test_a_special_file_at_phones_json_makes_new_codes_and_never_hangs(tmp_path, caplog,
                                                                       trap):
    path = tmp_path / "phones.json"
    if trap == "a FIFO":
        os.mkfifo(path)
    elif trap == "a directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    made: list[Evening] = []
    reader = threading.Thread(target=lambda: made.append(Evening(path, 3)), daemon=True)
    reader.start()
    reader.join(LIMIT_S)  # a safety net: a FIFO read by name would block for ever
    assert made, "reading phones.json hung"
    assert len(set(made[0].secrets)) == 3
    assert "phones.json not read" in caplog.text
    if trap != "a directory":  # the file whole again: the next start keeps the codes
        assert path.is_file() and Evening(path, 3).secrets == made[0].secrets


def test_a_press_in_flight_across_a_restart_is_taken_once(open_phones, hands, tmp_path):
    """The kiosk takes a press and goes (a power cut) before its acknowledgement reaches
    the page: the page sends it again to the restarted kiosk, which knows it."""
    port, kept = free_port(), tmp_path / "phones.json"
    rig = open_phones(port=port, secrets_file=kept)
    rig.app.push(TableCheckScreen(rig.app))
    h = hands(rig)
    ana = h.open(0, "ana-phone-1")
    h.run(ana.next("welcome"))
    h.run(ana.press("a"))
    assert json.loads(kept.read_text())["seqs"][0] == 0  # kept before it was acknowledged
    rig.close()
    rig = open_phones(port=port, secrets_file=kept)
    rig.app.push(TableCheckScreen(rig.app))
    again = h.open(0, "ana-phone-1", rig)
    assert h.run(again.next("welcome"), rig)["last_seq"] == 0
    h.run(again.press("a", seq=0), rig)  # the page's queue: the press not acknowledged
    assert (rig.presses(), rig.backend.stats["repeated"]) == (0, 1)
    h.run(again.press("b", seq=1), rig)
    assert rig.presses() == 1
