"""Settings for one reader hub. Edit, then copy to the board with the firmware (README.md).

Every hub on one table needs its own HUB_ID, and that id is what the wiring map
(wiring.yaml, docs/bridge.md) uses: e.g. "hub-1" .. "hub-5", as in the generated
hardware/wiring.default.yaml. None uses "hub-" + the chip's unique id instead.
"""

HUB_ID = "hub-1"

BOARD = "pico"  # "pico" (Raspberry Pi Pico / RP2040) or "esp32" (ESP32 DevKit)

READERS = 16  # PN5180 boards on this hub (1..16 with the 74HC154/74HC4067 decoder)

# None: one antenna per reader (the reference build). For one reader switching several
# antennas through an RF multiplexer, list (reader, channel) per antenna in order, e.g.
# ANTENNAS = [(0, 0), (0, 1), (0, 2), (0, 3)]; the mux address pins are PINS[...]["rf_mux"].
ANTENNAS = None

RATE_HZ = 10  # scan cycles per second to aim for (the host may change it with RATE)
MAX_RATE_HZ = 50  # RATE above this is refused with NAK BAD_VALUE
# SPI clock in Hz. The PN5180 takes up to 7 MHz, but 16 modules on a shared ribbon of up to
# ~50 cm do not give clean edges that fast: 1 MHz is safe for the guide's cables (section 4.1);
# 2 MHz with short cables and a buffered SCK. The scan time hardly depends on it: the air is
# the slow part (benchmarks/hub_sweep.py). Allowed: 100000 .. 7000000.
SPI_BAUD = 1000000
LED_MAX_LEVEL = 48  # 0..255 cap per colour channel: keeps 16 WS2812s under 200 mA
# Drop a frame instead of waiting when the USB buffer is full (protocol 3.6). This asks
# MicroPython's stdio poll for write room; if your build never reports room (the hub stays
# silent), set False: writes then wait at most MicroPython's own USB timeout.
USB_CHECK_ROOM = True
# The module rail (5 V to the readers and LEDs) is read on PINS[...]["rail"] through a divider:
# volts at the rail = volts at the pin x RAIL_DIVIDER (10 k over 10 k: 2.0). Below 4.3 V the hub
# stops driving the modules and reports FAULT HUB POWER; above 4.5 V it resets them and scans
# again. "rail": None turns this off (a build without the divider).
RAIL_DIVIDER = 2.0

PINS = {
    "pico": {
        "spi_id": 0, "sck": 18, "mosi": 19, "miso": 16,
        "address": (2, 3, 4, 5),  # A0..A3 to 74HC154 and 74HC4067
        "strobe": 6,  # 74HC154 G1+G2: low = the addressed reader's NSS is low
        "busy": 7,  # 74HC4067 common pin: the addressed reader's BUSY
        "rst": 8,  # every reader's RST (one line: a hung reader is reset with all the others)
        "leds": 15,  # WS2812 data in (through a 74AHCT125 to 5 V levels)
        "nss": None,  # single-reader builds: the reader's own NSS pin
        "rf_mux": (10, 11, 12, 13),  # only with ANTENNAS set
        "rf_mux_inhibit": 14,  # the RF-mux decoder's INHIBIT (high: every relay open)
        "rail": 26,  # ADC0: the module rail through the divider
    },
    "esp32": {
        "spi_id": 2, "sck": 18, "mosi": 23, "miso": 19,
        "address": (25, 26, 27, 14),
        "strobe": 13,
        "busy": 34,
        "rst": 4,
        "leds": 16,
        "nss": None,
        "rf_mux": (21, 22, 32, 33),
        "rf_mux_inhibit": 17,
        "rail": 35,  # ADC1 channel 7 (input only): the module rail through the divider
    },
}
