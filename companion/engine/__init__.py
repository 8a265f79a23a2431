"""Pure rules, one module per game.

Nothing here imports pygame, gpiozero, serial or sqlite3: the engine is plain data in,
plain data out, so the same rules run on the kiosk, in tests and in the headless commands.
"""
