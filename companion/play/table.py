"""The evening at the table, headless: the seats in, the game asked, the lights out, the
finished game into the history. No pygame here and nothing of ``companion.ui``: the kiosk
is one view of a ``Table`` (``companion.ui.app.App``), a test or a bench may be another,
or none at all.

A press travels: seat backend (GPIO, serial, sim, phones: any thread) → ``post_button``
(a bounded queue, the loop woken) → ``drain`` (the loop's thread) → ``press``, the one
seam into the current game's controller → ``show_lights``, the one seam out of it (through
``companion.play.lights``, the one writer of the seats' lights) → the view told what the
press did (``TableView.pressed``), to draw it → each seat's own display beyond its light
(a phone's page, ``show_seats``). Phones are a seat backend like the wired ones
(``companion.phones.seats.PhoneSeats``): their presses come the same way. A touch on the screen is an action the
view forwards with ``act``: the game's lights follow the same way, since the Table hears
every change of the game it follows (``follow``).

At most ``SEAT_QUEUE_MAX`` seat events wait at a time: a flood from a broken pad while the
loop is busy is dropped (one log line when it starts, one with the count when the loop
catches up), so a backend's reader thread never blocks nor raises.

A write to the journal or the history that fails (disk full) is a ``StorageError``: the
press or the touch changed nothing (the session keeps its last saved state), ``saving``
logs it and the view shows ``save_failure`` until a write succeeds again.
"""

from __future__ import annotations

import enum
import functools
import logging
import threading
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from companion.hardware.base import PadEvent, SeatBackend
from companion.play import lights as seat_lights
from companion.play.controller import where_it_stands
from companion.play.errors import RuleError
from companion.play.seat import ButtonEvent, Light
from companion.play.turns import NOBODY, Turns
from companion.play.turns import lights as turns_lights
from companion.play.words import Words, words_text
from companion.storage.journal import GameRecord, Journal, JournalError, StorageError

if TYPE_CHECKING:  # loaded on use: the kiosk opens its history after Home's first frame
    from companion.storage.history import GameResult, History, PlayerStats

log = logging.getLogger(__name__)

SEAT_QUEUE_MAX = 512  # seat events waiting for the loop; 100 times a table's burst of presses

# What a view reads of the games kept, as the Table hands them over (the rows of the
# journal and of the history: a view draws them, the Table alone writes them).
KeptGame = GameRecord  # a game in the journal, as ``unfinished`` lists it
if TYPE_CHECKING:
    PlayedGame = GameResult  # a finished game, as ``end_game`` returns it and the history lists it
    PlayerFigures = PlayerStats  # a player's figures over the games of the history
# What rebuilding a kept game raises when it no longer replays (rules changed, a damaged
# journal): a view says why and offers to abandon it.
NOT_REPLAYED: tuple[type[Exception], ...] = (RuleError, JournalError)


def __getattr__(name: str) -> Any:
    """``PlayedGame`` and ``PlayerFigures``, the history's rows: its module is imported on
    first use, not with the Table (the kiosk's first frame needs no history)."""
    if name in ("PlayedGame", "PlayerFigures"):
        from companion.storage import history

        return history.GameResult if name == "PlayedGame" else history.PlayerStats
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _NotSaved:
    """What ``Table.act`` answers for a touch whose write failed: nothing changed (falsy,
    and told apart from any answer of a controller's method by ``is NOT_SAVED``)."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_SAVED"


NOT_SAVED: Any = _NotSaved()


class TableView(Protocol):
    """What the Table tells whoever shows the evening (the kiosk's App), all on the loop's
    thread."""

    def turns(self) -> Turns | None:
        """Who acts as the view shows it now (a screen between games, a step of the
        night's end): the seats' lights follow (``companion.play.turns``); None: the game's own."""
        ...

    def claims(self, event: ButtonEvent) -> bool:
        """Whether the view answers this press itself (Home, the table check, a power's
        options open on screen) rather than the game."""
        ...

    def on_button(self, event: ButtonEvent) -> None:
        """A press the game does not take: no game at the table, or ``claims`` said so."""
        ...

    def pressed(self, event: ButtonEvent, result: Any) -> None:
        """The game took the press; ``result`` is what its controller answered."""
        ...

    def on_status(self, seat: int, connected: bool) -> None:
        """A seat pad came or went."""
        ...

    def on_pad(self) -> None:
        """The backend's ``pad_event`` changed (the pad restarted, was lost, came back)."""
        ...

    def changed(self) -> None:
        """What is shown changed: the game moved (however it moved), a write failed."""
        ...

    def late_lights_written(self) -> None:
        """The seats' lights were written on the journal's committer thread, once the
        press's commit was on disk, after the view had drawn it, or never will be: that
        commit's fsync failed (``Table.save_failure`` then says so) (any thread)."""
        ...

    def shown(self) -> Any:
        """What the seats' own displays (a phone's page: ``PhoneSeats.seat_pages``) show
        now: an object with ``seat_views()`` and ``seat_text(words)`` (the screen on top);
        None: nothing."""
        ...


class GameShown:
    """What the seats' own displays show of ``game`` with no screen: its seat views, said
    in ``catalog``'s language with the configuration's ``seats`` names."""

    def __init__(self, game: Any, catalog: Any, seats: Sequence[Any]) -> None:
        self.game = game
        self.catalog = catalog
        self.seats = seats

    def seat_views(self) -> Mapping[int, Any]:
        views = getattr(self.game, "seat_views", None)
        return views() if callable(views) else {}

    def seat_text(self, words: Words) -> str:
        return words_text(self.catalog, self.seats, words)


class Headless:
    """No view: presses go to the game, the game's lights to the seats, nothing drawn."""

    def __init__(self, table: Table) -> None:
        self._table = weakref.proxy(table)

    def turns(self) -> None:
        return None

    def claims(self, event: ButtonEvent) -> bool:
        return False

    def on_button(self, event: ButtonEvent) -> None:
        log.info("seat %d pressed %s: no game at the table", event.seat, event.button)

    def pressed(self, event: ButtonEvent, result: Any) -> None:
        pass

    def on_status(self, seat: int, connected: bool) -> None:
        self._table.show_seats()  # a phone that came needs its page

    def on_pad(self) -> None:
        pass

    def changed(self) -> None:
        self._table.show_lights()
        self._table.show_seats()

    def late_lights_written(self) -> None:
        pass

    def shown(self) -> GameShown | None:
        """The game, said in the catalog of the backend that shows seats (``PhoneSeats``
        has the table's); nothing without a game or such a backend."""
        backend, game = self._table.backend, self._table.game
        catalog = getattr(backend, "catalog", None)
        if game is None or catalog is None:
            return None
        return GameShown(game, catalog, backend.seat_config)


# What waits in the Table's queue: a press, a seat's connection, the pad's event.
_Status = tuple[int, bool]
_PAD = object()

# What the history holds of a game over (``Table.keeping``), for the view to say.
NOT_YET = ""  # no row yet (or its write failed: ``save_failure`` says why)
SAVING = "saving"  # its row written, on its way to the disk; the game not finished yet
SAVED = "saved"  # its row on disk, the game finished in the journal
NOT_KEPT = "not_kept"  # finished, and this table keeps no history (or none of this result)


class _End(enum.Enum):
    """Where a game over stands on its way into the history and out of the journal's
    unfinished games (``Table.end_game``); one stage per game, so no two can disagree. A
    game without one has no row kept (none yet, or its row's fsync failed: kept again at
    the next try)."""

    KEPT = enum.auto()  # its row written; not known on disk, or its finish failed: try again
    SAVING = enum.auto()  # its row on the way to the disk (the committer says: ``_landed``)
    FINISHED = enum.auto()  # finished in the journal, its row on disk (or none kept)


class Table:
    """One evening: ``backend`` (its first ``seats`` seats), the games kept in ``journal``
    and the finished ones in ``history`` (None: not kept), the game being played now."""

    def __init__(self, backend: SeatBackend, seats: int, *, journal: Journal | None = None,
                 history: History | None = None) -> None:
        self.backend = backend
        self.seats = seats
        self.journal = journal
        self.history = history
        self.game: Any = None  # the controller of ``companion.play`` being played, or None
        self.view: TableView = Headless(self)
        self._followed: weakref.WeakSet = weakref.WeakSet()
        # each game ended here (the loop's thread alone reads and writes it)
        self._ends: weakref.WeakKeyDictionary[Any, _End] = weakref.WeakKeyDictionary()
        # (game, its row on disk) from the history's committer, for ``drain`` (``_lock``)
        self._landed: deque[tuple[Any, bool]] = deque()
        self._queue: deque[ButtonEvent | _Status | object] = deque()
        self._lock = threading.Lock()
        self._dropped = 0  # seat events dropped since the queue was last empty
        self._wake: Callable[[], None] = lambda: None
        self._lights_held = 0  # presses and touches being handled (``_one_lighting``)
        self._lights_due = False  # ``show_lights`` asked while they were

    # --- seats in (any thread) ----------------------------------------------------------

    def start(self, wake: Callable[[], None] | None = None) -> None:
        """Start the backend with its callbacks queued here; ``wake`` (any thread) ends the
        loop's sleep after each."""
        self.wake_with(wake)
        self.backend.start(self.post_button, self.post_status, self.post_pad)

    def wake_with(self, wake: Callable[[], None] | None) -> None:
        """``wake`` (any thread) ends the loop's sleep once something waits for ``drain``
        (a view that starts the backend itself gives its own)."""
        if wake is not None:
            self._wake = wake

    def post_button(self, event: ButtonEvent) -> None:
        self._post(event)

    def post_status(self, seat: int, connected: bool) -> None:
        self._post((seat, connected))

    def post_pad(self, _event: PadEvent | None = None) -> None:
        self._post(_PAD)

    def _post(self, item: ButtonEvent | _Status | object) -> None:
        """Queue a seat event unless ``SEAT_QUEUE_MAX`` already wait; never raises or
        blocks (the caller is a backend's reader), then wakes the loop."""
        with self._lock:
            if len(self._queue) >= SEAT_QUEUE_MAX:
                if not self._dropped:
                    log.warning("seat events: %d waiting for the screen, dropping the next "
                                "ones", len(self._queue))
                self._dropped += 1
                return
            self._queue.append(item)
        self._wake()

    def pending(self) -> bool:
        """Whether seat events, or a game's history row now on disk, wait for ``drain``."""
        return bool(self._queue or self._landed)

    def drain(self) -> int:
        """Handle every seat event queued (on the loop's thread), in order, then the games
        whose history row reached the disk (``end_game``); how many seat events."""
        self._drain_landed()
        done = 0
        while True:
            with self._lock:
                if not self._queue:
                    dropped, self._dropped = self._dropped, 0
                    break
                item = self._queue.popleft()
            done += 1
            if isinstance(item, ButtonEvent):
                self._button(item)
            elif item is _PAD:
                self.view.on_pad()
            else:
                self.view.on_status(*item)  # type: ignore[misc]
        if dropped:
            log.warning("seat events: %d dropped while the screen was busy", dropped)
            self.view.on_pad()  # a dropped pad event: the view still follows the pad
            self.view.changed()
        return done

    def _button(self, event: ButtonEvent) -> None:
        """A press to the game, unless the view answers it itself; then the lights, once
        (the players' receipt, even of a press that changed nothing)."""
        with self._one_lighting():
            with self.saving():
                if self.game is not None and not self.view.claims(event):
                    self.view.pressed(event, self.press(event))
                else:
                    self.view.on_button(event)
            self._lights_due = True
        self.show_seats()  # a secret press changes only what that seat's phone shows

    @contextmanager
    def _one_lighting(self) -> Iterator[None]:
        """While a press or a touch is handled the game may publish several changes and the
        view redraw after each: every ``show_lights`` asked meanwhile is one, at the end."""
        self._lights_held += 1
        try:
            yield
        finally:
            self._lights_held -= 1
        if not self._lights_held and self._lights_due:
            self.show_lights()

    # --- the game -----------------------------------------------------------------------

    def play(self, game: Any) -> None:
        """``game`` (a controller of ``companion.play``, None: none) takes the seats'
        presses from now on; its changes are followed."""
        self.game = game
        if game is not None:
            self.follow(game)
        self.show_lights()

    def follow(self, game: Any) -> None:
        """Tell the view whenever ``game`` changes, however it changed (a press, a touch,
        an undo); once per game."""
        if game not in self._followed:
            self._followed.add(game)
            game.subscribe(lambda _view: self.view.changed())

    def press(self, event: ButtonEvent) -> Any:
        """The one seam into the game for a seat's press: what its controller answers."""
        return self.game.press(event)

    def turns(self) -> Turns:
        """Who acts: as the view declares it, else as the game does, else nobody."""
        wanted = self.view.turns()
        if wanted is not None:
            return wanted
        return self.game.turns() if self.game is not None else NOBODY

    def lights(self) -> dict[int, Light]:
        """The one seam out of it: the seats' lights from ``turns`` (``companion.play.turns``,
        the one place lights are computed)."""
        return turns_lights(self.turns())

    def show_lights(self) -> None:
        """Each seat's light as ``lights`` says (a seat already showing it is not written),
        the players' receipt: written once the journal holds every action so far on disk
        (at once when nothing waits for it; else by the journal's committer thread, while
        the loop goes on serving touches and presses). While a press or a touch is handled,
        once at its end."""
        if self._lights_held:
            self._lights_due = True
            return
        self._lights_due = False
        write = functools.partial(seat_lights.show, self.backend, self.seats, self.lights())
        caller = threading.get_ident()

        def receipt() -> None:
            write()
            if threading.get_ident() != caller:
                self.view.late_lights_written()

        # an fsync that failed: the lights stay as they were, the view shows the failure
        self._once_durable(receipt, self.view.late_lights_written)

    def show_seats(self) -> None:
        """Each seat's own display beyond its light (a phone's page: ``PhoneSeats``), from
        what the view shows, made now and sent as the lights are written: once the journal
        holds on disk what it shows (a phone's answer to a press is a receipt as its light
        is); nothing for wired pads."""
        pages_of = getattr(self.backend, "seat_pages", None)
        if pages_of is None:
            return
        shown = self.view.shown()
        if shown is None:
            return
        self._once_durable(functools.partial(self.backend.send_pages, pages_of(shown)),
                           what="pages")

    def _once_durable(self, write: Callable[[], None],
                      failed: Callable[[], None] | None = None, *, what: str = "lights") -> None:
        """``write`` once the journal holds every action so far on disk
        (``Journal.when_durable``); at once with no journal (or one that keeps no receipts:
        a journal moved aside)."""
        when_durable = getattr(self.journal, "when_durable", None)
        if when_durable is None:
            write()
        else:
            when_durable(write, failed, what=what)

    def act(self, action: Callable[..., Any], *args: Any) -> Any:
        """A touch on the screen forwarded as an action (a controller's method): the one
        way a view changes a game, so the Table alone drives it. What the method returns;
        the lights follow, once. A failed write is ``saving``'s: the game as it was, and
        ``NOT_SAVED`` answered, for the view to go no further."""
        with self.handling():
            return action(*args)
        return NOT_SAVED

    @contextmanager
    def handling(self) -> Iterator[None]:
        """One thing the view handles (a touch, a timer): a failed write changes nothing
        (``saving``) and the lights are written once, at its end."""
        with self._one_lighting(), self.saving():
            yield

    def end_game(self, game: Any) -> PlayedGame | None:
        """``game`` (a controller) is over: its result into the history (when one is
        kept), then the game finished in the journal, once; the history row. The Table is
        the one writer of the history. A failed write raises ``StorageError`` and nothing
        is finished: the next try writes what is missing (a row already kept is not kept
        again, here nor after a restart: the row is kept by the game's identity in the
        journal, ``Journal.game_origin``).

        The row is on disk before the journal holds the game finished, so a cut between
        the two resumes the game at its end, never loses it. The kiosk's history
        (``History(background_sync=True)``) makes it durable off the loop's thread: this
        returns with the row written, ``keeping`` says SAVING, and once its fsync is done
        ``drain`` finishes the game (SAVED) and tells the view; should that fsync fail, the
        game stays unfinished (the history refuses every write until a restart, whose
        resume ends the game again). A history that syncs as it writes (the commands,
        tests) finishes it here, at once."""
        if self._ends.get(game) is _End.SAVING:
            return game.played  # finished once its row is on disk (``_drain_landed``)
        if game.to_finish():
            if self.history is not None and game.played is not None \
                    and self._ends.get(game) is not _End.KEPT:
                self.history.keep(game.played, self._origin(game))
                self._ends[game] = _End.KEPT
            if self._row_on_disk(game):
                game.finish()
                self._ends[game] = _End.FINISHED
        self.show_lights()  # a game over lights its winners, or nothing
        return game.played

    @staticmethod
    def _origin(game: Any) -> str | None:
        """The game's identity in its journal, which the history keeps its row by."""
        session = getattr(game, "session", None)
        if session is None:
            return None
        return session.journal.game_origin(session.game_id)

    def _row_on_disk(self, game: Any) -> bool:
        """Whether ``game``'s history row is on disk now (or none is kept); else the game
        is SAVING until the history's committer says it is, through ``_landed``. A row
        whose fsync failed already raises the history's ``StorageError``."""
        if self.history is None or self._ends.get(game) is not _End.KEPT:
            return True
        caller, here = threading.get_ident(), []

        def tell(durable: bool) -> None:
            if threading.get_ident() == caller:
                here.append(durable)
                return
            with self._lock:
                self._landed.append((game, durable))
            self._wake()

        self._ends[game] = _End.SAVING
        self.history.when_durable(functools.partial(tell, True),
                                  functools.partial(tell, False), what=f"row {id(game)}")
        if here:
            self._ends[game] = _End.KEPT
            if not here[0]:
                del self._ends[game]
                raise self.history.failure or StorageError("unsynced", "the history")
            return True
        return False

    def _drain_landed(self) -> None:
        """The games whose history row reached the disk: finished in the journal now (a
        failed write said as a press's is); those whose row's fsync failed left unfinished,
        their row to be kept again at the next try (the history says why it can't)."""
        while True:
            with self._lock:
                if not self._landed:
                    return
                game, durable = self._landed.popleft()
            self._ends[game] = _End.KEPT
            if durable:
                with self.handling():
                    game.finish()
                    self._ends[game] = _End.FINISHED
                    self.show_lights()
            else:
                del self._ends[game]
                log.error("the history row of a game over is not on disk: the game stays "
                          "unfinished")
            self.view.changed()

    def keeping(self, game: Any) -> str:
        """What the history holds of ``game`` now, for the view to say: SAVING, SAVED,
        NOT_KEPT or NOT_YET (this module's constants)."""
        end = self._ends.get(game)
        if end is _End.SAVING:
            return SAVING
        if end is _End.FINISHED:
            return SAVED if self.history is not None and game.played is not None \
                else NOT_KEPT
        return NOT_YET

    # --- storage ------------------------------------------------------------------------

    @contextmanager
    def saving(self) -> Iterator[None]:
        """A press or a touch whose write failed changed nothing: logged, and the view
        shows ``save_failure`` until a write succeeds."""
        try:
            yield
        except StorageError as exc:
            log.error("press refused, %s", exc)
            self.view.changed()

    @property
    def save_failure(self) -> StorageError | None:
        """Why the last write of the journal or the history failed, until one succeeds."""
        for store in (self.journal, self.history):
            failure = getattr(store, "failure", None)
            if failure is not None:
                return failure
        return None

    def store_notices(self) -> list[tuple[str, str | None]]:
        """A journal or a history database moved aside (catalog key, detail)."""
        return [("notice.journal", getattr(self.journal, "notice", None)),
                ("notice.history", getattr(self.history, "notice", None))]

    # --- the games kept -----------------------------------------------------------------

    @staticmethod
    def stores(journal: Path | None, history: Path | None) -> tuple[Journal | None,
                                                                     History | None]:
        """The journal and the history kept in the databases at these paths, opened (None:
        not kept), for a Table to keep its games in."""
        from companion.storage.history import History

        return (None if journal is None else Journal(journal),
                None if history is None else History(history))

    def keep_history(self, path: Path) -> History:
        """The history, opened at ``path`` when the Table keeps none yet."""
        from companion.storage.history import History

        if self.history is None:
            self.history = History(path)
        return self.history

    def close(self) -> None:
        """Close the journal and the history (the backend is its owner's)."""
        for store in (self.journal, self.history):
            if store is not None:
                store.close()

    def unfinished(self) -> list[KeptGame]:
        """The games left unfinished in the journal, oldest first (none when not kept)."""
        if self.journal is None:
            return []
        saving = {game.session.game_id for game, end in list(self._ends.items())
                  if end is _End.SAVING}  # finished soon
        return [record for record in self.journal.unfinished() if record.id not in saving]

    def where(self, record: KeptGame) -> dict:
        """An unfinished game's round and acting player (``where_it_stands``); nothing when
        it no longer replays (logged)."""
        try:
            return where_it_stands(self.journal, record)
        except NOT_REPLAYED:
            log.warning("game %d (%s) does not replay for its progress", record.id,
                        record.game, exc_info=True)
            return {}

    def abandon(self, game_id: int) -> None:
        """Drop an unfinished game: its actions stay in the journal, it no longer resumes."""
        if self.journal is not None:
            self.journal.abandon(game_id)

    def seat_lights(self) -> Mapping[int, Light]:
        """What each seat shows now (tests, the log)."""
        return {seat: self.backend.light(seat) for seat in range(self.seats)}
