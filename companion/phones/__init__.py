"""Phones as seat pads: the kiosk serves a page on the local network; a phone that opened
its seat's code is that seat's pad (buttons A/B/C, its light, its own figures and, in a
secret vote, the ballot it is about to lock, shown to that phone alone).

Why aiohttp: HTTP and WebSockets from one asyncio loop, run in a thread of its own beside
the pygame loop, with no worker processes (a Pi has little memory and two to four cores);
a maintained library with wheels for the Pi's Python versions, whose WebSocket bounds the
message size and answers pings itself. Starlette needs an ASGI server beside it (uvicorn)
for the same work.

- ``pairing``: the per-seat secrets (new at each start) and the address in the QR codes.
- ``protocol``: the messages a phone may send, checked; the limits of a connection.
- ``server``: the aiohttp application and its thread.
- ``seats``: ``PhoneSeats``, the seat backend that composes phones with the wired one.
- ``page/``: the phone page (static HTML, CSS and JavaScript).
"""
