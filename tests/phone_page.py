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
