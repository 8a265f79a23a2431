"""`companion report --out FILE.html [--lang en|fr] [--db PATH] [--ledger FILE]`: the game
history and the King's Dilemma campaign as one self-contained HTML page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.play.errors import counted
from companion.storage import history
from companion.storage.journal import JournalError
from companion.system import paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True,
                   help="the HTML file to write (replaced whole); open it in any browser, "
                   "on a phone too: it needs no network")
    p.add_argument("--lang", choices=("en", "fr"), default="en", help="its language")
    p.add_argument("--db", type=Path,
                   help="history database; default: DATA_DIR/companion.db (DATA_DIR: "
                   "$COMPANION_DATA_DIR, else $XDG_DATA_HOME/companion, else "
                   "~/.local/share/companion)")
    p.add_argument("--ledger", type=Path,
                   help="The King's Dilemma campaign ledger; default: "
                   "DATA_DIR/kd-campaign.json (none: no campaign in the report)")


def run(args: argparse.Namespace) -> int:
    # Loaded on use: `companion --help` imports every command module (start-up).
    from datetime import date

    from companion.commands.export import write_atomically
    from companion.games.kings_dilemma import ledger as kd_ledger
    from companion.i18n import load_catalog
    from companion.records import report

    path = args.db or history.default_path()
    try:  # read only: an unreadable ledger is said, never moved aside
        campaign = kd_ledger.read_campaign(args.ledger or paths.data_dir() / kd_ledger.LEDGER_FILE)
    except kd_ledger.NotALedger as exc:
        print(f"companion report: {exc}; the report has no campaign", file=sys.stderr)
        campaign = None
    catalog, today = load_catalog(args.lang), date.today().isoformat()
    try:
        if path.exists():  # the games read from the history as the page is written
            with history.History(path) as h:
                if h.notice:
                    print(f"companion report: warning: {h.notice}", file=sys.stderr)
                games = report.HistoryGames(h)
                total = games.total()
                write_atomically(args.out, report.chunks(games, campaign, catalog, today))
        else:  # nothing kept yet: a report of no game, and no database is created
            total = 0
            write_atomically(args.out, report.chunks(report.Games([]), campaign, catalog,
                                                     today))
    except JournalError as exc:
        print(f"companion report: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"companion report: --out: {args.out}: cannot write ({exc.strerror})",
              file=sys.stderr)
        return 2
    nights = len(campaign.games) if campaign else 0
    print(f"{args.out}: {counted(total, 'game', 'games')}, "
          f"{counted(nights, 'campaign night', 'campaign nights')}", file=sys.stderr)
    return 0
