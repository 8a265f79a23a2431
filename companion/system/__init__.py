"""The system the kiosk runs on: autostart, real-time scheduling, the log,
paths, systemd's notifications, bursts of complaints."""
