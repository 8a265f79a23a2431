"""The pygame kiosk: app loop, screens, widgets, the seat ring (imports pygame)."""
