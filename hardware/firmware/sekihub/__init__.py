"""Sekigahara reader-hub firmware (MicroPython; the core also runs under CPython for tests).

Modules:
    drivers    the small hardware interface the core talks to (readers, antenna select, LEDs,
               clock, serial port) and ReaderFault
    iso15693   ISO/IEC 15693 frames, CRC and UID text
    inventory  the 16-slot inventory with mask recursion, on top of any chip's round primitive
    pn5180     the real NXP PN5180 driver (SPI host interface, BUSY handshake)
    chipselect chip-select/BUSY decoding (74HC154 + 74HC4067) and RF antenna multiplexers
    leds       WS2812 location LEDs
    hub        the scan loop, snapshots, faults and host commands
    focus      protocol 1.3: the read order around focused antennas, full or quick reads
    power      the module-rail watch and the hard reset of hung readers through RST
    slots      slot keeping for a scan schedule (SCHED, SYNC)
    wire       the line protocol to the Raspberry Pi (docs/protocol.md)
    board      builds the real objects from hub_config on a Pico or ESP32 (imports machine)
"""

FIRMWARE_VERSION = "1.1.0"
