"""The games' screens (one module per game, or one shared by games that look alike)."""
