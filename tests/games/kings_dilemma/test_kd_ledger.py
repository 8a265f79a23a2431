"""The King's Dilemma campaign ledger on disk (``companion.games.kings_dilemma.ledger``: the
campaign is kept from one game night to the next):
round trip, atomic write (a failed write leaves the old ledger and no temp file), a
corrupt ledger moved aside with a timestamp and never overwritten, New campaign keeping
the old ledger aside, and the prestige table as a setting (the data file's values win,
values entered by hand fill its gaps)."""

from __future__ import annotations

import errno
import json
import os

import pytest
from fakes.failing_io import failing_reads

from companion.games.kings_dilemma import campaign as kc
from companion.games.kings_dilemma import data as kd_data
from companion.games.kings_dilemma import ledger as kd_ledger
from companion.games.kings_dilemma.ledger import LEDGER_FILE, LedgerFile


@pytest.fixture
def settings() -> kc.Settings:
    return kd_data.shipped().settings


def campaign_of(settings: kc.Settings) -> kc.Campaign:
    campaign = kc.new_campaign(settings)
    for number, name in ((3, "Ana"), (5, "Ben"), (7, "Cleo")):
        campaign = kc.apply(campaign, kc.AddHouse(name, number))
    by_hand = {h: {"prestige": p, "crave": 0} for h, p in (("Ana", 3), ("Ben", 1))}
    by_hand["Cleo"] = {"prestige": 0}  # crave of the last place: 2 from the data file
    return kc.apply(campaign, kc.RecordGame(
        "king-died", {"Ana": 20, "Ben": 12, "Cleo": 5},
        {"Ana": "opulence", "Ben": "avarice", "Cleo": "rebellion"}, by_hand))


def test_saved_ledger_loads_back_equal_and_leaves_no_temp_file(tmp_path, settings):
    ledger = LedgerFile(tmp_path, settings)
    assert ledger.load() == kc.new_campaign(settings)  # nothing saved yet: a new campaign
    saved = campaign_of(settings)
    ledger.save(saved)
    assert LedgerFile(tmp_path, settings).load() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_FILE]
    data = json.loads((tmp_path / LEDGER_FILE).read_text(encoding="utf-8"))
    # picking order: equal prestige, the lower house number picks first
    assert data["games"][0]["agendas"][0] == {"house": "Ana", "agenda": "opulence"}
    assert ledger.notice is None


def test_a_failed_write_keeps_the_old_ledger_and_no_temp_file(tmp_path, settings, monkeypatch):
    """Atomic write: the fsync of the new file fails (disk full) → the saved ledger is the
    old one, whole, and the temporary file is gone."""
    ledger = LedgerFile(tmp_path, settings)
    old = kc.new_campaign(settings)
    ledger.save(old)
    before = (tmp_path / LEDGER_FILE).read_bytes()

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError):
        ledger.save(campaign_of(settings))
    monkeypatch.undo()
    assert (tmp_path / LEDGER_FILE).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_FILE]


@pytest.mark.parametrize("content", [b"{\"houses\": [", b"\xff\xfe garbage",
                                     b"{\"houses\": 3}", b"[1, 2]"])
def test_a_corrupt_ledger_is_moved_aside_with_a_timestamp_never_overwritten(
        tmp_path, settings, content):
    """Not JSON, not UTF-8, or JSON that is not a ledger: a new campaign, the file kept as
    kd-campaign.json.corrupt-YYYYmmdd-HHMMSS with its bytes, the notice naming both; the
    next save writes a new ledger beside it."""
    path = tmp_path / LEDGER_FILE
    path.write_bytes(content)
    ledger = LedgerFile(tmp_path, settings)
    assert ledger.load() == kc.new_campaign(settings)
    (aside,) = [p for p in tmp_path.iterdir() if p.name.startswith(f"{LEDGER_FILE}.corrupt-")]
    assert aside.read_bytes() == content
    assert str(path) in ledger.notice and aside.name in ledger.notice
    ledger.save(campaign_of(settings))
    assert aside.read_bytes() == content
    assert LedgerFile(tmp_path, settings).load().games


def test_new_campaign_keeps_the_old_ledger_aside(tmp_path, settings):
    ledger = LedgerFile(tmp_path, settings)
    ledger.save(campaign_of(settings))
    before = (tmp_path / LEDGER_FILE).read_bytes()
    assert ledger.start_over() == kc.new_campaign(settings)
    (ended,) = [p for p in tmp_path.iterdir() if p.name.startswith(f"{LEDGER_FILE}.ended-")]
    assert ended.read_bytes() == before
    assert not (tmp_path / LEDGER_FILE).exists()


def test_prestige_table_data_file_values_win_hand_entered_values_fill_its_gaps(settings):
    """The shipped table leaves king-died/1st empty and gives king-died/last crave 2: a
    saved table's 1st place values fill the gap, its (different) last crave does not
    replace the data file's."""
    shipped = settings.table
    assert shipped.award("king-died", "1st") == kc.Award(None, None)
    assert shipped.award("king-died", "last").crave == 2
    saved = kd_ledger.with_cells(shipped, {("king-died", "1st"): {"prestige": 4, "crave": 0},
                                           ("king-died", "last"): {"crave": 9}})
    merged = kd_ledger.merged_table(saved, shipped)
    assert merged.award("king-died", "1st") == kc.Award(4, 0)
    assert merged.award("king-died", "last") == kc.Award(None, 2)
    assert merged.award("abdicated-top", "1st") == kc.Award(None, None)


def test_a_saved_ledger_takes_the_data_files_settings(tmp_path, settings):
    """Starting power and coins for new houses and the agendas come from the data file,
    not from the copy saved in the ledger."""
    saved = campaign_of(settings)
    old = kc.Settings(5, 4, settings.house_numbers, settings.agendas, settings.table)
    LedgerFile(tmp_path, settings).save(kc.Campaign(old, saved.houses, saved.games))
    loaded = LedgerFile(tmp_path, settings).load()
    assert (loaded.settings.start_power, loaded.settings.start_coins) == (8, 10)
    assert loaded.houses == saved.houses


def test_new_campaign_keeps_the_prestige_values_entered_by_hand(tmp_path, settings):
    """They are the box's values (the rulebook's table), not the campaign's."""
    ledger = LedgerFile(tmp_path, settings)
    table = kd_ledger.with_cells(settings.table, {("abdicated-top", "2nd"): {"prestige": 2}})
    ledger.save(kc.new_campaign(kc.Settings(
        settings.start_power, settings.start_coins, settings.house_numbers, settings.agendas,
        table)))
    fresh = ledger.start_over()
    assert fresh.settings.table.award("abdicated-top", "2nd").prestige == 2
    assert fresh.games == () and fresh.houses == ()


@pytest.mark.parametrize("kind", ["fifo", "huge", "deep"])
def test_a_pipe_a_huge_or_a_deeply_nested_ledger_is_moved_aside_not_read(tmp_path, settings,
                                                                          kind):
    """A FIFO at the ledger's path would block the kiosk, a file of gigabytes exhaust it, a
    100,000-deep JSON raise RecursionError: each is moved aside like a corrupt ledger."""
    path = tmp_path / LEDGER_FILE
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        with path.open("wb") as f:  # sparse: no disk used
            f.truncate(kd_ledger.MAX_LEDGER_BYTES + 1)
    else:
        path.write_text("[" * 100_000 + "]" * 100_000)
    ledger = LedgerFile(tmp_path, settings)
    assert ledger.load() == kc.new_campaign(settings)
    assert ledger.notice and not path.exists()
    assert [p for p in tmp_path.iterdir() if p.name.startswith(f"{LEDGER_FILE}.corrupt-")]



@pytest.mark.parametrize(("exc", "reason"), [
    (PermissionError(errno.EACCES, "Permission denied"), "permission"),
    (OSError(errno.EIO, "Input/output error"), "io"),
])
def test_a_ledger_that_cant_be_read_now_stays_where_it_is_and_is_read_once_the_cause_is_gone(
        tmp_path, settings, monkeypatch, caplog, exc, reason):
    """A permission or I/O error is no damaged file: ``load`` raises LedgerUnreadable
    naming the cause (and logs it), the ledger keeps its place and its bytes, nothing is
    moved aside; once the cause is gone the same ledger loads."""
    path = tmp_path / LEDGER_FILE
    saved = campaign_of(settings)
    LedgerFile(tmp_path, settings).save(saved)
    before = path.read_bytes()
    failing = failing_reads(monkeypatch, path, exc)
    ledger = LedgerFile(tmp_path, settings)
    for _ in range(2):  # asked again while the cause lasts: the same answer
        with pytest.raises(kd_ledger.LedgerUnreadable) as raised:
            ledger.load()
        assert raised.value.reason == reason and exc.strerror in str(raised.value)
        assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_FILE]
        assert path.read_bytes() == before and ledger.notice is None
    assert f"{path} can't be read now ({exc.strerror})" in caplog.text
    with pytest.raises(kd_ledger.LedgerUnreadable):
        ledger.start_over()  # a new campaign never sets aside a ledger it could not read
    assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_FILE]
    failing.clear()
    assert ledger.load() == saved


def test_a_ledger_path_the_system_cant_reach_is_reported_and_read_once_it_can(tmp_path,
                                                                              settings):
    """The data directory's place taken by a file (stat: not a directory, a real OSError
    even for root): reported, nothing moved or created; the directory back, its ledger
    loads."""
    data = tmp_path / "data"
    data.mkdir()
    saved = campaign_of(settings)
    LedgerFile(data, settings).save(saved)
    data.rename(tmp_path / "away")
    data.write_text("not a directory")
    ledger = LedgerFile(data, settings)
    with pytest.raises(kd_ledger.LedgerUnreadable) as raised:
        ledger.load()
    assert raised.value.reason == "io" and data.read_text() == "not a directory"
    data.unlink()
    (tmp_path / "away").rename(data)
    assert ledger.load() == saved
    assert sorted(p.name for p in data.iterdir()) == [LEDGER_FILE]


def test_peek_reads_the_saved_campaign_and_moves_nothing(tmp_path, settings, monkeypatch):
    """The charts' reader: the saved campaign as it is; None for none, a damaged file, a
    pipe or an unreadable one, each left where it is."""
    assert kd_ledger.peek(tmp_path) is None
    saved = campaign_of(settings)
    LedgerFile(tmp_path, settings).save(saved)

    def peeked() -> tuple | None:
        campaign = kd_ledger.peek(tmp_path)
        return campaign and (campaign.houses, campaign.games)

    assert peeked() == (saved.houses, saved.games)
    path = tmp_path / LEDGER_FILE
    failing = failing_reads(monkeypatch, path, OSError(errno.EIO, "I/O error"))
    assert kd_ledger.peek(tmp_path) is None
    failing.clear()
    assert peeked() == (saved.houses, saved.games)
    path.write_text("{not json", encoding="utf-8")
    assert kd_ledger.peek(tmp_path) is None
    path.unlink()
    os.mkfifo(path)
    assert kd_ledger.peek(tmp_path) is None  # not opened: it would block
    assert sorted(p.name for p in tmp_path.iterdir()) == [LEDGER_FILE]
