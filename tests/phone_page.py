"""A phone in the tests: the seat page in headless Chromium at a phone's size, with every
WebSocket frame it received kept (to prove what it was and was not sent)."""

from __future__ import annotations

import json

PHONE_SIZE = {"width": 390, "height": 844}
LIMIT_MS = 30_000  # a safety net against a hang, not a timing assertion


class Phone:
    def __init__(self, browser, url: str, *, size=PHONE_SIZE) -> None:
        self.context = browser.new_context(viewport=size, has_touch=True, is_mobile=True,
                                           device_scale_factor=2)
        self.context.set_default_timeout(LIMIT_MS)
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.page.on("websocket", self._socket)
        self.page.goto(url)

    def _socket(self, ws) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    def messages(self, kind: str | None = None) -> list[dict]:
        found = [json.loads(f) for f in self.frames]
        return [m for m in found if kind is None or m.get("t") == kind]

    def wait_for(self, script: str, arg=None) -> None:
        """Until ``script`` (a JavaScript function body's expression) is true in the page."""
        self.page.wait_for_function(f"(arg) => {script}", arg=arg)

    def wait_paired(self) -> None:
        self.wait_for("!document.querySelector('.pad').disabled")

    def pressed(self) -> int:
        """How many presses this phone has made (its own counter, in its storage)."""
        return self.page.evaluate("JSON.parse(localStorage['companion.pad']).next")

    def tap(self, button: str) -> None:
        """A short press of ``button`` (a, b or c), as a finger taps it."""
        self.page.locator(f'.pad[data-button="{button}"]').click()

    def hold(self, button: str) -> None:
        """A long press: held until the page has sent it (its own timer), then let go."""
        before = self.pressed()
        box = self.page.locator(f'.pad[data-button="{button}"]').bounding_box()
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.down()
        self.wait_for("JSON.parse(localStorage['companion.pad']).next > arg", before)
        self.page.mouse.up()

    def acked_all(self) -> None:
        """Until the kiosk has acknowledged every press of this phone."""
        self.wait_for("JSON.parse(localStorage['companion.pad']).queue.length === 0")

    def light(self) -> str:
        return self.page.locator("#light").get_attribute("data-light") or ""

    def text(self) -> str:
        return self.page.locator("body").inner_text()

    def close(self) -> None:
        self.context.close()


def seat_of(url: str) -> int:
    """The seat a seat page's URL is for (its fragment's ``s``)."""
    return int(url.split("#s=", 1)[1].split("&", 1)[0])


def pair_by_qr(rig, phone, tmp_path) -> list[Phone]:
    """Every seat's phone paired as a table does it: Table check, Phones, each phone opens
    what its camera reads in its seat's code (decoded from the kiosk's screenshot by a
    real decoder). Returns the phones by seat, paired and connected."""
    from test_playcode import decode
    from ui_kd import tap_button

    from companion.ui.table_check import TableCheckScreen

    app = rig.app
    app.push(TableCheckScreen(app, back=True))
    app.step(block=False)
    tap_button(app, app.catalog.text("phones.screen.open"))
    urls = decode(rig, tmp_path / "phones.png")
    seats = len(app.seats)
    assert sorted(urls, key=seat_of) == [rig.backend.url(s) for s in range(seats)]
    phones = [phone(url) for url in sorted(urls, key=seat_of)]
    for p in phones:
        p.wait_paired()
    rig.pump(lambda: all(rig.backend.connected(s) for s in range(seats)))
    assert app.screen.describe().count(app.catalog.text("phones.screen.paired")) == seats
    app.pop()
    app.pop()
    return phones
