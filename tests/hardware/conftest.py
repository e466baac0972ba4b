"""Put the hub firmware (hardware/firmware), the tools and these fakes on the import path."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hardware" / "firmware"
TOOLS = HERE.parents[1] / "hardware" / "tools"
for path in (FIRMWARE, TOOLS, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
