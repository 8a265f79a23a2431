"""Table companion: the rules engine, seat hardware and kiosk UI of the board-game appliance."""

__version__ = "0.1.0"
