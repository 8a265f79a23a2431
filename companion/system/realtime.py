"""Real-time scheduling for the press path, where the system grants it.

A press's light waits for the kiosk's threads to get a core: the backend's thread (the
pin callback, the pad reader) and the loop's (rules, commit, light). On a machine whose
cores are busy (an update, a log rotation, a second program) the normal policy makes
them wait their turn, several milliseconds at a time. Round-robin real-time at a low
priority puts them ahead of every normal process and below the kernel's threaded
interrupt handlers (priority 50); the kernel still keeps 5 % of each core for
the rest (``sched_rt_runtime_us``), so a runaway loop can't lock the machine.

It is asked for only where it is granted: the console unit sets ``LimitRTPRIO=`` to
``PRIORITY`` (its account has no privilege), and a process holding ``CAP_SYS_NICE`` (root)
may take it anyway. Elsewhere (a desktop session, a user's shell) the kiosk keeps the
normal policy without asking. A kernel with real-time group scheduling refuses it to
services; the kiosk then runs as before and logs why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

try:
    import resource
except ImportError:  # not a Unix
    resource = None  # type: ignore[assignment]

PRIORITY = 10  # SCHED_RR priority of the press path: above normal work, below IRQ threads
MAX_PRIORITY = 99  # the highest real-time priority Linux has
CAP_SYS_NICE = 23  # linux/capability.h: may raise any thread's priority


@dataclass(frozen=True)
class Scheduling:
    """What the kiosk's threads run under, and why (the kiosk's log says it)."""

    realtime: bool
    why: str

    def __str__(self) -> str:
        return self.why


def holds_cap_sys_nice() -> bool:
    """Whether this process's effective capabilities include ``CAP_SYS_NICE``."""
    try:
        with open("/proc/self/status", encoding="utf-8", errors="replace") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> CAP_SYS_NICE & 1)
    except (OSError, ValueError):
        pass
    return False


def granted_priority() -> int:
    """The highest real-time priority this process may take: its soft ``RLIMIT_RTPRIO``,
    any with ``CAP_SYS_NICE``, 0 where neither says otherwise."""
    limit = getattr(resource, "RLIMIT_RTPRIO", None)
    soft = 0 if limit is None else resource.getrlimit(limit)[0]
    if soft == getattr(resource, "RLIM_INFINITY", -1) or holds_cap_sys_nice():
        return MAX_PRIORITY
    return int(soft)


def request(priority: int = PRIORITY) -> Scheduling:
    """Put the calling thread under ``SCHED_RR`` at ``priority`` when the process is granted
    it; the threads it starts afterwards inherit the policy. Call it before the backend and
    the loop start. Never raises: a refusal leaves the normal policy."""
    if not hasattr(os, "sched_setscheduler"):
        return Scheduling(False, "normal: real-time scheduling is not available on this system")
    granted = granted_priority()
    if granted < priority:
        return Scheduling(
            False,
            f"normal: real-time priority {priority} is not granted (RLIMIT_RTPRIO {granted};"
            " the console unit grants it with LimitRTPRIO=)",
        )
    try:
        os.sched_setscheduler(0, os.SCHED_RR, os.sched_param(priority))
    except OSError as exc:
        return Scheduling(
            False,
            f"normal: the kernel refused real-time priority {priority} ({exc.strerror}; a"
            " kernel with real-time group scheduling gives services none)",
        )
    return Scheduling(True, f"real-time round-robin, priority {priority}, for the press path")


def is_realtime() -> bool:
    """Whether the calling thread runs under a real-time policy."""
    if not hasattr(os, "sched_getscheduler"):
        return False
    return os.sched_getscheduler(0) in (os.SCHED_RR, os.SCHED_FIFO)


def background() -> None:
    """The calling thread back under the normal policy: for work no light waits for (the
    journal's second fsync, the -wal's checkpoint), so that it never takes a core from the
    press path. Lowering one's own policy needs no privilege."""
    if is_realtime():
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
