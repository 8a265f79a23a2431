"""The charts' data (companion/records/charts.py) and ``companion report`` (companion/records/report.py):
one self-contained HTML page of the history and the King's Dilemma campaign; opened in
headless Chromium where it is installed (Debian's ``chromium``; CI installs it)."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
from statistics import median

import pygame
import pytest
from played import CRAVE, PRESTIGE, campaign_ledger, evenings, scored

from companion.cli import main
from companion.files.validate import NAME_MAX
from companion.games.kings_dilemma import campaign as kc
from companion.records import bgstats, charts
from companion.records.report import PALETTE
from companion.storage.history import History


@pytest.fixture
def kept(tmp_path):
    """A history of ``EVENINGS`` and a three-night campaign ledger."""
    return evenings(tmp_path / "h.db"), campaign_ledger(tmp_path / "kd.json")


def games_of(db):
    with History(db) as h:
        return h.games()


# -- the charts' data ----------------------------------------------------------------------


def test_scores_follow_each_player_over_the_last_games_of_one_game(kept):
    games = games_of(kept[0])
    chart = charts.scores(games, "koryo")
    assert chart.labels == ("02/11", "05/11", "16/11")
    assert {s.name: s.values for s in chart.series} == {
        "Ana": (31, 24, 35), "Ben": (27, 29, 35), "Cléo": (33, None, 20), "Dan": (None, 18, None)}
    assert charts.scores(games, "koryo", last=2).labels == ("05/11", "16/11")
    assert chart.span() == (0, 35)


def test_win_shares_count_a_shared_victory_for_each(kept):
    shares = charts.win_shares(games_of(kept[0]), "koryo")
    assert {(s.name, s.wins, s.played) for s in shares} == {
        ("Ana", 1, 3), ("Ben", 2, 3), ("Cléo", 1, 2), ("Dan", 0, 1)}
    assert [s.name for s in shares] == ["Ben", "Cléo", "Ana", "Dan"]  # wins, then fewer games


def test_the_campaign_chart_is_each_houses_running_prestige_and_crave(kept):
    ledger = kc.Campaign.from_dict(json.loads(kept[1].read_text(encoding="utf-8")))
    prestige, crave = charts.campaign(ledger)
    assert prestige.labels == ("1", "2", "3")
    running: dict[str, list[int]] = {}
    for night in ledger.games:
        for r in night.results:
            before = running.setdefault(r.house, [])
            before.append((before[-1] if before else 0) + PRESTIGE[r.rank])
    assert {s.name: list(s.values) for s in prestige.series} == running
    assert [s.values[-1] for s in prestige.series] == [h.prestige for h in ledger.houses]
    assert [s.values[-1] for s in crave.series] == [h.crave for h in ledger.houses]
    assert any(CRAVE.get(r.rank) for g in ledger.games for r in g.results)  # crave moves


@pytest.mark.parametrize(("low", "high"), [(0, 1), (0, 7), (0, 35), (-4, 41), (0, 0), (3, 250)])
def test_ticks_are_few_round_and_cover_the_values(low, high):
    ticks = charts.ticks(low, high)
    assert 2 <= len(ticks) <= 6 and ticks[0] <= low and ticks[-1] >= high
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1 and str(steps.pop()).strip("0") in ("1", "2", "5")


# -- the page --------------------------------------------------------------------------------


def report(tmp_path, kept, *extra) -> str:
    out = tmp_path / "report.html"
    assert main(["report", "--out", str(out), "--db", str(kept[0]), "--ledger", str(kept[1]),
                 *extra]) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lang", "title", "campaign"), [
    ("en", "Table companion: our games", "The King&#x27;s Dilemma campaign: 3 nights"),
    ("fr", "Table companion : nos parties", "Campagne du Dilemme du Roi : 3 soirées")])
def test_the_report_is_one_self_contained_page_of_every_game_and_the_campaign(
        tmp_path, kept, capsys, lang, title, campaign):
    html = report(tmp_path, kept, "--lang", lang)
    assert f"<title>{title}</title>" in html and f'<html lang="{lang}">' in html
    assert "6 games, 3 campaign nights" in capsys.readouterr().err
    sections = re.findall(r'<section class="game" id="game-([a-z-]+)"><h2>([^<]+)</h2>', html)
    assert [k for k, _ in sections] == ["koryo", "choson", "inheritors", "kings-dilemma"]
    assert campaign in html
    # The scores per game and the campaign's two as charts; the win shares as tables.
    assert html.count('class="chart"') == 4 + 2 and html.count('class="shares"') == 4
    # Nothing fetched: no script, stylesheet, image, frame or font from anywhere.
    assert not re.search(r"<(script|link|img|iframe|object|embed)\b|@import|url\(", html)
    assert set(re.findall(r'(?:href|src)="([^"]+)"', html)) == {
        bgstats.link(g).replace("'", "&#x27;") for g in games_of(kept[0])}


def test_names_are_escaped(tmp_path, kept):
    with History(kept[0]) as h:
        h.record(scored("koryo", (('<b>Zoé</b> & "co"', 4), ("Ben", 2))), "2026-11-21")
    html = report(tmp_path, kept)
    assert "<b>Zoé" not in html and "&lt;b&gt;Zoé&lt;/b&gt; &amp; &quot;co&quot;" in html


def test_without_history_or_ledger_the_report_says_so_and_creates_nothing(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", "--out", str(out), "--db", str(tmp_path / "none.db"),
                 "--ledger", str(tmp_path / "none.json")]) == 0
    assert "No finished game yet" in out.read_text(encoding="utf-8")
    assert not (tmp_path / "none.db").exists()


def test_an_unreadable_ledger_is_said_and_left_as_it_is(tmp_path, kept, capsys):
    kept[1].write_text("{not json", encoding="utf-8")
    html = report(tmp_path, kept)
    assert "not a campaign ledger" in capsys.readouterr().err
    assert 'id="campaign"' not in html and "game-koryo" in html
    assert kept[1].read_text(encoding="utf-8") == "{not json"  # never moved aside


def test_an_unwritable_out_is_a_clear_error(tmp_path, kept, capsys):
    assert main(["report", "--out", str(tmp_path / "no" / "r.html"), "--db", str(kept[0])]) == 2
    assert "companion report: --out:" in capsys.readouterr().err


# -- in a real browser ----------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(tmp_path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         f"--user-data-dir={profile}", *args],
        capture_output=True, text=True, timeout=180, check=False)


def need_chromium() -> None:
    if CHROMIUM is None:
        if os.environ.get("COMPANION_REQUIRE_CHROMIUM"):  # .ci/run installed it: must be there
            pytest.fail("COMPANION_REQUIRE_CHROMIUM is set but no chromium is on PATH")
        pytest.skip("headless Chromium is not installed here (Debian: apt-get install "
                    "chromium; .ci/run installs it in CI)")


def test_the_report_renders_in_headless_chromium_at_a_phones_width(tmp_path, kept):
    need_chromium()
    html = report(tmp_path, kept)
    page = (tmp_path / "report.html").resolve().as_uri()
    dom = chromium(tmp_path, "--dump-dom", page)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert "<title>Table companion: our games</title>" in dom.stdout
    for name in ("Koryŏ", "Chosŏn", "Inheritors", "The King's Dilemma"):
        assert f"<h2>{name}</h2>" in dom.stdout.replace("&#x27;", "'").replace("&#39;", "'")
    assert dom.stdout.count('class="chart"') == html.count('class="chart"') == 6
    assert dom.stdout.count("<polyline") >= 8  # the players' and houses' lines
    # What a phone shows: the charts drawn in the series' colours.
    shot = tmp_path / "phone.png"
    run = chromium(tmp_path, f"--screenshot={shot}", "--window-size=412,4000",
                   "--hide-scrollbars", page)
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    image = pygame.image.load(str(shot))
    assert image.get_width() == 412
    colours = {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in PALETTE[:4]}
    seen = {c: 0 for c in colours}
    for x in range(0, image.get_width(), 2):
        for y in range(0, image.get_height(), 2):
            rgb = tuple(image.get_at((x, y)))[:3]
            if rgb in seen:
                seen[rgb] += 1
    assert all(n > 20 for n in seen.values()), seen


def test_the_report_read_from_the_history_a_page_at_a_time_is_the_same_page(kept, tmp_path,
                                                                           monkeypatch):
    """``companion report`` reads the history in SQL as it writes (ten thousand games are
    never held at once): the page is the one ``render`` makes of every game."""
    from companion.i18n import load_catalog
    from companion.records import report

    db, _ = kept
    with History(db) as h:
        every = h.games()
        monkeypatch.setattr(report.HistoryGames, "BATCH", 2)  # several pages of each game
        monkeypatch.setattr(History, "games", lambda *_: pytest.fail("every game read"))
        streamed = "".join(report.chunks(report.HistoryGames(h), None, load_catalog("en"),
                                         "2026-11-26"))
    assert streamed == report.render(every, None, load_catalog("en"), "2026-11-26")
    assert streamed.count("BG&nbsp;Stats") == len(every)


LONG = ("Marie-Christine Dubois-L", "Jean-Baptiste Rousseau-M", "Ana",
        "Bartholomew Fitzgerald-H")  # 24, 24, 3 and 24 characters: the longest name kept

# Run in a copy of the page (the page itself has no script): the page laid out WIDTH px
# wide (as in a window that wide: the page has no media query, only widths in proportion;
# a headless window's own width has a floor above a phone's), then where Chromium drew
# every text of the charts, the legends and the shares, written into the page for
# --dump-dom.
MEASURE = """<script>
document.documentElement.style.width = "WIDTHpx";
const box = e => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const out = {width: document.documentElement.getBoundingClientRect().width,
  body: parseFloat(getComputedStyle(document.querySelector("p")).fontSize), charts: []};
for (const fig of document.querySelectorAll("figure")) {
  const svg = fig.querySelector("svg.chart");
  out.charts.push({
    svg: svg ? box(svg) : null,
    texts: svg ? [...svg.querySelectorAll("text")].map(t => [t.textContent, box(t)]) : [],
    items: [...fig.querySelectorAll(".legend li, .shares td")].map(
      e => [e.textContent, box(e), e.scrollWidth <= e.clientWidth + 1])});
}
const pre = document.createElement("pre"); pre.id = "measured";
pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
</script>"""


def apart(a, b) -> bool:
    return a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5


@pytest.mark.parametrize("width", [390, 1280])
def test_no_text_of_the_charts_overlaps_or_is_cut_with_24_character_names(tmp_path, width):
    """Four players, three of 24-character names, two with the same scores every game;
    the campaign's houses: in headless Chromium at a phone's 390 px and a desktop's
    1280 px, no two texts of a chart (ticks, dates, axis titles) overlap and none leaves
    its chart; legend entries and the shares' names and figures don't overlap, wrap
    rather than run out of the page, and are never cut; the charts' text is in proportion
    to the page's (0.65 to 1.3 times the body's size); each player has one colour on every
    chart, and the two equal lines both show (dashed apart, both colours on screen)."""
    assert max(len(name) for name in LONG) == NAME_MAX  # the longest name a history keeps
    need_chromium()
    db = tmp_path / "h.db"
    with History(db) as h:
        for d in range(1, 13):
            h.record(scored("koryo", ((LONG[0], 10 + d), (LONG[1], 10 + d), (LONG[2], 5 + d % 4),
                                      (LONG[3], 20 - d))), f"2026-11-{d:02d}T21:00:00+01:00")
        h.record(scored("choson", ((LONG[3], 9), (LONG[0], 3))), "2026-11-20T21:00:00+01:00")
    out = tmp_path / "report.html"
    assert main(["report", "--out", str(out), "--db", str(db), "--ledger",
                 str(campaign_ledger(tmp_path / "kd.json"))]) == 0
    html = out.read_text(encoding="utf-8")
    measured = tmp_path / "measured.html"
    script = MEASURE.replace("WIDTH", str(width))
    measured.write_text(html.replace("</body>", script + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, "--window-size=1400,3000", "--dump-dom",
                   measured.resolve().as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom.stdout, re.DOTALL)
    data = json.loads(found[1].replace("&quot;", '"').replace("&amp;", "&"))
    assert data["width"] == width
    sizes = []
    for chart in data["charts"]:
        texts, items = chart["texts"], chart["items"]
        for (a, ra), (b, rb) in itertools.combinations(texts, 2):
            assert apart(ra, rb), (width, a, b)
        svg = chart["svg"]
        for text, r in texts:
            assert svg[0] - 0.5 <= r[0] and r[2] <= svg[2] + 0.5, (width, text, r, svg)
            assert svg[1] - 0.5 <= r[1] and r[3] <= svg[3] + 0.5, (width, text, r, svg)
            if text.strip().isdigit():
                sizes.append(r[3] - r[1])  # a tick's height: the charts' type size
        for (a, ra, _), (b, rb, _) in itertools.combinations(items, 2):
            assert apart(ra, rb), (width, a, b)
        for text, r, whole in items:
            assert whole and r[2] <= data["width"] + 0.5, (width, text, r)
    assert texts or items
    assert 0.65 <= median(sizes) / (data["body"] * 1.15) <= 1.3, (median(sizes), data["body"])
    # One colour per player, the same on every chart; two players never share one.
    seen: dict[str, set[str]] = {}
    for c, name in re.findall(r'stroke="([^"]+)" stroke-width="3"[^>]*/>(?:<[^>]+>)*?</svg>'
                              r'([^<]+)</li>', html):
        seen.setdefault(name, set()).add(c)
    for c, name in re.findall(r'class="sw" style="background:([^"]+)"></span>([^<]+)<', html):
        seen.setdefault(name, set()).add(c)
    players = {n: cs for n, cs in seen.items() if n in LONG}
    assert set(players) == set(LONG) and all(len(cs) == 1 for cs in players.values()), players
    assert len({next(iter(cs)) for cs in players.values()}) == len(LONG)
    # The equal lines: told apart by their dashes, and both colours drawn in the chart.
    first = html[:html.index("</svg>")]
    dashes = re.findall(r'<polyline points="[^"]+" fill="none" stroke="([^"]+)" '
                        r'stroke-width="3"( stroke-dasharray="[^"]+")?', first)
    assert len({d for _, d in dashes}) == len(dashes) == 4
    shot = tmp_path / "shot.png"
    run = chromium(tmp_path, f"--screenshot={shot}", f"--window-size={width},900",
                   "--hide-scrollbars", out.resolve().as_uri())
    assert run.returncode == 0 and shot.exists(), run.stderr[-2000:]
    image = pygame.image.load(str(shot))
    equal = [next(iter(players[LONG[0]])), next(iter(players[LONG[1]]))]
    wanted = {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)): 0 for c in equal}
    for x in range(image.get_width()):
        for y in range(0, image.get_height(), 2):
            rgb = tuple(image.get_at((x, y)))[:3]
            if rgb in wanted:
                wanted[rgb] += 1
    assert all(n > 30 for n in wanted.values()), (wanted, image.get_size())


def test_the_report_has_the_records_of_each_game(tmp_path, kept):
    """Per game: its high score and who holds it, the first player's wins, the time played,
    each player's best and wins by players at the table, head to head."""
    with History(kept[0]) as h:
        h.record(scored("koryo", (("Ana", 40), ("Ben", 2))), "2026-11-25T22:00:00+01:00",
                 started="2026-11-25T21:00:00+01:00", first_player="Ana")
    html = report(tmp_path, kept)
    koryo = html[html.index('id="game-koryo"'):html.index('id="game-choson"')]
    assert "High score: 40 (Ana)" in koryo
    assert "The first player won 1 of 1 game (100 %)" in koryo
    assert "Time played: 1 h 00 over 1 game timed" in koryo
    assert "<td>Ana</td><td>4</td><td>" in koryo and "2 players: 1 of 1" in koryo
    assert "<td>Ana – Ben</td><td>4</td>" in koryo
