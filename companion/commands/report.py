"""`companion report --out FILE.html [--lang en|fr] [--db PATH] [--ledger FILE]`: the game
history and the King's Dilemma campaign as one self-contained HTML page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion import history, paths
from companion.engine.errors import counted
from companion.journal import JournalError


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
    import json
    from datetime import date

    from companion import kd_ledger, report
    from companion.commands.export import write_atomically
    from companion.engine.errors import RuleError
    from companion.engine.kd_campaign import Campaign
    from companion.i18n import load_catalog
    from companion.regularfile import TooBig, read_regular
    from companion.safetext import escaped, shown

    path = args.db or history.default_path()
    ledger_path = args.ledger or paths.data_dir() / kd_ledger.LEDGER_FILE
    campaign = None
    if ledger_path.exists():  # read only: an unreadable ledger is said, never moved aside
        try:  # a FIFO or /dev/zero is refused, not read; a huge file by its size
            raw = read_regular(ledger_path, kd_ledger.MAX_LEDGER_BYTES)
            campaign = Campaign.from_dict(json.loads(raw.decode("utf-8")))
        except TooBig:
            print(f"companion report: {escaped(str(ledger_path))}: not a campaign ledger (more "
                  f"than {kd_ledger.MAX_LEDGER_BYTES:,} bytes); the report has no campaign",
                  file=sys.stderr)
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError,
                RuleError, RecursionError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else shown(str(exc))
            print(f"companion report: {escaped(str(ledger_path))}: not a campaign ledger "
                  f"({why}); the report has no campaign", file=sys.stderr)
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
