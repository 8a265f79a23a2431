# Pin map of the seat-pad board (RP2040 GP numbers). Must match
# hardware/profiles/serial-pads.yaml (tests/hardware/test_firmware_pad.py checks it).
PIXEL_PIN = 16  # WS2812 chain data; pixel i is seat i's light
SEATS = (
    (("a", 2), ("b", 3), ("c", 4)),
    (("a", 5), ("b", 6), ("c", 7)),
    (("a", 8), ("b", 9), ("c", 10)),
    (("a", 11), ("b", 12), ("c", 13)),
    (("a", 18), ("b", 19), ("c", 20)),
)
