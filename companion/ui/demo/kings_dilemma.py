"""The King's Dilemma's demo: a council with a secret vote, an outcome, an open vote, the end scoring and the campaign."""

from __future__ import annotations

from companion.games.kings_dilemma import adapter as kd_game
from companion.games.kings_dilemma import kingdom as kd_kingdom
from companion.games.kings_dilemma import vote as kd_vote
from companion.games.kings_dilemma.controller import NightController
from companion.play.seat import Press
from companion.ui.screens.kings_dilemma.start import AwardScreen, KingdomScreen, new_game


def demo(ctx) -> None:
    """A council with the demo's seats: a secret vote before and after the reveal, the
    outcome on the kingdom board, an open vote's turns, the secret agendas read at the end,
    the end scoring and the campaign."""
    app = ctx.app
    players = [s.name for s in app.seats]
    setup = new_game(app)
    ctx.show(setup)
    for resource in ("prosperity", "morale"):
        ctx.tap(setup.buttons[kd_kingdom.RESOURCES.index(resource)].rect, f"turn {resource}")
    ctx.shot("coin-toss")
    ctx.tap(setup.buttons[-1].rect, "start")
    screen = app.screen
    night = screen.night
    ctx.shot("council")
    ctx.tap(screen.buttons[1].rect, "secret vote")
    ballots = [("a", 2), ("b", 1), ("c", 1), ("a", 3), ("b", 2)][: len(players)]
    for seat, (button, presses) in enumerate(ballots[:-1]):
        for _ in range(presses):
            ctx.press(seat, button)
        ctx.press(seat, button, Press.LONG)
    ctx.shot("secret-locked")
    last = len(ballots) - 1
    button, presses = ballots[last]
    for _ in range(presses):
        ctx.press(last, button)
    ctx.shot("secret-pending")
    ctx.press(last, button, Press.LONG)
    ctx.shot("revealed")
    vote = night.vote_view()
    if vote["phase"] == kd_vote.TIE:
        ctx.press(vote["players"].index(vote["moderator"]), "a", Press.LONG)
    ctx.tap(app.screen.buttons[0].rect, "outcome")
    steppers = app.screen.steppers()
    for name, by in (("morale", -1), ("morale", -1), ("influence", 1), ("welfare", 1)):
        _, _, minus, _, plus = steppers[name]
        ctx.tap(plus if by > 0 else minus, f"{name} {by:+d}")
    ctx.shot("outcome")
    ctx.tap(app.screen.buttons[0].rect, "apply")
    ctx.shot("kingdom")
    ctx.tap(app.screen.buttons[0].rect, "next dilemma")
    ctx.tap(app.screen.buttons[0].rect, "open vote")
    lead = night.players.index(night.view()["leader"])
    for press in (Press.SHORT, Press.SHORT, Press.LONG):
        ctx.press(lead, "a", press)
    ctx.press((lead + 1) % len(players), "b")
    ctx.shot("open-vote")
    _play_on_until_abdication(night)
    ctx.show(KingdomScreen(app, night, after_outcome=True))
    ctx.shot("abdication")
    ctx.tap(app.screen.buttons[0].rect, "end of game")
    for house in range(len(players)):
        agenda = app.screen
        steppers = agenda.steppers()
        for key, taps in (("resources", 2 + house % 3), ("wealth_1", 4), ("wealth_2", 2),
                          ("wealth_3", 1)):
            for _ in range(taps):
                ctx.tap(steppers[key][4], f"{key} +1")
        for _ in range(house):
            ctx.tap(agenda.card_rects()[1], "next agenda card")
        if house == 0:
            ctx.shot("agenda")
        ctx.tap(agenda.buttons[0].rect, "open tokens")
        tokens = app.screen
        ctx.tap(tokens.token_rects()[house % len(kd_kingdom.RESOURCES)][1], "token")
        if house == 0:
            ctx.tap(tokens.token_rects()[4][1], "token")
            ctx.tap(tokens.token_rects()[4][1], "token")
            ctx.shot("tokens")
        ctx.tap(tokens.buttons[0].rect, "next house" if house < len(players) - 1 else "score")
    ctx.shot("score")
    ctx.tap(app.screen.buttons[0].rect, "campaign")
    prestige = {"1st": 3, "2nd": 2, "3rd": 1}
    crave = {"4th": 1, "last": 2}
    while isinstance(app.screen, AwardScreen):
        award = app.screen
        steppers = award.steppers()
        for key, values in (("prestige", prestige), ("crave", crave)):
            for _ in range(values.get(award.rank, 0) if key in steppers else 0):
                ctx.tap(steppers[key][4], f"{key} +1")
        if award.page == 0:
            ctx.shot("award")
        ctx.tap(award.buttons[0].rect, "next rank" if award.page + 1 < len(
            night.missing_awards()) else "save")
    ctx.shot("winner")  # the night's result and its BG Stats code
    ctx.tap(app.screen.buttons[0].rect, "campaign")
    ctx.shot("campaign")
    ledger = app.screen
    if ledger.pages() > 1:  # the next houses, a tap on the table
        ctx.tap(ledger.table_rect(), "more")
        ctx.shot("campaign-more")
        ctx.tap(ledger.table_rect(), "more")
    ctx.tap(ledger.buttons[2].rect, "BG Stats")  # the night's code, then the ledger
    ctx.shot("night")
    ctx.tap(app.screen.back.rect, "back")


def _play_on_until_abdication(night: NightController) -> None:
    """The rest of the night, played fast (the demo's transcript skips it): every open
    vote's remaining turns hold or pass for power, the moderator breaks ties for Nay, and
    each dilemma's outcome drops Morale and Welfare until the king abdicates."""
    session = night.session
    while night.view()["phase"] != kd_game.OVER:
        view = night.view()
        if view["phase"] == kd_game.COUNCIL:
            night.start_vote(kd_vote.OPEN)
        elif view["phase"] == kd_game.VOTE and view["vote"]["phase"] == kd_vote.TIE:
            night.break_tie(kd_vote.NAY)
        elif view["phase"] == kd_game.VOTE:
            turn = view["vote"]["turn"]
            voted = view["vote"]["seats"][turn]["vote"] is not None
            session.dispatch({"action": "play", "player": turn,
                              "move": kd_vote.HOLD if voted else kd_vote.PASS_POWER})
        else:
            night.apply_outcome([("morale", -3), ("welfare", -3)])
