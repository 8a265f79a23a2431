"""The King's Dilemma campaign ledger on disk (the campaign is saved
for the next game): one JSON file, ``kd-campaign.json``, in the data directory beside
the journal.

- Written atomically: a temporary file in the same directory, flushed and fsynced, then
  ``os.replace`` (and the directory fsynced), so a power cut leaves the old ledger or the
  new one, never half of one.
- A file that is not a ledger (not JSON, not a campaign's shape, not a regular file, too
  large) is never overwritten: it is moved aside as
  ``kd-campaign.json.corrupt-YYYYmmdd-HHMMSS`` and ``notice`` says so; the table starts a
  new campaign.
- A ledger the system won't let us read now (permission, I/O error) is no sign of a
  damaged file: it stays where it is, ``LedgerUnreadable`` says why (logged, and shown by
  the screen that wanted the ledger) and nothing is started or saved over it; the next
  ``load`` reads it again.
- "New campaign" moves the current ledger aside as ``kd-campaign.json.ended-…`` (kept,
  not deleted); the prestige/crave values entered by hand carry over.
- The prestige/crave table is a setting: the data file's values win; a value the data
  file leaves empty and the table entered by hand is kept in the ledger, so it is asked
  only once per campaign.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from companion.files.regularfile import NotRegular, TooBig, read_regular
from companion.files.safetext import escaped, shown
from companion.games.kings_dilemma import campaign as kc
from companion.play.errors import RuleError

log = logging.getLogger(__name__)

LEDGER_FILE = "kd-campaign.json"
MAX_LEDGER_BYTES = 5_000_000  # a campaign of a few dozen nights is a few kB


class LedgerUnreadable(OSError):
    """The ledger is there but can't be read now (permission, I/O): left as it is."""

    def __init__(self, path: Path, cause: OSError) -> None:
        super().__init__(cause.errno, f"{path} can't be read now ({cause.strerror or cause});"
                         " it is kept as it is and read again next time")
        self.cause = cause

    @property
    def reason(self) -> str:
        """``permission`` or ``io``: what the screen says (its catalog's words)."""
        return "permission" if isinstance(self.cause, PermissionError) else "io"

    def __str__(self) -> str:
        return self.strerror


def _aside(path: Path, why: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
        n += 1
    path.rename(target)
    return target


def merged_table(saved: kc.AwardTable, shipped: kc.AwardTable) -> kc.AwardTable:
    """The data file's prestige/crave table, its empty values filled from ``saved``."""
    cells = []
    for end, rank, award in shipped.cells:
        kept = saved.award(end, rank)
        cells.append((end, rank, kc.Award(
            kept.prestige if award.prestige is None else award.prestige,
            kept.crave if award.crave is None else award.crave,
        )))
    return kc.AwardTable(tuple(cells))


def with_cells(table: kc.AwardTable, entered: dict[tuple[str, str], dict[str, int]]
               ) -> kc.AwardTable:
    """``table`` with values entered by hand (``{(end, rank): {"prestige": n, ...}}``)."""
    cells = []
    for end, rank, award in table.cells:
        values = {**award.to_dict(), **entered.get((end, rank), {})}
        cells.append((end, rank, kc.Award(values["prestige"], values["crave"])))
    return kc.AwardTable(tuple(cells))


class NotALedger(ValueError):
    """A ledger that gives no campaign to a reader (``read_campaign``): one line saying
    which file and why, safe to print (control characters escaped)."""


def read_campaign(path: str | Path) -> kc.Campaign | None:
    """The campaign of the ledger ``path`` as it is, for a reader that changes nothing (the
    charts, ``companion report``, ``companion export``): None when there is no such file;
    ``NotALedger`` when it can't be read (a FIFO or ``/dev/zero``: refused, not read; more
    than ``MAX_LEDGER_BYTES``: refused by its size) or is no campaign. Nothing is moved
    aside (``LedgerFile`` does that, for the King's Dilemma screens)."""
    path = Path(path)
    try:
        raw = read_regular(path, MAX_LEDGER_BYTES)
        return kc.Campaign.from_dict(json.loads(raw.decode("utf-8")))
    except FileNotFoundError:
        return None
    except TooBig:
        why = f"more than {MAX_LEDGER_BYTES:,} bytes"
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
    except (ValueError, KeyError, TypeError, AttributeError, RuleError,
            RecursionError) as exc:  # UnicodeDecodeError and JSON's errors are ValueErrors
        why = shown(str(exc))
    raise NotALedger(f"{escaped(str(path))}: not a campaign ledger ({why})")


def peek(directory: str | Path) -> kc.Campaign | None:
    """The campaign saved in ``directory`` as it is (``read_campaign``): None when none is
    saved or it can't be read now or is no ledger (logged)."""
    try:
        return read_campaign(Path(directory).expanduser() / LEDGER_FILE)
    except NotALedger as exc:
        log.warning("%s", exc)
        return None


class LedgerFile:
    """The saved campaign of a data directory."""

    def __init__(self, directory: str | Path, settings: kc.Settings) -> None:
        self.path = Path(directory).expanduser() / LEDGER_FILE
        self.settings = settings  # the data file's, for a new campaign and the table
        self.notice: str | None = None  # a corrupt ledger moved aside

    def load(self) -> kc.Campaign:
        """The saved campaign (its table merged with the data file's), or a new one when
        none is saved yet or the saved one is damaged (moved aside, ``notice``); a ledger
        that can't be read now raises ``LedgerUnreadable`` and stays where it is."""
        try:
            text = read_regular(self.path, MAX_LEDGER_BYTES).decode("utf-8")
        except FileNotFoundError:
            return kc.new_campaign(self.settings)
        except (NotRegular, TooBig):
            # a pipe would block the kiosk, a huge file exhaust it: neither is a ledger
            return self._unusable(f"not a regular file of at most {MAX_LEDGER_BYTES:,} bytes")
        except UnicodeDecodeError as exc:
            return self._unusable(str(exc))
        except OSError as exc:
            raise self._unreadable(exc) from exc
        try:
            campaign = kc.Campaign.from_dict(json.loads(text))
        except (ValueError, KeyError, TypeError, AttributeError, RuleError,
                RecursionError) as exc:
            return self._unusable(f"not a campaign ledger ({type(exc).__name__}: {exc})")
        table = merged_table(campaign.settings.table, self.settings.table)
        return replace(campaign, settings=replace(self.settings, table=table))

    def _unreadable(self, exc: OSError) -> LedgerUnreadable:
        unreadable = LedgerUnreadable(self.path, exc)
        log.error("%s", unreadable)
        return unreadable

    def _unusable(self, reason: str) -> kc.Campaign:
        moved = _aside(self.path, "corrupt")
        self.notice = (f"{self.path} could not be used ({reason}); kept as {moved.name}, "
                       "started a new campaign.")
        log.error("%s", self.notice)
        return kc.new_campaign(self.settings)

    def save(self, campaign: kc.Campaign) -> None:
        """Write ``campaign`` atomically (temp file, fsync, rename, fsync the directory)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(campaign.to_dict(), ensure_ascii=False, indent=1, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{LEDGER_FILE}.", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(data + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        directory = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        log.info("kings-dilemma: campaign saved (%d games) in %s", len(campaign.games),
                 self.path)

    def start_over(self) -> kc.Campaign:
        """A new campaign: the saved ledger (if any) is kept aside as ``….ended-…``; the
        prestige/crave values entered by hand stay (they are the box's, not the
        campaign's)."""
        table = self.load().settings.table
        if self.path.exists():
            moved = _aside(self.path, "ended")
            log.info("kings-dilemma: new campaign; the last one kept as %s", moved.name)
        return kc.new_campaign(replace(self.settings, table=table))
