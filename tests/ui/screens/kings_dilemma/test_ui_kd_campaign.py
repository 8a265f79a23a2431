"""The King's Dilemma follow-ups through the real App loop (the King's Dilemma rulebook), with the
shipped data file and a journal in a temporary data directory:

- the campaign ledger kept across games: a night starts from the saved ledger (leader =
  highest prestige, moderator = lowest), the end of a night records it (agenda cards,
  prestige/crave: the data file's where it has them, entered by hand per rank where it
  doesn't, asked once per campaign); a power cut between saving and finishing records the
  night once; New campaign takes two taps and keeps the old ledger aside; a corrupt ledger
  is moved aside and said on Home; a ledger that can't be read now (permission, I/O) is
  said where it was wanted, kept as it is and read once the cause is gone;
- "The king dies" after an outcome ends the game (two taps);
- open agenda tokens entered per house count in the score exactly as ``companion score``;
- an open vote's refusal shows the engine's reason, a secret vote's refusal shows nothing;
- no journal: the night's temporary journal folder is removed;
- the council's Home button leaves the night unfinished and the menu resumes it.
"""

from __future__ import annotations

import errno
import gc
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from fakes.failing_io import failing_reads
from ui_kd import past_the_winner_screen, tap, tap_button
from ui_layout import check_layout

from companion.games.kings_dilemma import score_file as kd_score
from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.controller import NightController, ledger_for
from companion.games.kings_dilemma.ledger import LEDGER_FILE, LedgerFile
from companion.hardware.sim import SimBackend
from companion.play.seat import Light, Press
from companion.play.turns import Turns, lights
from companion.storage.history import History
from companion.storage.journal import Journal
from companion.ui.app import App, ManualClock, make_app
from companion.ui.demo import demo_config
from companion.ui.home import HomeScreen
from companion.ui.screens import MENU
from companion.ui.screens.kings_dilemma import start as kd_ui
from companion.ui.theme import glyph_height
from companion.ui.widgets import FIGURE_GLYPH

KD_ENTRY = next(e for e in MENU if e.game == "kings-dilemma")


@pytest.fixture
def table_app(tmp_path):
    """An app with the shipped configuration's four seats (Ana, Ben, Cleo, Dan), Home at
    the bottom of the stack, a journal and a history in ``tmp_path``."""
    opened = []

    def _open(size=(800, 480), language="en"):
        config = demo_config(size, language)
        backend = SimBackend(len(config.seats), config.hardware.long_press_ms)
        journal = Journal(tmp_path / "journal.sqlite")
        history = History(tmp_path / "history.db")
        opened.append((backend, journal, history))
        app = make_app(config, backend, clock=ManualClock(0), journal=journal, history=history)
        app.start_backend()
        pygame.event.clear()
        app.push(HomeScreen(app))
        app.step(block=False)
        return app, backend

    yield _open
    for backend, journal, history in opened:
        backend.close()
        journal.close()
        history.close()
    pygame.event.clear()
    pygame.display.quit()


def press(app: App, backend: SimBackend, seat: int, button: str, kind=Press.SHORT) -> None:
    backend.press(seat, button, kind)
    app.step(block=False)


def open_kd(app: App) -> None:
    """The King's Dilemma button on Home."""
    tap(app, app.screen.button(app.catalog.text(KD_ENTRY.title)).rect)


def start_night(app: App) -> NightController:
    open_kd(app)
    assert isinstance(app.screen, kd_ui.SetupScreen)
    tap_button(app, app.catalog.text("kd.setup.start"))
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    return app.screen.night


def one_vote(app: App, table: NightController) -> None:
    """An open vote where everybody passes for power, the moderator decides Aye, by taps
    to the kingdom board after an outcome with no change."""
    t = app.catalog.text
    tap_button(app, t("kd.council.open_vote"))
    while table.vote_view()["phase"] == kd_vote.VOTING:
        table.session.dispatch({"action": "play", "player": table.vote_view()["turn"],
                                "move": "pass-power"})
    app.replace(kd_ui.RevealScreen(app, table))
    tap_button(app, t("kd.reveal.decide", side=t("kd.side.aye")))
    tap_button(app, t("kd.reveal.outcome"))
    tap_button(app, t("kd.outcome.apply"))
    assert isinstance(app.screen, kd_ui.KingdomScreen)


def king_dies(app: App) -> None:
    t = app.catalog.text
    tap_button(app, t("kd.kingdom.king_dies"))
    tap_button(app, t("app.confirm", action=t("kd.kingdom.king_dies")))


POINTS = (9, 6, 3, 1)  # resource points read off each house's card: ranks 1st, 2nd, 3rd, last


def end_of_game(app: App, tokens: dict[int, list[int]] | None = None,
                on_step: Callable[[], None] = lambda: None) -> None:
    """From the kingdom board after the end: each house's resource points (``POINTS``),
    the next free agenda card as many times as its seat index, and the open agenda token
    buttons tapped (``tokens``: seat → resource indexes); then Score. ``on_step`` is
    called as each house's agenda screen and tokens screen comes up."""
    t = app.catalog.text
    tap_button(app, t("kd.council.end_game"))
    for house in range(4):
        agenda = app.screen
        assert isinstance(agenda, kd_ui.AgendaScreen)
        on_step()
        for _ in range(POINTS[house]):
            tap(app, agenda.steppers()["resources"][4])
        for _ in range(house):
            tap(app, agenda.card_rects()[1])
        tap(app, agenda.buttons[0].rect)
        screen = app.screen
        assert isinstance(screen, kd_ui.TokensScreen)
        on_step()
        for k in (tokens or {}).get(house, []):
            tap(app, screen.token_rects()[k][1])
        tap(app, screen.buttons[0].rect)
    assert isinstance(app.screen, kd_ui.EndScreen)



def night_scored(app: App) -> NightController:
    """A night from Home to its end scoring: one vote, the king dies, every house scored."""
    table = start_night(app)
    one_vote(app, table)
    king_dies(app)
    end_of_game(app)
    return table


def past_the_awards(app: App) -> None:
    """Each prestige/crave page as the rulebook's table gives it (its first button)."""
    while isinstance(app.screen, kd_ui.AwardScreen):
        tap(app, app.screen.buttons[0].rect)

def saved(app: App):
    return ledger_for(app.journal).load()


# --------------------------------------------------------------------------- the campaign


def test_two_nights_of_a_campaign_kept_in_the_ledger_beside_the_journal(table_app):
    """Night 1 (a new campaign): the king dies; the prestige table of the data file is
    empty for 1st–3rd and for last place's prestige, so the table enters them per rank;
    last place's 2 crave come from the data file. The ledger file beside the journal holds
    the game, the cards and the awards. Night 2 starts from it: Ana (most prestige) leads,
    Dan (least) moderates, Dan picks an agenda first; its end asks nothing by hand (the
    values were kept) and the ledger holds both games."""
    app, _ = table_app()
    t = app.catalog.text
    table = start_night(app)
    assert (table.view()["leader"], table.view()["moderator"]) == ("Dan", "Ana")
    one_vote(app, table)
    king_dies(app)
    assert table.view()["ended"] == "king-died"
    end_of_game(app)
    tap_button(app, t("kd.council.campaign"))
    entered = {"1st": (4, 0), "2nd": (2, 0), "3rd": (1, 1), "last": (0, None)}
    seen = []
    while isinstance(app.screen, kd_ui.AwardScreen):
        award = app.screen
        seen.append((award.rank, tuple(award.steppers())))
        for key, n in zip(("prestige", "crave"), entered[award.rank], strict=True):
            for _ in range(n or 0):
                tap(app, award.steppers()[key][4])
        tap(app, award.buttons[0].rect)
    assert seen == [("1st", ("prestige", "crave")), ("2nd", ("prestige", "crave")),
                    ("3rd", ("prestige", "crave")), ("last", ("prestige",))]
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert (Path(app.journal.path).parent / LEDGER_FILE).is_file()
    ledger = saved(app)
    houses = {h.name: (h.prestige, h.crave) for h in ledger.houses}
    assert houses == {"Ana": (4, 0), "Ben": (2, 0), "Cleo": (1, 1), "Dan": (0, 2)}
    (game,) = ledger.games
    assert game.end == "king-died"
    assert dict(game.agendas) == {"Ana": "opulence", "Ben": "moderation",
                                  "Cleo": "rebellion", "Dan": "extremism"}
    assert [a for a, _ in game.agendas] == ["Ana", "Ben", "Cleo", "Dan"]  # picking order
    assert {r.house: r.source for r in game.results}["Dan"] == "hand"
    assert "Ana 1 4 0" in app.screen.describe()

    tap_button(app, t("kd.back"))
    assert isinstance(app.screen, HomeScreen)
    table = start_night(app)
    view = table.view()
    assert (view["leader"], view["moderator"]) == ("Ana", "Dan")
    assert table.setup_order().agenda_order == ("Dan", "Cleo", "Ben", "Ana")
    one_vote(app, table)
    king_dies(app)
    end_of_game(app)
    tap_button(app, t("kd.council.campaign"))
    past_the_winner_screen(app)  # nothing asked by hand
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert [h.prestige for h in saved(app).houses] == [8, 4, 2, 0]
    assert len(saved(app).games) == 2
    assert app.journal.unfinished() == []
    assert len(app.history.games("kings-dilemma")) == 2


def test_the_ledger_is_read_once_through_the_end_of_night_taps(table_app, monkeypatch):
    """A saved ledger: from Campaign on the end scoring through every prestige/crave page
    to the campaign screen, the ledger file is read once (by the first tap that needs it),
    not once per question each screen asks of it."""
    app, _ = table_app()
    t = app.catalog.text
    folder = Path(app.journal.path).parent
    table = start_night(app)
    LedgerFile(folder, table.campaign.settings).save(table.campaign)
    one_vote(app, table)
    king_dies(app)
    end_of_game(app)
    reads = []
    load = LedgerFile.load

    def counted(self):
        reads.append(self.path)
        return load(self)

    monkeypatch.setattr(LedgerFile, "load", counted)
    tap_button(app, t("kd.council.campaign"))
    pages = 0
    while isinstance(app.screen, kd_ui.AwardScreen):
        pages += 1
        tap(app, app.screen.buttons[0].rect)
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert pages >= 2 and reads == [folder / LEDGER_FILE]
    assert len(load(LedgerFile(folder, table.campaign.settings)).games) == 1


def test_the_end_of_night_steps_light_the_seats_the_controller_names(table_app, monkeypatch):
    """Agenda and tokens: the reading house's seat YOUR_TURN; an award entered by hand:
    the seats of the houses at that rank; the campaign: the next night's moderator and
    leader. Each screen shows what the night's controller answers for its step (its
    answers are recorded and compared with the seats), nothing it computed itself."""
    app, backend = table_app()
    t = app.catalog.text
    table = start_night(app)
    answers: list[tuple[str, object, Turns]] = []
    for method in ("reading_turns", "award_turns", "campaign_turns"):
        real = getattr(NightController, method)

        def recorded(self, *args, _real=real, _method=method):
            out = _real(self, *args)
            answers.append((_method, args, out))
            return out

        monkeypatch.setattr(NightController, method, recorded)
    seat = dict(zip(table.view()["players"], table.view()["seats"], strict=True))

    def shown() -> list[Light]:
        return [backend.light(s) for s in range(backend.seats)]

    def controllers(method: str, *args) -> list[Light]:
        """The controller's last answer for this step, as the seats would show it."""
        out = next(o for m, a, o in reversed(answers) if (m, a) == (method, args))
        return [lights(out).get(s, Light.OFF) for s in range(backend.seats)]

    def only(lit: dict[str, Light]) -> list[Light]:
        return [next((light for h, light in lit.items() if seat[h] == s), Light.OFF)
                for s in range(backend.seats)]

    def reading_step() -> None:
        house = app.screen.player
        assert shown() == controllers("reading_turns", house) == only({house: Light.YOUR_TURN})

    one_vote(app, table)
    king_dies(app)
    end_of_game(app, on_step=reading_step)
    tap_button(app, t("kd.council.campaign"))
    ranks = table.ranks()
    awards = []
    while isinstance(app.screen, kd_ui.AwardScreen):
        rank = app.screen.rank
        awards.append(rank)
        at_rank = {h: Light.YOUR_TURN for h, r in ranks.items() if r == rank}
        assert shown() == controllers("award_turns", rank) == only(at_rank)
        tap(app, app.screen.buttons[0].rect)
    assert awards == ["1st", "2nd", "3rd", "last"]
    assert shown() == [Light.OFF] * backend.seats  # the night's winner screen: no step
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    setup = table.setup_order()
    assert setup.leader != setup.moderator
    assert shown() == controllers("campaign_turns") == only(
        {setup.moderator: Light.MODERATOR, setup.leader: Light.LEADER})
    steps = [m for m, _, _ in answers]
    assert steps.count("reading_turns") >= 8 and "campaign_turns" in steps


def test_a_power_cut_between_saving_the_ledger_and_finishing_records_the_night_once(
        table_app):
    """The ledger is saved, then the power goes before the night leaves the journal's
    unfinished games: start-up resumes the end scoring, Campaign finishes the night
    without recording it a second time."""
    app, _ = table_app()
    table = night_scored(app)
    table.record({r: {k: 0 for k in keys} for r, keys in table.missing_awards()})
    assert len(saved(app).games) == 1
    resumed = kd_ui.resume(app, table.session.game_id)
    assert isinstance(resumed, kd_ui.EndScreen)
    app.replace(resumed)
    tap_button(app, app.catalog.text("kd.council.campaign"))
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert len(saved(app).games) == 1
    assert app.journal.unfinished() == []


def test_new_campaign_takes_two_taps_and_keeps_the_old_ledger_aside(table_app):
    app, _ = table_app()
    t = app.catalog.text
    night_scored(app)
    tap_button(app, t("kd.council.campaign"))
    past_the_awards(app)
    past_the_winner_screen(app)
    assert len(saved(app).games) == 1
    tap_button(app, t("kd.campaign.new"))
    assert len(saved(app).games) == 1  # the first tap only asks
    check_layout(app)
    tap_button(app, t("app.confirm", action=t("kd.campaign.new")))
    fresh = saved(app)
    assert fresh.games == () and [h.prestige for h in fresh.houses] == [0, 0, 0, 0]
    folder = Path(app.journal.path).parent
    assert len(list(folder.glob(f"{LEDGER_FILE}.ended-*"))) == 1
    assert t("kd.campaign.title", games=0) in app.screen.describe()


@pytest.mark.parametrize(("size", "language"), [((800, 480), "fr"), ((1280, 720), "en")])
def test_the_campaign_table_pages_its_houses_so_every_figure_reads_24_px(
        table_app, size, language):
    """The ledger's table holds as many houses as fit with their figures 24 px high per
    480 px of screen; the others are on the next pages (the page at the title's right, a
    tap on the table turns it, after the last the first): each house once, all whole."""
    app, _ = table_app(size, language)
    night_scored(app)
    tap_button(app, app.catalog.text("kd.council.campaign"))
    past_the_awards(app)
    past_the_winner_screen(app)
    ledger = app.screen
    assert isinstance(ledger, kd_ui.CampaignScreen)
    unit = app.theme.unit
    houses = ("Ana", "Ben", "Cleo", "Dan")
    shown = []
    for page in range(ledger.pages()):
        assert ledger.page == page
        check_layout(app)
        texts = app.painter.texts
        figures = [b for b in texts if b.text.isdigit()]
        # drawn at full figure size (24 px per 480 px of screen, give or take the
        # font's rounding at other sizes), not shrunk to fit a row
        full = {b.text: glyph_height(app.theme.font(app.theme.px(FIGURE_GLYPH)), b.text)
                for b in figures}
        assert figures and all(b.glyph >= full[b.text] for b in figures), [
            (b.text, b.glyph / unit) for b in figures]
        shown += [b.text for b in texts
                  if b.text in houses and ledger.table_rect().contains(b.rect)]  # not plates
        if ledger.pages() > 1:
            assert f"{page + 1} / {ledger.pages()}" in [b.text for b in texts]
        tap(app, ledger.table_rect())
    assert sorted(shown) == sorted(houses)
    assert ledger.page == 0  # after the last page, the first again
    assert ledger.pages() == 2  # two houses a page: the layout scales with the screen


def test_a_corrupt_ledger_is_moved_aside_and_said_on_home(table_app):
    app, _ = table_app()
    folder = Path(app.journal.path).parent
    (folder / LEDGER_FILE).write_text("{not json", encoding="utf-8")
    table = start_night(app)
    assert table.campaign.games == ()
    (aside,) = folder.glob(f"{LEDGER_FILE}.corrupt-*")
    assert aside.read_text(encoding="utf-8") == "{not json"
    assert [key for key, _ in app.notices] == ["kd.notice.ledger"]
    assert aside.name in dict(app.notices)["kd.notice.ledger"]


def drawn(app: App) -> list[str]:
    return [box.text for box in app.painter.texts]


@pytest.mark.parametrize(("language", "exc", "cause"), [
    ("en", PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
    ("fr", OSError(errno.EIO, "Input/output error"), "erreur de stockage"),
])
def test_a_ledger_that_cant_be_read_is_said_kept_and_read_once_the_cause_is_gone(
        table_app, monkeypatch, language, exc, cause):
    """Start: the saved ledger can't be read (injected where it is read, root or not): the
    setup screen says so in the table's language, no night starts, the file keeps its
    place and bytes. At the end of the next night, the same at Campaign: the end screen
    says so and nothing is recorded; then New campaign, the same. Each time, once the cause
    is gone, the same tap reads the ledger."""
    app, _ = table_app(language=language)
    t = app.catalog.text
    said = t("kd.ledger.unreadable", reason=cause)
    folder = Path(app.journal.path).parent
    path = folder / LEDGER_FILE
    table = night_scored(app)
    tap_button(app, t("kd.council.campaign"))
    past_the_awards(app)
    before = path.read_bytes()
    failing = failing_reads(monkeypatch, path, exc)
    app.pop()
    open_kd(app)
    tap_button(app, t("kd.setup.start"))
    assert isinstance(app.screen, kd_ui.SetupScreen) and said in drawn(app)
    check_layout(app)
    assert sorted(p.name for p in folder.glob(f"{LEDGER_FILE}*")) == [LEDGER_FILE]
    assert path.read_bytes() == before
    failing.clear()
    tap_button(app, t("kd.setup.start"))
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    table = app.screen.night
    assert len(table.campaign.games) == 1  # the saved campaign, read this time
    one_vote(app, table)
    king_dies(app)
    end_of_game(app)
    failing.append(exc)
    tap_button(app, t("kd.council.campaign"))
    # the winner screen's note, on as many lines as it needs
    assert isinstance(app.screen, kd_ui.EndScreen) and said in " ".join(drawn(app))
    check_layout(app)
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.glob(f"{LEDGER_FILE}*")) == [LEDGER_FILE]
    failing.clear()
    tap_button(app, t("kd.council.campaign"))
    past_the_awards(app)
    past_the_winner_screen(app)
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    assert len(LedgerFile(folder, table.campaign.settings).load().games) == 2
    recorded = path.read_bytes()
    failing.append(exc)  # New campaign: nothing set aside, nothing started
    tap_button(app, t("kd.campaign.new"))
    tap_button(app, t("app.confirm", action=t("kd.campaign.new")))
    assert isinstance(app.screen, kd_ui.CampaignScreen) and said in drawn(app)
    check_layout(app)
    assert sorted(p.name for p in folder.glob(f"{LEDGER_FILE}*")) == [LEDGER_FILE]
    assert path.read_bytes() == recorded
    failing.clear()
    tap_button(app, t("kd.campaign.new"))
    tap_button(app, t("app.confirm", action=t("kd.campaign.new")))
    assert said not in drawn(app) and len(list(folder.glob(f"{LEDGER_FILE}.ended-*"))) == 1


# --------------------------------------------------------------------------- end of game


def test_the_king_dies_takes_two_taps_then_the_game_is_over(table_app):
    """After an outcome: the first tap on "The king dies" only asks; the second ends the
    game (king-died) and offers the end of game."""
    app, _ = table_app()
    t = app.catalog.text
    table = start_night(app)
    one_vote(app, table)
    tap_button(app, t("kd.kingdom.king_dies"))
    assert table.view()["phase"] == "council" and table.view()["ended"] is None
    tap_button(app, t("app.confirm", action=t("kd.kingdom.king_dies")))
    assert (table.view()["phase"], table.view()["ended"]) == ("over", "king-died")
    assert [b.label for b in app.screen.buttons] == [t("kd.council.end_game")]


def test_open_agenda_tokens_count_in_the_score_as_companion_score(table_app):
    """Influence +2 (3 with momentum), Knowledge +1 (2), Prosperity −1: Ana holds
    +Influence (highest: +3) and +Knowledge (second: +1), Ben −Prosperity (lowest: −3),
    Cleo +Prosperity (0). The end scoring equals ``companion score`` of the same table
    (positions from the board), and a token another house holds is never offered."""
    app, _ = table_app()
    table = start_night(app)
    one_vote(app, table)
    session = table.session
    session.dispatch({"action": "dilemma", "mode": "open"})
    while table.vote_view()["phase"] == kd_vote.VOTING:
        session.dispatch({"action": "play", "player": table.vote_view()["turn"],
                          "move": "pass-power"})
    table.break_tie("aye")
    table.apply_outcome([("influence", 2), ("prosperity", -1), ("knowledge", 1)])
    app.replace(kd_ui.KingdomScreen(app, table, after_outcome=True))
    king_dies(app)
    tap_button(app, app.catalog.text("kd.council.end_game"))
    cycle = []
    for house in range(4):
        tap(app, app.screen.buttons[0].rect)
        tokens = app.screen
        if house == 0:
            tap(app, tokens.token_rects()[0][1])  # influence: +
            tap(app, tokens.token_rects()[4][1])  # knowledge: +
        if house == 1:
            tap(app, tokens.token_rects()[1][1])  # prosperity: +
            tap(app, tokens.token_rects()[1][1])  # ... −
        if house == 2:
            for _ in range(4):  # prosperity, tap after tap
                cycle.append(tokens.signs["prosperity"])
                tap(app, tokens.token_rects()[1][1])
            tap(app, tokens.token_rects()[1][1])
        tap(app, tokens.buttons[0].rect)
    assert cycle == [(), ("+",), (), ("+",)]  # −prosperity is Ben's: − and ± never offered
    final = table.view()["final"]
    view = table.view()
    expected = kd_score.score({
        "game": "kings-dilemma", "players": ["Ana", "Ben", "Cleo", "Dan"],
        "coins": dict(zip(view["players"], table.session.state.coins, strict=True)),
        "power": dict(zip(view["players"], table.session.state.power, strict=True)),
        "resources": table.kingdom.positions(),
        "agendas": {p: {"resources": 0, "wealth": [0, 0, 0]} for p in view["players"]},
        "open_agendas": {"Ana": ["+influence", "+knowledge"], "Ben": ["-prosperity"],
                         "Cleo": ["+prosperity"]},
    })
    expected["end"] = "king-died"
    assert final == expected
    by_name = {p["name"]: p["breakdown"]["open_agendas"] for p in final["players"]}
    assert by_name == {"Ana": 4, "Ben": -3, "Cleo": 0, "Dan": 0}


# --------------------------------------------------------------------------- votes


def test_an_open_vote_refusal_shows_the_engines_reason_a_secret_one_nothing(table_app):
    """Open vote: Ben presses out of turn → "Ben: it is Dan's turn, not Ben's" on screen.
    Secret vote: Ana presses Aye 9 times with 8 power → the screen says nothing of it."""
    app, backend = table_app()
    t = app.catalog.text
    table = start_night(app)
    tap_button(app, t("kd.council.open_vote"))
    press(app, backend, 1, "a")
    assert t("kd.vote.refused", name="Ben", reason="it is Dan's turn, not Ben's") in \
        app.screen.describe()
    table.session.dispatch({"action": "play", "player": "Dan", "move": "aye", "power": 1})
    while table.vote_view()["phase"] == kd_vote.VOTING:
        table.session.dispatch({"action": "play", "player": table.vote_view()["turn"],
                                "move": "pass-power"})
    app.replace(kd_ui.RevealScreen(app, table))
    tap_button(app, t("kd.reveal.outcome"))
    tap_button(app, t("kd.outcome.apply"))
    tap_button(app, t("kd.kingdom.next"))
    tap_button(app, t("kd.council.secret_vote"))
    quiet = app.screen.describe()
    for _ in range(9):
        press(app, backend, 0, "a")
    assert app.screen.describe() == quiet


# --------------------------------------------------------------------------- journal


def test_a_night_without_a_journal_leaves_no_folder_behind():
    """NightController.new without a journal: its temporary journal folder is removed when the
    table is closed, when the night is finished, or when the table is dropped."""
    players = ["Ana", "Ben", "Cleo"]
    closed = NightController.new(players)
    folder = Path(closed.session.journal.path).parent
    assert folder.is_dir()
    closed.close()
    assert not folder.exists()

    dropped = NightController.new(players)
    folder = Path(dropped.session.journal.path).parent
    del dropped
    gc.collect()
    assert not folder.exists()

    finished = NightController.new(players)
    folder = Path(finished.session.journal.path).parent
    finished.session.dispatch({"action": "king-dies"})
    finished.score({p: {"resources": 1, "wealth": [0, 0, 0]} for p in players},
                   cards=dict(zip(players, ("opulence", "avarice", "rebellion"), strict=True)))
    finished.record({r: {k: 0 for k in keys} for r, keys in finished.missing_awards()})
    finished.finish()
    assert not folder.exists()
    assert len(finished.campaign.games) == 1  # kept in memory only


def test_council_home_leaves_the_night_unfinished_and_the_menu_resumes_it(table_app):
    app, _ = table_app()
    t = app.catalog.text
    table = start_night(app)
    one_vote(app, table)
    tap_button(app, t("kd.kingdom.next"))
    check_layout(app)
    tap_button(app, t("kd.home"))
    assert isinstance(app.screen, HomeScreen)
    assert [g.id for g in app.journal.unfinished()] == [table.session.game_id]
    tap(app, app.screen.button(t("home.resume", game=t(KD_ENTRY.title))).rect)  # Home's Resume
    assert isinstance(app.screen, kd_ui.CouncilScreen)
    assert app.screen.night.session.game_id == table.session.game_id
    assert t("kd.council.title", number=2) in app.screen.describe()


@pytest.mark.parametrize(("size", "language"), [((800, 480), "fr"), ((1280, 720), "en")])
def test_the_new_end_of_game_screens_fit(table_app, size, language):
    """Agenda card, tokens, prestige entry, the night's winner screen, campaign with New
    campaign: nothing cut,
    overlapping, too small or off screen (French at 800×480, English at 1280×720)."""
    app, _ = table_app(size, language)
    t = app.catalog.text
    table = start_night(app)
    check_layout(app)
    one_vote(app, table)
    king_dies(app)
    check_layout(app)
    tap_button(app, t("kd.council.end_game"))
    check_layout(app)
    tap(app, app.screen.buttons[0].rect)
    tap(app, app.screen.token_rects()[0][1])
    tap(app, app.screen.token_rects()[0][1])
    tap(app, app.screen.token_rects()[0][1])
    check_layout(app)
    for _ in range(3):
        tap(app, app.screen.buttons[0].rect)
        tap(app, app.screen.buttons[0].rect)
    tap(app, app.screen.buttons[0].rect)
    assert isinstance(app.screen, kd_ui.EndScreen)
    check_layout(app)
    tap_button(app, t("kd.council.campaign"))
    assert isinstance(app.screen, kd_ui.AwardScreen)
    check_layout(app)
    past_the_awards(app)
    check_layout(app)  # the night's winner screen
    past_the_winner_screen(app)
    tap_button(app, t("kd.campaign.new"))
    check_layout(app)


def quick_night(table: NightController) -> None:
    """A night ended at once (the king dies) and scored, its cards given."""
    table.king_dies()
    table.score({p: {"resources": n, "wealth": [0, 0, 0]} for p, n in
                 zip(table.players, POINTS, strict=True)},
                cards=dict(zip(table.players, ("opulence", "avarice", "rebellion",
                                               "moderation"), strict=True)))


def test_new_campaign_during_a_night_then_a_power_cut_records_the_night_in_the_new_one(
        table_app):
    """Night 1 recorded (1 game). Night 2 starts from it; during it, New campaign; the
    power goes; the resumed night is recorded into the new campaign: 1 game, night 2's."""
    app, _ = table_app()
    t = app.catalog.text
    first = start_night(app)
    quick_night(first)
    first.record({r: {k: 1 for k in keys} for r, keys in first.missing_awards()})
    app.table.end_game(first)
    app.pop()
    second = start_night(app)
    assert second.games_before == 1
    tap_button(app, t("kd.council.campaign"))
    tap_button(app, t("kd.campaign.new"))
    tap_button(app, t("app.confirm", action=t("kd.campaign.new")))
    assert saved(app).games == ()
    resumed = kd_ui.resume(app, second.session.game_id)  # the power came back
    quick_night(resumed.night)
    app.replace(kd_ui.EndScreen(app, resumed.night))
    tap_button(app, t("kd.council.campaign"))
    past_the_winner_screen(app)  # the values entered were kept
    assert isinstance(app.screen, kd_ui.CampaignScreen)
    (game,) = saved(app).games
    assert game.number == 1 and app.journal.unfinished() == []
    assert [h.prestige for h in saved(app).houses] == [1, 1, 1, 1]


def test_the_winner_screens_plates_say_the_ranks_of_the_night(table_app):
    """The plates and the result's Rank row agree: the house at the bottom is "Last" on
    both (the rules' "there is always a last place"), not "4th" on its plate."""
    app, _ = table_app()
    night_scored(app)
    tap_button(app, app.catalog.text("kd.council.campaign"))
    past_the_awards(app)
    view = app.screen.winner
    ranks = {s.name: s.rank for s in view.standings}
    assert sorted(ranks.values()) == sorted(["1st", "2nd", "3rd", "Last"])
    seat_of = {seat.name: i for i, seat in enumerate(app.seats)}
    assert view.ring.figures == {seat_of[s.name]: f"{s.rank} · {s.total}" for s in view.standings}


def test_a_night_without_a_campaign_ledger_has_no_campaign_rows_and_no_leader_lights():
    """A night set up with its leader and moderator given (as a table file may) has no
    ledger behind it: the campaign's table and lights are empty, not a crash."""
    from companion.games.kings_dilemma import kingdom as kd_kingdom
    from companion.games.kings_dilemma.adapter import KingsDilemma
    from companion.play.session import Session

    setup = {"players": ["Ana", "Ben", "Cleo"], "leader": "Ana", "moderator": "Cleo",
             "momenta": dict.fromkeys(kd_kingdom.RESOURCES, kd_kingdom.UP)}
    night = NightController(Session.start(None, KingsDilemma(), setup))
    assert night.campaign is None and night.setup_order() is None
    assert night.campaign_rows() == []
    assert set(lights(night.campaign_turns()).values()) == {Light.OFF}


def test_a_tap_on_a_resources_tokens_offers_only_what_the_rules_allow():
    """At the end of the night a house's open agenda tokens are tapped through none, +,
    −, both: a token another house read out is skipped (one per resource and sign), and so
    is a third token of a sign (two at most), as ``companion score`` refuses them."""
    from companion.games.kings_dilemma.controller import EndOfNight

    night = NightController.new(["Ana", "Ben", "Cleo"])
    end = EndOfNight(night)
    assert not end.read_tokens("Ana", {"morale": ("+",)})
    none = dict.fromkeys(("influence", "prosperity", "morale", "welfare", "knowledge"), ())
    # Ana holds +morale: Ben's morale goes from none to − (and back to none)
    assert end.next_tokens("Ben", none, "morale") == ("-",)
    assert end.next_tokens("Ben", {**none, "morale": ("-",)}, "morale") == ()
    # Ben holds two + already: a third + is skipped, and so is "both"
    two_plus = {**none, "influence": ("+",), "welfare": ("+",)}
    assert end.next_tokens("Ben", two_plus, "knowledge") == ("-",)
    assert end.next_tokens("Ben", {**two_plus, "knowledge": ("-",)}, "knowledge") == ()
    # Ana herself may go on to both on morale: her own token is not another house's
    assert end.next_tokens("Ana", {**none, "morale": ("+",)}, "morale") == ("-",)
    assert end.next_tokens("Ana", {**none, "morale": ("-",)}, "morale") == ("+", "-")
