"""Real-time scheduling of the press path (``companion.system.realtime``): taken where the process
is granted it (the console unit's ``LimitRTPRIO``, or ``CAP_SYS_NICE``), inherited by the
threads started after, given up by the journal's background chores; a process granted
nothing keeps the normal policy and says why. Policies are changed in subprocesses: the
test process's own threads are never touched."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from kiosk_process import KioskProcess, env, write_config

from bench.common import without_realtime
from companion.system import realtime

PROJECT = Path(__file__).resolve().parents[2]
NOT_GRANTED = (
    "normal: real-time priority 10 is not granted (RLIMIT_RTPRIO 0; the console unit grants"
    " it with LimitRTPRIO=)"
)


def require_grant() -> None:
    """The granted path needs root (``CAP_SYS_NICE``) or an ``RLIMIT_RTPRIO`` of 10: CI
    runs as root (.ci/run sets COMPANION_REQUIRE_REALTIME); a user's machine without
    either skips, saying so."""
    if realtime.granted_priority() >= realtime.PRIORITY:
        return
    if os.environ.get("COMPANION_REQUIRE_REALTIME"):
        pytest.fail("no real-time priority is granted here (run as root)")
    pytest.skip("no real-time priority is granted here (root or LimitRTPRIO=10 needed)")


def run_python(code: str, prefix: list[str] | None = None) -> list[str]:
    done = subprocess.run(
        [*(prefix or []), sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=60, cwd=PROJECT, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_press_path_takes_round_robin_and_its_threads_inherit_it_but_chores_drop_it():
    require_grant()
    said = run_python("""
        import os, threading
        from companion.system import realtime
        from companion.storage.journal import Chore

        print(realtime.request())
        print("main", os.sched_getscheduler(0) == os.SCHED_RR,
              os.sched_getparam(0).sched_priority)
        seen = {}
        backend = threading.Thread(target=lambda: seen.update(backend=realtime.is_realtime()))
        backend.start(); backend.join()
        print("backend thread", seen["backend"])

        class Probe(Chore):
            def work(self, arg):
                seen["chore"] = realtime.is_realtime()

        chore = Probe("probe")
        chore.request(1)
        chore.close()
        print("chore", seen["chore"])
        print("main after", realtime.is_realtime())
    """)
    assert said == [
        "real-time round-robin, priority 10, for the press path",
        "main True 10",
        "backend thread True",  # the backend's and SDL's threads start after the request
        "chore False",  # the journal's second fsync and checkpoint wait for a core
        "main after True",  # a chore dropping its own policy leaves the others'
    ]


def test_a_process_granted_nothing_keeps_the_normal_policy_and_says_why():
    said = run_python("""
        from companion.system import realtime
        print(realtime.request())
        print(realtime.is_realtime())
    """, without_realtime())
    assert said == [NOT_GRANTED, "False"]


def test_a_kernel_refusing_it_leaves_the_normal_policy(monkeypatch):
    """A kernel with real-time group scheduling answers EPERM to a granted process."""
    calls = []

    def refuse(pid, policy, param):
        calls.append((pid, policy, param.sched_priority))
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(realtime, "granted_priority", lambda: 10)
    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    got = realtime.request()
    assert calls == [(0, os.SCHED_RR, 10)]
    assert not got.realtime
    assert str(got) == (
        "normal: the kernel refused real-time priority 10 (Operation not permitted; a kernel"
        " with real-time group scheduling gives services none)"
    )


def test_the_units_limit_alone_is_a_grant(monkeypatch):
    """The console unit's account holds no capability: ``LimitRTPRIO=10`` (the soft
    ``RLIMIT_RTPRIO``) is what makes ``request`` ask. Asked in a thread of its own, whose
    policy alone changes."""
    import threading

    require_grant()  # the kernel must then say yes: root here, as the unit's limit would
    monkeypatch.setattr(realtime, "holds_cap_sys_nice", lambda: False)
    monkeypatch.setattr(realtime.resource, "getrlimit", lambda limit: (10, 10))
    got = {}

    def ask() -> None:
        got["said"] = realtime.request()
        got["policy"] = os.sched_getscheduler(0)

    worker = threading.Thread(target=ask)
    worker.start()
    worker.join()
    assert got == {"said": realtime.Scheduling(
        True, "real-time round-robin, priority 10, for the press path"),
        "policy": os.SCHED_RR}
    assert not realtime.is_realtime()  # the test's own thread is as it was


def test_a_priority_above_the_grant_is_not_asked_for(monkeypatch):
    monkeypatch.setattr(realtime, "holds_cap_sys_nice", lambda: False)
    monkeypatch.setattr(realtime.resource, "getrlimit", lambda limit: (5, 5))
    monkeypatch.setattr(os, "sched_setscheduler", lambda *a: pytest.fail("asked anyway"))
    got = realtime.request(10)
    assert not got.realtime
    assert "RLIMIT_RTPRIO 5" in str(got)


def kiosk_policy(tmp_path: Path, prefix: list[str]) -> tuple[str, int]:
    """Start ``companion run`` (simulator pads) behind ``prefix``; at "ready": its
    "scheduling:" log line and its main thread's policy."""
    config = write_config(tmp_path, backend="sim")
    argv = [*prefix, sys.executable, "-m", "companion", "run", "--config", str(config)]
    kiosk = KioskProcess(argv, env(), tmp_path)
    try:
        line = kiosk.await_line(" scheduling: ")
        kiosk.await_line(" ready: ")
        policy = os.sched_getscheduler(kiosk.proc.pid)
        assert kiosk.stop(signal.SIGTERM) == 0
    finally:
        kiosk.kill()
    return line.split(" scheduling: ", 1)[1], policy


def test_the_kiosk_runs_its_loop_real_time_where_granted(tmp_path):
    require_grant()
    said, policy = kiosk_policy(tmp_path, [])
    assert said == "real-time round-robin, priority 10, for the press path"
    assert policy == os.SCHED_RR


def test_the_kiosk_granted_nothing_runs_as_before_and_says_why(tmp_path):
    said, policy = kiosk_policy(tmp_path, without_realtime())
    assert said == NOT_GRANTED
    assert policy == os.SCHED_OTHER
