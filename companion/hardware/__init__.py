"""Seat hardware: every seat has buttons and an indicator light. One interface
(``SeatBackend``), three backends: ``gpio`` (gpiozero), ``serial`` (seat pads on USB serial)
and ``sim`` (keyboard keys and lights drawn on screen)."""
