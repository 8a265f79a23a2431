"""Test helpers for the King's Dilemma screens: the rulebook's five seats, a night on
simulated pads with a journal (``open_kd``, the ``kd`` fixture of conftest.py), presses,
taps and frames through the real App loop."""

from __future__ import annotations

import dataclasses

import pygame

from companion.config import SeatConfig
from companion.games.kings_dilemma import campaign as kd_campaign
from companion.games.kings_dilemma.controller import NightController, ledger_for
from companion.hardware.sim import SimBackend
from companion.play.seat import Light, Press
from companion.storage.journal import Journal
from companion.ui.app import App, ManualClock, make_app
from companion.ui.demo import demo_config

# The rulebook's worked example seats them clockwise in this order; Théodore leads.
RULEBOOK = (
    SeatConfig("Théodore", (220, 40, 40), "bottom-left"),
    SeatConfig("Julius", (40, 80, 220), "bottom-right"),
    SeatConfig("Armin", (40, 180, 80), "right"),
    SeatConfig("Diana", (230, 200, 40), "top"),
    SeatConfig("Frances", (160, 60, 200), "left"),
)
NAMES = [s.name for s in RULEBOOK]
LONG = Press.LONG


def open_kd(tmp_path):
    """``kd(size=(800, 480), language="en")`` → (app, backend, table): five seats, a
    campaign where Théodore has the highest house number (he leads) and Julius the lowest
    (he moderates), Morale on its black side, a journal in ``tmp_path``."""
    opened: list[tuple[SimBackend, Journal]] = []

    def _open(size=(800, 480), language="en", with_table=True):
        config = dataclasses.replace(demo_config(size, language), seats=RULEBOOK)
        backend = SimBackend(len(RULEBOOK), config.hardware.long_press_ms)
        journal = Journal(tmp_path / f"journal-{len(opened)}.db")
        opened.append((backend, journal))
        app = make_app(config, backend, clock=ManualClock(0), journal=journal)
        app.start_backend()
        pygame.event.clear()
        if not with_table:
            return app, backend, None
        return app, backend, rulebook_night(journal)

    yield _open
    close_opened(opened)


def close_opened(opened: list) -> None:
    """A King's Dilemma fixture's teardown: each (backend, journal) it opened closed, the
    display with them."""
    for backend, journal in opened:
        backend.close()
        journal.close()
    pygame.event.clear()
    pygame.display.quit()


def rulebook_night(journal: Journal) -> NightController:
    """A night of the rulebook's five houses: Théodore has the highest house number (he
    leads) and Julius the lowest (he moderates), Morale on its black side."""
    campaign = kd_campaign.new_campaign(
        kd_campaign.Settings(8, 10, (1, 12), ("opulence", "avarice", "rebellion",
                                              "moderation", "extremism"),
                             zero_award_table()))
    for name, number in zip(NAMES, (9, 1, 2, 3, 4), strict=True):
        campaign = kd_campaign.apply(campaign, kd_campaign.AddHouse(name, number))
    momenta = {"influence": "up", "prosperity": "up", "morale": "down",
               "welfare": "up", "knowledge": "up"}
    return NightController.new(NAMES, journal, momenta=momenta, campaign=campaign,
                               ledger=ledger_for(journal))


def zero_award_table() -> kd_campaign.AwardTable:
    return kd_campaign.AwardTable(tuple(
        (end, rank, kd_campaign.Award(0, 0)) for end in kd_campaign.ENDS
        for rank in kd_campaign.RANKS
    ))


def show(app: App, screen) -> None:
    app.push(screen)
    app.step(block=False)


def press(app: App, backend: SimBackend, seat: int, button: str, kind: Press = Press.SHORT,
          times: int = 1) -> None:
    for _ in range(times):
        backend.press(seat, button, kind)
        app.step(block=False)


def tap(app: App, rect: pygame.Rect) -> None:
    w, h = app.window.get_size()
    x, y = rect.center
    for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
        pygame.event.post(pygame.event.Event(kind, x=x / w, y=y / h, dx=0, dy=0, touch_id=1,
                                             finger_id=0, pressure=1.0))
        app.step(block=False)


def tap_button(app: App, label: str) -> None:
    matches = [b for b in app.screen.buttons if b.label == label]
    assert len(matches) == 1, f"no single button {label!r}: {[b.label for b in app.screen.buttons]}"
    tap(app, matches[0].rect)


def past_the_winner_screen(app: App) -> None:
    """A recorded night shows the shared winner screen (its result and BG Stats code); its
    Campaign button goes on to the campaign ledger."""
    from companion.ui.winner import WinnerScreen

    assert isinstance(app.screen, WinnerScreen), app.screen.describe()
    tap_button(app, app.catalog.text("kd.council.campaign"))


def frame(app: App) -> bytes:
    app.invalidate()
    app.step(block=False)
    return pygame.image.tobytes(app.window, "RGB")


def lights(backend: SimBackend) -> list[Light]:
    return [backend.light(s) for s in range(backend.seats)]


def outside(app: App, seat: int) -> bytes:
    """The frame, that seat's plate blanked: everything the rest of the table sees."""
    app.invalidate()
    app.step(block=False)
    shot = app.window.copy()
    shot.fill((0, 0, 0), app.screen.ring.plates[seat].rect)
    return pygame.image.tobytes(shot, "RGB")


def on_plate(app: App, seat: int) -> set[str]:
    """The texts drawn on ``seat``'s plate in the last frame."""
    plate = app.screen.ring.plates[seat].rect
    return {b.text for b in app.painter.texts if plate.contains(b.rect)}
