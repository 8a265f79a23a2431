"""Shared by the command-line tests: `companion ARGV` run in-process or as a process."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

from companion.cli import main


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """`companion ARGV` in-process: (exit code, stdout, stderr). Any exception but
    SystemExit propagates and fails the test — that is a traceback for the user."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def run_process(argv: list[str], *, env: dict | None = None, timeout: float = 60,
                cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m companion ARGV` as a real process (text output, never raises on exit)."""
    return subprocess.run(
        [sys.executable, "-m", "companion", *argv], capture_output=True, text=True,
        timeout=timeout, check=False, env=env, cwd=cwd,
    )
