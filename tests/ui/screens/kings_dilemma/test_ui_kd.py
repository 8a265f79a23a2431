"""The King's Dilemma screens (the King's Dilemma rulebook) driven through the real App
loop under SDL's dummy driver: seat presses from the simulated pads, taps as finger
events, frames read back from the window.

- Secrecy: before the last lock, the vote screen's pixels and every seat light are the
  same whatever a seat's sealed ballot (Aye 1 vs Nay 5) or its pending, unlocked choice;
  after the reveal they differ. A journal resumed mid-vote shows the locks and no ballot.
- The rulebook's worked vote example (5 players) by seat presses and taps, through the
  moderator's tie-break, the Leader token moving, the clean-up and the kingdom update
  (Morale black without marker −1 → moves 2, gains the marker, Stability −2).
- Layout at 800×480 and 1280×720 (and French at 800×480) with 5 seats on every screen:
  texts whole, legible and apart, touch targets ≥ MIN_TARGET and apart.
"""

from __future__ import annotations

import pytest
from ui_kd import (
    LONG,
    NAMES,
    RULEBOOK,
    frame,
    lights,
    past_the_winner_screen,
    press,
    show,
    tap,
    tap_button,
)
from ui_layout import check_layout

from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.controller import NightController, ledger_for
from companion.hardware.sim import SimBackend
from companion.play.errors import RuleError
from companion.play.seat import Light
from companion.storage.history import History
from companion.ui.app import App
from companion.ui.screens.kings_dilemma import start as kd_ui

# The rulebook example's presses up to its 6–6 tie (Théodore passes to moderate).
TO_THE_TIE = [(0, "c", LONG), (1, "a", 1), (1, "a", LONG), (2, "b", 1), (2, "b", LONG),
              (3, "a", 1), (3, "a", LONG), (4, "b", 4), (4, "b", LONG), (1, "a", 3),
              (1, "a", LONG), (2, "b", 1), (2, "b", LONG), (3, "a", 1), (3, "a", LONG)]


def vote_to_the_tie(app, backend) -> None:
    """The open vote of ``TO_THE_TIE`` on the seat buttons: Aye 6 against Nay 6."""
    for seat, button, how in TO_THE_TIE:
        if how is LONG:
            press(app, backend, seat, button, LONG)
        else:
            press(app, backend, seat, button, times=how)


def test_the_moderator_breaks_a_tie_by_holding_aye_or_nay_on_the_seat_pad(kd):
    """docs/button-grammar.md: on a tie the moderator *holds* Aye or Nay. A short press of
    the moderator, or another seat's hold, leaves the tie to break; the hold breaks it."""
    app, backend, table = kd()
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, t("kd.council.open_vote"))
    vote_to_the_tie(app, backend)
    assert table.vote_view()["phase"] == kd_vote.TIE
    press(app, backend, 0, "a")  # Théodore, the moderator: a short press
    press(app, backend, 1, "b", LONG)  # Julius is not the moderator
    assert table.vote_view()["phase"] == kd_vote.TIE
    assert lights(backend)[0] is Light.ATTENTION
    press(app, backend, 0, "b", LONG)
    vote = table.vote_view()
    assert (vote["outcome"], vote["tie_broken"]) == ("nay", True)
    assert t("kd.reveal.tie", name="Théodore", aye=6, nay=6) not in app.screen.describe()


# --------------------------------------------------------------------------- secrecy


def secret_vote(kd, first: tuple[str, int], pending: tuple[str, int]):
    """A secret vote where Théodore locks ``first`` (button, presses) and Julius has
    ``pending`` on his buttons, unlocked; Armin and Diana lock Aye 2 / Nay 1. Returns the
    frame and lights then, after Julius locks, and after Frances (the last) locks."""
    app, backend, table = kd()
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    button, n = first
    press(app, backend, 0, button, times=n)
    press(app, backend, 0, button, LONG)
    button, n = pending
    press(app, backend, 1, button, times=n)
    press(app, backend, 2, "a", times=2)
    press(app, backend, 2, "a", LONG)
    press(app, backend, 3, "b")
    press(app, backend, 3, "b", LONG)
    before = (frame(app), lights(backend), app.screen.describe())
    press(app, backend, 1, "a", LONG)  # Julius confirms whatever was pending
    locked = (frame(app), lights(backend))
    journal_public = table.session.journal.actions(table.session.game_id)
    press(app, backend, 4, "b", times=2)
    press(app, backend, 4, "b", LONG)
    after = (frame(app), lights(backend), app.screen.describe())
    return before, locked, journal_public, after, table


def test_secret_ballots_show_identical_pixels_and_lights_until_every_seat_locks(kd):
    """Aye 1 vs Nay 5 sealed, and Aye 1 pending vs Pass pending on another seat: the vote
    screen and the lights can't tell them apart, nor the journal's public record; the
    reveal shows them all at once and then they differ."""
    a_before, a_locked, a_journal, a_after, a_table = secret_vote(kd, ("a", 1), ("a", 1))
    b_before, b_locked, b_journal, b_after, b_table = secret_vote(kd, ("b", 5), ("c", 1))
    assert a_before[0] == b_before[0], "a sealed ballot or a pending choice shows on screen"
    assert a_before[1] == b_before[1]
    assert a_before[2] == b_before[2]
    assert a_locked[0] == b_locked[0]
    assert a_locked[1] == b_locked[1]
    assert a_journal == b_journal
    assert a_before[1][2] is Light.BALLOT_LOCKED and a_before[1][1] is not Light.BALLOT_LOCKED
    assert "Julius: not yet" in a_before[2] and "Armin: locked" in a_before[2]
    # Revealed: every ballot at once.
    assert a_after[0] != b_after[0]
    assert a_table.vote_view()["seats"]["Théodore"]["vote"] == kd_vote.AYE
    assert b_table.vote_view()["seats"]["Théodore"] == {
        "vote": kd_vote.NAY, "committed": 5, "pass_coin": False}
    assert "Théodore: Aye 1" in a_after[2] and "Théodore: Nay 5" in b_after[2]


def test_a_refused_press_in_a_secret_vote_changes_nothing_on_screen(kd):
    """Over-committing (9 presses with 8 power) is refused silently: the frame and lights
    equal those of a seat that pressed nothing."""
    app, backend, table = kd()
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    quiet = (frame(app), lights(backend))
    press(app, backend, 0, "a", times=9)
    assert (frame(app), lights(backend)) == quiet


def test_power_cut_mid_secret_vote_resumes_locks_and_reveals_none(kd, tmp_path):
    """A journal resumed after two locks: the resumed vote screen shows two ballots
    locked and the same frame as before the cut; the locked ballots still count."""
    app, backend, table = kd()
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, app.catalog.text("kd.council.secret_vote"))
    press(app, backend, 0, "b", times=3)
    press(app, backend, 0, "b", LONG)
    press(app, backend, 1, "a")
    press(app, backend, 1, "a", LONG)
    before = frame(app)
    screen = kd_ui.resume(app, table.session.game_id)
    assert isinstance(screen, kd_ui.VoteScreen)
    app.replace(screen)
    assert frame(app) == before
    assert "2 of 5 ballots locked" in screen.describe()
    for seat in (2, 3, 4):
        press(app, backend, seat, "a")
        press(app, backend, seat, "a", LONG)
    assert screen.night.vote_view()["totals"] == {"aye": 4, "nay": 3}


# --------------------------------------------------------------------------- a council


def test_rulebook_vote_example_by_seat_presses_and_taps_then_the_kingdom(kd):
    """Worked example of a council: Théodore passes to moderate; Julius aye 1, Armin nay 1,
    Diana aye 1, Frances nay 4 (leader); Julius +3, Armin +1, Diana +1 → 6–6, the vote
    ends after Diana; Théodore breaks the tie for Aye by touch; the Leader token goes to
    Julius. Clean-up: nobody passed for power, the winners' 6 power joins the Balance's 3.
    Then Morale (black, no marker) −1 moves 2, gains its marker, Stability −2."""
    app, backend, table = kd()
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))  # the Leader reads the dilemma: their turn
    assert lights(backend)[0] is Light.YOUR_TURN and lights(backend)[1] is Light.MODERATOR
    tap_button(app, t("kd.council.open_vote"))
    assert isinstance(app.screen, kd_ui.VoteScreen)
    assert lights(backend)[0] is Light.YOUR_TURN
    press(app, backend, 0, "c", LONG)  # pass to become moderator
    press(app, backend, 2, "b")  # Armin out of turn: refused, the engine's reason on screen
    assert t("kd.vote.refused", name="Armin", reason="it is Julius's turn, not Armin's") in \
        app.screen.describe()
    press(app, backend, 1, "a")
    assert "Julius: Aye 1?" in app.screen.describe()  # the pending choice on turn is public
    press(app, backend, 1, "a", LONG)
    press(app, backend, 2, "b")
    press(app, backend, 2, "b", LONG)
    press(app, backend, 3, "a")
    press(app, backend, 3, "a", LONG)
    press(app, backend, 4, "b", times=4)
    press(app, backend, 4, "b", LONG)
    vote = table.vote_view()
    assert vote["leader"] == "Frances" and vote["ends_after"] == "Diana"
    assert lights(backend)[4] is Light.LEADER and lights(backend)[0] is Light.MODERATOR
    press(app, backend, 1, "a", times=3)
    press(app, backend, 1, "a", LONG)
    press(app, backend, 2, "b")
    press(app, backend, 2, "b", LONG)
    press(app, backend, 3, "a")
    press(app, backend, 3, "a", LONG)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert t("kd.reveal.tie", name="Théodore", aye=6, nay=6) in app.screen.describe()
    assert lights(backend)[0] is Light.ATTENTION  # the moderator must decide
    tap_button(app, t("kd.reveal.decide", side=t("kd.side.aye")))
    vote = table.vote_view()
    assert (vote["outcome"], vote["tie_broken"], vote["leader"], vote["moderator"]) == (
        "aye", True, "Julius", "Théodore")
    assert t("kd.reveal.balance", before=3, after=9) in app.screen.describe()
    # Julius, the new Leader, reads the outcome: his turn
    assert lights(backend)[1] is Light.YOUR_TURN and lights(backend)[0] is Light.MODERATOR
    tap_button(app, t("kd.reveal.outcome"))
    _, _, minus, _, _ = app.screen.steppers()["morale"]
    tap(app, minus)
    tap_button(app, t("kd.outcome.apply"))
    assert isinstance(app.screen, kd_ui.KingdomScreen)
    morale = table.kingdom.resource("morale")
    assert (morale.position, morale.momentum, morale.marker) == (-2, "down", True)
    assert table.kingdom.stability.position == -2
    assert "Morale -2 down+marker" in app.screen.describe()
    tap_button(app, t("kd.kingdom.next"))
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    assert t("kd.council.title", number=2) in app.screen.describe()


# --------------------------------------------------------------------------- layout


def every_screen(app: App, backend: SimBackend, table: NightController):
    """Walk every screen once, yielding after each is drawn."""
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    yield "council"
    tap_button(app, t("kd.council.campaign"))
    yield "campaign"
    tap_button(app, t("kd.back"))
    tap_button(app, t("kd.council.kingdom"))
    yield "kingdom"
    tap_button(app, t("kd.back"))
    tap_button(app, t("kd.council.secret_vote"))
    press(app, backend, 0, "a", LONG)  # refused silently: nothing chosen yet
    for seat in range(4):
        press(app, backend, seat, "a")
        press(app, backend, seat, "a", LONG)
    yield "secret-vote"
    press(app, backend, 4, "b", times=4)
    press(app, backend, 4, "b", LONG)
    yield "tie"
    tap_button(app, t("kd.reveal.decide", side=t("kd.side.nay")))
    yield "reveal"
    tap_button(app, t("kd.reveal.outcome"))
    tap(app, app.screen.steppers()["knowledge"][4])
    yield "outcome"
    tap_button(app, t("kd.outcome.apply"))
    yield "kingdom-after"
    tap_button(app, t("kd.kingdom.king_dies"))
    yield "king-dies-confirm"
    tap_button(app, t("kd.kingdom.next"))
    tap_button(app, t("kd.council.open_vote"))
    leader = table.view()["leader"]
    seat = NAMES.index(leader)
    press(app, backend, seat, "b", times=2)
    yield "open-vote"
    table.session.dispatch({"action": "play", "player": leader, "move": "nay", "power": 2})
    while table.view()["phase"] == "vote" and table.vote_view()["phase"] == "voting":
        turn = table.vote_view()["turn"]
        table.session.dispatch({"action": "play", "player": turn, "move": "pass-power"})
    table.session.dispatch({"action": "outcome", "changes": [], "king_dies": True})
    app.replace(kd_ui.AgendaScreen(app, table))
    app.step(block=False)
    yield "agenda"
    for house, _ in enumerate(NAMES):
        tap(app, app.screen.steppers()["wealth_1"][4])
        tap(app, app.screen.buttons[0].rect)
        tap(app, app.screen.token_rects()[house][1])
        if house == 0:
            yield "tokens"
        tap(app, app.screen.buttons[0].rect)
    assert isinstance(app.screen, kd_ui.EndScreen)
    yield "score"


@pytest.mark.parametrize(("size", "language"), [((800, 480), "en"), ((1280, 720), "en"),
                                                ((800, 480), "fr")])
def test_every_kd_screen_fits_with_five_seats(kd, size, language):
    """Coin toss, council, campaign, kingdom, secret vote, tie, reveal, outcome, open vote,
    agendas, tokens, score: nothing cut, overlapping, too small or off screen."""
    app, backend, table = kd(size, language)
    show(app, kd_ui.SetupScreen(app))
    check_layout(app)
    app.pop()
    seen = []
    for name in every_screen(app, backend, table):
        app.invalidate()
        app.step(block=False)
        check_layout(app)
        seen.append(name)
    assert len(seen) == 13


def test_new_game_coin_toss_sets_each_marker_side_before_the_council(kd):
    """Set-up (the King's Dilemma rulebook: a coin toss per resource): every marker starts on
    the side the table taps, in the middle of its track, Stability in the middle."""
    app, _, _ = kd(with_table=False)
    t = app.catalog.text
    setup = kd_ui.new_game(app)
    assert isinstance(setup, kd_ui.SetupScreen)
    show(app, setup)
    tap(app, setup.buttons[2].rect)  # Morale
    tap(app, setup.buttons[4].rect)  # Knowledge
    tap(app, setup.buttons[4].rect)  # ... turned back
    assert t("kd.setup.down") in [b.label for b in app.screen.buttons]
    tap_button(app, t("kd.setup.start"))
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    kingdom = app.screen.night.kingdom
    assert [r.momentum for r in kingdom.resources] == ["up", "up", "down", "up", "up"]
    assert {r.position for r in kingdom.resources} == {0}
    assert kingdom.stability.position == 0
    assert app.screen.night.session.game_id in [g.id for g in app.journal.unfinished()]


def test_new_game_with_two_seats_is_refused_naming_the_seats(kd):
    """Two seats configured: RuleError on ``seats`` saying the game takes 3 to 5 (the home
    screen shows it)."""
    app, _, _ = kd()
    app.seats = RULEBOOK[:2]
    with pytest.raises(RuleError) as refused:
        kd_ui.new_game(app)
    assert refused.value.field == "seats"
    assert refused.value.message == app.catalog.text("kd.setup.seats", count=2, low=3, high=5)


def test_scored_game_is_finished_in_the_journal_and_kept_in_the_history(kd, tmp_path):
    """After the last house's agenda the game is scored but stays unfinished until it is
    recorded into the campaign; then it leaves the unfinished games (no resume at
    start-up), the history holds its result and the ledger beside the journal the game."""
    app, _, table = kd()
    app.history = History(tmp_path / "history.db")
    table.session.dispatch({"action": "dilemma", "mode": "open"})
    for name in NAMES:
        table.session.dispatch({"action": "play", "player": name, "move": "pass-power"})
    table.session.dispatch({"action": "break-tie", "player": "Julius", "side": "aye"})
    table.session.dispatch({"action": "outcome", "changes": [], "king_dies": True})
    show(app, kd_ui.AgendaScreen(app, table))
    for _ in NAMES:
        tap(app, app.screen.steppers()["resources"][4])
        tap(app, app.screen.buttons[0].rect)
        tap(app, app.screen.buttons[0].rect)
    assert isinstance(app.screen, kd_ui.EndScreen)
    assert table.session.game_id in [g.id for g in app.journal.unfinished()]
    assert app.history.games("kings-dilemma") == []
    tap_button(app, app.catalog.text("kd.council.campaign"))
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert table.session.game_id not in [g.id for g in app.journal.unfinished()]
    kept = app.history.games("kings-dilemma")
    assert len(kept) == 1
    assert len(ledger_for(app.journal).load().games) == 1
    app.history.close()


def scored(app, table, resources: list[int]) -> None:
    """A night where everybody passed, the king died and each house's agenda scored
    ``resources`` points (the other parts are equal for all); the End screen shown."""
    table.session.dispatch({"action": "dilemma", "mode": "open"})
    for name in NAMES:
        table.session.dispatch({"action": "play", "player": name, "move": "pass-power"})
    table.session.dispatch({"action": "break-tie", "player": "Julius", "side": "aye"})
    table.session.dispatch({"action": "outcome", "changes": [], "king_dies": True})
    table.score({n: {"resources": r, "wealth": [0, 0, 0]}
                 for n, r in zip(NAMES, resources, strict=True)})
    show(app, kd_ui.EndScreen(app, table))


def test_end_screen_shows_the_campaign_ranks_the_bottom_group_last(kd):
    """Rulebook (« Points de Prestige et points de Convoitise »): « il y a toujours
    un joueur à la « dernière place », quel que soit le nombre de joueurs … si deux joueurs
    sont à égalité pour la quatrième place … ils sont tous deux considérés comme
    « derniers » »; places over distinct totals. The End screen shows the rank the prestige
    table is read by (1st, 1st, 2nd, Last, Last), not a place of its own."""
    app, _, table = kd()
    scored(app, table, [10, 10, 6, 3, 3])
    assert [row[5] for row in app.screen.rows()] == ["1st", "1st", "2nd", "Last", "Last"]
    assert app.screen.title()[1] == f"Won by {NAMES[0]} and {NAMES[1]}"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_end_screen_says_every_house_tied_is_first(kd, language):
    """Our ruling where the rulebook is silent: when every house ties there is nobody
    behind them, so all are 1st (none is last); the End screen says so."""
    app, _, table = kd(language=language)
    scored(app, table, [5] * 5)
    t = app.catalog.text
    assert {row[5] for row in app.screen.rows()} == {t("kd.rank.1st")}
    assert app.screen.title()[1] == t("kd.score.all_first")
    app.step(block=False)
    check_layout(app)


def test_a_refused_press_is_said_in_the_tables_language(kd):
    """A French table reads the vote's refusals in French, the side named as its screens
    name it: out of turn, then changing side."""
    app, backend, table = kd(language="fr")
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    tap_button(app, t("kd.council.open_vote"))
    press(app, backend, 2, "b")
    leader = NAMES[0]
    assert t("kd.vote.refused", name=NAMES[2], reason=f"c'est à {leader} de jouer, pas à "
             f"{NAMES[2]}") in app.screen.describe()
    press(app, backend, 0, "a")
    press(app, backend, 0, "a", LONG)  # Théodore: Aye 1
    for seat in (1, 2, 3):  # Julius, Armin, Diana pass for power
        press(app, backend, seat, "c")
        press(app, backend, seat, "a", LONG)
    press(app, backend, 4, "b", times=2)
    press(app, backend, 4, "b", LONG)  # Frances: Nay 2, she leads; Théodore's turn again
    assert table.vote_view()["turn"] == leader
    press(app, backend, 0, "b")
    assert t("kd.vote.refused", name=leader, reason=f"{leader} a voté Oui-da et ne peut pas "
             "changer de camp") in app.screen.describe()


# --------------------------------------------------------------------------- headlines


def assert_headline(app: App, text: str) -> None:
    """``text`` drawn whole at the top of the screen's body (one line; too wide at the
    figure's size, its figures large among its words: "Aye wins, 5 to 1 · Dan reads the
    outcome"), above everything else in it (the seat rows) and at least as large as their
    words (a status with a figure is at the figure's size)."""
    frame(app)
    body = app.screen.body
    area = app.screen.headline_rect(body, text)
    inside = [b for b in app.painter.texts if body.contains(b.rect)]
    shown = [b for b in inside if area.contains(b.rect)]  # in the order drawn
    assert " ".join(b.text for b in shown).replace("·", " ").split() == \
        text.replace("·", " ").split(), [b.text for b in inside]
    rest = [b for b in inside if b not in shown]
    assert rest and not any(line.clipped for line in shown)
    assert all(line.rect.bottom <= b.rect.top for b in rest for line in shown)
    words = [b.height for b in rest if not any(c.isdigit() for c in b.text)]
    assert min(b.height for b in shown) >= max(words)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_council_and_reveal_name_who_acts_in_large_type_at_the_top(kd, language):
    """The council: the Leader reads the next dilemma. The reveal: the moderator breaks
    the tie, then the result and the Leader (the token moved to Julius) reads the
    outcome."""
    app, backend, table = kd(language=language)
    t = app.catalog.text
    show(app, kd_ui.CouncilScreen(app, table))
    assert_headline(app, t("kd.council.turn", name="Théodore", number=1))
    tap_button(app, t("kd.council.open_vote"))
    vote_to_the_tie(app, backend)
    assert isinstance(app.screen, kd_ui.RevealScreen)
    assert_headline(app, t("kd.reveal.tie", name="Théodore", aye=6, nay=6))
    tap_button(app, t("kd.reveal.decide", side=t("kd.side.aye")))
    result = t("kd.reveal.aye_decided", name="Théodore")
    assert_headline(app, t("kd.reveal.next", what=result, name="Julius"))


# Who acts at each step of ``every_screen``, read off the public view as the rulebook
# says (not from the screens' own sentences): the Leader reads the dilemma and the
# outcome, the seat on turn plays, a secret vote waits for the seats not yet locked, the
# moderator decides a tie, the first house reads its agenda first.
def acting(step: str, view: dict) -> tuple[list[str], Light | None]:
    vote = view["vote"]
    if step == "secret-vote":
        return [n for n in vote["players"] if not vote["seats"][n]["locked"]], None
    if step == "tie":
        return [vote["moderator"]], Light.ATTENTION
    if step == "open-vote":
        return [vote["turn"]], Light.YOUR_TURN
    if step in ("agenda", "tokens"):
        return [view["players"][0]], Light.YOUR_TURN
    return [view["leader"]], Light.YOUR_TURN


def seat_row_sizes(app: App) -> set[int]:
    """The heights of every text of words on the seat rows (the lines holding a seat's
    name; a status with a figure is at the figure's size)."""
    body = app.screen.body
    texts = [b for b in app.painter.texts if body.contains(b.rect)]
    # each seat's row names it first (two columns: cut with an ellipsis where it is too
    # long for its column, whole on its plate); two columns' token line names the holders
    # again
    def named(text: str) -> str | None:
        return next((n for n in NAMES if text == n
                     or (text.endswith("…") and n.startswith(text[:-1]))), None)

    names = list({named(b.text): b for b in reversed(texts) if named(b.text)}.values())
    assert len(names) == len(NAMES)
    return {b.height for b in texts if not any(c.isdigit() for c in b.text)
            and any(abs(b.rect.centery - n.rect.centery) <= 4 for n in names)}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_step_names_who_acts_large_at_the_top_and_lights_their_seat(kd, language):
    """Coin toss, council, kingdom, secret vote, tie, reveal, outcome, kingdom after it,
    open vote, agenda, tokens: the acting house's name is in the screen's top lines (the
    title row or the line under it), whole and as large as any words below it (a text
    with a figure, "+2" entered by − / + or "Wealth 1st", is larger still), and its
    seat shows YOUR_TURN (the moderator deciding a tie: ATTENTION). The campaign and the
    score name nobody (the winner screen and the next night's tokens). On the seat rows,
    names, tokens and statuses of words share one type size."""
    app, backend, table = kd(language=language)

    def top_line_naming(names: list[str]):
        frame(app)
        screen = app.screen
        top = screen.body.y + screen.headline_rect(screen.body).h
        inside = [b for b in app.painter.texts if screen.ring.centre.contains(b.rect)]
        lines = [b for b in inside if b.rect.top < top and all(n in b.text for n in names)]
        assert len(lines) == 1, (names, [b.text for b in inside])
        line = lines[0]
        below = [b for b in inside if b.rect.top >= line.rect.bottom
                 and not any(c.isdigit() for c in b.text)]
        assert not line.clipped and line.height >= max(b.height for b in below)
        return line

    show(app, kd_ui.SetupScreen(app))
    top_line_naming(["Frances"])  # a new campaign: the highest house number leads
    assert lights(backend)[NAMES.index("Frances")] is Light.YOUR_TURN
    app.pop()
    checked = []
    for step in every_screen(app, backend, table):
        if step in ("campaign", "score"):
            continue
        names, light = acting(step, table.view())
        top_line_naming(names)
        if step in ("council", "secret-vote", "tie", "reveal", "open-vote"):
            assert len(seat_row_sizes(app)) == 1, step  # name, tokens, status: one size
        if light is not None:
            assert [lights(backend)[NAMES.index(n)] for n in names] == [light] * len(names)
        checked.append(step)
    assert len(checked) == 11


def test_the_reign_over_names_and_lights_the_first_house_to_read_its_agenda(kd):
    """The king dies: the kingdom board says how the reign ended, then who reads first
    (the first house in seating order), large, and lights that seat alone YOUR_TURN."""
    app, backend, table = kd()
    t = app.catalog.text
    table.king_dies()
    show(app, kd_ui.KingdomScreen(app, table, after_outcome=True))
    frame(app)
    said = [b for b in app.painter.texts
            if b.text == t("kd.kingdom.over", name=NAMES[0])]
    assert len(said) == 1 and not said[0].clipped
    assert t("kd.ended.king-died") in app.screen.describe()
    assert lights(backend) == [Light.YOUR_TURN] + [Light.OFF] * 4
