"""The games, one folder each: its rules (pure Python: no pygame, hardware,
SQLite or YAML), its adapter to a session, its controller, its table-file
reader and its data. ``registry`` names them; ``majority`` holds what Koryŏ
and Chosŏn share."""
