"""Location LEDs: one WS2812 ("NeoPixel") per antenna, chained from one GPIO.

Full white WS2812s draw 60 mA each; ``max_level`` caps every channel (default 48 of 255, under
12 mA an LED) so a hub's 16 LEDs stay well inside a USB port's budget.
"""

from sekihub.drivers import Leds

COLOURS = {
    "off": (0, 0, 0),
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 160, 0),
    "orange": (255, 64, 0),
    "white": (255, 255, 255),
    "purple": (160, 0, 255),
    "cyan": (0, 255, 255),
}


class NeoPixelLeds(Leds):
    """Wraps a ``neopixel.NeoPixel`` object (built in board.py: it needs ``machine``)."""

    def __init__(self, strip, count, max_level=48):
        Leds.__init__(self, count)
        self.strip = strip
        self.max_level = max_level

    def set(self, index, rgb):
        if 0 <= index < self.count:
            scale = self.max_level
            self.strip[index] = (rgb[0] * scale // 255, rgb[1] * scale // 255,
                                 rgb[2] * scale // 255)

    def show(self):
        self.strip.write()
