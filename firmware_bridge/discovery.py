"""Finding hubs on USB by vendor/product id (pyserial's list_ports; pyusb optionally).

The ids below are MicroPython's defaults for the reference boards. A hub built on another board
(an ESP32 with a CP210x or CH340 USB-serial chip, say) is added with ``--usb-id VID:PID``; a
port that never says ``HELLO`` is not used for anything (docs/bridge.md has a udev rule that
gives each hub a stable name instead).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from serial.tools import list_ports

RP2040_MICROPYTHON = (0x2E8A, 0x0005)
ESP32S3_MICROPYTHON = (0x303A, 0x4001)
DEFAULT_USB_IDS: tuple[tuple[int, int], ...] = (RP2040_MICROPYTHON, ESP32S3_MICROPYTHON)


@dataclass(frozen=True)
class UsbPort:
    device: str
    vid: int
    pid: int
    serial_number: str | None
    description: str


def parse_usb_id(text: str) -> tuple[int, int]:
    """``"2e8a:0005"`` -> ``(0x2E8A, 0x0005)``; ValueError with a clear message otherwise."""
    vid, sep, pid = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(vid, 16), int(pid, 16)
    except ValueError:
        raise ValueError(f"USB id {text!r} must be VID:PID in hex, like 2e8a:0005") from None


def hub_ports(usb_ids: Iterable[tuple[int, int]] = DEFAULT_USB_IDS) -> list[UsbPort]:
    """Serial ports whose USB vendor/product id is one of ``usb_ids``."""
    wanted = set(usb_ids)
    found = []
    for info in list_ports.comports():
        if info.vid is None or info.pid is None or (info.vid, info.pid) not in wanted:
            continue
        found.append(UsbPort(info.device, info.vid, info.pid, info.serial_number,
                             info.description or ""))
    return sorted(found, key=lambda port: port.device)


def usb_devices_without_port(usb_ids: Iterable[tuple[int, int]] = DEFAULT_USB_IDS) -> list[str]:
    """Hub-like USB devices that have no serial port (driver missing?), via pyusb if present."""
    try:
        import usb.core
    except ImportError:
        return []
    wanted = set(usb_ids)
    with_port = {(p.vid, p.pid) for p in hub_ports(wanted)}
    try:
        devices = list(usb.core.find(find_all=True))
    except Exception:  # no libusb backend: pyusb is optional
        return []
    return [
        f"{d.idVendor:04x}:{d.idProduct:04x} on bus {d.bus} address {d.address}"
        for d in devices
        if (d.idVendor, d.idProduct) in wanted and (d.idVendor, d.idProduct) not in with_port
    ]
