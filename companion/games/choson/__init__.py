"""Chosŏn: its rules, its adapter, its table file."""
