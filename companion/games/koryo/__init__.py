"""Koryŏ: its rules, its adapter, its table file."""
