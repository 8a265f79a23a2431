"""``companion run`` with ``phones: {enabled: true, port: …}`` serves the seat page on that
port (loopback here), and a port that can't be opened leaves the kiosk running, saying so."""

from __future__ import annotations

import signal
import socket
import urllib.request

from kiosk_process import write_config

from companion.hardware.sim import SimBackend
from companion.i18n import load_catalog
from companion.phones.seats import PhoneSeats
from companion.phones.server import HEADERS
from companion.ui.demo import demo_config


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_run_serves_the_phone_page_on_the_configured_port(tmp_path, kiosk):
    port = free_port()
    config = write_config(tmp_path, backend="sim")
    with config.open("a", encoding="utf-8") as f:
        f.write(f"phones: {{enabled: yes, port: {port}, listen: 127.0.0.1, "
                f"address: 127.0.0.1}}\n")
    k = kiosk(config)
    assert f"phones: listening on 127.0.0.1 port {port}" in k.await_line("phones:")
    k.await_line("ready")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
        assert page.status == 200
        html = page.read().decode()
        assert page.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]
    assert '<script src="/phone.js">' in html
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/phone.js", timeout=30) as script:
        assert b"new WebSocket" in script.read()
    assert k.stop(signal.SIGTERM) == 0
    assert any("closed" in line for line in k.lines)
    assert not any("#s=" in line for line in k.lines)  # no seat's code in the log


def test_a_port_taken_leaves_the_seats_wired_and_says_so(tmp_path):
    config = demo_config((800, 480), "en")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        backend = PhoneSeats(SimBackend(len(config.seats)), config.seats, load_catalog("en"),
                             host="127.0.0.1", port=taken.getsockname()[1])
        backend.start(lambda event: None)
        try:
            assert backend.failure is not None
            assert backend.notice.startswith("Phones are off: port")
            assert backend.connected(0)  # the wired seats play on
        finally:
            backend.close()
