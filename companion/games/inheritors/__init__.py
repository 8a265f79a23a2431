"""Inheritors: its rules, adapter, controller, table file and data."""
