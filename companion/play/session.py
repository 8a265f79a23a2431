"""A game in progress: action → rules → journal → views.

``dispatch`` validates an action by applying it with the game's rules (a refusal raises
the rules' ``RuleError`` and nothing is recorded), appends it to the journal (committed to
disk before anything else happens), then publishes the new public view to every listener.
The screen and the seat lights only ever get ``rules.public_view(state)``.

A resume replays only the actions after the game's latest snapshot
(``companion.storage.snapshots``; the journal keeps one every ``SNAPSHOT_EVERY`` actions, written
off the press's path): its cost does not grow with the game's length. A snapshot that
can't be used is dropped and every action replayed.

A private part (a sealed ballot) is passed beside the action: the rules see the action
with the private fields merged in (``{**action, **private}``), the journal keeps the two
apart, and listeners see only the public view.
"""

from __future__ import annotations

import logging
import tempfile
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from companion.play.errors import RuleError
from companion.storage import snapshots
from companion.storage.journal import Journal, JournalError

log = logging.getLogger(__name__)

Listener = Callable[[dict], None]


class Rules(Protocol):
    name: str

    def initial(self, setup: dict) -> Any: ...

    def apply(self, state: Any, action: dict) -> Any: ...

    def public_view(self, state: Any) -> dict: ...


def _merged(action: dict, private: dict | None) -> dict:
    if not private:
        return action
    clash = set(action) & set(private)
    if clash:
        raise RuleError(min(clash), "given both in the public and the private part",
                        code="public_and_private", params={"field": min(clash)})
    return {**action, **private}


class Listeners:
    """Who to tell about a new view: subscribe from any thread, publish to all. A listener
    that fails is logged and skipped: a broken view must not undo what the journal holds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(view)`` after every change; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def publish(self, view: dict) -> dict:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(view)
            except Exception:
                log.exception("listener %r failed", listener)
        return view


def first_player_of(setup: dict) -> dict[str, str]:
    """``{"first_player": name}`` from a game's setup (its first player, or the leader a
    King's Dilemma night began with), or nothing when it names no one at the table."""
    first = setup.get("first_player") or setup.get("leader")
    if first is None and isinstance(setup.get("campaign"), dict):
        first = setup["campaign"].get("leader")
    players = setup.get("players") or ()
    return {"first_player": first} if isinstance(first, str) and first in players else {}


# The session of this process that last built or changed each game (``Session.live``).
_LIVE: weakref.WeakValueDictionary[tuple[int, int], Session] = weakref.WeakValueDictionary()


class Session:
    """One game of ``rules`` recorded in ``journal`` as ``game_id``; building it replays the
    actions already journaled, so it resumes exactly where the game was."""

    def __init__(self, journal: Journal, rules: Rules, game_id: int) -> None:
        record = journal.game(game_id)
        if record.game != rules.name:
            raise JournalError(f"game {game_id} is {record.game}, not {rules.name}")
        self.journal = journal
        self.rules = rules
        self.game_id = game_id
        self.setup = record.setup
        self._lock = threading.RLock()
        self._listeners = Listeners()
        # The last action (public part) and the state before it: who made it (a seat's
        # undo) is known after a resume as it is after a dispatch.
        self._last: tuple[dict, Any] | None = None
        self.length = 0  # actions journaled (the replay and every change keep it)
        self._published: dict | None = None  # the public view last published
        # a snapshot fell due while a secret was sealed: taken once none is (``dispatch``)
        self._snapshot_due = False
        self._state = self._replay()
        _LIVE[id(journal), game_id] = self
        self.kept = True  # False: a throwaway journal, removed by ``close``
        self._drop: Callable[[], None] | None = None

    @classmethod
    def start(cls, journal: Journal | None, rules: Rules, setup: dict) -> Session:
        """A new game, the one way every game opens: the setup is checked by
        ``rules.initial`` before it is journaled. With the table's ``journal`` the game is
        kept (it resumes after a power cut, it goes to the history); with None (a table
        that keeps no games) it is journaled all the same, in a throwaway journal of this
        process that ``close`` (or dropping the session) removes, so undo, views and
        listeners work alike."""
        rules.initial(setup)
        if journal is not None:
            return cls(journal, rules, journal.begin_game(rules.name, setup))
        scratch = tempfile.TemporaryDirectory(prefix=f"companion-{rules.name}-")
        journal = Journal(Path(scratch.name) / "journal.db")
        try:
            session = cls(journal, rules, journal.begin_game(rules.name, setup))
        except BaseException:
            _drop_scratch(journal, scratch)
            raise
        session.kept = False
        session._drop = weakref.finalize(session, _drop_scratch, journal, scratch)
        return session

    @classmethod
    def resume(cls, journal: Journal, rules: Rules, game_id: int | None = None) -> Session | None:
        """The unfinished game ``game_id``, or the latest unfinished game of these rules;
        None when there is none."""
        if game_id is None:
            games = [g for g in journal.unfinished() if g.game == rules.name]
            if not games:
                return None
            game_id = games[-1].id
        return cls(journal, rules, game_id)

    def _replay(self) -> Any:
        """The state after every journaled action: from the latest snapshot when there is
        a sound one, else from the setup; a long replay keeps a snapshot for the next."""
        initial = self.rules.initial(self.setup)
        stamp = snapshots.rules_stamp()
        found = self.journal.snapshot(self.game_id, stamp)
        if found is not None:
            seq, data = found
            try:
                return self._replay_from(snapshots.load(data, type(initial)), seq, stamp)
            except (ValueError, JournalError) as exc:
                self.journal.drop_snapshot(self.game_id, seq, str(exc))
        return self._replay_from(initial, 0, stamp)

    def _replay_from(self, state: Any, done: int, stamp: str) -> Any:
        """``state`` (after the first ``done`` actions) with the rest applied. A refusal is
        a ``JournalError``; no log line per action (a night may have 100,000)."""
        self._last = None
        self._published = None
        seq = done
        for seq, (action, private) in enumerate(self.journal.replay(self.game_id, done),
                                                done + 1):
            try:
                after = self.rules.apply(state, _merged(action, private))
            except RuleError as exc:
                # an action with a private part (a sealed ballot) is refused by its code
                # alone: the refusal's text may quote the ballot, and this reaches the log
                why = (exc.code or "refused") if private else exc
                raise JournalError(
                    f"game {self.game_id}: action {seq} no longer replays ({why})"
                ) from None
            self._last, state = (action, state), after
        if (seq - done > snapshots.SNAPSHOT_EVERY and self._last is not None
                and not self._holds_secrets(self._last[1])):
            # Kept for the next resume, which then replays one action, not all: the state
            # before the last action (a resume always replays one at least, to know it).
            before = self._last[1]
            self.journal.keep_snapshot(self.game_id, seq - 1, stamp,
                                       lambda: snapshots.dump(before))
        self.length = seq
        return state

    def _holds_secrets(self, state: Any) -> bool:
        """The rules say ``state`` holds a secret (a sealed ballot): a snapshot would keep it
        in clear in the journal, where the actions keep it sealed; none is taken then (the
        next one comes SNAPSHOT_EVERY actions later)."""
        holds = getattr(self.rules, "holds_secrets", None)
        return bool(holds(state)) if holds is not None else False

    @staticmethod
    def live(journal: Journal, game_id: int, length: int) -> Session | None:
        """The session of this process that last built or changed the game, when it holds
        all of its ``length`` actions (then its state is the journal's): what reads where
        a game stands need not replay it again."""
        session = _LIVE.get((id(journal), game_id))
        if session is None or session.journal is not journal or session.length != length:
            return None
        return session

    def last_view(self) -> dict:
        """The public view as last published (computed now if none was): a long game's
        view is not built again for a glance at it."""
        with self._lock:
            return self._published if self._published is not None else self.public_view()

    @property
    def state(self) -> Any:
        """The full state (secrets included): for the rules and tests, never for a view."""
        return self._state

    def public_view(self) -> dict:
        return self.rules.public_view(self._state)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(public_view)`` after every change; returns the unsubscribe."""
        return self._listeners.subscribe(listener)

    def dispatch(self, action: dict, private: dict | None = None) -> dict:
        """Apply, journal, publish; returns the new public view. A refusal raises the
        rules' ``RuleError`` and changes nothing, on disk or on screen."""
        with self._lock:
            state = self.rules.apply(self._state, _merged(action, private))
            seq = self.journal.append(self.game_id, action, private)
            self._state, self._last, self.length = state, (action, self._state), seq
            _LIVE[id(self.journal), self.game_id] = self
            if seq % snapshots.SNAPSHOT_EVERY == 0 or self._snapshot_due:
                # one due while a ballot is sealed waits for the first state holding none
                self._snapshot_due = self._holds_secrets(state)
                if not self._snapshot_due:
                    self.journal.keep_snapshot(self.game_id, seq, snapshots.rules_stamp(),
                                               lambda: snapshots.dump(state))
            return self._publish()

    def last_action(self) -> tuple[dict, dict] | None:
        """The last action of the game (public part) and the public view just before it,
        whether it was made in this sitting or before a resume; None when there is none.
        What a controller needs to tell which seat made it."""
        with self._lock:
            if self._last is None:
                return None
            action, before = self._last
            return action, self.rules.public_view(before)

    def can_undo(self) -> bool:
        """Whether the journal holds an action of this game to take back."""
        return self.journal.has_actions(self.game_id)

    def undo(self) -> dict | None:
        """Take back the last action (from the journal too); returns it (public part), or
        None when there is nothing to undo."""
        with self._lock:
            action = self.journal.undo(self.game_id)
            if action is None:
                return None
            self._state = self._replay()
            _LIVE[id(self.journal), self.game_id] = self
            self._publish()
            return action

    def history_facts(self) -> dict[str, str]:
        """What the game history keeps beside the result (``History.record``'s keywords):
        when the game began, and who played first when the setup names a seated player."""
        return {"started": self.journal.game(self.game_id).started,
                **first_player_of(self.setup)}

    def finish(self, result: dict) -> None:
        """Record the result: the game becomes history and accepts no more actions (a
        throwaway journal is then removed; the state stays readable)."""
        with self._lock:
            self.journal.finish(self.game_id, result)
        self.close()

    def close(self) -> None:
        """Remove a throwaway journal (nothing for a kept game, which stays in the
        table's journal); safe to call twice."""
        if self._drop is not None:
            self._drop()

    def _publish(self) -> dict:
        self._published = self.rules.public_view(self._state)
        return self._listeners.publish(self._published)


def _drop_scratch(journal: Journal, scratch: tempfile.TemporaryDirectory) -> None:
    journal.close()
    scratch.cleanup()
