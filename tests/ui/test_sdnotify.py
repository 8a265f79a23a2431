"""systemd's notifications (companion/system/sdnotify.py): ``READY=1`` once the first frame is
shown and ``WATCHDOG=1`` from the loop, received on a datagram socket standing in for
systemd's ``$NOTIFY_SOCKET``; a hung loop stops the keep-alives (what makes systemd's
``WatchdogSec=`` restart it). A real ``companion run`` under SDL's dummy driver, and the
real ``App`` loop in this process with a screen that blocks it.

Keep-alives are awaited on the socket; "no keep-alive" is a receive that times out after
several watchdog periods (the only way to see that nothing comes)."""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
from pathlib import Path

import pytest
from kiosk_process import KioskProcess, env, write_config
from test_ui_app import Recorder, open_app  # noqa: F401  (open_app: the loop's fixture)

from companion.play.seat import ButtonEvent, Press
from companion.system import sdnotify

PERIOD_USEC = 300_000  # the test's WatchdogSec: a keep-alive every 0.15 s
QUIET_S = 6 * PERIOD_USEC / 1e6  # several periods with none: the loop is not saying it lives


class NotifySocket:
    """systemd's end: an AF_UNIX datagram socket bound at a path in ``tmp`` or, with
    ``abstract``, at a name in the abstract namespace (``$NOTIFY_SOCKET`` = ``@name``)."""

    def __init__(self, tmp: Path, abstract: bool = False) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = f"companion-test-notify-{os.getpid()}-{id(self)}"
            self.sock.bind("\0" + name)
            self.address = "@" + name
        else:
            path = tmp / "notify.sock"
            self.sock.bind(str(path))
            self.address = str(path)

    def receive(self, timeout_s: float = 60) -> str | None:
        """The next message, or None if none came within ``timeout_s``."""
        self.sock.settimeout(timeout_s)
        try:
            return self.sock.recv(4096).decode()
        except TimeoutError:
            return None

    def await_message(self, wanted: str) -> list[str]:
        """Messages up to and with the first that has the line ``wanted``."""
        seen = []
        while True:
            message = self.receive()
            assert message is not None, f"no {wanted!r} came; got {seen}"
            seen.append(message)
            if wanted in message.splitlines():
                return seen

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notify_socket(tmp_path):
    sockets: list[NotifySocket] = []

    def _open(abstract: bool = False) -> NotifySocket:
        sockets.append(NotifySocket(tmp_path, abstract))
        return sockets[-1]

    yield _open
    for s in sockets:
        s.close()


def kiosk_under_systemd(tmp_path: Path, address: str) -> KioskProcess:
    """``companion run`` as the console unit starts it: $NOTIFY_SOCKET and the watchdog's
    period in its environment (its own pid: WATCHDOG_PID is not set, systemd sets it only
    when it is the main process's own, and then it is this one)."""
    config = write_config(tmp_path, "sim")
    e = env()
    e.update(NOTIFY_SOCKET=address, WATCHDOG_USEC=str(PERIOD_USEC))
    argv = [sys.executable, "-m", "companion", "run", "--config", str(config)]
    return KioskProcess(argv, e, tmp_path)


@pytest.mark.parametrize("abstract", [False, True], ids=["path", "abstract"])
def test_a_real_kiosk_says_ready_after_its_first_frame_then_keeps_alive(
    tmp_path, notify_socket, abstract
):
    systemd = notify_socket(abstract)
    k = kiosk_under_systemd(tmp_path, systemd.address)
    try:
        first = systemd.receive()
        assert first is not None and first.splitlines()[0] == "READY=1"
        k.await_line("ready")  # logged once the first frame is drawn, just before READY
        for _ in range(3):  # the loop, asleep with nothing to do, still says it lives
            assert systemd.receive() == "WATCHDOG=1"
        assert k.stop(signal.SIGTERM) == 0
    finally:
        k.kill()
    assert any("systemd watchdog: 0.3 s, kept alive by the loop" in line for line in k.lines)


def test_a_stopped_kiosk_sends_no_keepalive_and_resumes_after(tmp_path, notify_socket):
    """SIGSTOP freezes the process (as a hard hang would): nothing for several periods,
    so systemd would end it; SIGCONT: keep-alives again."""
    systemd = notify_socket()
    k = kiosk_under_systemd(tmp_path, systemd.address)
    try:
        systemd.await_message("READY=1")
        assert systemd.receive() == "WATCHDOG=1"
        k.proc.send_signal(signal.SIGSTOP)
        while systemd.receive(timeout_s=0.05) is not None:  # what was sent before the stop
            pass
        assert systemd.receive(timeout_s=QUIET_S) is None
        k.proc.send_signal(signal.SIGCONT)
        assert systemd.receive() == "WATCHDOG=1"
        assert k.stop(signal.SIGTERM) == 0
    finally:
        k.kill()


def test_a_kiosk_not_under_systemd_sends_nothing_and_runs(tmp_path, kiosk):
    """No $NOTIFY_SOCKET (a terminal, run.sh): no notification, no complaint."""
    k = kiosk(write_config(tmp_path, "sim"))
    k.await_line("ready")
    assert k.stop(signal.SIGTERM) == 0
    assert not any("systemd watchdog" in line or "notification" in line for line in k.lines)


def test_a_hung_loop_stops_the_keepalives_while_its_threads_run_on(
    open_app, notify_socket  # noqa: F811  (the fixture imported above)
):
    """The real loop in this process; a screen whose button handler blocks stands for a
    hang (a stuck commit, a draw that never returns). The seat backend's threads and this
    test's go on: keep-alives come from the loop alone, so none come while it hangs, and
    they come back once it is released."""
    systemd = notify_socket()
    app, backend, _clock = open_app()
    app.notifier = sdnotify.Notifier(systemd.address, PERIOD_USEC)
    release = threading.Event()
    entered = threading.Event()

    class Hanging(Recorder):
        def on_button(self, event: ButtonEvent) -> None:
            entered.set()
            release.wait()  # the first press hangs the loop; later ones pass
            app.running = False

    app.push(Hanging(app))
    got: list[str | None] = []

    def systemd_side() -> None:
        try:
            got.append(systemd.receive())  # the sleeping loop keeps alive
            backend.press(0, "a", Press.SHORT)  # from another thread, as a pad would
            assert entered.wait(60)
            while systemd.receive(timeout_s=0.05) is not None:  # sent before the hang
                pass
            got.append(systemd.receive(timeout_s=QUIET_S))  # the hang: none
        finally:
            release.set()

    watcher = threading.Thread(target=systemd_side)
    watcher.start()
    try:
        while app.running:  # the loop, on this (the main) thread, as in `companion run`
            app.step()
    finally:
        release.set()
        watcher.join(60)
    assert got == ["WATCHDOG=1", None]
    # released: the loop's next wait says it lives again (one due after the long silence)
    app.running = True
    backend.press(0, "b", Press.SHORT)
    app.step()
    assert systemd.receive() == "WATCHDOG=1"


def test_notifier_without_socket_does_nothing():
    n = sdnotify.Notifier.from_env({})
    assert not n.active
    n.ready()
    n.keepalive()
    assert (n.ready_sent, n.kept_alive) == (False, 0)


def test_notifier_reads_the_watchdog_of_this_process_only(tmp_path, notify_socket):
    systemd = notify_socket()
    base = {"NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "30000000"}
    assert sdnotify.Notifier.from_env(base).period_s == 30.0
    mine = sdnotify.Notifier.from_env({**base, "WATCHDOG_PID": str(os.getpid())})
    assert mine.period_s == 30.0
    other = sdnotify.Notifier.from_env({**base, "WATCHDOG_PID": str(os.getpid() + 1)})
    assert other.period_s is None and other.active  # READY still goes, no keep-alives
    for bad in ("", "0", "-5", "30s", "٣"):
        assert sdnotify.Notifier.from_env({**base, "WATCHDOG_USEC": bad}).period_s is None


def test_keepalives_are_spaced_by_half_the_period(tmp_path, notify_socket):
    systemd = notify_socket()
    n = sdnotify.Notifier(systemd.address, 3_600_000_000)  # an hour: half is far away
    n.ready()
    n.keepalive()
    n.keepalive()
    n.keepalive()
    assert systemd.receive() == "READY=1\nSTATUS=showing the table"
    assert systemd.receive() == "WATCHDOG=1"
    assert systemd.receive(timeout_s=0.05) is None  # the other two passes sent nothing
    assert n.kept_alive == 1


def test_a_send_that_fails_is_logged_once_and_never_raises(tmp_path, caplog):
    n = sdnotify.Notifier(str(tmp_path / "nobody-listens.sock"), PERIOD_USEC)
    n.ready()
    n._next_keepalive = 0.0
    n.keepalive()
    assert n.ready_sent and n.kept_alive == 1
    failures = [r for r in caplog.records if "systemd notification" in r.getMessage()]
    assert len(failures) == 1
